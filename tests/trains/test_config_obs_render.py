"""Config validation, observations and determinization (§8), actions' text form, render_log.
(The rules, T1-T25, are tested in test_rules.py.)"""

import pickle

import numpy as np
import pytest

from simkit.engine.config import describe_fields, with_overrides
from simkit.engine.errors import ConfigError, IllegalAction, UnknownNameError
from simkit.games.trains import GAME, TrainsConfig
from simkit.games.trains.actions import (
    DRAW,
    KEEP,
    PLACE,
    USE,
    USE_ONE,
    Draw,
    Keep,
    Place,
    Use,
    format_action,
    parse_action,
)

from .helpers import T, U, at_turn, play_random

#: P0 to play, trains T and U, display e1:4, 33 on top of the draw pile, P1's slot 4 locked
LOCKED_P1 = """
    P0: 80 66 51 40 22 13 5
    P1: 70 65 50 45 35 25 15 | locks 4:2
    display: e1:4
    draw pile (top first): 33 ...
    discard pile (bottom first): -"""


# --------------------------------------------------------------------------- config

def test_config_defaults_match_the_spec_choices():
    """§9: the documented defaults of every [CHOICE]."""
    c = TrainsConfig()
    assert (c.effect_table, c.max_turns, c.start_seat, c.setup_order, c.used_card, c.pair_keep,
            c.reshuffle, c.move_semantics, c.refill_stop, c.allow_all_locked_removal,
            c.lock_voiding, c.double_lock, c.unseen_cards) == (
        "seed", 1000, -1, "sequential", "after", "last", "lazy", "insert", "immediate", True,
        "range", False, False)
    names = {f.name for f in describe_fields(TrainsConfig)}
    assert {"effect_table", "max_turns"} <= names


def test_config_rejects_bad_values_with_the_field_name():
    with pytest.raises(ConfigError, match="effect_table"):
        TrainsConfig(effect_table="random")
    with pytest.raises(ConfigError, match="max_turns"):
        TrainsConfig(max_turns=0)
    with pytest.raises(ConfigError, match="start_seat=3"):
        TrainsConfig(start_seat=3).check_players(3)
    with pytest.raises(ConfigError, match="2 to 4"):
        TrainsConfig().check_players(5)
    with pytest.raises(UnknownNameError):
        with_overrides(TrainsConfig(), {"max_turn": "5"})
    assert with_overrides(TrainsConfig(), {"max_turns": "50", "effect_table": "periodic"}).max_turns == 50


# --------------------------------------------------------------------------- observation

def test_observation_public_and_private_parts():
    """§8: trains, locks, display and pile sizes are public; the drawn card only for its owner."""
    s = at_turn(LOCKED_P1)
    s.apply([DRAW])
    o0, o1 = s.observe(0), s.observe(1)
    assert o0.drawn == 33 and o1.drawn == 0
    assert o0.trains == o1.trains == (tuple(T), tuple(U))
    assert o1.locks[1][3] == 2 and o0.display[1] == 4
    assert o0.draw_size == o1.draw_size == len(s.draw)
    assert ("draw", 0, None) in o1.log and ("draw", 0, 33) not in o1.log


def test_setup_discards_hidden_from_others_and_resampled():
    """§8/T6: other players' setup discards are hidden; determinize resamples them and the
    draw pile, and keeps everything the seat sees."""
    s = GAME.new_state(TrainsConfig(start_seat=0), 3, np.random.default_rng(8))
    play_random(s, 8, max_steps=5)         # the whole setup of 3 players
    mine, other = s.hidden[1], s.hidden[2]
    assert len(mine) == 1 and len(other) == 2
    o0 = s.observe(0)
    assert o0.own_setup_discards == () and s.observe(2).own_setup_discards == tuple(other)
    for ev in o0.log:
        if ev[0] == "keep":
            assert ev[2] is None and isinstance(ev[3], int)
    changed = 0
    for k in range(20):
        det = s.determinize(0, np.random.default_rng(k))
        assert det.observe(0) == o0
        assert det.audit() == []
        assert sorted(det.draw + det.hidden[1] + det.hidden[2]) == sorted(s.draw + mine + other)
        changed += det.hidden[2] != other
    assert changed >= 15
    det = s.determinize(2, np.random.default_rng(0))
    assert det.hidden[2] == other          # a seat's own discards are never resampled


