"""Many tests at once: Holm and Benjamini–Hochberg adjusted p-values, and flags for tables.

A table of k seats (or a sweep of many cells) tested at 5 % each finds something "significant"
far more often than 5 % of the time. Adjusted p-values fix that:

- Holm (1979): controls the family-wise error rate (the chance of any false flag) at alpha;
  sorted p_(1) <= ... <= p_(k), adjusted p_(i) = max over j <= i of min(1, (k - j + 1)·p_(j)).
- Benjamini–Hochberg (1995): controls the false discovery rate (the expected share of false
  flags among the flags) at alpha, for independent or positively dependent tests; adjusted
  p_(i) = min over j >= i of min(1, k·p_(j)/j).
Both agree with `statsmodels.stats.multitest.multipletests` ("holm", "fdr_bh").
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
import pandas as pd

METHODS = {"holm": "Holm (family-wise error rate)",
           "bh": "Benjamini-Hochberg (false discovery rate)"}


def holm(pvalues: npt.ArrayLike) -> np.ndarray:
    """Holm step-down adjusted p-values (NaN entries stay NaN and are not counted)."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    k = int(ok.sum())
    if k == 0:
        return out
    order = np.argsort(p[ok], kind="stable")
    scaled = (k - np.arange(k)) * p[ok][order]
    adjusted = np.minimum(1.0, np.maximum.accumulate(scaled))
    values = np.empty(k)
    values[order] = adjusted
    out[ok] = values
    return out


def benjamini_hochberg(pvalues: npt.ArrayLike) -> np.ndarray:
    """Benjamini–Hochberg step-up adjusted p-values (NaN entries stay NaN, not counted)."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    k = int(ok.sum())
    if k == 0:
        return out
    order = np.argsort(p[ok], kind="stable")
    scaled = k * p[ok][order] / np.arange(1, k + 1)
    adjusted = np.minimum(1.0, np.minimum.accumulate(scaled[::-1])[::-1])
    values = np.empty(k)
    values[order] = adjusted
    out[ok] = values
    return out


def adjust(pvalues: npt.ArrayLike, method: str = "holm") -> np.ndarray:
    """Adjusted p-values by `method`: "holm" or "bh"."""
    if method == "holm":
        return holm(pvalues)
    if method == "bh":
        return benjamini_hochberg(pvalues)
    raise ValueError(f"correction method must be one of {sorted(METHODS)}, got {method!r}")


def flag_significant(table: pd.DataFrame, p_column: str = "p_value", method: str = "holm",
                     alpha: float = 0.05) -> pd.DataFrame:
    """A copy of `table` with `p_adjusted` and `significant` (adjusted p < alpha) columns; the
    correction is named in the `correction` column and in `attrs["correction"]`."""
    out = table.copy()
    out["p_adjusted"] = adjust(out[p_column].to_numpy(dtype=float), method)
    out["significant"] = out["p_adjusted"] < alpha
    label = f"{METHODS[method]}, alpha {alpha:g}, {int(out[p_column].notna().sum())} tests"
    out["correction"] = label
    out.attrs["correction"] = label
    return out


def flag_sweep(tables: Mapping[str, pd.DataFrame], p_column: str = "p_value",
               method: str = "bh", alpha: float = 0.05) -> pd.DataFrame:
    """Stack the tables of several runs (e.g. the cells of a sweep) with a `run` column and
    flag significant rows, correcting over all rows of all runs together."""
    frames = [t.assign(run=name) for name, t in tables.items()]
    if not frames:
        return pd.DataFrame(columns=["run", p_column, "p_adjusted", "significant"])
    stacked = pd.concat(frames, ignore_index=True)
    return flag_significant(stacked, p_column, method, alpha)


def seat_effect_flags(seats: pd.DataFrame, method: str = "holm", alpha: float = 0.05
                      ) -> pd.DataFrame:
    """`seat_effects` with each seat's p-value against the fair share (`seat_win_pvalues`,
    deals as units in duplicate runs), the adjusted p-value and a `significant` flag."""
    from simkit.stats.seat_tests import seat_win_pvalues
    from simkit.stats.tables import seat_effects

    table = seat_effects(seats)
    table["p_value"] = table["seat"].map(seat_win_pvalues(seats))
    return flag_significant(table, "p_value", method, alpha)
