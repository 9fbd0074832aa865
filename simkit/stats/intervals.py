"""Confidence intervals for proportions and means.

All intervals are two-sided at level `level` (default 95 %). They take plain numbers (or numpy
arrays) and return plain floats, so they work on any groupby of the results tables.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import stats as _st

#: the two-sided 95 % normal quantile, as fastchess uses it (CI95ZSCORE)
Z95 = 1.959963984540054


def z_value(level: float = 0.95) -> float:
    """The normal quantile z with P(|Z| < z) = level."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must be between 0 and 1, got {level}")
    if level == 0.95:
        return Z95
    return float(_st.norm.ppf(0.5 + level / 2.0))


def wilson(successes: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion successes/n.

    Wilson (1927), "Probable inference, the law of succession, and statistical inference",
    JASA 22: the set of p whose score test does not reject at `level`:

        centre = (p + z²/2n) / (1 + z²/n),  half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n).

    Fractional successes (shared wins of tied co-winners count 1/k) are allowed. With n = 0 the
    interval is the whole of [0, 1].
    """
    if n <= 0:
        return (0.0, 1.0)
    if successes < 0 or successes > n:
        raise ValueError(f"successes must be within 0..n, got {successes} of {n}")
    z = z_value(level)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)     # exact at the ends: the
    high = 1.0 if successes == n else min(1.0, centre + half)    # formula gives 1 - 1e-16
    return (low, high)


def wilson_arrays(successes: np.ndarray, n: np.ndarray, level: float = 0.95
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised `wilson` (for running win shares); n = 0 gives [0, 1]."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = z_value(level)
    z2 = z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / n
        denom = 1.0 + z2 / n
        centre = (p + z2 / (2.0 * n)) / denom
        half = z * np.sqrt(np.clip(p * (1.0 - p), 0.0, None) / n + z2 / (4.0 * n * n)) / denom
    lo = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
    hi = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    return lo, hi


@dataclass(frozen=True)
class MeanCI:
    """A sample mean with its Student-t interval."""

    mean: float
    low: float
    high: float
    sd: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0


def mean_ci(values: npt.ArrayLike, level: float = 0.95) -> MeanCI:
    """Mean of `values` (NaNs dropped) with a Student-t interval on n-1 degrees of freedom.

    With one value the interval is that value itself widened to ±inf; with none, all NaN.
    """
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        nan = float("nan")
        return MeanCI(nan, nan, nan, nan, 0)
    m = float(x.mean())
    if n == 1:
        return MeanCI(m, -math.inf, math.inf, float("nan"), 1)
    sd = float(x.std(ddof=1))
    t = float(_st.t.ppf(0.5 + level / 2.0, n - 1))
    half = t * sd / math.sqrt(n)
    return MeanCI(m, m - half, m + half, sd, n)


def mean_ci_from_moments(total: float, total_sq: float, n: int, level: float = 0.95
                         ) -> tuple[float, float, float]:
    """(mean, low, high) from the sum and sum of squares: the fast path of `summary_table`."""
    if n <= 0:
        nan = float("nan")
        return (nan, nan, nan)
    m = total / n
    if n == 1:
        return (m, -math.inf, math.inf)
    var = max(0.0, (total_sq - n * m * m) / (n - 1))
    t = float(_st.t.ppf(0.5 + level / 2.0, n - 1))
    half = t * math.sqrt(var / n)
    return (m, m - half, m + half)


def quantiles(values: npt.ArrayLike, probs: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95)
              ) -> dict[str, float]:
    """Named sample quantiles (linear interpolation), NaNs dropped: {'q05': .., 'q50': ..}."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    out = {}
    for p in probs:
        key = f"q{round(p * 100):02d}"
        out[key] = float(np.quantile(x, p)) if x.size else float("nan")
    return out
