"""Does a strategy win more (or less) than its fair share? One test per strategy, corrected for
testing them all.

A report that names "the strongest" strategy compares every strategy's win share with its fair
share (its seats / players). With several strategies some interval misses its fair share by
chance alone: four identical `random` bots over 20,000 games named `random#2` the winner at
1.03× (issue 24). So, as for the seats (`seat_effect_flags`), each strategy gets a p-value and
the p-values are adjusted over the strategies (Holm by default) before any is called different.

The p-value of "this strategy wins its fair share": per game, its win share (the sum of its
seats' shares) minus its fair share; without repeated deals the score test
z = mean / sqrt(f(1 - f)/N) over the N games (f the fair share; the variance of a share in
[0, 1] with mean f is at most f(1 - f), reached without draws or shared wins); in duplicate runs
the t-test of the deals' totals, deals as units (the games of a deal share its cards).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as _st

from simkit.stats.multiple import flag_significant
from simkit.stats.seat_tests import has_repeated_deals
from simkit.stats.tables import player_key, summary_table


def _excess_per_game(seats: pd.DataFrame) -> pd.DataFrame:
    """One row per (player, game): its win share minus its fair share, and the game's deal."""
    n_players = seats.groupby("game")["seat"].transform("size").to_numpy(dtype=float)
    df = pd.DataFrame({"player": player_key(seats).to_numpy(), "game": seats["game"].to_numpy(),
                       "excess": seats["win"].to_numpy(dtype=float) - 1.0 / n_players})
    if "deal" in seats:
        df["deal"] = seats["deal"].to_numpy()
    keys = ["player", "game"] + (["deal"] if "deal" in df else [])
    return df.groupby(keys, sort=False)["excess"].sum().reset_index()


def strategy_win_pvalues(seats: pd.DataFrame) -> pd.Series:
    """Per strategy (the summary's `player`), the two-sided p-value of 'it wins its fair
    share' (see the module docstring); NaN where the results have no spread to test."""
    per_game = _excess_per_game(seats)
    fair = summary_table(seats).set_index("player")["fair_share"]
    duplicate = has_repeated_deals(seats)
    out: dict[str, float] = {}
    for player, grp in per_game.groupby("player", sort=False):
        name = str(player)
        if duplicate:
            totals = grp.groupby("deal")["excess"].sum().to_numpy(dtype=float)
            spread = len(totals) > 1 and bool(np.any(totals != totals[0]))
            out[name] = float(_st.ttest_1samp(totals, 0.0).pvalue) if spread else float("nan")
        else:
            f = float(fair[name])
            n = len(grp)
            if not 0.0 < f < 1.0 or n == 0:
                out[name] = float("nan")
                continue
            z = grp["excess"].mean() / np.sqrt(f * (1 - f) / n)
            out[name] = float(2 * _st.norm.sf(abs(z)))
    return pd.Series(out, name="p_value").rename_axis("player")


def strategy_effect_flags(seats: pd.DataFrame, method: str = "holm", alpha: float = 0.05
                          ) -> pd.DataFrame:
    """`summary_table` with each strategy's p-value against its fair share, the p-value
    adjusted over the strategies (`p_adjusted`), `significant` (adjusted p < alpha) and the
    correction named in `correction`."""
    table = summary_table(seats)
    table["p_value"] = table["player"].map(strategy_win_pvalues(seats))
    return flag_significant(table, "p_value", method, alpha)
