"""The compiled tree (simkit/search/kernel_tree.py) against `simkit.search.tree.Node`: the same
selections, draws, statistics and root order on the same sequence of offered actions and rewards."""

import numpy as np
import pytest

pytest.importorskip("numba")

from simkit.engine.kernel_positions import generator_rows, restore_generators  # noqa: E402
from simkit.engine.kernel_rng import ROW_WORDS  # noqa: E402
from simkit.search import kernel_tree as kt  # noqa: E402
from simkit.search.tree import Node  # noqa: E402

ACTIONS = 7


def _search(seed, iterations, c, bias, depth, tree=None, offered_fn=None):
    """The same toy search twice: Python nodes and the compiled tree; returns both roots' stats
    (code, visits, total, available, bias) and both search generators' states."""
    world = np.random.default_rng(seed)
    # each iteration: per depth level, the offered codes (a shuffled subset) and a reward
    plan = []
    for _ in range(iterations):
        levels = []
        for _ in range(depth):
            k = int(world.integers(1, ACTIONS + 1))
            levels.append([int(a) for a in world.permutation(ACTIONS)[:k]])
        plan.append((levels, float(world.random())))
    if offered_fn is not None:
        plan = offered_fn(plan)
    py_rng = np.random.default_rng(seed + 100)
    k_rng = np.random.default_rng(seed + 100)
    root = Node()
    tree = tree or kt.KernelTree.for_search(ACTIONS, iterations)
    t = tree.arrays
    kt.reset(t)
    root_offer = plan[0][0][0]
    if bias:
        root.set_bias(root_offer[-1], bias)
        kt.set_bias(t, 0, root_offer[-1], bias)
    row = generator_rows([k_rng], ROW_WORDS)[0]
    path = np.zeros(depth, dtype=np.int64)
    picks_py, picks_k = [], []
    for levels, reward in plan:
        node, py_path = root, []
        k_node, length = 0, 0
        for level, offered in enumerate(levels):
            offered = root_offer if level == 0 else offered
            edge = node.select(offered, c, py_rng)
            codes = np.array(offered, dtype=np.int64)
            e = kt.select(t, k_node, codes, len(codes), c, row)
            assert e >= 0
            picks_py.append(edge.action)
            picks_k.append(int(kt.edge_code(t, e)))
            py_path.append(edge)
            path[length] = e
            length += 1
            if edge.visits == 0:
                assert kt.edge_visits(t, e) == 0
                break
            node = node.descend(edge)
            k_node = kt.descend(t, e)
            assert k_node >= 0
        for edge in py_path:
            edge.visits += 1
            edge.total += reward
        kt.backprop(t, path, length, reward)
    restore_generators([k_rng], row[None, :])
    py_stats = [(a, e.visits, e.total, e.available, e.bias) for a, e in root.edges.items()]
    return py_stats, tree.root_edges(), picks_py, picks_k, py_rng, k_rng, root, tree


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("bias", [0.0, 0.7])
def test_the_compiled_tree_selects_and_counts_as_the_python_tree(seed, bias):
    c = [0.0, 0.4, 1.4][seed % 3]
    py_stats, k_stats, picks_py, picks_k, py_rng, k_rng, root, tree = _search(seed, 120, c, bias, 4)
    assert picks_k == picks_py
    assert k_stats == py_stats                          # insertion order, floats bit for bit
    assert k_rng.bit_generator.state == py_rng.bit_generator.state
    assert sum(v for _, v, *_ in k_stats) == 120
    chosen = tree.root_node(lambda code: code).most_visited(lambda a: True)
    expected = root.most_visited(lambda a: True)
    assert (chosen.action, chosen.visits) == (expected.action, expected.visits)


def test_a_reused_tree_is_reset_to_an_empty_root():
    tree = kt.KernelTree.for_search(ACTIONS, 200)
    first = _search(3, 200, 0.4, 0.0, 4, tree=tree)
    again = _search(3, 200, 0.4, 0.0, 4, tree=tree)
    assert again[1] == first[1] == first[0]


