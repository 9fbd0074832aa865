"""Wilson and mean intervals: textbook values and properties."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.stats.intervals import mean_ci, quantiles, wilson, wilson_arrays


@pytest.mark.parametrize("x, n, low, high", [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombe_1998_table_1(x, n, low, high):
    """Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score
    interval without continuity correction), examples (a)-(d)."""
    lo, hi = wilson(x, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_all_successes_reaches_one_and_empty_sample_is_uninformative():
    assert wilson(29, 29)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_rejects_impossible_counts():
    with pytest.raises(ValueError):
        wilson(5, 4)


def test_wilson_arrays_agree_with_scalar():
    s = np.array([0, 3, 7.5, 10])
    n = np.array([10, 10, 20, 10])
    lo, hi = wilson_arrays(s, n)
    for i in range(4):
        assert (lo[i], hi[i]) == pytest.approx(wilson(s[i], n[i]))


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 100000), frac=st.floats(0, 1))
def test_wilson_contains_estimate_and_stays_in_unit_interval(n, frac):
    x = frac * n
    lo, hi = wilson(x, n)
    assert 0.0 <= lo <= x / n + 1e-12
    assert x / n - 1e-12 <= hi <= 1.0


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1, 5000), frac=st.floats(0.01, 0.99))
def test_wilson_shrinks_with_n(n, frac):
    lo1, hi1 = wilson(frac * n, n)
    lo2, hi2 = wilson(frac * 4 * n, 4 * n)
    assert hi2 - lo2 < hi1 - lo1


def test_mean_ci_known_answer_student_t():
    """x = 1..10: mean 5.5, sd 3.02765, t(0.975, 9) = 2.262157 -> half-width 2.16585."""
    ci = mean_ci(np.arange(1, 11))
    assert ci.mean == pytest.approx(5.5)
    assert ci.half_width == pytest.approx(2.262157 * 3.0276504 / math.sqrt(10), rel=1e-6)
    assert ci.low < ci.mean < ci.high


def test_mean_ci_drops_nan_and_handles_tiny_samples():
    ci = mean_ci([1.0, float("nan"), 3.0])
    assert ci.n == 2 and ci.mean == 2.0
    assert math.isnan(mean_ci([]).mean)
    assert mean_ci([4.0]).high == math.inf


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=200))
def test_mean_ci_contains_mean(xs):
    ci = mean_ci(xs)
    assert ci.low <= ci.mean + 1e-6 and ci.mean - 1e-6 <= ci.high


def test_quantiles_named_and_ordered():
    q = quantiles(np.arange(101))
    assert q == {"q05": 5.0, "q25": 25.0, "q50": 50.0, "q75": 75.0, "q95": 95.0}
