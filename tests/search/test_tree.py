"""The ISMCTS node: untried actions first, then UCB with availability counts."""

import math

import numpy as np

from simkit.search.tree import Node


def _visit(node, action, reward):
    edge = node.edges[action]
    edge.visits += 1
    edge.total += reward


def test_untried_actions_are_expanded_before_any_ucb_choice():
    node, rng = Node(), np.random.default_rng(0)
    tried = set()
    for _ in range(3):
        edge = node.select(["a", "b", "c"], c=0.0, rng=rng)
        assert edge.action not in tried
        tried.add(edge.action)
        _visit(node, edge.action, 0.0)
    assert tried == {"a", "b", "c"}
    assert [node.edges[a].available for a in "abc"] == [3, 3, 3]


def test_availability_counts_only_the_determinizations_that_offered_the_action():
    node, rng = Node(), np.random.default_rng(0)
    for actions in (["a", "b"], ["a"], ["a", "b"], ["a"]):
        _visit(node, node.select(actions, c=1.0, rng=rng).action, 0.5)
    assert node.edges["a"].available == 4 and node.edges["b"].available == 2


def test_ucb_uses_the_mean_reward_and_the_availability_bonus():
    node, rng = Node(), np.random.default_rng(0)
    node.select(["good", "rare"], c=0.0, rng=rng)
    for _ in range(9):
        _visit(node, "good", 0.8)
    _visit(node, "rare", 0.2)
    assert node.select(["good", "rare"], c=0.0, rng=rng).action == "good"      # exploitation only
    # availability 3 now: good 0.8 + c*sqrt(ln 3/9), rare 0.2 + c*sqrt(ln 3/1); c = 4 favours rare
    assert node.select(["good", "rare"], c=4.0, rng=rng).action == "rare"
    assert math.isclose(node.edges["good"].mean, 0.8)


def test_the_most_visited_allowed_action_is_chosen():
    node, rng = Node(), np.random.default_rng(0)
    node.select(["x", "y", "z"], c=1.0, rng=rng)
    for action, visits in (("x", 2), ("y", 5), ("z", 3)):
        for _ in range(visits):
            _visit(node, action, 1.0)
    assert node.most_visited(lambda a: True).action == "y"
    assert node.most_visited(lambda a: a != "y").action == "z"


def test_a_biased_untried_action_is_expanded_first_and_keeps_a_fading_bonus():
    node, rng = Node(), np.random.default_rng(0)
    node.set_bias("c", 1.0)
    first = node.select(["a", "b", "c"], c=0.0, rng=rng)
    assert first.action == "c"
    for action, reward in (("c", 0.4), ("a", 0.5), ("b", 0.1)):
        _visit(node, action, reward)
    # c: 0.4 + 1.0 / 2 beats a: 0.5 + 0 / 2 (progressive bias, Chaslot et al. 2008)
    assert node.select(["a", "b", "c"], c=0.0, rng=rng).action == "c"
    for _ in range(20):
        _visit(node, "c", 0.4)
    assert node.select(["a", "b", "c"], c=0.0, rng=rng).action == "a"     # the bonus faded


def _edge_with(node, action, visits, mean):
    node.select([action], c=0.0, rng=np.random.default_rng(0))
    for _ in range(visits):
        _visit(node, action, mean)
    return node.edges[action]


def test_the_guard_keeps_the_prior_choice_unless_the_search_beats_it_clearly():
    node = Node()
    prior = _edge_with(node, "prior", 10, 0.50)
    close = _edge_with(node, "close", 12, 0.625)
    assert node.guarded(close, "prior", guard=0.25) is prior        # 0.125 better: not enough
    assert node.guarded(close, "prior", guard=0.125) is close       # exactly the margin: overruled
    assert node.guarded(prior, "prior", guard=0.25) is prior


def test_the_guard_overrules_a_prior_choice_the_search_never_tried():
    node = Node()
    best = _edge_with(node, "best", 5, 0.4)
    assert node.guarded(best, "absent", guard=0.5) is best
    node.edges["untried"] = type(best)("untried")
    assert node.guarded(best, "untried", guard=0.5) is best
