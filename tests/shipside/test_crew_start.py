"""S11 (setup.crew_start): the crew start as a general choice (issue 14). The named layouts are
general forms; any ship (or ships) may start empty, any token may start anywhere. Also the
replay's left/right wording (S25-S28)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.errors import ConfigError
from simkit.games.shipside import GAME, ShipsideState
from simkit.games.shipside.crewstart import named_form

from .helpers import DEFAULT_CREW, config, crew_at, play_randomly


def start(seed: int = 0, **overrides) -> ShipsideState:
    return ShipsideState(config(**overrides), 2, np.random.default_rng(seed))


def test_s11_default_is_34_empty_by_falling_defense():
    """S11 default (ASSUMED): 34 empty; captain 36, mate 32, sailors 30 and 28."""
    assert crew_at(start()) == {d: (k,) for d, k in DEFAULT_CREW.items()}


@pytest.mark.parametrize("name, general", [
    ("34-empty", "empty:34"),
    ("34-empty", "36:captain+32:mate+30:sailor+28:sailor"),
    ("28-empty", "empty:28"),
    ("middle-empty", "empty:#3"),
])
def test_s11_named_layouts_are_general_forms(name, general):
    """S11: every named layout places the crew exactly as its general form, on random rows."""
    for seed in range(8):
        a = start(seed, setup__ship_order="random", setup__crew_start=name)
        b = start(seed, setup__ship_order="random", setup__crew_start=general)
        assert a.row == b.row and a.crew == b.crew


def test_s11_named_layouts_follow_custom_ships():
    """S11: with other defenses, 34-empty is the second-strongest ship and 28-empty the weakest."""
    defs = (10, 20, 30, 40, 50, 60)
    assert named_form("34-empty", defs) == "empty:50"
    assert named_form("28-empty", defs) == "empty:10"
    assert named_form("middle-empty", defs) == "empty:#4"
    st = start(ships__defenses="[10, 20, 30, 40, 50, 60]")
    assert crew_at(st) == {60: ("captain",), 40: ("mate",), 30: ("sailor",), 20: ("sailor",)}


@pytest.mark.parametrize("empty", [28, 30, 32, 34, 36])
def test_s11_any_ship_can_start_empty(empty):
    """S11 alternative readings: ship 30 (or 32, 36, ...) starts empty; the crew go on the others
    by falling defense (captain on the strongest)."""
    crew = crew_at(start(setup__crew_start=f"empty:{empty}"))
    assert empty not in crew and len(crew) == 4
    others = sorted((d for d in (28, 30, 32, 34, 36) if d != empty), reverse=True)
    assert [crew[d][0] for d in others] == ["captain", "mate", "sailor", "sailor"]


def test_s11_row_position_layout_places_left_to_right():
    """S11: 'empty:#1' empties the leftmost ship of the random row; crew left to right after it."""
    st = start(5, setup__ship_order="random", setup__crew_start="empty:#1")
    assert st.crew[st.row[0]] == []
    assert [st.T.crew_kind[st.crew[s][0]] for s in st.row[1:]] == ["captain", "mate", "sailor", "sailor"]


def test_s11_each_token_placed_by_hand_two_ships_empty():
    """S11/S26: each token's ship named; with crew.max_per_ship=2 two share 36, so 30 and 34
    both start empty."""
    st = start(setup__crew_start="36:captain+36:mate+32:sailor+28:sailor", crew__max_per_ship="2")
    assert crew_at(st) == {36: ("captain", "mate"), 32: ("sailor",), 28: ("sailor",)}
    text = GAME.format_position(st)
    assert GAME.format_position(GAME.parse_position(text, st.config)) == text


@pytest.mark.parametrize("value, message", [
    ("nowhere", "setup.crew_start='nowhere'.*allowed are 34-empty"),
    ("empty:31", "no ship 31.*28, 30, 32, 34, 36"),
    ("empty:#6", "row position #6 does not exist: allowed are #1 to #5"),
    ("empty:30+32", "leaves 3 ship.*4 crew tokens"),
    ("empty:30+#2", "mixes defenses and row positions"),
    ("36:captain+34:mate", "every crew token exactly once"),
    ("36:captain+36:mate+32:sailor+28:sailor", "2 crew tokens on ship 36.*crew.max_per_ship=1"),
    ("36:admiral+34:mate+32:sailor+28:sailor", "'36:admiral' is not '<ship>:<token>'"),
])
def test_s11_bad_layouts_name_the_field(value, message):
    """S11: a bad crew start is a ConfigError naming setup.crew_start and what is allowed."""
    with pytest.raises(ConfigError, match=message):
        config(setup__crew_start=value)


@pytest.mark.parametrize("layout", ["empty:30", "empty:#2", "36:captain+36:mate+30:sailor+28:sailor"])
def test_s11_games_from_other_starts_play_soundly(layout):
    """S11: random games from other crew starts end, and every invariant holds (audit)."""
    extra = {"crew__max_per_ship": "2"} if "36:mate" in layout else {}
    for seed in range(15):
        st = play_randomly(start(seed, setup__ship_order="random", setup__crew_start=layout, **extra), seed)
        assert st.is_over() and st.audit() == []


def test_s25_replay_says_left_and_right_follow_the_row():
    """S25-S28 replay: left/right of a crew move is the row order as listed, not a player's own."""
    for seed in range(30):
        text = GAME.render_log(play_randomly(start(seed, setup__ship_order="random"), seed))
        moves = [line for line in text.splitlines() if " moves " in line]
        if moves:
            assert "not a player's own left or right" in text.splitlines()[0]
            assert all(" in the row to " in line for line in moves)
            return
    pytest.fail("no crew move in 30 random games")
