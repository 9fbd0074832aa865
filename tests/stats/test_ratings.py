"""Plackett–Luce ratings (MM iterations, Hunter 2004)."""

import math

import numpy as np
import pandas as pd
import pytest

from simkit.stats import plackett_luce
from simkit.stats.synthetic import synth


def _pairs(wins_a: int, wins_b: int) -> pd.DataFrame:
    rows = []
    for g in range(wins_a + wins_b):
        a_wins = g < wins_a
        for seat, (label, first) in enumerate([("A", a_wins), ("B", not a_wins)]):
            rows.append(dict(game=g, deal=g, rotation=0, seat=seat, slot=seat, strategy=label,
                             score=float(first), rank=1 if first else 2, win=float(first),
                             forfeit=False))
    return pd.DataFrame(rows)


def test_two_players_reduce_to_bradley_terry_known_answer():
    """75 wins to 25: the Bradley-Terry MLE gives w_A/w_B = 3, i.e. 400·log10(3) = 190.85 Elo,
    and var(log(w_A/w_B)) = 1/(n·p·(1-p)) = 1/18.75."""
    r = plackett_luce(_pairs(75, 25), prior_games=0).set_index("player")
    diff = r.loc["A", "rating"] - r.loc["B", "rating"]
    assert diff == pytest.approx(400 * math.log10(3), abs=1e-4)
    se_diff = math.sqrt(1 / 18.75) * 400 / math.log(10)
    assert r.loc["A", "se"] == pytest.approx(se_diff / 2, rel=1e-4)


def test_prior_keeps_an_unbeaten_strategy_finite():
    r = plackett_luce(_pairs(20, 0)).set_index("player")
    assert np.isfinite(r["rating"]).all() and r.loc["A", "rating"] > 100


def test_multiplayer_ratings_recover_the_strength_order_with_intervals():
    games, seats = synth(1500, strengths=(1.0, 0.5, 0.0, 0.5), n_players=4, seed=21,
                         labels=["strong", "mid", "weak", "mid2"])
    r = plackett_luce(seats).set_index("player")
    assert r["rating"].sum() == pytest.approx(0.0, abs=1e-6)
    assert r.loc["strong", "low"] > r.loc["mid", "high"]
    assert r.loc["mid", "low"] > r.loc["weak", "high"]
    assert abs(r.loc["mid", "rating"] - r.loc["mid2", "rating"]) < 3 * r.loc["mid", "se"] * 2
    assert (r["low"] < r["rating"]).all() and (r["rating"] < r["high"]).all()
    assert r.attrs["iterations"] < 20000


def test_ratings_are_equal_for_identical_strategies():
    games, seats = synth(2000, strengths=(0.5, 0.5, 0.5), n_players=3, seed=22)
    r = plackett_luce(seats)
    assert (r["low"] < 0).all() and (r["high"] > 0).all()
