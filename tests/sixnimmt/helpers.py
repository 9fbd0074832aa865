"""Build 6 nimmt! states with chosen rows and hands for rule tests."""

from __future__ import annotations

import numpy as np

from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.state import SixNimmtState


def make_state(rows, hands, config: SixNimmtConfig | None = None, totals=None) -> SixNimmtState:
    """A basic-game state in the play phase with these rows and hands; other cards set aside."""
    config = config or SixNimmtConfig()
    n = len(hands)
    state = SixNimmtState(config, n, np.random.default_rng(0))
    state.rows = [list(r) for r in rows]
    state.ends = [r[-1] for r in rows]
    state.hands = [list(h) for h in hands]
    used = {c for r in rows for c in r} | {c for h in hands for c in h}
    state.aside = [c for c in range(1, 105) if c not in used]
    state.seen = [c for r in rows for c in r]
    state.penalty = [[] for _ in range(n)]
    state.points = [0] * n
    if totals is not None:
        state.totals = list(totals)
    assert state.audit() == []
    return state


def rows_of(state) -> list[list[int]]:
    return [list(r) for r in state.rows]
