"""Shared piece of the compiled-search tests (tests/<game>/test_kernel_search.py): one ISMCTS
decision as `ISMCTS.search` makes it, compiled whole where it can or the Python loop, read out
as what both must agree on."""

from __future__ import annotations

import numpy as np

from simkit.engine.strategy import Decision
from simkit.search.ismcts import ISMCTS
from simkit.search.tree import Node


def edges(root: Node) -> list[tuple]:
    """The root's edges in insertion order: (action, visits, total, availability, bias)."""
    return [(e.action, e.visits, e.total, e.available, e.bias) for e in root.edges.values()]


def search(params, info, state, seed, kernel):
    """(root edges, choice, search generator state after, why Python or None) of one decision of
    ISMCTS (`ISMCTS.search`: compiled whole where it can, else the Python loop)."""
    bot = ISMCTS(**params, kernel=kernel)
    seat = state.to_act()[0]
    rng = np.random.default_rng(seed)
    bot.setup(info, seat, rng)
    decision = Decision(state.clone(), seat, rng)
    actions = bot.root_actions(decision)
    prior = bot.root_prior(decision, actions)
    root = bot.search(decision, actions, prior)
    best = bot.best_edge(root, actions.__contains__, prior)
    return edges(root), best.action, rng.bit_generator.state, bot.compiled_reason
