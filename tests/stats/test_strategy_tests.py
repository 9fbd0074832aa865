"""Each strategy's win share against its fair share, corrected over the strategies (issue 24,
point 2): the p-values against a hand computation, and the chance of any false flag."""

import math

import numpy as np
import pytest
from scipy import stats

from simkit.stats.strategy_tests import strategy_effect_flags, strategy_win_pvalues
from simkit.stats.synthetic import synth


def test_pvalue_is_the_score_test_of_the_win_share_over_games():
    _, seats = synth(500, strengths=(0.6, 0.4, 0.5), n_players=3, seed=2,
                     labels=["a", "b", "c"])
    p = strategy_win_pvalues(seats)
    for name in ("a", "b", "c"):
        wins = seats.loc[seats["strategy"] == name, "win"].to_numpy()
        z = (wins.mean() - 1 / 3) / math.sqrt((1 / 3) * (2 / 3) / len(wins))
        assert p[name] == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)


def test_pvalue_in_duplicate_runs_is_the_t_test_over_deals():
    _, seats = synth(400, strengths=(0.7, 0.3), seed=5, labels=["a", "b"], duplicate=True)
    p = strategy_win_pvalues(seats)
    a = seats[seats["strategy"] == "a"]
    totals = a.groupby("deal")["win"].sum() - a.groupby("deal")["game"].nunique() * 0.5
    assert p["a"] == pytest.approx(stats.ttest_1samp(totals, 0.0).pvalue, rel=1e-9)


def test_a_strategy_in_several_seats_is_tested_per_game_against_its_seats_over_players():
    _, seats = synth(600, strengths=(0.9, 0.3, 0.9, 0.3), n_players=4, seed=7,
                     labels=["x", "y", "x", "y"])
    t = strategy_effect_flags(seats).set_index("player")
    assert t.loc["x", "fair_share"] == pytest.approx(0.5)
    assert t.loc["x", "significant"] and t.loc["x", "win_share"] > 0.5
    assert t.loc["x", "correction"].startswith("Holm") and "2 tests" in t.loc["x", "correction"]


def test_holm_keeps_the_chance_of_any_false_flag_in_a_mirror_match_near_five_percent():
    """Four identical strategies, 80 seeded runs: uncorrected, some strategy is off its fair
    share in far more than 5 % of runs; after Holm's correction in at most about 5 %."""
    rng = np.random.default_rng(11)
    any_raw = any_holm = 0
    runs = 80
    for _ in range(runs):
        _, seats = synth(300, strengths=(0.5,) * 4, n_players=4, seed=rng,
                         labels=["r"] * 4)
        t = strategy_effect_flags(seats)
        any_raw += bool((t["p_value"] < 0.05).any())
        any_holm += bool(t["significant"].any())
    assert any_holm / runs <= 0.08
    assert any_raw > any_holm
