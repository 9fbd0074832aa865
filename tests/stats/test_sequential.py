"""Elo after a sequential stop: fishtest's bias-adjusted estimate (issue 13, point 2)."""

import math

import numpy as np
import pytest

from simkit.stats import SPRT, elo_to_score, elo_wdl
from simkit.stats.match import match_summary, sides_from_slots
from simkit.stats.sequential import (
    _outcome_cdf_reflection,
    _outcome_cdf_series,
    outcome_cdf,
    sequential_estimate,
)
from simkit.stats.synthetic import synth


def _sprt_runs(true_elo, sprt, batch, reps, seed, draw_rate=0.3):
    """Trinomial SPRTs checked after every batch of games, as `compare` does."""
    rng = np.random.default_rng(seed)
    s = elo_to_score(true_elo)
    probs = [1 - s - draw_rate / 2, draw_rate, s - draw_rate / 2]
    plain, adjusted = [], []
    for _ in range(reps):
        counts = np.zeros(3, dtype=int)
        while sprt.decision(sprt.llr(counts.tolist())) is None:
            counts += rng.multinomial(batch, probs)
        plain.append(elo_wdl(wins=counts[2], draws=counts[1], losses=counts[0]))
        adjusted.append(sequential_estimate(sprt, (0, 0.5, 1), counts.tolist()))
    return plain, adjusted


def _check_bias_and_coverage(true_elo, plain, adjusted):
    plain_mean = np.mean([e.elo for e in plain])
    adjusted_mean = np.mean([e.elo for e in adjusted])
    plain_cover = np.mean([e.elo - e.elo_error <= true_elo <= e.elo + e.elo_error for e in plain])
    adjusted_cover = np.mean([e.low <= true_elo <= e.high for e in adjusted])
    assert abs(adjusted_mean - true_elo) < 0.6 * abs(plain_mean - true_elo)
    assert abs(np.median([e.elo for e in adjusted]) - true_elo) < abs(plain_mean - true_elo) / 3
    assert adjusted_cover >= 0.93 > plain_cover


def test_adjusted_estimate_is_closer_to_the_truth_after_sprt_stops():
    """SPRT [0, 40] with the truth at 30, checked every 20 games (seeded: plain mean 39.4,
    its interval covers 84 %; adjusted mean 35.1, median 30.7, covers 97.5 %)."""
    plain, adjusted = _sprt_runs(30, SPRT(0, 40), batch=20, reps=120, seed=3)
    _check_bias_and_coverage(30, plain, adjusted)


@pytest.mark.slow
def test_adjusted_estimate_in_the_compare_default_sprt():
    """The compare default SPRT [0, 10] with the truth at 7.5, checked every 100 games."""
    plain, adjusted = _sprt_runs(7.5, SPRT(0, 10), batch=100, reps=300, seed=4)
    _check_bias_and_coverage(7.5, plain, adjusted)


@pytest.mark.parametrize("mu, var, t, y", [
    (0.001, 0.002, 3000, 2.94), (0.001, 0.002, 3000, -2.94), (-0.0005, 0.002, 2000, 1.0),
])
def test_series_and_reflection_formulas_agree(mu, var, t, y):
    assert _outcome_cdf_series(-2.94, 2.94, mu, var, t, y) == pytest.approx(
        _outcome_cdf_reflection(-2.94, 2.94, mu, var, t, y), abs=3e-3)


def test_outcome_probability_matches_a_simulated_brownian_motion():
    """P(fail, or no decision at t with a lower LLR), by simulating the stopped walk."""
    a, b, mu, var, t, y = -2.94, 2.94, 0.001, 0.002, 3000, 1.0
    rng = np.random.default_rng(7)
    pos, state = np.zeros(4000), np.zeros(4000)
    dt = 1.0
    for _ in range(int(t / dt)):
        alive = state == 0
        pos[alive] += mu * dt + math.sqrt(var * dt) * rng.standard_normal(alive.sum())
        state[(state == 0) & (pos <= a)] = -1
        state[(state == 0) & (pos >= b)] = 1
    simulated = np.mean((state == -1) | ((state == 0) & (pos < y)))
    assert outcome_cdf(a, b, mu, var, t, y) == pytest.approx(simulated, abs=0.02)


def test_match_summary_carries_the_adjusted_estimate():
    _, seats = synth(600, strengths=(0.9, 0.2), seed=31, duplicate=True)
    a, b = sides_from_slots(seats, [0], [1])
    m = match_summary(seats, a, b, "strong", "weak", SPRT(0, 10))
    seq = m.sequential
    assert seq is not None and seq.low < seq.elo < seq.high and 0.0 <= seq.los <= 1.0
    assert seq.elo < m.pairwise.elo          # the LLR passed the bound long ago: shrunk
    assert m.to_dict()["sequential"]["elo"] == seq.elo
    assert match_summary(seats, a, b).sequential is None


def test_no_units_or_no_spread_gives_no_adjusted_estimate():
    assert sequential_estimate(SPRT(0, 10), (0, 0.5, 1), [0, 0, 0]) is None


def test_a_figure_beyond_the_search_reach_is_flagged_not_clipped_silently(monkeypatch):
    import simkit.stats.sequential as sequential

    near_perfect = [0, 1, 200]                 # 200 wins, 1 draw: the truth is far above +1000
    seq = sequential_estimate(SPRT(0, 10), (0, 0.5, 1), near_perfect)
    assert seq.high == sequential.ELO_REACH and seq.high_at_reach
    assert not seq.low_at_reach and seq.low < seq.elo < sequential.ELO_REACH
    mirrored = sequential_estimate(SPRT(0, 10), (0, 0.5, 1), near_perfect[::-1])
    assert mirrored.low == -sequential.ELO_REACH and mirrored.low_at_reach
    ordinary = sequential_estimate(SPRT(0, 10), (0, 0.5, 1), [40, 10, 60])
    assert not (ordinary.elo_at_reach or ordinary.low_at_reach or ordinary.high_at_reach)
    # a narrower reach must flag the estimate that now lies beyond it, not return it as found
    monkeypatch.setattr(sequential, "ELO_REACH", 0.9 * seq.elo)
    short = sequential_estimate(SPRT(0, 10), (0, 0.5, 1), near_perfect)
    assert short.elo == pytest.approx(0.9 * seq.elo) and short.elo_at_reach
    assert short.low == pytest.approx(seq.low, abs=0.1) and not short.low_at_reach
