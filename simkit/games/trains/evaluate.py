"""A cheap value of a Game of Trains position for a seat (`Game.evaluate`, issue 20): how close
each train is to ascending (T25), as the length of its longest ascending run of slots (a
subsequence: the cards already in order, 7 = ascending)."""

from __future__ import annotations

from bisect import bisect_left

from simkit.engine.evaluation import standing

#: slots in order worth about one logistic unit
SCALE = 1.0


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


def evaluate(state, seat: int) -> float:
    return standing([in_order(t) for t in state.trains], seat, SCALE)
