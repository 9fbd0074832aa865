"""The bias-adjusted Elo after an SPRT against a reference computed here (issue 24, point 1).

The reference follows fishtest's `sprt.py` / `brownian.py` formulation (the eigenvalue series
with lambda_n, Siegmund's approximation where it converges slowly), written from scratch here,
and finds the estimate and its bounds by scanning a 1-Elo grid from -1000 to +1000 and then a
0.01-Elo grid inside the cell where the level is crossed: no bracketing, no root finder, no
monotonicity assumed. It also counts the crossings, so a curve that turns back (the cause of
issue 24's "≥ +1000") fails the test instead of being hidden by it.
"""

import math

import pytest
from scipy.special import log_ndtr

from simkit.stats import SPRT
from simkit.stats.sequential import sequential_estimate

NELO_PER_T = 800 / math.log(10)

# issue 24's reproducer: the unit counts of `simkit compare sixnimmt heuristic random -p 4
# --seed 3` (125 deals, 16 seat comparisons each, so scores in steps of 1/32)
ISSUE_VALUES = [i / 32 for i in range(33)]
ISSUE_COUNTS = [0] * 20 + [2, 4, 5, 0, 13, 2, 15, 4, 33, 1, 23, 1, 22]


def _logistic(elo):
    return 1 / (1 + 10 ** (-elo / 400))


def _ref_state(sprt, values, counts, games_per_unit):
    """(a, b, s0, s1, s_hat, var, T, y) as fishtest's `set_state` (empty classes count 1e-3)."""
    reg = [c if c > 0 else 1e-3 for c in counts]
    total = sum(reg)
    probs = [c / total for c in reg]
    s_hat = sum(v * p for v, p in zip(values, probs))
    var = sum(p * (v - s_hat) ** 2 for v, p in zip(values, probs))
    if sprt.model == "logistic":
        s0, s1 = _logistic(sprt.elo0), _logistic(sprt.elo1)
    else:
        sd = math.sqrt(games_per_unit * var)
        s0, s1 = (0.5 + e / NELO_PER_T * sd for e in (sprt.elo0, sprt.elo1))
    a = math.log(sprt.beta / (1 - sprt.alpha))
    b = math.log((1 - sprt.beta) / sprt.alpha)
    per_unit = (s1 - s0) * (2 * s_hat - s0 - s1) / var / 2
    y, t = total * per_unit, total
    if y > b:
        y, t = b, b / per_unit
    elif y < a:
        y, t = a, a / per_unit
    return a, b, s0, s1, s_hat, var, t, y


def _siegmund(a, b, mu, sigma2, t, y):
    sd = math.sqrt(t * sigma2)
    g = mu / sigma2
    return (math.exp(log_ndtr((y - mu * t) / sd))
            + math.exp(2 * g * a + log_ndtr((2 * a - y + mu * t) / sd))
            - math.exp(2 * g * b + log_ndtr((y - mu * t - 2 * b) / sd)))


def _series(a, b, mu, sigma2, t, y):
    width, x, y = b - a, -a, y - a
    g = mu / sigma2

    def lam(n):
        return (n * math.pi / width) ** 2 * sigma2 / 2 + mu * mu / sigma2 / 2

    def prim(n):
        k = n * math.pi
        return ((2 * width * g * math.sin(k * y / width) - 2 * k * math.cos(k * y / width))
                / (width ** 2 * g ** 2 + k ** 2))

    lead = math.exp(-lam(1) * t + g * (y - x))
    total, n = 0.0, 1
    while True:
        term = math.exp(-(lam(n) - lam(1)) * t) * prim(n)
        total += term * math.sin(n * math.pi * x / width)
        if abs(lead * term) <= 1e-12:
            break
        n += 1
    if abs(g * width) < 1e-8:
        fail = (width - x) / width
    else:
        fail = (1 - math.exp(2 * g * (width - x))) / (1 - math.exp(2 * g * width))
    return fail + lead * total


def _ref_worse(state, elo, mle_variance=False):
    """fishtest's `outcome_prob`; mle_variance=True takes var + (s - s_hat)² as fishtest does,
    False the observed variance at every Elo (the fix)."""
    a, b, s0, s1, s_hat, var, t, y = state
    s = _logistic(elo)
    v = var + (s - s_hat) ** 2 if mle_variance else var
    mu, sigma2 = (s - (s0 + s1) / 2) * (s1 - s0) / v, (s1 - s0) ** 2 / v
    if sigma2 * t / (b - a) ** 2 < 1e-2 or abs(mu / sigma2 * (b - a)) > 15:
        return _siegmund(a, b, mu, sigma2, t, y)
    return _series(a, b, mu, sigma2, t, y)


def _grid_crossings(f, level, lo=-1000, hi=1000):
    """Every Elo where f crosses `level`, by a 1-Elo scan refined on a 0.01-Elo grid."""
    found = []
    prev_e, prev_f = lo, f(lo) - level
    for e in range(lo + 1, hi + 1):
        cur = f(e) - level
        if prev_f > 0 >= cur or prev_f < 0 <= cur:
            fine_e, fine_f = prev_e, prev_f
            for i in range(1, 101):
                x = prev_e + i / 100
                fx = f(x) - level
                if (fine_f > 0 >= fx) or (fine_f < 0 <= fx):
                    found.append(fine_e + (x - fine_e) * fine_f / (fine_f - fx))
                    break
                fine_e, fine_f = x, fx
        prev_e, prev_f = e, cur
    return found


