"""The `heuristic` bot's cost tables of a turn (what every seat's card choice reads from the
public cards), shared by the bot (heuristic.py) and the search's opponent model (model.py)."""

from __future__ import annotations

import functools
from itertools import accumulate
from math import comb
from operator import itemgetter
from typing import NamedTuple

from simkit.games.sixnimmt.rules import BH, row_points

#: the tie-break terms of a card's cost, per bullhead count and per gap: the same floats as
#: computing 0.001 * BH[card] and 0.002 * gap in place
SHED = tuple(0.001 * b for b in BH)
_GAP_COST = tuple(0.002 * gap for gap in range(105))
INF = float("inf")
_ABOVE_EVERY_CARD = 1 << 30
_last_card = itemgetter(-1)


def _tail(k: int, n: int, q: float) -> float:
    """P(X >= k) for X ~ Binomial(n, q)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, j) * q ** j * (1 - q) ** (n - j) for j in range(k, n + 1))


@functools.cache
def take_chances(free: int, opponents: int, n_unseen: int) -> tuple[float, ...]:
    """By gap (unseen cards between a row's end and our card): the chance that the opponents
    fill the row's `free` places first."""
    return tuple(_tail(free, opponents, gap / n_unseen) if free > 0 else 1.0
                 for gap in range(n_unseen + 1))


@functools.lru_cache(maxsize=4096)
def _row_costs(free: int, opponents: int, n_unseen: int, points: int, caution: float) -> tuple[float, ...]:
    """By gap: the cost of a card put on a row of `points` bullheads with `free` places."""
    stake = points + 1.5    # the row, and the card left in it
    return tuple(p_take * stake * caution + _GAP_COST[gap]
                 for gap, p_take in enumerate(take_chances(free, opponents, n_unseen)))


@functools.lru_cache(maxsize=4096)
def _low_card_costs(opponents: int, n_unseen: int, cheapest: int) -> tuple[float, ...]:
    """By the unseen cards below ours: the cost of a card below every row (N10), which takes
    the cheapest row unless an opponent plays lower first."""
    saved = (1 - (1 - lower / n_unseen) ** opponents for lower in range(n_unseen + 1))
    return tuple(cheapest * (1 - p_saved) + 0.5 * p_saved for p_saved in saved)


class Turn(NamedTuple):
    """What every seat's card choice reads from the public cards of a turn."""

    not_seen_below: list[int]   # by card value v: the cards 1..v-1 not seen (own cards included)
    ends: list[int]             # the row ends, ascending, then a sentinel above every card
    #: per row, in the order of `ends`: its not_seen_below and its _row_costs
    targets: list[tuple[int, tuple[float, ...]]]
    low_card_costs: tuple[float, ...]


_last_turn: tuple = ((), None)


def turn_costs(rows, seen, deck: int, n_unseen: int, opponents: int, capacity: int,
               caution: float) -> Turn:
    """The table of a turn, memoised for the last key: the seats of a turn see the same public
    cards, so all but the first reuse its table (equal keys, equal tables)."""
    global _last_turn
    key = (rows, seen, deck, n_unseen, opponents, capacity, caution)
    last_key, turn = _last_turn
    if key != last_key:
        turn = _new_turn(rows, seen, deck, n_unseen, opponents, capacity, caution)
        _last_turn = (key, turn)
    return turn


def _new_turn(rows, seen, deck: int, n_unseen: int, opponents: int, capacity: int,
              caution: float) -> Turn:
    not_seen = bytearray(b"\0" + b"\1" * deck)
    for card in seen:
        not_seen[card] = 0
    not_seen_below = list(accumulate(not_seen, initial=0))
    by_end = sorted(rows, key=_last_card)
    points = list(map(row_points, by_end))
    targets = [(not_seen_below[row[-1]], _row_costs(capacity - len(row), opponents, n_unseen, p, caution))
               for row, p in zip(by_end, points)]
    return Turn(not_seen_below, [row[-1] for row in by_end] + [_ABOVE_EVERY_CARD], targets,
                _low_card_costs(opponents, n_unseen, min(points)))
