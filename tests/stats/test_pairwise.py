"""Pairwise Elo: seat comparisons keep their meaning across player counts (issue 13, point 1)."""

import math

import pytest

from simkit.stats import SPRT, elo_pentanomial
from simkit.stats.match import match_summary, sides_from_slots
from simkit.stats.pairwise import pairwise_elo, pairwise_units
from simkit.stats.synthetic import synth


def _match(n_players, n_games, seed, strengths=(1.0, 0.0), duplicate=True):
    _, seats = synth(n_games, strengths=strengths, n_players=n_players, seed=seed,
                     duplicate=duplicate, labels=["A", "B"])
    a, b = sides_from_slots(seats, range(0, n_players, 2), range(1, n_players, 2))
    return match_summary(seats, a, b, "A", "B", SPRT(0, 10))


def test_same_strengths_give_the_same_pairwise_elo_with_2_and_4_players():
    """The game-level W/D/L (majority of seat comparisons) inflates with 4 players; the
    pairwise Elo of the same two strengths agrees within noise."""
    two, four = _match(2, 3000, 61), _match(4, 3000, 62)
    p2, p4 = two.pairwise, four.pairwise
    se = math.hypot(p2.elo_error, p4.elo_error) / 1.96
    assert abs(p2.elo - p4.elo) < 3 * se
    assert four.estimate.elo - p4.elo > 6 * se        # game-level Elo means something else
    assert two.estimate.elo == pytest.approx(p2.elo)   # ... but not with two players


def test_with_two_players_pairwise_is_the_pentanomial_estimate_and_llr():
    m = _match(2, 600, 63, strengths=(0.6, 0.4))
    assert m.units.unit == "deal" and m.units.values == (0, 0.25, 0.5, 0.75, 1)
    assert list(m.units.counts) == m.penta
    penta = elo_pentanomial(m.penta)
    for field in ("elo", "elo_error", "nelo", "nelo_error", "los", "elo_low", "elo_high"):
        assert getattr(m.pairwise, field) == pytest.approx(getattr(penta, field)), field
    assert m.llr == pytest.approx(m.sprt.llr(m.penta))


def test_without_duplicate_deals_games_are_the_units():
    m = _match(2, 300, 64, duplicate=False)
    assert m.units.unit == "game" and m.units.values == (0, 0.5, 1)
    assert m.llr == pytest.approx(m.sprt.llr([m.losses, m.draws, m.wins]))


def test_four_player_units_are_deals_with_a_grid_of_seat_comparisons():
    m = _match(4, 400, 65)
    u = m.units
    assert u.unit == "deal" and u.n == 100 and u.games_per_unit == 4
    assert len(u.values) == 33            # 4 games x 4 comparisons, in half points: 0..32
    assert u.comparisons == 400 * 4
    est = pairwise_elo(u)
    assert est.model == "pairwise" and est.n == 100


def test_pairwise_units_of_an_empty_table():
    _, seats = synth(10, seed=66, labels=["A", "B"])
    u = pairwise_units(seats.iloc[:0], [], [])
    assert u.n == 0 and math.isnan(pairwise_elo(u).elo)
