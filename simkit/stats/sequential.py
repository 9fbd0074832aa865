"""Elo after a sequential test: the bias-adjusted estimate and interval (fishtest's method).

A test that stops as soon as the LLR crosses a bound stops more often after a lucky run, so
the plain Elo of the stopped sample is biased away from the middle of [elo0, elo1] and its
interval covers the truth less often than it says. Following fishtest
(`server/fishtest/stats/sprt.py`, Michel Van den Bergh), the LLR path is approximated by a
Brownian motion with drift mu(elo) and variance sigma²(elo) per unit, absorbed at the bounds
a < 0 < b (Van den Bergh, "A Brownian approximation of the GSPRT"):

    mu = (s - (s0 + s1)/2)·(s1 - s0)/v,   sigma² = (s1 - s0)²/v,

with s the expected unit score at that Elo, s0, s1 those at elo0, elo1, and v the variance of
the observed unit scores. Outcomes are ordered from worst to best for A (Siegmund's ordering): a
fail at a time before T, a fail at T, no decision at T with a lower LLR, a pass later, a pass
sooner. `outcome_prob(elo)` is the probability of an outcome worse than the observed one; the
estimate is the Elo at which it is 1/2 (median-unbiased) and the 95 % bounds where it is 0.975
and 0.025. An observed LLR past a bound (checks after whole batches overshoot) is put back on the
bound at the time the average drift would have reached it, as fishtest does.

**The variance is held at the observed one for every candidate Elo.** fishtest's `sprt.py` takes
v + (s - s_hat)² at each s (a first-order maximum-likelihood variance with expectation s). Far
from s_hat that term grows faster than the drift's numerator, so the drift mu falls again as the
Elo rises and the probability of a worse outcome is not monotone: for a 4-player 6 nimmt! compare
that passed at once (issue 24) it is 0.69 at +305, 0.42 at +340, 0.66 at +400 and 1.0 from about
+500, so a root finder that assumes a falling curve ran to its bound and printed "≥ +1000"
against a sample +327 (fishtest's own later fix takes the leftmost falling crossing, which keeps
the median, +323.7, but leaves the upper bound unreached). With v fixed, mu is linear in s and
sigma² constant, and the probability falls strictly with the Elo: couple two walks on the same
noise; the one with the larger drift lies above the other at all times, so it fails later (or not
at all) and passes sooner, which is a better outcome in the ordering above. Each level therefore
has exactly one root, and the same units give +323.4 [+223.0, +503.9]. Near the observed score,
where the estimate and its interval lie in ordinary tests, the two variances agree to first order
(the simulated coverage checks in the tests pass with either).

The probability is the exact series for Brownian motion between two absorbing barriers (an
eigenfunction expansion of the killed transition density, integrated in closed form), with
Siegmund's one-reflection approximation where the series converges slowly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import optimize as _opt
from scipy import stats as _st

from simkit.stats.elo import NELO_PER_T, SPRT, _pdf, elo_to_score

#: the search for the estimate and its bounds spans ±ELO_REACH Elo (a score of 0.3 % or
#: 99.7 %); a figure beyond it is reported as the reach with its `*_at_reach` flag set
ELO_REACH = 1000.0


@dataclass(frozen=True)
class SequentialEstimate:
    """Median-unbiased logistic Elo after a sequential test, its 95 % interval and the LOS,
    all taking the stopping rule into account. `llr` is the (possibly clamped) LLR used and
    `clamped` says whether the observed LLR was more than 3 % past a bound. `elo_at_reach`,
    `low_at_reach`, `high_at_reach`: the figure lies at or beyond ±ELO_REACH, where the search
    stops; the value is then the reach itself, read "≥ +1000" (or "≤ -1000")."""

    elo: float
    low: float
    high: float
    los: float
    llr: float
    units: float
    clamped: bool
    elo_at_reach: bool = False
    low_at_reach: bool = False
    high_at_reach: bool = False
    method: str = ("Brownian approximation of the SPRT (fishtest sprt_elo, observed variance), "
                   "median-unbiased")


def _phi_times_exp(log_factor: float, z: float) -> float:
    """exp(log_factor)·Phi(z) without overflow."""
    return math.exp(log_factor + float(_st.norm.logcdf(z)))


def outcome_cdf(a: float, b: float, mu: float, var: float, t: float, y: float) -> float:
    """P(an outcome worse than (t, y)) for Brownian motion from 0 with drift mu and variance var
    per unit time, absorbed at a < 0 < b; y is the LLR at time t (a, b or in between)."""
    width = b - a
    gamma = mu / var
    if var * t / width ** 2 < 1e-2 or abs(gamma * width) > 15:
        return _outcome_cdf_reflection(a, b, mu, var, t, y)
    return _outcome_cdf_series(a, b, mu, var, t, y)


def _outcome_cdf_series(a: float, b: float, mu: float, var: float, t: float, y: float) -> float:
    width, x, z = b - a, -a, y - a           # shifted so the strip is (0, width)
    gamma = mu / var
    if abs(gamma * width) < 1e-8:
        fail = (width - x) / width
    else:
        fail = ((math.exp(-2 * gamma * x) - math.exp(-2 * gamma * width))
                / (1 - math.exp(-2 * gamma * width)))
    front = math.exp(gamma * (z - x) - mu * mu / (2 * var) * t)
    total = 0.0
    n = 1
    while True:
        k = n * math.pi / width
        size = (math.exp(-k * k * var * t / 2) * (2 / width)
                * (gamma * math.sin(k * z) - k * math.cos(k * z)) / (gamma ** 2 + k * k))
        total += size * math.sin(k * x)
        # stop on the term's size without the sin(k·x) factor: with the start in the middle of
        # the strip every even term is 0, which is no sign that the series has converged
        if abs(front * size) < 1e-12 and n > 2:
            break
        n += 1
    return min(1.0, max(0.0, fail + front * total))


def _outcome_cdf_reflection(a: float, b: float, mu: float, var: float, t: float, y: float
                            ) -> float:
    sd = math.sqrt(t * var)
    gamma = mu / var
    drift = mu * t
    inside = float(_st.norm.cdf((y - drift) / sd))
    below = _phi_times_exp(2 * gamma * a, (-y + drift + 2 * a) / sd)
    above = _phi_times_exp(2 * gamma * b, (y - drift - 2 * b) / sd)
    return min(1.0, max(0.0, inside + below - above))


def _scores(sprt: SPRT, var: float, games_per_unit: float) -> tuple[float, float]:
    if sprt.model == "logistic":
        return elo_to_score(sprt.elo0), elo_to_score(sprt.elo1)
    sigma_game = math.sqrt(games_per_unit * var)
    return (0.5 + sprt.elo0 / NELO_PER_T * sigma_game, 0.5 + sprt.elo1 / NELO_PER_T * sigma_game)


def sequential_estimate(sprt: SPRT, values: Sequence[float], counts: Sequence[float],
                        games_per_unit: float = 1.0, level: float = 0.95
                        ) -> SequentialEstimate | None:
    """The bias-adjusted Elo after an SPRT over unit scores (see the module docstring); None
    without units or without any spread in the results."""
    if sum(counts) <= 0:
        return None
    n, vals, probs = _pdf(values, counts)
    s_hat = sum(v * p for v, p in zip(vals, probs))
    var = sum(p * (v - s_hat) ** 2 for v, p in zip(vals, probs))
    if var <= 0:
        return None
    s0, s1 = _scores(sprt, var, games_per_unit)
    a, b = sprt.lower, sprt.upper
    slope = (s_hat - (s0 + s1) / 2) * (s1 - s0) / var
    llr, t = n * slope, n
    clamped = llr > 1.03 * b or llr < 1.03 * a
    if llr < a:
        llr, t = a, a / slope
    elif llr > b:
        llr, t = b, b / slope

    sigma2 = (s1 - s0) ** 2 / var            # the LLR's variance per unit, the same at every Elo

    def worse(elo: float) -> float:
        """P(a worse outcome than the observed one) at this Elo; falls as the Elo grows."""
        mu = (elo_to_score(elo) - (s0 + s1) / 2) * (s1 - s0) / var
        return outcome_cdf(a, b, mu, sigma2, t, llr)

    middle, step = (sprt.elo0 + sprt.elo1) / 2, max(sprt.elo1 - sprt.elo0, 1.0)

    def solve(target: float) -> tuple[float, bool]:
        """The Elo where `worse` equals `target` (it falls strictly as the Elo grows, so there
        is one root), and whether the search had to stop at ±ELO_REACH because the root lies
        there or beyond."""
        reach = 30.0
        while True:
            lo = max(middle - reach * step, -ELO_REACH)
            hi = min(middle + reach * step, ELO_REACH)
            f_lo, f_hi = worse(lo) - target, worse(hi) - target
            if f_lo * f_hi <= 0:
                root = float(_opt.brentq(lambda e: worse(e) - target, lo, hi, xtol=1e-6))
                return root, abs(root) >= ELO_REACH
            if lo <= -ELO_REACH and hi >= ELO_REACH:
                return (hi, True) if f_lo > 0 else (lo, True)
            reach *= 2

    tail = (1 - level) / 2
    (elo, elo_r), (low, low_r), (high, high_r) = solve(0.5), solve(1 - tail), solve(tail)
    return SequentialEstimate(elo=elo, low=low, high=high, los=worse(0.0), llr=llr, units=t,
                              clamped=clamped, elo_at_reach=elo_r, low_at_reach=low_r,
                              high_at_reach=high_r)
