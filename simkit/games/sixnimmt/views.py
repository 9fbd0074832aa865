"""What a seat sees (observe), a state consistent with it (determinize), and the invariants
(audit). Functions take the state first; SixNimmtState binds them as methods. They read the
state through `SixNimmtFields`, so this module does not import state.py."""

from __future__ import annotations

import functools
from collections.abc import Callable
from functools import partial
from typing import NamedTuple, Protocol, Self, TypeVar

import numpy as np

from simkit.engine.public_log import PublicLog
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import BH, BH_BYTES, PLAY, ROW_PICK

#: what every seat sees alike: rows, totals, seen cards, revealed, penalty piles, round points,
#: hands, pool (the fields of Observation after `hand`, in that order)
PublicParts = tuple[
    tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...],
    tuple[tuple[int, ...], ...] | None, tuple[int, ...] | None, tuple[tuple[int, ...], ...] | None,
    tuple[int, ...] | None]


class SixNimmtFields(Protocol):
    """The part of `SixNimmtState` these functions read (mypy checks that the state has it)."""

    config: SixNimmtConfig
    n: int
    phase: str
    round: int
    turn: int
    rows: list[list[int]]
    low_ends: list[int]
    low_rows: list[int]
    hands: list[list[int]]
    penalty: list[list[int]]
    points: list[int]
    totals: list[int]
    pending: tuple[tuple[int, int], ...]
    pending_at: int
    aside: list[int]
    pool: list[int]
    seen: list[int]
    events: list[tuple]
    acting: tuple[int, ...]
    public_view: tuple[int, PublicParts] | None
    public_log: PublicLog | None

    def clone(self) -> Self: ...

    def defer_rng(self, source: Callable[[], np.random.Generator]) -> None: ...


StateT = TypeVar("StateT", bound=SixNimmtFields)


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


_tuple_new = tuple.__new__


def observe(state: SixNimmtFields, seat: int) -> Observation:
    public = state.public_view
    if public is None or public[0] != len(state.events):
        public = state.public_view = (len(state.events), _public_parts(state))
    rows, totals, seen, revealed, penalties, points, hands, pool = public[1]
    # Observation._make without its two Python-level calls (observe is on the hot path)
    return _tuple_new(Observation, (
        seat, state.n, state.phase, state.round, state.turn, rows, tuple(sorted(state.hands[seat])),
        totals, seen, revealed, penalties, points, hands, pool, state.acting))


def _public_parts(state: SixNimmtFields) -> PublicParts:
    """The fields every seat sees alike, built once per step for all the seats that observe it.

    Every change of a state through `apply` logs an event, so the length of the log dates them."""
    config = state.config
    public = config.public_penalties
    advanced = config.advanced
    return (tuple(map(tuple, state.rows)), tuple(state.totals), tuple(state.seen),
            tuple(state.pending) if state.phase == ROW_PICK else (),
            tuple(map(tuple, state.penalty)) if public else None,
            tuple(state.points) if public else None,
            tuple(tuple(sorted(h)) for h in state.hands) if advanced else None,
            tuple(state.pool) if advanced else None)


def _seeded_generator(seed: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(seed))


def _public_deal(n_players: int, event: tuple) -> tuple:
    """A deal as every seat sees it: the row starts only, as the advanced game's `rows` event."""
    _, round_no, hand_size, dealt = event
    return ("rows", round_no, tuple(dealt[n_players * hand_size:]))


class _Hiders(dict):
    """Players -> {"deal": the public deal for that many players} (built on first use)."""

    def __missing__(self, n_players: int) -> dict:
        hide = self[n_players] = {"deal": partial(_public_deal, n_players)}
        return hide


_HIDE = _Hiders()


def determinize(state: StateT, seat: int, rng: np.random.Generator) -> StateT:
    """Other hands and the set-aside cards reshuffled; future deals drawn from `rng`; the log
    the public one (a deal shows the row starts, not the hands)."""
    other = state.clone()
    log = state.public_log
    if log is None:
        log = state.public_log = PublicLog()
    other.events = log.of(state.events, _HIDE[state.n])
    other.defer_rng(partial(_seeded_generator, int(rng.integers(1 << 63))))
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
def _full_deck(size: int) -> frozenset[int]:
    return frozenset(range(1, size + 1))


_bullheads_of = BH.__getitem__


def audit(state: SixNimmtFields) -> list[str]:
    """Conservation of cards and the shape of the rows (run after every game: kept cheap)."""
    problems = []
    config = state.config
    deck = config.deck_cards(state.n)
    cards = state.aside + state.pool
    for group in (state.hands, state.rows, state.penalty):
        for part in group:
            cards += part
    if state.phase == ROW_PICK:
        cards += [c for c, _ in state.pending[state.pending_at:]]
    if len(cards) != deck or _full_deck(deck).difference(cards):    # a permutation of the deck
        problems.append(f"cards not conserved: {len(cards)} accounted for, {deck} in the deck")
    distinct = not problems        # conserved cards are distinct: sorted(row) is then enough
    capacity = config.row_capacity
    rows = state.rows
    for i, row in enumerate(rows):
        if not 1 <= len(row) <= capacity:
            problems.append(f"row {i + 1} has {len(row)} cards (1..{capacity} allowed)")
        if len(row) > 1 and row != sorted(row if distinct else set(row)):
            problems.append(f"row {i + 1} is not ascending: {row}")
    ends = sorted([(row[-1], r) for r, row in enumerate(rows) if row])
    if ends != list(zip(state.low_ends, state.low_rows)):
        problems.append(f"row ends {state.low_ends} (rows {state.low_rows}) disagree with the rows")
    if state.phase in (PLAY, ROW_PICK) and len(rows) != config.rows:
        problems.append(f"{len(rows)} rows on the table, {config.rows} expected")
    if distinct:    # conserved cards are 1..104, one byte each: rules.row_points, inlined
        points = [sum(bytes(p).translate(BH_BYTES)) for p in state.penalty]
    else:
        points = [sum(map(_bullheads_of, p)) for p in state.penalty]
    if state.points != points:
        problems.append(f"round points {state.points} disagree with the penalty piles")
    if state.phase == PLAY and len({len(h) for h in state.hands}) > 1:
        problems.append(f"hands of unequal size {sorted({len(h) for h in state.hands})} between turns")
    return problems
