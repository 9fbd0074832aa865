"""Shorthand for Rummikub tests: tiles and melds from text, states from position text."""

from __future__ import annotations

import time

import numpy as np

from simkit.engine.strategy import Strategy
from simkit.games.rummikub.actions import DRAW, PASS
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.position import parse_position
from simkit.games.rummikub.state import RummikubState
from simkit.games.rummikub.tiles import GROUP, N_TILES, RUN, Meld, parse_tile, sorted_tiles, tile_text


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


def _tiles(tiles) -> str:
    return " ".join(tile_text(t) for t in tiles) or "-"


def position_text(n: int = 2, *, table=(), racks=None, opened=None, pool=None, seat: int = 0) -> str:
    """A position at the start of `seat`'s turn in the first hand. The tiles not on the table or a
    rack form the pool; or, with `pool` (next drawn first), they go to the last rack."""
    racks = [list(r) for r in racks]
    used = {t for m in table for t in m.tiles} | {t for r in racks for t in r}
    rest = [t for t in range(N_TILES) if t not in used and t not in (pool or ())]
    if pool is None:
        pool = rest
    else:
        racks[-1] += rest
    opened = opened if opened is not None else [True] * n
    lines = [f"to move: {seat}", "turns: 0", f"start seat: {seat}", "passes: 0"]
    lines += [f"seat {s} ({'opened' if opened[s] else 'not opened'}): {_tiles(sorted_tiles(r))}"
              for s, r in enumerate(racks)]
    lines += [f"meld: {m}" for m in table]
    lines.append(f"pool: {_tiles(pool)}")
    return "\n".join(lines)


def make_state(n: int = 2, *, table=(), racks, opened=None, pool=None, seat: int = 0, seed: int = 0,
               **cfg) -> RummikubState:
    """The state of `position_text(...)` under RummikubConfig(**cfg); later deals from `seed`."""
    text = position_text(n, table=table, racks=racks, opened=opened, pool=pool, seat=seat)
    return parse_position(text, RummikubConfig(**cfg), np.random.default_rng(seed))


class DrawOrPass(Strategy):
    """Never plays: draws, or passes once the pool is empty (R8, R10)."""

    name = "draw_or_pass"

    def act(self, decision):
        return DRAW if decision.observation.pool_size else PASS


class SlowDraw(DrawOrPass):
    """Draws or passes after `sleep_s` seconds (for the R18 time budget)."""

    name = "slow_draw"

    def __init__(self, sleep_s: float = 0.0):
        self.sleep_s = sleep_s

    def act(self, decision):
        time.sleep(self.sleep_s)
        return super().act(decision)
