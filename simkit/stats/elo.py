"""Two-strategy match statistics: Elo, normalised Elo, LOS and the SPRT.

These follow the definitions of the chess engine testing tools, so a simkit `compare` reads like
a fastchess or fishtest match:

- Elo from the mean score s (W + D/2 per game): elo = -400·log10(1/s - 1), its 95 % interval from
  s ± z·sqrt(var/N) mapped through the same curve, and LOS = Phi((s - 1/2)/sqrt(var/N))
  (fastchess `app/src/elo/elo_wdl.cpp`, `elo_pentanomial.cpp`; fishtest
  `server/fishtest/stats/stat_util.py: get_elo`).
- Normalised Elo: nElo = (s - 1/2)/sigma · 800/ln 10, sigma the per-game standard deviation of
  the score; for pentanomial (paired) results sigma = sqrt(2·var_pair) with var_pair the variance
  of the pair score (pair score = points of the pair / 2) (fastchess, same files).
- The generalised SPRT log-likelihood ratio (GSPRT, Michel Van den Bergh): the empirical
  distribution of game (or game-pair) scores is compared with its maximum-likelihood neighbours
  having expectation s0 and s1 (logistic model) or t-value t0 and t1 (normalised model);
  LLR = N · E_hat[log p1/p0]. Zero counts are regularised to 1e-3 (fishtest
  `server/fishtest/stats/LLRcalc.py`; fastchess `app/src/matchmaking/sprt/sprt.cpp`). Bounds are
  log(beta/(1-alpha)) and log((1-beta)/alpha); LLR at or above the upper bound accepts H1
  (elo = elo1, the first strategy is stronger), at or below the lower bound accepts H0.

Counts are given in the fishtest order: trinomial [losses, draws, wins]; pentanomial
[LL, LD+DL, WL+LW+DD, WD+DW, WW], always from the first strategy's point of view.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import optimize as _opt
from scipy import stats as _st

from simkit.stats.intervals import Z95, wilson

#: normalised Elo per unit t-value: 800/ln 10 (fishtest `nelo_divided_by_nt`)
NELO_PER_T = 800.0 / math.log(10.0)
_REG = 1e-3


def elo_to_score(elo: float) -> float:
    """Expected score of a player `elo` logistic Elo points stronger: 1/(1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """Logistic Elo difference of a mean score, clamped to [1e-3, 1 - 1e-3] (as fishtest)."""
    s = min(max(score, _REG), 1.0 - _REG)
    return -400.0 * math.log10(1.0 / s - 1.0)


def _norm_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@dataclass(frozen=True)
class EloEstimate:
    """Elo of the first strategy against the second, from the scores of independent units.

    A unit is a game (trinomial), a seat-swapped game pair (pentanomial) or, for pairwise Elo,
    a game or a deal. `n` is the number of units, `variance` the per-unit variance of the score.
    `elo_error` and `nelo_error` are 95 % half-widths (the symmetric "±" of fastchess);
    `elo_low` and `elo_high` are the honest, asymmetric 95 % bounds: the logistic curve applied
    to a Wilson-type score interval, so a perfect or a zero score gives an open-ended bound
    instead of "± 0". `interval` says which rule gave `elo_error`: "normal" (the fastchess
    formula) or "wilson" (near 0 % or 100 %, or no spread in the results, where the normal
    formula is not valid).
    """

    model: str
    n: int
    score: float
    variance: float
    elo: float
    elo_error: float
    nelo: float
    nelo_error: float
    los: float
    elo_low: float
    elo_high: float
    interval: str


def _elo_bound(score: float) -> float:
    """Logistic Elo of a score without clamping: -inf at 0 and +inf at 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _spread_ratio(score: float, var: float) -> float:
    """Observed variance relative to the largest possible for results in [0, 1] with this mean,
    s·(1 - s); 1 (the conservative Bernoulli case) when it cannot be estimated (no spread)."""
    top = score * (1.0 - score)
    if var <= 0.0 or top <= 0.0:
        return 1.0
    return min(var / top, 1.0)


def score_interval(score: float, var: float, n: float) -> tuple[float, float]:
    """95 % Wilson-type interval of a mean score in [0, 1] over n independent units.

    The Wilson score interval with the effective size n/k, k = var/(s(1 - s)) the observed
    variance relative to a win/loss-only result (draws and pairing make k < 1). It never leaves
    [0, 1] and keeps a real width at 0 % and 100 %; without any spread in the results (all wins,
    all losses, all draws) k = 1, the plain Wilson interval over n units.
    """
    k = _spread_ratio(score, var)
    n_eff = n / k
    return wilson(score * n_eff, n_eff)


def _estimate(model: str, values: Sequence[float], counts: Sequence[float], nelo_scale: float
              ) -> EloEstimate:
    n = float(sum(counts))
    if n <= 0:
        nan = float("nan")
        return EloEstimate(model, 0, nan, nan, nan, nan, nan, nan, nan, -math.inf, math.inf,
                           "none")
    probs = [c / n for c in counts]
    score = sum(v * p for v, p in zip(values, probs))
    var = sum(p * (v - score) ** 2 for v, p in zip(values, probs))
    var = max(var, 0.0) if var > 1e-15 else 0.0
    se = math.sqrt(var / n)
    hi, lo = score + Z95 * se, score - Z95 * se
    elo = score_to_elo(score)
    w_lo, w_hi = score_interval(score, var, n)
    elo_low, elo_high = _elo_bound(w_lo), _elo_bound(w_hi)
    if var > 0:
        sigma = math.sqrt(nelo_scale * var)
        nelo = (score - 0.5) / sigma * NELO_PER_T
        nelo_err = ((hi - 0.5) - (lo - 0.5)) / sigma * NELO_PER_T / 2.0
        los = _norm_cdf((score - 0.5) / se)
    else:
        # no spread: nElo is undefined; LOS from the conservative Bernoulli variance at 1/2
        nelo = nelo_err = float("nan")
        los = _norm_cdf((score - 0.5) / math.sqrt(0.25 / n))
    if var > 0 and 0.0 < lo and hi < 1.0:
        interval = "normal"
        elo_err = (score_to_elo(hi) - score_to_elo(lo)) / 2.0
    else:
        interval = "wilson"
        elo_err = (elo_high - elo_low) / 2.0
    return EloEstimate(model, int(round(n)), score, var, elo, elo_err, nelo, nelo_err, los,
                       elo_low, elo_high, interval)


def elo_wdl(*, wins: float, draws: float, losses: float) -> EloEstimate:
    """Elo, nElo and LOS from wins/draws/losses of single games (fastchess EloWDL).

    Keyword-only: fastchess and fishtest order the counts differently (W, L, D and L, D, W)."""
    return _estimate("trinomial", (0.0, 0.5, 1.0), (losses, draws, wins), 1.0)


def elo_pentanomial(penta: Sequence[float]) -> EloEstimate:
    """Elo, nElo and LOS from pentanomial pair counts [LL, LD, WL+DD, WD, WW] (fastchess
    EloPentanomial); the per-game nElo uses sigma = sqrt(2·var_pair)."""
    if len(penta) != 5:
        raise ValueError(f"pentanomial counts need 5 entries [LL, LD, WL+DD, WD, WW], got {len(penta)}")
    return _estimate("pentanomial", (0.0, 0.25, 0.5, 0.75, 1.0), penta, 2.0)


def elo_from_units(model: str, values: Sequence[float], counts: Sequence[float],
                   games_per_unit: float) -> EloEstimate:
    """Elo, nElo and LOS from the score distribution of independent units (e.g. deals): unit
    score `values[i]` seen `counts[i]` times; nElo per game uses sigma = sqrt(m·var_unit)."""
    return _estimate(model, values, counts, games_per_unit)


# ---------------------------------------------------------------------------------------------
# GSPRT log-likelihood ratio


def _secular(a: Sequence[float], p: Sequence[float]) -> float:
    """Root x of sum_i p_i·a_i/(1 + x·a_i) = 0 between -1/max(a) and -1/min(a)."""
    lo_a, hi_a = min(a), max(a)
    if not (lo_a < 0.0 < hi_a):
        raise ValueError("secular equation needs values of both signs")
    eps = 1e-9

    def f(x: float) -> float:
        return sum(pi * ai / (1.0 + x * ai) for ai, pi in zip(a, p))

    return _opt.brentq(f, -1.0 / hi_a + eps, -1.0 / lo_a - eps, xtol=1e-14, rtol=1e-14,
                       maxiter=500)


def _pdf(values: Sequence[float], counts: Sequence[float]) -> tuple[float, list[float], list[float]]:
    """(N, values, probabilities) with empty classes given 1e-3 (fishtest `regularize`); the
    ends 0 and 1 are added as such classes when missing, so the MLE always exists."""
    vals, reg = list(values), [c if c > 0 else _REG for c in counts]
    if vals[0] > 0.0:
        vals, reg = [0.0, *vals], [_REG, *reg]
    if vals[-1] < 1.0:
        vals, reg = [*vals, 1.0], [*reg, _REG]
    n = float(sum(reg))
    return n, vals, [c / n for c in reg]


def _grid(counts: Sequence[float]) -> list[float]:
    """Scores of trinomial [L, D, W] or pentanomial [LL, ..., WW] classes: 0, 1/(k-1), ..., 1."""
    if len(counts) not in (3, 5):
        raise ValueError(f"counts need 3 (L, D, W) or 5 (pentanomial) entries, got {len(counts)}")
    return [i / (len(counts) - 1) for i in range(len(counts))]


def _mle_expected(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """Maximum-likelihood distribution on `values` with expectation s (fishtest MLE_expected)."""
    shifted = [v - s for v in values]
    x = _secular(shifted, probs)
    return [p / (1.0 + x * a) for a, p in zip(shifted, probs)]


def _mle_t_value(values: Sequence[float], probs: Sequence[float], ref: float, t: float
                 ) -> list[float]:
    """Maximum-likelihood distribution with t-value (mu - ref)/sigma = t (fishtest MLE_t_value,
    Van den Bergh, "Comments on normalized Elo", section 4.1)."""
    k = len(values)
    cur = [1.0 / k] * k
    for _ in range(200):
        mu = sum(v * q for v, q in zip(values, cur))
        var = sum(q * (v - mu) ** 2 for v, q in zip(values, cur))
        sigma = math.sqrt(var)
        phi = [v - ref - t * sigma * (1.0 + ((mu - v) / sigma) ** 2) / 2.0 for v in values]
        x = _secular(phi, probs)
        new = [p / (1.0 + x * a) for a, p in zip(phi, probs)]
        done = max(abs(a - b) for a, b in zip(new, cur)) < 1e-12
        cur = new
        if done:
            break
    return cur


def llr_logistic_units(elo0: float, elo1: float, values: Sequence[float],
                       counts: Sequence[float]) -> float:
    """GSPRT log-likelihood ratio of H1: elo = elo1 against H0: elo = elo0 (logistic Elo) from
    the score distribution of independent units: score `values[i]` seen `counts[i]` times."""
    n, vals, probs = _pdf(values, counts)
    p0 = _mle_expected(vals, probs, elo_to_score(elo0))
    p1 = _mle_expected(vals, probs, elo_to_score(elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))


def llr_normalized_units(nelo0: float, nelo1: float, values: Sequence[float],
                         counts: Sequence[float], games_per_unit: float) -> float:
    """GSPRT log-likelihood ratio in normalised Elo from unit scores: t-values
    nelo/(800/ln 10)·sqrt(games per unit) (fishtest `LLR_normalized`, sqrt 2 for pairs)."""
    scale = math.sqrt(games_per_unit)
    t0, t1 = nelo0 / NELO_PER_T * scale, nelo1 / NELO_PER_T * scale
    n, vals, probs = _pdf(values, counts)
    p0 = _mle_t_value(vals, probs, 0.5, t0)
    p1 = _mle_t_value(vals, probs, 0.5, t1)
    return n * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))


def llr_logistic(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """GSPRT log-likelihood ratio of H1: elo = elo1 against H0: elo = elo0 (logistic Elo).

    `counts`: trinomial [L, D, W] or pentanomial [LL, LD, WL+DD, WD, WW] (fishtest
    `LLR_logistic`)."""
    return llr_logistic_units(elo0, elo1, _grid(counts), counts)


def llr_normalized(nelo0: float, nelo1: float, counts: Sequence[float]) -> float:
    """GSPRT log-likelihood ratio in normalised Elo (fishtest `LLR_normalized`): t-values
    nelo/(800/ln 10), times sqrt(2) for pentanomial counts."""
    games = 1.0 if len(counts) == 3 else 2.0
    return llr_normalized_units(nelo0, nelo1, _grid(counts), counts, games)


@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.

    alpha: the largest false-acceptance rate of H1 (at elo0); beta: the largest false-acceptance
    rate of H0 (at elo1). model: "logistic" (bounds in logistic Elo) or "normalized" (nElo).
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT elo0 must be less than elo1, got {self.elo0} and {self.elo1}")
        for name, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < v < 1.0:
                raise ValueError(f"SPRT {name} must be between 0 and 1 (exclusive), got {v}")
        if self.alpha + self.beta >= 1.0:
            raise ValueError(f"SPRT alpha + beta must be below 1, got {self.alpha + self.beta}")
        if self.model not in ("logistic", "normalized"):
            raise ValueError(f"SPRT model must be 'logistic' or 'normalized', got {self.model!r}")

    @property
    def lower(self) -> float:
        """log(beta/(1-alpha)): at or below it H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """log((1-beta)/alpha): at or above it H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        if sum(counts) <= 0:
            return 0.0
        if self.model == "logistic":
            return llr_logistic(self.elo0, self.elo1, counts)
        return llr_normalized(self.elo0, self.elo1, counts)

    def llr_units(self, values: Sequence[float], counts: Sequence[float],
                  games_per_unit: float) -> float:
        """The LLR from unit scores (e.g. pairwise scores per deal, see `pairwise.py`)."""
        if sum(counts) <= 0:
            return 0.0
        if self.model == "logistic":
            return llr_logistic_units(self.elo0, self.elo1, values, counts)
        return llr_normalized_units(self.elo0, self.elo1, values, counts, games_per_unit)

    def decision(self, llr: float) -> str | None:
        """'H1' (elo1 accepted), 'H0' (elo0 accepted) or None (continue)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def describe(self) -> str:
        """The test in one line, its bounds named on the scale `compare` runs it on (pairwise
        Elo, as in the report and the result lines)."""
        unit = "pairwise Elo" if self.model == "logistic" else "pairwise nElo"
        return (f"SPRT [{self.elo0:g}, {self.elo1:g}] {unit}, alpha={self.alpha:g}, "
                f"beta={self.beta:g}, bounds ({self.lower:.2f}, {self.upper:.2f})")


def los_from_counts(wins: float, losses: float) -> float:
    """Classical likelihood of superiority from decisive games only (draws ignored):
    Phi((W - L)/sqrt(W + L)). Kept for reference; the EloEstimate LOS uses all games."""
    if wins + losses <= 0:
        return 0.5
    return float(_st.norm.cdf((wins - losses) / math.sqrt(wins + losses)))
