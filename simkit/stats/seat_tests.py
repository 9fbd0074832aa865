"""Seat tests with deals as blocks, for duplicate runs.

In a duplicate run every deal is played once per seat rotation with the same cards in each
seat, so a seat that was dealt good cards wins in every rotation of that deal: the games of a
deal are not independent, and a test that counts them as such rejects "no seat effect" too
often. Here the deal is the independent unit:

- wins: per deal, each seat's total win share; Hotelling's T² test that the seat means are
  equal (contrasts of each seat with the last, their covariance estimated across deals;
  F = (N - p)/(p(N - 1))·T² on (p, N - p) degrees of freedom, p = seats - 1). With two seats
  it is the paired t-test of the deal differences.
- scores: per deal, each seat's mean score; Friedman's test with deals as blocks (3+ seats) or
  the Wilcoxon signed-rank test of the deal differences (2 seats).
Both are valid when, without a seat effect, the seats are exchangeable over random deals.
"""

from __future__ import annotations

from typing import cast

import numpy as np
import pandas as pd
from scipy import stats as _st


def has_repeated_deals(seats: pd.DataFrame) -> bool:
    """True for duplicate runs: some deal was played in more than one game."""
    return "deal" in seats and seats["deal"].nunique() < seats["game"].nunique()


def deal_seat_table(seats: pd.DataFrame, column: str, how: str) -> pd.DataFrame:
    """Deals x seats: `how` ("sum" or "mean") of `column` over the deal's games; deals with a
    missing seat value (a forfeited score) are dropped."""
    grouped = seats.groupby(["deal", "seat"], sort=True)[column]
    table = (grouped.sum(min_count=1) if how == "sum" else grouped.mean()).unstack("seat")
    return table.dropna()


def hotelling_equal_means(rows: np.ndarray) -> tuple[float, int, float]:
    """(T², p, p-value) of 'all columns have the same mean', rows the independent units."""
    n_units, k = rows.shape
    dims = k - 1
    if k < 2 or n_units <= dims:
        return float("nan"), max(dims, 0), float("nan")
    contrasts = rows[:, :-1] - rows[:, -1:]
    mean = contrasts.mean(axis=0)
    cov = np.atleast_2d(np.cov(contrasts, rowvar=False, ddof=1))
    if not np.any(cov):
        return float("nan"), dims, float("nan")
    t2 = float(n_units * mean @ np.linalg.pinv(cov) @ mean)
    f = (n_units - dims) / (dims * (n_units - 1)) * t2
    return t2, dims, float(_st.f.sf(f, dims, n_units - dims))


def blocked_score_test(blocks: pd.DataFrame) -> dict:
    """Do the seats' scores differ? `blocks`: one row per block (game or deal), one column per
    seat. Friedman's test with 3+ seats, the Wilcoxon signed-rank test with 2; scores_test is
    None (and the figures NaN) where neither applies."""
    out: dict = {"scores_test": None, "scores_stat": float("nan"), "scores_p": float("nan")}
    if blocks.shape[1] >= 3 and blocks.shape[0] >= 2:
        try:
            stat, p = _st.friedmanchisquare(*[blocks[c].to_numpy() for c in blocks.columns])
            out.update(scores_test="friedman", scores_stat=float(stat), scores_p=float(p))
        except ValueError:
            pass
    elif blocks.shape[1] == 2 and blocks.shape[0] >= 2:
        first, second = blocks.iloc[:, 0].to_numpy(), blocks.iloc[:, 1].to_numpy()
        if np.any(first != second):
            stat, p = _st.wilcoxon(first, second)
            out.update(scores_test="wilcoxon", scores_stat=float(stat), scores_p=float(p))
    return out


def blocked_seat_tests(seats: pd.DataFrame) -> dict:
    """The seat tests of `seat_independence` with deals as blocks (see the module docstring)."""
    out: dict = {"blocks": "deals"}
    wins = deal_seat_table(seats, "win", "sum")
    t2, df, p = hotelling_equal_means(wins.to_numpy(dtype=float))
    out.update(wins_test="hotelling", wins_chi2=t2, wins_df=df, wins_p=p, deals=len(wins))
    out.update(blocked_score_test(deal_seat_table(seats, "score", "mean")))
    return out


def seat_win_pvalues(seats: pd.DataFrame) -> pd.Series:
    """Per seat, the two-sided p-value of 'this seat wins its fair share 1/n'.

    Without repeated deals: the score test z = (w/N - 1/n)/sqrt((1/n)(1 - 1/n)/N) over the
    seat's N games. In duplicate runs: the t-test of the seat's deal totals against their fair
    value (games of the deal / n), deals as units."""
    n_players = int(seats["seat"].max()) + 1 if len(seats) else 0
    fair = 1.0 / n_players if n_players else float("nan")
    out: dict[int, float] = {}
    if has_repeated_deals(seats):
        wins = deal_seat_table(seats, "win", "sum")
        games = seats.groupby("deal")["game"].nunique().reindex(wins.index).to_numpy()
        for column in wins.columns:
            excess = wins[column].to_numpy(dtype=float) - games * fair
            out[int(column)] = (float(_st.ttest_1samp(excess, 0.0).pvalue)
                              if len(excess) > 1 and np.any(excess != excess[0]) else float("nan"))
    else:
        for key, grp in seats.groupby("seat", sort=True):
            n = len(grp)
            z = (grp["win"].sum() / n - fair) / np.sqrt(fair * (1 - fair) / n)
            out[int(cast(np.integer, key))] = float(2 * _st.norm.sf(abs(z)))
    return pd.Series(out, name="p_value").rename_axis("seat")
