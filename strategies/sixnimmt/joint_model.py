"""An exact joint check of the `heuristic` opponent model's hands (`ismcts:infer=joint`,
docs/search.md): off by default, beside model.py, whose behaviour it does not change.

model.py rules a card out for a seat one card at a time, with the heuristic's cost tables on the
hand made of the seat's *known* cards of a turn plus that card: the seat's other hidden cards are
left out, and they shift every cost (a card's cost reads how many of the seat's own cards lie
below it and below its row's end). So a hand dealt by the model can still be one with which
the heuristic would not have played what the seat revealed: over single rounds of four
`heuristic` bots, about 44 % of the model's hands (turn 3 on) fail the exact check, 0 % of the
real ones.

The exact check: a hand `h` of seat s is consistent if at every earlier turn t of the round,
with the whole hand of that turn (`h` plus the cards s revealed from turn t on), no card costs
the heuristic strictly less than the card s revealed (exact ties are allowed both ways: the bot
breaks them by the hand's order, which is hidden). `JointModel.resample` deals as
`HeuristicModel.resample` does (the same first draws), then redeals, up to `tries` times, the
seats whose hands fail the check from the cards of those seats and the set-aside cards (a new
permutation each time, the allowed cards first as before; the seats that pass keep their
hands). A seat still failing after `tries` keeps its last hand.
"""

from __future__ import annotations

import numpy as np

from strategies.sixnimmt.model import (
    HeuristicModel,
    _cost,
    _turns_of_round,
    heuristic_model,
    plays_by_seat,
    seat_turns,
)
from strategies.sixnimmt.turn_table import Turn

#: redeals of the failing seats per determinization before the last hands are kept
TRIES = 20

#: a card above every card: `_cost`'s "extra" card when the hand is given whole
_NONE = 1 << 30

#: per seat, the checks of its hands: (the turn's table, the cards it revealed from that turn on,
#: sorted, the card it revealed at that turn)
Checks = list[tuple[Turn, list[int], int]]


def consistent(hand, checks: Checks) -> bool:
    """Whether the heuristic, holding `hand` plus the seat's known cards at each checked turn,
    would have played what the seat revealed (no card strictly cheaper; ties allowed)."""
    for table, known, played in checks:
        whole = sorted([*hand, *known])
        cost = _cost(table, played, whole, _NONE)
        for card in whole:
            if card != played and _cost(table, card, whole, _NONE) < cost:
                return False
    return True


class JointModel(HeuristicModel):
    """`HeuristicModel` whose deals are then checked seat by seat against every past turn."""

    def __init__(self, base: HeuristicModel, checks: list[Checks | None], tries: int = TRIES):
        super().__init__(base.allowed)
        self.checks = checks
        self.tries = tries

    def failing(self, state) -> list[int]:
        return [s for s in self.order
                if (c := self.checks[s]) and not consistent(state.hands[s], c)]

    def resample(self, state, rng: np.random.Generator) -> None:
        super().resample(state, rng)
        bad = self.failing(state)
        for _ in range(self.tries):
            if not bad:
                return
            self.redeal(state, rng, bad)
            bad = [s for s in bad if not consistent(state.hands[s], self.checks[s])]   # type: ignore[arg-type]


def joint_model(state, seat: int, caution: float = 1.0, tries: int = TRIES) -> JointModel | None:
    """model.py's `heuristic_model` with the exact joint check of each dealt hand; None where
    that model says nothing (the advanced game)."""
    base = heuristic_model(state, seat, caution)
    if base is None:
        return None
    n = state.n
    turns = _turns_of_round(state)
    played = plays_by_seat(turns, n)
    checks: list[Checks | None] = [None] * n
    for s in base.order:                          # the seats the model constrains
        found: Checks = []
        for table, known in seat_turns(state, s, turns, played[s], caution):
            found.append((table, sorted(known), known[0]))
        checks[s] = found
    return JointModel(base, checks, tries)