def test_the_control_fails_when_the_tie_order_differs():
    """The comparison can fail: the same plan with the offered order reversed at the root picks
    differently (ties and untried draws follow the offered order)."""
    py_stats, k_stats, *_ = _search(4, 60, 0.4, 0.0, 3)
    flipped = _search(4, 60, 0.4, 0.0, 3,
                      offered_fn=lambda plan: [([lv[::-1] for lv in levels], r) for levels, r in plan])
    assert flipped[1] != k_stats


def test_a_full_tree_answers_minus_one():
    tree = kt.KernelTree(3, 1)
    t = tree.arrays
    kt.reset(t)
    row = generator_rows([np.random.default_rng(0)], ROW_WORDS)[0]
    e = kt.select(t, 0, np.array([0, 1, 2], dtype=np.int64), 3, 0.5, row)
    assert e >= 0
    kt.backprop(t, np.array([e]), 1, 1.0)
    assert kt.descend(t, e) == -1                       # one node only: no child can be made


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="needs actions and nodes"):
        kt.KernelTree(0, 5)


def _follow_search(seed, iterations, depth, cap):
    """The toy search with a depth cap `cap` (0: none), the compiled side's tail by `follow`;
    returns both roots' stats and the compiled path lengths."""
    world = np.random.default_rng(seed)
    py_rng, k_rng = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
    root = Node()
    tree = kt.KernelTree.for_search(ACTIONS, iterations)
    t = tree.arrays
    kt.reset(t)
    row = generator_rows([k_rng], ROW_WORDS)[0]
    path = np.zeros(depth, dtype=np.int64)
    lengths = []
    for _ in range(iterations):
        offers = [[int(a) for a in world.permutation(ACTIONS)[:int(world.integers(2, ACTIONS + 1))]]
                  for _ in range(depth)]
        reward = float(world.random())
        node, py_path = root, []
        for offered in offers:                          # ISMCTS._iterate's descent
            edge = node.select(offered, 0.5, py_rng)
            py_path.append(edge)
            if edge.visits == 0 or (cap and len(py_path) >= cap):
                break
            node = node.descend(edge)
        k_node, length = 0, 0
        for offered in offers:
            e = kt.select(t, k_node, np.array(offered, dtype=np.int64), len(offered), 0.5, row)
            k_node, length = kt.follow(t, e, kt.edge_visits(t, e) == 0, path, length, cap)
            assert k_node != -1
            if k_node == kt.STOP:
                break
        lengths.append(length)
        for edge in py_path:
            edge.visits += 1
            edge.total += reward
        kt.backprop(t, path, length, reward)
    restore_generators([k_rng], row[None, :])
    py_stats = [(a, e.visits, e.total, e.available, e.bias) for a, e in root.edges.items()]
    assert k_rng.bit_generator.state == py_rng.bit_generator.state
    return py_stats, tree.root_edges(), lengths


@pytest.mark.parametrize("cap", [0, 1, 2])
def test_follow_is_the_descents_tail(cap):
    """`follow` appends the edge, stops on an expansion or at the depth cap, else descends: the
    same statistics as the Python loop; the cap bounds every path (control: without a cap some
    path is longer)."""
    py_stats, k_stats, lengths = _follow_search(5, 150, 4, cap)
    assert k_stats == py_stats
    assert max(lengths) == (cap or max(lengths)) and (cap or max(lengths) > 2)


def test_follow_answers_minus_one_when_full():
    tree = kt.KernelTree(3, 1)
    t = tree.arrays
    kt.reset(t)
    row = generator_rows([np.random.default_rng(0)], ROW_WORDS)[0]
    e = kt.select(t, 0, np.array([0, 1, 2], dtype=np.int64), 3, 0.5, row)
    path = np.zeros(2, dtype=np.int64)
    assert kt.follow(t, e, True, path, 0, 0) == (kt.STOP, 1)
    kt.backprop(t, path, 1, 1.0)
    assert kt.follow(t, e, False, path, 0, 0) == (-1, 1)
    assert path[0] == e
