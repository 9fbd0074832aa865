"""Shorthand for Rummikub tests: tiles and melds from text, states set up by hand."""

from __future__ import annotations

import numpy as np

from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.state import RummikubState
from simkit.games.rummikub.tiles import GROUP, RUN, Meld, parse_tile


def T(text: str) -> list[int]:
    """Tiles from text; a repeated face gets the next copy ("R5 R5" -> R5, R5')."""
    out: list[int] = []
    for word in text.split():
        t = parse_tile(word)
        if t in out and t < 104:
            t += 1
        out.append(t)
    return out


def R(text: str) -> Meld:
    return Meld(RUN, tuple(T(text)))


def G(text: str) -> Meld:
    return Meld(GROUP, tuple(T(text)))


def make_state(n: int = 2, *, table=(), racks=None, opened=None, pool=None, seat: int = 0, seed: int = 0,
               **cfg) -> RummikubState:
    """A state with the given table and racks; the remaining tiles form the pool (or `pool`)."""
    config = RummikubConfig(**cfg)
    st = RummikubState(config, n, np.random.default_rng(seed))
    st.events = []
    st.public = []
    racks = [list(r) for r in (racks or [[] for _ in range(n)])]
    used = {t for m in table for t in m.tiles} | {t for r in racks for t in r}
    if pool is None:
        pool = [t for t in range(106) if t not in used]
    else:
        pool = list(pool)
        rest = [t for t in range(106) if t not in used and t not in pool]
        racks[-1] = racks[-1] + rest       # park the other tiles on the last rack
    st.table = tuple(table)
    st.racks = racks
    st.pool = pool
    st.opened = list(opened if opened is not None else [True] * n)
    st.seat = seat
    return st
