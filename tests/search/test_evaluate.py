"""Issue 20: the games' `evaluate` hooks, rollouts cut by a horizon or at a round's end and valued
by them, the margin reward, the root prior, the tree depth cap and the per-game defaults."""

from dataclasses import replace

import numpy as np
import pytest

from simkit.engine.config import with_overrides
from simkit.engine.evaluation import standing
from simkit.engine.game import outcome_from_scores
from simkit.engine.registry import get_game
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.search.defaults import PER_GAME, defaults_for
from simkit.search.ismcts import ISMCTS
from simkit.search.rewards import cut_value, margin_reward
from simkit.search.simulator import Simulator
from simkit.search.tree import Node

GAMES = [("sixnimmt", 4), ("trains", 2), ("shipside", 2), ("rummikub", 2)]


def _played(game_name, n, steps, seed=1, config=None):
    game = get_game(game_name)
    config = config or game.config_cls()
    rng = np.random.default_rng(seed)
    state = game.new_state(config, n, rng)
    bot = parse_strategy("random", game_name)
    sim = Simulator(game, GameInfo(game_name, config, n), bot, rng, "rank", steps)
    sim.start()
    sim.rollout(state, 0, 0)
    return game, state


@pytest.mark.parametrize("game_name, n", GAMES)
def test_evaluate_is_in_0_1_and_its_values_sum_to_half_the_seats(game_name, n):
    """A standing is a mean of pairwise logistic shares: over the seats they sum to n/2."""
    for steps in (0, 5, 20):
        game, state = _played(game_name, n, steps)
        if state.is_over():
            continue
        values = [game.evaluate(state, s) for s in range(n)]
        assert all(0.0 <= v <= 1.0 for v in values)
        assert sum(values) == pytest.approx(n / 2)


def test_standing_is_half_when_level_and_follows_the_margin():
    assert standing([3, 3, 3], 0, 2.0) == 0.5
    assert standing([5, 1], 0, 2.0) > 0.5 > standing([5, 1], 1, 2.0)
    assert standing([5, 1], 0, 2.0, higher_is_better=False) < 0.5


def test_sixnimmt_evaluate_counts_the_bullheads_taken():
    """N13: bullheads taken count against a seat; fewest wins (N15)."""
    game, state = _played("sixnimmt", 4, 0)
    before = game.evaluate(state, 0)
    state.points[0] += 10
    assert game.evaluate(state, 0) < before and game.evaluate(state, 1) > before


def test_trains_evaluate_rewards_a_train_closer_to_ascending():
    """T25: the goal is an ascending train; more slots in order stand better."""
    game, state = _played("trains", 2, 0)
    state.trains[0] = [1, 2, 3, 4, 5, 7, 6]
    state.trains[1] = [9, 3, 8, 2, 7, 1, 6]
    assert game.evaluate(state, 0) > 0.5 > game.evaluate(state, 1)


def test_trains_evaluate_prefers_fewer_slots_out_of_order_at_the_same_run():
    """T25: both trains have 6 slots in order; the one with fewer pairs out of order (one swap
    from ascending, against a 1 that must travel six slots) stands better; counting the run
    alone, they were level."""
    from simkit.games.trains.evaluate import in_order, inversions
    game, state = _played("trains", 2, 0)
    state.trains[0], state.trains[1] = [1, 2, 3, 4, 5, 7, 6], [2, 3, 4, 5, 6, 7, 1]
    assert in_order(state.trains[0]) == in_order(state.trains[1]) == 6
    assert inversions(state.trains[0]) == 1 and inversions(state.trains[1]) == 6
    assert game.evaluate(state, 0) > 0.5 > game.evaluate(state, 1)


def test_shipside_evaluate_counts_points_and_the_board():
    """S54: points from captured ships; a side near a ship's defense (S32) is worth something."""
    game, state = _played("shipside", 2, 0)
    state.score = [2, 0]
    assert game.evaluate(state, 0) > 0.5
    state.score = [0, 0]
    ship = state.row[0]
    state.tot[ship] = [state.T.defense[ship] - 1, 0]
    assert game.evaluate(state, 0) > 0.5


def test_a_rollout_cut_by_the_horizon_is_valued_by_evaluate():
    game = get_game("trains")
    config = game.config_cls()
    info = GameInfo("trains", config, 2)
    state = game.new_state(config, 2, np.random.default_rng(4))
    sim = Simulator(game, info, parse_strategy("random", "trains"), np.random.default_rng(0), "win",
                    None, horizon=3)
    sim.start()
    value = sim.rollout(state, 0, 0)
    assert not state.is_over() and value == cut_value("win", game.evaluate(state, 0), 2)
    unvalued = Simulator(game, info, parse_strategy("random", "trains"), np.random.default_rng(0), "win",
                         None, horizon=3, evaluate=False)
    unvalued.start()
    assert unvalued.rollout(game.new_state(config, 2, np.random.default_rng(4)), 0, 0) == 0.5


def test_a_round_cut_stops_a_sixnimmt_rollout_at_the_end_of_the_round():
    """N14-N16: a match goes on round after round; the rollout stops when the round is scored."""
    game = get_game("sixnimmt")
    config = game.config_cls()
    state = game.new_state(config, 3, np.random.default_rng(2))
    sim = Simulator(game, GameInfo("sixnimmt", config, 3), parse_strategy("heuristic", "sixnimmt"),
                    np.random.default_rng(0), "rank", None, round_cut=True)
    sim.start()
    value = sim.rollout(state, 0, 0)
    assert state.round == 2 and state.turn == 0 and not state.is_over()
    assert sum(state.totals) > 0 and value == game.evaluate(state, 0)


