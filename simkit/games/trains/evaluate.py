"""A cheap value of a Game of Trains position for a seat (`Game.evaluate`, issue 20): how close
each train is to ascending (T25): the length of its longest ascending run of slots (a
subsequence: the cards already in order, 7 = ascending), less a small charge per pair of slots
out of order (inversions), which tells apart trains with the same run."""

from __future__ import annotations

from bisect import bisect_left

from simkit.engine.evaluation import standing

#: slots in order worth about one logistic unit
SCALE = 1.0
#: slots in order one pair of slots out of order costs (at most 21 pairs)
INVERSION_WEIGHT = 1 / 16


def in_order(train) -> int:
    """The longest strictly ascending subsequence of the train's slots (patience sorting)."""
    tails: list[int] = []
    for card in train:
        k = bisect_left(tails, card)
        if k == len(tails):
            tails.append(card)
        else:
            tails[k] = card
    return len(tails)


def standings(trains) -> list[int]:
    """Every seat's running score (the game's arc, simkit/engine/running.py): the cards of its
    train in order, `in_order` without an empty slot (a refill cut short by a win leaves one)."""
    return [in_order([c for c in t if c]) if 0 in t else in_order(t) for t in trains]


def inversions(train) -> int:
    """Pairs of slots whose cards are out of order (the left one higher)."""
    return sum(1 for i, a in enumerate(train) for b in train[i + 1:] if a > b)


def progress(train) -> float:
    """Slots in order, less INVERSION_WEIGHT per pair out of order."""
    return in_order(train) - INVERSION_WEIGHT * inversions(train) if INVERSION_WEIGHT else in_order(train)


def evaluate(state, seat: int) -> float:
    return standing([progress(t) for t in state.trains], seat, SCALE)
