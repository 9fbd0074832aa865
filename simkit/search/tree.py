"""The ISMCTS tree: nodes are the searching seat's information sets, reached by its own actions.

Each node keeps, per action, visits, total reward and availability (how often the action was
legal in the determinizations that passed through the node); selection is UCB1 with the
availability count in place of the parent's visits (Cowling, Powley & Whitehouse 2012). An edge
may carry a progressive bias (Chaslot et al. 2008): `bias / (visits + 1)` added to its score, so
a prior's choice is tried first and favoured while its statistics are thin.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from simkit.engine.game import Action


class Edge:
    """One action at a node: its statistics and the node it leads to (made on its 2nd visit)."""

    __slots__ = ("action", "visits", "total", "available", "child", "bias")

    def __init__(self, action: Action):
        self.action = action
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.child: Node | None = None
        self.bias = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def _bias_of(edge: Edge) -> float:
    return edge.bias


class Node:
    __slots__ = ("edges", "biased")

    def __init__(self) -> None:
        self.edges: dict[Action, Edge] = {}
        self.biased = False

    def set_bias(self, action: Action, bias: float) -> None:
        """Progressive bias of `action` here (a prior's choice)."""
        edge = self.edges.get(action)
        if edge is None:
            edge = self.edges[action] = Edge(action)
        edge.bias = bias
        self.biased = bias != 0.0 or self.biased

    def select(self, actions: Sequence[Action], c: float, rng: np.random.Generator) -> Edge:
        """Count `actions` as available here; return an untried one at random (expansion), else
        the UCB choice. Ties go to the first in the game's order, so selection is reproducible."""
        edges = self.edges
        offered = []
        untried = []
        for action in actions:
            edge = edges.get(action)
            if edge is None:
                edge = edges[action] = Edge(action)
            edge.available += 1
            offered.append(edge)
            if edge.visits == 0:
                untried.append(edge)
        if untried:
            if self.biased:                     # a biased untried action is expanded first
                top = max(untried, key=_bias_of)
                if top.bias > 0:
                    return top
            return untried[int(rng.integers(len(untried)))] if len(untried) > 1 else untried[0]
        best, best_score = offered[0], -math.inf
        biased = self.biased
        for edge in offered:
            score = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if biased:
                score += edge.bias / (edge.visits + 1)
            if score > best_score:
                best, best_score = edge, score
        return best

    def take(self, action: Action) -> Edge:
        """The edge of `action`, counted as available: a choice made for the search, not by UCB
        (common random numbers, `crn`)."""
        edge = self.edges.get(action)
        if edge is None:
            edge = self.edges[action] = Edge(action)
        edge.available += 1
        return edge

    def descend(self, edge: Edge) -> Node:
        if edge.child is None:
            edge.child = Node()
        return edge.child

    def guarded(self, best: Edge, prior: Action, guard: float) -> Edge:
        """`best` if its mean reward beats the prior's choice by at least `guard`, else the prior's
        edge: the search overrules the prior only on a clear difference (an untried prior choice
        is overruled)."""
        edge = self.edges.get(prior)
        if edge is None or edge is best or not edge.visits:
            return best
        return best if best.mean - edge.mean >= guard else edge

    def best_mean(self, allowed) -> Edge | None:
        """The visited edge of highest mean reward whose action `allowed` accepts (the first on
        ties)."""
        best = None
        for edge in self.edges.values():
            if edge.visits and allowed(edge.action) and (best is None or edge.mean > best.mean):
                best = edge
        return best

    def most_visited(self, allowed) -> Edge | None:
        """The most visited edge whose action `allowed` accepts (higher mean reward on ties)."""
        best = None
        for edge in self.edges.values():
            if allowed(edge.action) and (best is None or (edge.visits, edge.mean) > (best.visits, best.mean)):
                best = edge
        return best
