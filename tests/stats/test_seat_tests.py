"""Seat tests on duplicate runs treat the deal as the unit (issue 13, point 4)."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats as _st

from simkit.stats import seat_independence
from simkit.stats.seat_tests import hotelling_equal_means


def _duplicate_run(n_deals, n_players, rng, deal_luck=1.0, seat_bonus=0.0):
    """A duplicate run without strategy differences: each deal gives every seat a luck that
    holds in all its rotations; seat 0 gets `seat_bonus` on top (a real seat effect)."""
    rot = n_players
    luck = rng.normal(0.0, deal_luck, (n_deals, 1, n_players))
    score = luck + rng.normal(0.0, 1.0, (n_deals, rot, n_players))
    score[:, :, 0] += seat_bonus
    rank = 1 + (score[..., None, :] > score[..., :, None]).sum(axis=-1)
    deal, rotation, seat = np.meshgrid(np.arange(n_deals), np.arange(rot), np.arange(n_players),
                                       indexing="ij")
    slot = (seat + rotation) % n_players
    return pd.DataFrame({
        "game": (deal * rot + rotation).ravel(), "deal": deal.ravel(),
        "rotation": rotation.ravel(), "seat": seat.ravel(), "slot": slot.ravel(),
        "strategy": np.where(slot.ravel() % 2 == 0, "A", "B"), "score": score.ravel(),
        "rank": rank.ravel(), "win": (rank.ravel() == 1).astype(float), "forfeit": False})


def _rejection_rates(seats_runs):
    tests = [seat_independence(s) for s in seats_runs]
    wins = np.mean([t["wins_p"] < 0.05 for t in tests])
    scores = np.mean([t["scores_p"] < 0.05 for t in tests])
    naive = np.mean([_st.chisquare(s.groupby("seat")["win"].sum().to_numpy()).pvalue < 0.05
                     for s in seats_runs])
    return wins, scores, naive


def test_no_seat_effect_is_rejected_at_about_the_nominal_rate_with_deals_as_blocks():
    """200 seeded duplicate runs of 60 deals x 4 rotations, deal luck but no seat effect: the
    per-game chi-square rejects far above 5 %, the deal-blocked tests do not."""
    rng = np.random.default_rng(2024)
    runs = [_duplicate_run(60, 4, rng) for _ in range(200)]
    wins, scores, naive = _rejection_rates(runs)
    assert naive > 0.2
    assert 0.015 <= wins <= 0.09
    assert 0.015 <= scores <= 0.09


def test_the_blocked_test_still_finds_a_real_seat_effect():
    rng = np.random.default_rng(5)
    out = seat_independence(_duplicate_run(200, 4, rng, seat_bonus=0.5))
    assert out["blocks"] == "deals" and out["wins_test"] == "hotelling"
    assert out["wins_df"] == 3 and out["deals"] == 200
    assert out["wins_p"] < 1e-4 and out["scores_test"] == "friedman" and out["scores_p"] < 1e-4


def test_two_seats_use_the_paired_t_test_of_deal_differences():
    rng = np.random.default_rng(6)
    seats = _duplicate_run(80, 2, rng)
    out = seat_independence(seats)
    wins = seats.pivot_table(index="deal", columns="seat", values="win", aggfunc="sum")
    t = _st.ttest_rel(wins[0], wins[1])
    assert out["wins_p"] == pytest.approx(t.pvalue)
    assert out["wins_chi2"] == pytest.approx(t.statistic ** 2)
    assert out["scores_test"] == "wilcoxon"


def test_hotelling_matches_the_one_sample_f_form_by_hand():
    rows = np.array([[1.0, 0.0, 1.0], [2.0, 1.0, 0.0], [0.0, 2.0, 1.0], [2.0, 0.0, 1.0],
                     [1.0, 1.0, 2.0]])
    t2, df, p = hotelling_equal_means(rows)
    d = rows[:, :2] - rows[:, 2:]
    m, s = d.mean(axis=0), np.cov(d, rowvar=False)
    assert t2 == pytest.approx(5 * m @ np.linalg.inv(s) @ m)
    assert p == pytest.approx(_st.f.sf((5 - 2) / (2 * 4) * t2, 2, 3))


def test_runs_without_repeated_deals_keep_the_per_game_tests():
    rng = np.random.default_rng(7)
    seats = _duplicate_run(50, 3, rng)
    seats["deal"] = seats["game"]
    out = seat_independence(seats)
    assert out["blocks"] == "games" and out["wins_test"] == "chi-square"
