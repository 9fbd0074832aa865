"""Positions described by hand: a state at the start of a player's turn (tests, puzzles)."""

from __future__ import annotations

import numpy as np

from simkit.games.trains.actions import TURN
from simkit.games.trains.config import TrainsConfig
from simkit.games.trains.state import TrainsState

_ALL_CARDS = list(range(1, 85))


def from_position(trains, *, display=(), draw_top=(), discard=(), locks=None, current: int = 0,
                  config: TrainsConfig | None = None, rng: np.random.Generator | None = None,
                  rest: str = "draw", turns: int = 0) -> TrainsState:
    """A state at the start of `current`'s turn in a described position (tests, puzzles).

    trains: one sequence of 7 cards per seat (slot 1..7). display: cards (one per effect).
    draw_top: the next cards to be drawn, first one first. discard: the discard pile.
    locks: {seat: {slot: card}}. The cards not placed anywhere go below `draw_top` in the draw
    pile (rest="draw"), into the discard pile (rest="discard") or nowhere (rest="none": the
    position then holds fewer than 84 cards and `audit()` says so).
    """
    config = config or TrainsConfig()
    n = len(trains)
    rng = rng if rng is not None else np.random.Generator(np.random.PCG64(0))
    s = TrainsState(config, n, rng)
    s.trains = [list(t) for t in trains]
    s.locks = [[0] * 7 for _ in range(n)]
    for p, by_slot in (locks or {}).items():
        for slot, card in by_slot.items():
            s.locks[p][slot - 1] = card
    s.display = [0] * 9
    for c in display:
        if s.display[s.eff[c]]:
            raise ValueError(f"display cards {s.display[s.eff[c]]} and {c} share effect {s.eff[c]} (T11)")
        s.display[s.eff[c]] = c
    listed = [c for t in trains for c in t] + list(display) + list(draw_top) + list(discard)
    listed += [c for lk in s.locks for c in lk if c]
    used = set(listed)
    if len(used) != len(listed) or not used <= set(_ALL_CARDS):
        raise ValueError("a position must name each card 1..84 at most once")
    others = [c for c in _ALL_CARDS if c not in used]
    s.discard = list(discard)
    s.draw = list(reversed(draw_top))
    if rest == "draw":
        s.draw = others + s.draw
    elif rest == "discard":
        s.discard.extend(others)
    s.hidden = [[] for _ in range(n)]
    s.hands = [[] for _ in range(n)]
    s.kept = [0] * n
    s.drawn = 0
    s.turns = turns
    s.start = current
    s.cur = current
    s.phase = TURN
    s.acting = (current,)
    s._legal = None
    s.events = []
    s._log = []
    s._emit(("start", n, current, tuple(map(tuple, s.trains)), config.effect_table))
    return s
