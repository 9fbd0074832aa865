"""A cheap value of a 6 nimmt! position for a seat (`Game.evaluate`, issue 20): the bullhead
margin (finished rounds' totals plus this round's penalty points, N13-N15, fewest wins) and the
danger of the rows: a seat's hand card that lands on a row of 5 cards takes it (N9), one below
every row end takes a row of the owner's choice (N10, the cheapest counted); each seat is
charged the bullheads its hand risks that way, times a weight (a risk, not a certainty)."""

from __future__ import annotations

from bisect import bisect_left

from simkit.engine.evaluation import standing
from simkit.games.sixnimmt.rules import BH

#: bullheads of margin worth about one logistic unit (a typical single row is 5-10)
SCALE = 6.0
#: share of the bullheads a hand risks that is counted against it
RISK_WEIGHT = 0.25


def bullheads(state) -> list[float]:
    """Per seat: bullheads so far (totals and this round) plus the weighted risk of its hand."""
    rows = state.rows
    ends, order = state.low_ends, state.low_rows
    full = state.config.row_capacity - 1
    if not rows:                                        # advanced game before the rows are laid
        return [float(state.totals[s] + state.points[s]) for s in range(state.n)]
    row_bh = [sum(BH[c] for c in row) for row in rows]
    cheapest = min(row_bh)
    out = []
    for s, hand in enumerate(state.hands):
        risk = 0
        for card in hand:
            k = bisect_left(ends, card)
            if k == 0:
                risk += cheapest                        # N10: below every row end
            elif len(rows[order[k - 1]]) >= full:
                risk += row_bh[order[k - 1]]            # N9: the sixth card
        out.append(state.totals[s] + state.points[s] + RISK_WEIGHT * risk)
    return out


def evaluate(state, seat: int) -> float:
    """The seat's expected share of the others it ends ahead of, from the bullhead margin."""
    return standing(bullheads(state), seat, SCALE, higher_is_better=False)


def round_of(state) -> int:
    """The round being played: a rollout cut at its end sees the round's points in the totals."""
    return state.round
