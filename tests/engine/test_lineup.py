"""Lineups built from the strategies a user names, and the default player count."""

import dataclasses

import pytest

from simkit.engine.errors import ConfigError
from simkit.engine.lineup import (
    alternating_lineup,
    default_opponent,
    default_players,
    filled_lineup,
    lineup_around,
    named_or_default,
)
from simkit.engine.registry import get_game


@pytest.mark.parametrize("game, expected", [("sixnimmt", 4), ("trains", 4), ("shipside", 2)])
def test_default_players_is_four_or_the_nearest_allowed(game, expected):
    assert default_players(get_game(game)) == expected


def test_default_players_rises_to_the_minimum():
    big_only = dataclasses.replace(get_game("sixnimmt"), min_players=5, max_players=8)
    assert default_players(big_only) == 5


def test_no_strategy_named_means_random_for_all_seats():
    assert named_or_default(()) == ["random"]
    assert named_or_default(("heuristic", "lowest")) == ["heuristic", "lowest"]


def test_filled_lineup_repeats_the_last_strategy():
    assert filled_lineup(["heuristic", "random"], 4) == ["heuristic", "random", "random", "random"]
    assert filled_lineup(["heuristic"], 3) == ["heuristic"] * 3
    with pytest.raises(ConfigError, match="3 strategies for 2 players: give at most 2"):
        filled_lineup(["a", "b", "c"], 2)


def test_lineup_around_a_person_fills_their_slot_with_a_placeholder():
    assert lineup_around(["lowest", "highest"], 3, 1) == ["lowest", "lowest", "highest"]
    assert lineup_around(["lowest", "highest"], 3, 2) == ["lowest", "highest", "lowest"]
    assert lineup_around(["lowest", "highest"], 3, 7) == ["lowest", "lowest", "highest"]


def test_lineup_around_keeps_one_strategy_or_a_full_lineup():
    assert lineup_around(["lowest"], 4, 0) == ["lowest"]
    assert lineup_around(["a", "b", "c"], 3, 0) == ["a", "b", "c"]


def test_default_opponent_is_the_heuristic_where_the_game_has_one():
    assert default_opponent("sixnimmt") == "heuristic"
    assert default_opponent("trains") == "random"


def test_alternating_lineup_puts_a_on_even_slots():
    assert alternating_lineup("x", "y", 2) == ["x", "y"]
    assert alternating_lineup("x", "y", 5) == ["x", "y", "x", "y", "x"]
    with pytest.raises(ConfigError, match="--players 1 is not allowed: compare needs at least 2"):
        alternating_lineup("x", "y", 1)
