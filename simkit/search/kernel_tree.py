"""The ISMCTS tree of `simkit.search.tree` as arrays, for a search iteration compiled whole.

Game independent: a game's compiled search (e.g. simkit/games/sixnimmt/kernel_search.py's
caller) maps its actions to small codes 0..A-1 and drives these functions from its own numba
loop; they select, descend and back up exactly as `Node.select`, `Node.descend` and the
backpropagation of `ISMCTS._iterate` do, draw for draw from the same generator, so that a compiled
search leaves the same statistics, the same choice and the same generator state as the Python one.

API (stable; additions only)
----------------------------
Python side:

- `KernelTree(n_actions, max_nodes)`: the arrays of one search; `tree.arrays` is the tuple every
  compiled function below takes first (call `reset` before each search: it clears only what the
  last search used). `max_nodes`: a search of `iterations` iterations makes at most
  `iterations + 1` nodes (one per iteration at most: a new node's first selection expands);
  `KernelTree.for_search(n_actions, iterations)` sizes it so. Edges: `max_nodes * n_actions`,
  or `max_nodes * max_offered` with the optional `max_offered` (the most actions a node can be
  offered across all its visits: a bound on its edges). Memory: 24 bytes a node, 8 * n_actions
  a node for the lookup table, 56 bytes an edge.
- `tree.root_edges()`: the root's edges in insertion order, as (code, visits, total, available,
  bias) tuples; `tree.root_node(action_of)`: a `simkit.search.tree.Node` with those edges (codes
  turned into actions by `action_of`), on which `most_visited` and `guarded` answer as for the
  Python search.

Compiled (numba, `simkit.engine.kernel_rng.compiled`; `t` is `tree.arrays`, `node` and `edge`
are int indices, the root is node 0):

- `reset(t)`: an empty tree (just the root).
- `set_bias(t, node, code, bias)`: `Node.set_bias` (makes the edge if new; no availability).
- `select(t, node, offered, count, c, row) -> edge`: `Node.select` over the codes
  `offered[:count]` in the game's order: counts them available, returns an untried one (a biased
  one first, else drawn with `Generator.integers(untried)` from the generator row `row` of
  kernel_rng, only when more than one), else the UCB choice (first best in offered order).
  -1 when the tree is full.
- `edge_visits(t, edge)`, `edge_code(t, edge)`: an edge's visits so far, its action code.
- `descend(t, edge) -> node`: `Node.descend` (makes the child on first descent); -1 when full.
- `backprop(t, path, length, reward)`: each edge of `path[:length]` gets a visit and `reward`.
- `follow(t, edge, expanding, path, length, depth) -> (node, length)`: the descent's tail after
  the seat played `edge` (`expanding`: it had no visits before): the edge appended to
  `path[:length]`; the next node (`descend`), or STOP where the iteration leaves the tree (the
  edge expanded, or the depth cap reached), or -1 when the tree is full.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from simkit.engine.game import Action
from simkit.engine.kernel_rng import bounded, compiled
from simkit.search.tree import Edge, Node

#: node columns: first and last edge in insertion order (-1: none), progressive bias set
N_FIRST, N_LAST, N_BIASED = range(3)
#: edge integer columns: action code, visits, availability, child node (-1), next edge (-1)
E_CODE, E_VISITS, E_AVAIL, E_CHILD, E_NEXT = range(5)
#: edge float columns: total reward, progressive bias
E_TOTAL, E_BIAS = range(2)
#: size slots: nodes and edges in use
S_NODES, S_EDGES = range(2)
#: `follow`'s node when the iteration leaves the tree (-1: the tree is full)
STOP = -2


class KernelTree:
    """The arrays of one compiled search tree (see the module's docstring)."""

    def __init__(self, n_actions: int, max_nodes: int, max_offered: int | None = None) -> None:
        if n_actions < 1 or max_nodes < 1:
            raise ValueError(f"a tree needs actions and nodes: {n_actions} actions, {max_nodes} nodes")
        self.n_actions = n_actions
        self.max_nodes = max_nodes
        edges = max_nodes * min(n_actions, max_offered or n_actions)
        nodes = np.full((max_nodes, 3), -1, dtype=np.int64)
        ints = np.zeros((edges, 5), dtype=np.int64)
        floats = np.zeros((edges, 2), dtype=np.float64)
        lookup = np.full((max_nodes, n_actions), -1, dtype=np.int64)
        size = np.zeros(2, dtype=np.int64)
        scratch = np.zeros(n_actions, dtype=np.int64)
        self.arrays = (nodes, ints, floats, lookup, size, scratch)
        # numba's reset marks every node in use as cleared: start with all of them
        size[S_NODES] = max_nodes

    @classmethod
    def for_search(cls, n_actions: int, iterations: int, max_offered: int | None = None) -> KernelTree:
        return cls(n_actions, iterations + 1, max_offered)

    def root_edges(self) -> list[tuple[int, int, float, int, float]]:
        """(code, visits, total, available, bias) of the root's edges, in insertion order."""
        nodes, ints, floats, _, _, _ = self.arrays
        out = []
        e = int(nodes[0, N_FIRST])
        while e >= 0:
            out.append((int(ints[e, E_CODE]), int(ints[e, E_VISITS]), float(floats[e, E_TOTAL]),
                        int(ints[e, E_AVAIL]), float(floats[e, E_BIAS])))
            e = int(ints[e, E_NEXT])
        return out

    def root_node(self, action_of: Callable[[int], Action]) -> Node:
        """The root as a `tree.Node` (edges in insertion order), to choose as the Python search."""
        root = Node()
        for code, visits, total, available, bias in self.root_edges():
            edge = root.edges[action_of(code)] = Edge(action_of(code))
            edge.visits, edge.total, edge.available, edge.bias = visits, total, available, bias
            root.biased = root.biased or bias != 0.0
        return root


@compiled()
def reset(t: Any) -> None:
    nodes, ints, floats, lookup, size, scratch = t
    for k in range(min(size[S_NODES], nodes.shape[0])):
        nodes[k, N_FIRST] = -1
        nodes[k, N_LAST] = -1
        nodes[k, N_BIASED] = 0
        for a in range(lookup.shape[1]):
            lookup[k, a] = -1
    size[S_NODES] = 1
    size[S_EDGES] = 0


@compiled()
def _edge(t: Any, node: int, code: int) -> int:
    """The edge of `code` at `node`, made (appended in insertion order) if new; -1 when full."""
    nodes, ints, floats, lookup, size, scratch = t
    e = lookup[node, code]
    if e >= 0:
        return e
    e = size[S_EDGES]
    if e >= ints.shape[0]:
        return -1
    size[S_EDGES] = e + 1
    ints[e, E_CODE] = code
    ints[e, E_VISITS] = 0
    ints[e, E_AVAIL] = 0
    ints[e, E_CHILD] = -1
    ints[e, E_NEXT] = -1
    floats[e, E_TOTAL] = 0.0
    floats[e, E_BIAS] = 0.0
    lookup[node, code] = e
    last = nodes[node, N_LAST]
    if last < 0:
        nodes[node, N_FIRST] = e
    else:
        ints[last, E_NEXT] = e
    nodes[node, N_LAST] = e
    return e


@compiled()
def set_bias(t: Any, node: int, code: int, bias: float) -> None:
    e = _edge(t, node, code)
    if e >= 0:
        t[2][e, E_BIAS] = bias
        if bias != 0.0:
            t[0][node, N_BIASED] = 1


@compiled()
def select(t: Any, node: int, offered: Any, count: int, c: float, row: Any) -> int:
    nodes, ints, floats, lookup, size, scratch = t
    untried = 0
    for i in range(count):
        e = _edge(t, node, offered[i])
        if e < 0:
            return -1
        ints[e, E_AVAIL] += 1
        if ints[e, E_VISITS] == 0:
            scratch[untried] = e
            untried += 1
    biased = nodes[node, N_BIASED] != 0
    if untried:
        if biased:                                 # max(untried, key=bias): the first maximum
            top = scratch[0]
            for i in range(1, untried):
                if floats[scratch[i], E_BIAS] > floats[top, E_BIAS]:
                    top = scratch[i]
            if floats[top, E_BIAS] > 0:
                return top
        if untried > 1:
            return scratch[bounded(row, untried)]
        return scratch[0]
    best = lookup[node, offered[0]]
    best_score = -math.inf
    for i in range(count):
        e = lookup[node, offered[i]]
        visits = ints[e, E_VISITS]
        score = floats[e, E_TOTAL] / visits + c * math.sqrt(math.log(ints[e, E_AVAIL]) / visits)
        if biased:
            score += floats[e, E_BIAS] / (visits + 1)
        if score > best_score:
            best = e
            best_score = score
    return best


@compiled()
def edge_visits(t: Any, edge: int) -> int:
    return t[1][edge, E_VISITS]


@compiled()
def edge_code(t: Any, edge: int) -> int:
    return t[1][edge, E_CODE]


@compiled()
def descend(t: Any, edge: int) -> int:
    nodes, ints, floats, lookup, size, scratch = t
    child = ints[edge, E_CHILD]
    if child >= 0:
        return child
    child = size[S_NODES]
    if child >= nodes.shape[0]:
        return -1
    size[S_NODES] = child + 1
    ints[edge, E_CHILD] = child
    return child


@compiled()
def backprop(t: Any, path: Any, length: int, reward: float) -> None:
    ints, floats = t[1], t[2]
    for i in range(length):
        ints[path[i], E_VISITS] += 1
        floats[path[i], E_TOTAL] += reward


@compiled()
def follow(t: Any, edge: int, expanding: bool, path: Any, length: int, depth: int) -> Any:
    """`ISMCTS._iterate`'s tail after the seat's step along `edge`: (next node, path length).
    The node is STOP when the iteration leaves the tree (`edge` expanded, or `depth` > 0 of the
    seat's actions taken), -1 when the tree is full, else the child (made on first descent)."""
    path[length] = edge
    length += 1
    if expanding or (depth > 0 and length >= depth):
        return STOP, length
    return descend(t, edge), length