def test_determinize_resamples_another_players_drawn_card():
    s = at_turn(LOCKED_P1)
    s.apply([DRAW])
    seen = {s.determinize(1, np.random.default_rng(k)).drawn for k in range(30)}
    assert len(seen) > 5
    assert {s.determinize(0, np.random.default_rng(k)).drawn for k in range(5)} == {33}


def test_unseen_cards_option():
    """§8 alternative unseen_cards=True: the observation lists the cards the seat cannot place."""
    s = at_turn(LOCKED_P1, TrainsConfig(unseen_cards=True))
    o = s.observe(0)
    assert o.unseen == frozenset(s.draw) and 4 not in o.unseen and T[0] not in o.unseen and 2 not in o.unseen


def test_clone_is_independent():
    s = at_turn(LOCKED_P1.replace("e1:4", "e5:7"))
    c = s.clone()
    c.apply([USE[5][0]])
    assert c.trains[0][0] == 33 and c.display[5] == 0
    assert s.trains == [T, U] and s.display[5] == 7 and len(s.events) == 1


# --------------------------------------------------------------------------- actions & render

@pytest.mark.parametrize("action", [DRAW, PLACE[3], KEEP[42], USE_ONE[(5, None)], USE_ONE[(1, 6)],
                                    USE_ONE[(8, 7)]])
def test_action_text_round_trip(action):
    assert parse_action(format_action(action)) == action
    assert GAME.format_action(action) == format_action(action)


@pytest.mark.parametrize("action, plain, text", [
    (Draw(), ("draw",), "draw"), (Place(3), ("place", 3), "place 3"), (Keep(42), ("keep", 42), "keep 42"),
    (Use(5, None), ("use", 5, None), "use 5"), (Use(1, 6), ("use", 1, 6), "use 1 6"),
])
def test_actions_are_value_types_equal_to_their_tagged_tuples(action, plain, text):
    """One class per kind; equal, hashed and ordered as the tuple (kind, fields...), so a plain
    tuple is the same action; str() is the text parse_action reads; pickling keeps the class."""
    assert action == plain and hash(action) == hash(plain) and action.kind == plain[0]
    assert str(action) == text and parse_action(text) == action and type(parse_action(text)) is type(action)
    assert sorted([action, ("a",), ("z",)]) == sorted([plain, ("a",), ("z",)])
    copied = pickle.loads(pickle.dumps(action))
    assert copied == action and type(copied) is type(action)
    assert repr(Use(1, 6)) == "Use(1, 6)" and (Place(3).slot, Keep(42).card, Use(1, 6).param) == (3, 42, 6)
    with pytest.raises(AttributeError):
        Place(3).slot = 4


def test_parse_action_rejects_nonsense():
    for text in ("place 0", "keep 85", "use 9 1", "use 1 7", "jump"):
        with pytest.raises(IllegalAction):
            parse_action(text)


def test_render_log_shows_trains_display_effects_and_locks():
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 3 9 20 41 55 70 18
        P2: 77 62 50 36 27 11 8
        display: e7:14 e8:2
        draw pile (top first): 84 33 47 ...
        discard pile (bottom first): -""")
    s.apply([USE_ONE[(8, 1)]])          # P0 locks slot 1 with card 2
    s.apply([USE[7][0]])                # P1 uses effect 7 and wins on its own refill
    text = GAME.render_log(s)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    # the log counts players as people do, from P1 (the position above counts from P0)
    assert "P1 locks slot 1 with card 2" in lines
    assert "Turn 2: P2 uses card 14: effect 7 (remove rightmost)" in lines
    assert "P2: 3 9 20 41 55 70 84" in lines
    assert "P2's train is ascending: P2 wins on turn 2 (T25)" in lines
    assert "P1: 80* 66 51 40 22 13 5 locks: slot 1 (card 2)" in lines   # locked slot marked
    assert "P3: 77 62 50 36 27 11 _" in lines                           # never refilled
    assert not any(line.startswith("P0") or " P0 " in line for line in lines)
    assert "display: e2:8 e6:5 e8:18" in lines


def test_render_log_full_random_game():
    s = GAME.new_state(TrainsConfig(max_turns=60), 4, np.random.default_rng(3))
    play_random(s, 4)
    text = GAME.render_log(s)
    assert text.count("Turn ") >= 60 and "Turn cap reached after 60 turns" in text
    assert "keeps" in text and "Final trains:" in text