def _reference(sprt, values, counts, games_per_unit=1.0):
    state = _ref_state(sprt, values, counts, games_per_unit)
    out = {}
    for name, level in (("elo", 0.5), ("low", 0.975), ("high", 0.025)):
        roots = _grid_crossings(lambda e: _ref_worse(state, e), level)
        assert len(roots) == 1, f"{name}: {len(roots)} crossings of {level} at {roots}"
        out[name] = roots[0]
    out["los"] = _ref_worse(state, 0.0)
    return out


TRI, PENTA = (0, 0.5, 1), (0, 0.25, 0.5, 0.75, 1)
GRID = [
    # (SPRT, unit values, counts, games per unit): passes, fails and no decision, trinomial,
    # pentanomial and 33-class seat-comparison units, LLRs far past a bound and just inside
    pytest.param(SPRT(0, 10), ISSUE_VALUES, ISSUE_COUNTS, 4.0, id="issue24-compare"),
    pytest.param(SPRT(0, 10), TRI, [900, 1300, 1100], 1.0, id="tri-pass"),
    pytest.param(SPRT(0, 10), TRI, [1100, 1300, 900], 1.0, id="tri-fail"),
    pytest.param(SPRT(0, 10), TRI, [500, 800, 520], 1.0, id="tri-undecided"),
    pytest.param(SPRT(-3, 1), TRI, [65804, 56553, 65388], 1.0, id="tri-fishtest-ltc"),
    pytest.param(SPRT(0, 5), PENTA, [40, 500, 2000, 560, 50], 2.0, id="penta-pass"),
    pytest.param(SPRT(0, 5), PENTA, [60, 560, 2000, 500, 40], 2.0, id="penta-fail"),
    pytest.param(SPRT(0, 40), PENTA, [3, 20, 40, 60, 30], 2.0, id="penta-overshoot"),
    pytest.param(SPRT(0, 10), ISSUE_VALUES, [0] * 10 + [3, 5, 9, 14, 20, 26, 30, 33, 30, 26,
                                                        20, 14, 9, 5, 3] + [0] * 8, 4.0,
                 id="units33-undecided"),
    pytest.param(SPRT(0, 10, model="normalized"), PENTA, [40, 500, 2000, 560, 50], 2.0,
                 id="penta-normalized"),
]


@pytest.mark.parametrize("sprt, values, counts, per_unit", GRID)
def test_estimate_and_bounds_match_the_grid_search_reference(sprt, values, counts, per_unit):
    ref = _reference(sprt, values, counts, per_unit)
    seq = sequential_estimate(sprt, values, counts, per_unit)
    assert seq.low < seq.elo < seq.high
    assert not (seq.elo_at_reach or seq.low_at_reach or seq.high_at_reach)
    assert seq.elo == pytest.approx(ref["elo"], abs=0.05)
    assert seq.low == pytest.approx(ref["low"], abs=0.05)
    assert seq.high == pytest.approx(ref["high"], abs=0.05)
    assert seq.los == pytest.approx(ref["los"], abs=1e-6)


def test_issue24_reproducer_gives_a_finite_estimate_near_the_sample_elo():
    """The library call quoted in issue 24 returned elo=1000.0, elo_at_reach=True; the sample
    pairwise Elo of those units is +327.2 ± 26.3 and the issue quotes +323.4 [+223.0, +503.9]."""
    seq = sequential_estimate(SPRT(0, 10), ISSUE_VALUES, ISSUE_COUNTS, 4.0)
    assert not (seq.elo_at_reach or seq.low_at_reach or seq.high_at_reach)
    assert seq.elo == pytest.approx(323.4, abs=0.1)
    assert seq.low == pytest.approx(223.0, abs=0.1)
    assert seq.high == pytest.approx(503.9, abs=0.1)
    assert seq.clamped and seq.llr == pytest.approx(math.log(0.95 / 0.05))


def test_the_maximum_likelihood_variance_made_the_curve_turn_back():
    """The cause in issue 24: with var + (s - s_hat)² at each Elo the chance of a worse outcome
    dips below 1/2 near +340 and rises to 1 again, so 1/2 and 0.975 are crossed twice and 0.025
    never; with the observed variance it falls through each level once."""
    state = _ref_state(SPRT(0, 10), ISSUE_VALUES, ISSUE_COUNTS, 4.0)
    old = [_ref_worse(state, e, mle_variance=True) for e in (305, 340, 400, 600)]
    assert old[0] > 0.5 > old[1] and old[2] > 0.5 and old[3] > 0.99
    assert len(_grid_crossings(lambda e: _ref_worse(state, e, mle_variance=True), 0.5)) == 2
    new = [_ref_worse(state, e) for e in range(200, 601, 10)]
    assert all(x > y for x, y in zip(new, new[1:]) if x > 1e-12)
