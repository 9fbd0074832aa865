"""A cheap value of a Shipside position for a seat (`Game.evaluate`, issue 20): the score margin
(S54) plus the board: every ship in play counted for its points (ship and crew, S35) times how
much nearer the seat's side is to capturing it (side total over the defense, S32, S48)."""

from __future__ import annotations

from simkit.engine.evaluation import standing
from simkit.games.shipside.rules import threshold

#: points of margin worth about one logistic unit (a game is won at 4 points by default)
SCALE = 1.5
#: weight of the board's progress against points already scored
BOARD_WEIGHT = 0.5


def points(st) -> list[float]:
    """Per seat: points scored plus the weighted progress on the ships still in play."""
    T, cfg = st.T, st.config
    bonus, ship_points = cfg.rum.defense_bonus, cfg.scoring.ship_points
    board = 0.0                                          # seat A's lead, in points
    for s in st.row:
        thr = threshold(T.defense[s], len(st.mugs[s]), bonus)
        if thr <= 0:
            continue
        a, b = st.tot[s]
        lead = (min(a, thr) - min(b, thr)) / thr
        board += lead * (ship_points + sum(T.crew_points[c] for c in st.crew[s]))
    return [st.score[0] + BOARD_WEIGHT * board, st.score[1] - BOARD_WEIGHT * board]


def evaluate(st, seat: int) -> float:
    return standing(points(st), seat, SCALE)