def test_margin_reward_tells_a_close_game_from_a_rout():
    close = outcome_from_scores([10, 9, 9, 9], higher_is_better=True)
    rout = outcome_from_scores([10, 0, 0, 0], higher_is_better=True)
    assert margin_reward(close, 0) == pytest.approx(0.5 + 0.5 / 19)
    assert 0.5 < margin_reward(close, 0) < margin_reward(rout, 0) == 1.0
    mixed = outcome_from_scores([10, 8, 0], higher_is_better=True)
    assert margin_reward(mixed, 0) > margin_reward(mixed, 1) > 0.5 > margin_reward(mixed, 2) == 0.0
    fewer = outcome_from_scores([3, 20], higher_is_better=False)         # 6 nimmt!: fewest wins
    assert margin_reward(fewer, 0, False) == pytest.approx(0.5 + 0.5 * 17 / 23)
    assert margin_reward(fewer, 0, False) > 0.5 > margin_reward(fewer, 1, False)
    assert margin_reward(outcome_from_scores([4, 4], True), 0) == 0.5


def _first_decision(game_name, n, seed=3):
    game = get_game(game_name)
    config = with_overrides(game.config_cls(), {"max_rounds": "1"} if game_name == "sixnimmt" else {})
    state = game.new_state(config, n, np.random.default_rng(seed))
    return state, config


def _lowest_at_first_decision():
    """A 4-player 6 nimmt! first decision, its game info and the `lowest` bot's choice there
    (the prior of the two tests below)."""
    state, config = _first_decision("sixnimmt", 4)
    info = GameInfo("sixnimmt", config, 4)
    prior = parse_strategy("lowest", "sixnimmt").build()
    prior.setup(info, 0, np.random.default_rng(0))
    return state, info, prior.act(Decision(state, 0, np.random.default_rng(0)))


def test_a_heavy_prior_makes_the_search_play_the_prior_choice():
    state, info, wanted = _lowest_at_first_decision()
    chosen = []
    for weight in (0.0, 100.0):
        bot = ISMCTS(iterations=40, rollout="random", prior="lowest", prior_weight=weight)
        rng = np.random.default_rng(7)
        bot.setup(info, 0, rng)
        chosen.append(bot.act(Decision(state, 0, rng)))
    assert chosen[1] == wanted and chosen[0] != wanted


def test_a_guard_keeps_the_prior_choice_the_search_does_not_clearly_beat():
    """Rewards lie in [0, 1], so no choice beats another by a guard of 1.5: the prior's is played.
    Without the guard (and without a bias) the same search plays another card."""
    state, info, wanted = _lowest_at_first_decision()
    chosen = []
    for guard in (0.0, 1.5):
        bot = ISMCTS(iterations=40, rollout="random", prior="lowest", prior_weight=0, guard=guard)
        rng = np.random.default_rng(7)
        bot.setup(info, 0, rng)
        chosen.append(bot.act(Decision(state, 0, rng)))
    assert chosen[1] == wanted and chosen[0] != wanted
    with pytest.raises(ValueError, match="guard=-1"):
        ISMCTS(guard=-1)


def test_a_depth_cap_of_one_grows_no_node_below_the_root(monkeypatch):
    roots = []
    real = Node.__init__

    def record(node):
        real(node)
        roots.append(node)
    monkeypatch.setattr(Node, "__init__", record)
    state, config = _first_decision("sixnimmt", 3)
    for depth, grows in ((1, False), (0, True)):
        roots.clear()
        # the Python loop's nodes (kernel=false); compiled iterations take the same depth cap
        # (tests/search/test_compiled_search.py)
        bot = ISMCTS(iterations=60, rollout="random", depth=depth, prior_weight=0, kernel=False)
        rng = np.random.default_rng(1)
        bot.setup(GameInfo("sixnimmt", config, 3), 0, rng)
        bot.act(Decision(state, 0, rng))
        assert (len(roots) > 1) == grows


def test_unset_parameters_take_the_game_defaults_and_given_ones_win():
    state, config = _first_decision("sixnimmt", 4)
    bot = ISMCTS(c=0.9)
    bot.setup(GameInfo("sixnimmt", config, 4), 0, np.random.default_rng(0))
    expected = defaults_for("sixnimmt", config=config)
    assert (bot.iterations, bot.rollout, bot.reward, bot.round_cut) == (
        expected.iterations, expected.rollout, expected.reward, expected.round_cut)
    assert bot.c == 0.9 and "sixnimmt" in PER_GAME
    assert defaults_for("no such game").rollout == "random"


def test_a_variant_of_a_game_takes_its_own_defaults():
    """6 nimmt! single rounds (N16 max_rounds=1) search more iterations than whole matches;
    every other default is the game's; a given budget still wins."""
    game = get_game("sixnimmt")
    single = with_overrides(game.config_cls(), {"max_rounds": "1"})
    match = game.config_cls()
    assert defaults_for("sixnimmt", config=match) == defaults_for("sixnimmt") == PER_GAME["sixnimmt"]
    in_rounds = defaults_for("sixnimmt", config=single)
    assert in_rounds.iterations > defaults_for("sixnimmt", config=match).iterations
    same = replace(PER_GAME["sixnimmt"], iterations=0)
    assert replace(in_rounds, iterations=0) == same
    budgets = []
    for config, given in ((single, None), (match, None), (single, 30)):
        bot = ISMCTS(iterations=given)
        bot.setup(GameInfo("sixnimmt", config, 4), 0, np.random.default_rng(0))
        budgets.append(bot.iterations)
    assert budgets == [in_rounds.iterations, PER_GAME["sixnimmt"].iterations, 30]
