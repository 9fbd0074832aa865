"""What a seat may see (spec section 9), the hidden part resampled for search, and the invariant
audit. `RummikubState.observe`, `determinize` and `audit` are these functions; they read the
state through `RummikubFields`, so this module does not import state.py."""

from __future__ import annotations

from typing import NamedTuple, Protocol, Self, TypeVar

import numpy as np

from simkit.games.rummikub import rules
from simkit.games.rummikub.tiles import N_TILES, Meld, sorted_tiles


class RummikubFields(Protocol):
    """The part of `RummikubState` these functions read (mypy checks that the state has it)."""

    n: int
    rng: np.random.Generator
    phase: str
    hand: int
    seat: int
    acting: tuple[int, ...]
    table: tuple[Meld, ...]
    pool: list[int]
    racks: list[list[int]]
    opened: list[bool]
    passes: int
    cum: list[float]
    hand_scores: list[tuple[float, ...]]
    public: list[tuple]

    def clone(self) -> Self: ...


StateT = TypeVar("StateT", bound=RummikubFields)


class Observation(NamedTuple):
    """What one seat may see: the public table and counts, the public history (drawn tiles
    hidden) and its own rack, sorted. `to_move` is -1 once the match is over."""

    seat: int
    to_move: int
    hand: int
    table: tuple[Meld, ...]
    pool_size: int
    rack_sizes: tuple[int, ...]
    opened: tuple[bool, ...]
    scores: tuple[float, ...]
    passes: int
    rack: tuple[int, ...]
    history: tuple[tuple, ...]


def observe(state: RummikubFields, seat: int) -> Observation:
    return Observation(seat, state.seat, state.hand, state.table, len(state.pool),
                       tuple([len(r) for r in state.racks]), tuple(state.opened), tuple(state.cum),
                       state.passes, sorted_tiles(state.racks[seat]), tuple(state.public))


def determinize(state: StateT, seat: int, rng: np.random.Generator) -> StateT:
    """Other racks and the pool resampled from the tiles `seat` cannot see."""
    c = state.clone()
    unseen = list(c.pool)
    for s in range(state.n):
        if s != seat:
            unseen.extend(c.racks[s])
    unseen.sort()
    order = rng.permutation(len(unseen)).tolist()
    shuffled = [unseen[i] for i in order]
    pos = 0
    for s in range(state.n):
        if s != seat:
            k = len(c.racks[s])
            c.racks[s] = shuffled[pos:pos + k]
            pos += k
    c.pool = shuffled[pos:]
    c.rng = np.random.Generator(np.random.PCG64(int(rng.integers(1 << 62))))
    return c


def audit(state: RummikubFields) -> list[str]:
    """Conservation of the 106 tiles, a valid table (R3-R7), zero-sum hands and match (R19-R23)."""
    problems = []
    tiles = [t for r in state.racks for t in r] + list(state.pool) + [t for m in state.table for t in m.tiles]
    if len(tiles) != N_TILES or set(tiles) != set(range(N_TILES)):
        problems.append(f"tiles not conserved: {len(tiles)} held, {len(set(tiles))} distinct (106 expected)")
    for i, m in enumerate(state.table):
        err = rules.meld_error(m)
        if err:
            problems.append(f"table meld {i} {m} is invalid: {err}")
    for h, sc in enumerate(state.hand_scores):
        if abs(sum(sc)) > 1e-6:
            problems.append(f"hand {h + 1} scores {sc} do not sum to zero (R19/R21)")
    if abs(sum(state.cum)) > 1e-6:
        problems.append(f"cumulative scores {state.cum} do not sum to zero (R23)")
    if (state.phase == rules.OVER) != (not state.acting):
        problems.append(f"phase {state.phase!r} but seats to act {state.acting}")
    return problems
