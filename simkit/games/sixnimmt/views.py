"""What a seat sees (observe), a state consistent with it (determinize), and the invariants
(audit). Functions take the state first; SixNimmtState binds them as methods."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from simkit.games.sixnimmt.rules import BH, PLAY, ROW_PICK

if TYPE_CHECKING:
    from simkit.games.sixnimmt.state import SixNimmtState


class Observation(NamedTuple):
    """What one seat may see (§7). Hidden: other hands (basic game) and the set-aside cards.

    A NamedTuple: immutable, comparable, and cheap to build in the hot loop.
    """

    seat: int
    n_players: int
    phase: str
    round: int
    turn: int                                      # turns played this round
    rows: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...]
    totals: tuple[int, ...]                        # cumulative bullheads of finished rounds
    seen_cards: tuple[int, ...]                    # row starts and cards revealed this round (in that order)
    revealed: tuple[tuple[int, int], ...]          # (card, seat) of this turn, during a row pick
    penalties: tuple[tuple[int, ...], ...] | None  # this round's penalty piles (public_penalties)
    round_points: tuple[int, ...] | None           # bullheads taken this round (public_penalties)
    hands: tuple[tuple[int, ...], ...] | None      # every hand: advanced game only (N19)
    pool: tuple[int, ...] | None                   # draft pool: advanced game only
    to_act: tuple[int, ...]


def observe(state: SixNimmtState, seat: int) -> Observation:
    config = state.config
    public = config.public_penalties
    advanced = config.advanced
    return Observation(
        seat, state.n, state.phase, state.round, state.turn,
        tuple(map(tuple, state.rows)), tuple(sorted(state.hands[seat])),
        tuple(state.totals), tuple(state.seen),
        tuple(state.pending) if state.phase == ROW_PICK else (),
        tuple(map(tuple, state.penalty)) if public else None,
        tuple(state.points) if public else None,
        tuple(tuple(sorted(h)) for h in state.hands) if advanced else None,
        tuple(state.pool) if advanced else None,
        state.acting)


def determinize(state: SixNimmtState, seat: int, rng: np.random.Generator) -> SixNimmtState:
    """Other hands and the set-aside cards reshuffled; future deals drawn from `rng`."""
    other = state.clone()
    other.rng = np.random.Generator(np.random.PCG64(int(rng.integers(1 << 63))))
    if state.config.advanced:
        return other
    unknown = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.aside)
    order = rng.permutation(len(unknown)).tolist()
    shuffled = [unknown[i] for i in order]
    k = 0
    for s in range(state.n):
        if s == seat:
            continue
        size = len(state.hands[s])
        other.hands[s] = shuffled[k:k + size]
        k += size
    other.aside = shuffled[k:]
    return other


@functools.cache
def _full_deck(size: int) -> list[int]:
    return list(range(1, size + 1))


def audit(state: SixNimmtState) -> list[str]:
    """Conservation of cards and the shape of the rows (run after every game: kept cheap)."""
    problems = []
    config = state.config
    deck = config.deck_cards(state.n)
    cards = list(state.aside)
    cards += state.pool
    for group in (state.hands, state.rows, state.penalty):
        for part in group:
            cards += part
    if state.phase == ROW_PICK:
        cards += [c for c, _ in state.pending[state.pending_at:]]
    cards.sort()
    if cards != _full_deck(deck):
        problems.append(f"cards not conserved: {len(cards)} accounted for, {deck} in the deck")
    capacity = config.row_capacity
    for i, row in enumerate(state.rows):
        if not 1 <= len(row) <= capacity:
            problems.append(f"row {i + 1} has {len(row)} cards (1..{capacity} allowed)")
        if len(row) > 1 and row != sorted(set(row)):
            problems.append(f"row {i + 1} is not ascending: {row}")
    if state.ends != [r[-1] for r in state.rows]:
        problems.append(f"row ends {state.ends} disagree with the rows")
    if state.phase in (PLAY, ROW_PICK) and len(state.rows) != config.rows:
        problems.append(f"{len(state.rows)} rows on the table, {config.rows} expected")
    if state.points != [sum([BH[c] for c in p]) for p in state.penalty]:
        problems.append(f"round points {state.points} disagree with the penalty piles")
    if state.phase == PLAY and len({len(h) for h in state.hands}) > 1:
        problems.append(f"hands of unequal size {sorted({len(h) for h in state.hands})} between turns")
    return problems
