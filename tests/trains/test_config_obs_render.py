"""Config validation, observations and determinization (§8), actions' text form, render_log."""

import numpy as np
import pytest

from simkit.core.config import describe_fields, with_overrides
from simkit.core.errors import ConfigError, IllegalAction, UnknownNameError
from simkit.games.trains import GAME, TrainsConfig
from simkit.games.trains.actions import DRAW, KEEP, PLACE, USE, USE_ONE, format_action, parse_action
from simkit.games.trains.position import from_position
from simkit.games.trains.actions import KEEP_PHASE, TURN

T = [80, 66, 51, 40, 22, 13, 5]
U = [70, 65, 50, 45, 35, 25, 15]


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


def test_T15_turn_cap_ends_in_a_draw():
    """T15: after max_turns actions the game ends with no winner; extras report the cap."""
    s = GAME.new_state(TrainsConfig(max_turns=5, start_seat=0), 2, np.random.default_rng(4))
    while not s.is_over():
        seat = s.to_act()[0]
        s.apply([s.legal_actions(seat)[0]])      # always draw, place in slot 1
    out = s.outcome()
    assert out.win_shares == (0.0, 0.0) and out.extras["capped"] is True and out.extras["turns"] == 5
    assert s.events[-1] == ("cap", 5)


def test_T4_start_seat_and_T8_clockwise_turns():
    """T4/T8: a fixed start seat starts setup and play; turns go clockwise."""
    s = GAME.new_state(TrainsConfig(start_seat=2, max_turns=7), 3, np.random.default_rng(0))
    assert s.to_act() == (2,)
    order = []
    while not s.is_over():
        seat = s.to_act()[0]
        if s.phase == TURN:
            order.append(seat)
        s.apply([s.legal_actions(seat)[0]])
    assert order == [2, 0, 1, 2, 0, 1, 2]


def test_T5_simultaneous_setup_option():
    """T5-T7 alternative: all players draw, then all keep at once, then all place at once."""
    s = GAME.new_state(TrainsConfig(setup_order="simultaneous", start_seat=0), 4, np.random.default_rng(1))
    assert s.phase == KEEP_PHASE and s.to_act() == (1, 2, 3)
    assert [len(s.hands[p]) for p in range(4)] == [0, 2, 3, 4]
    s.apply([s.legal_actions(p)[0] for p in (1, 2, 3)])
    assert s.to_act() == (0, 1, 2, 3)
    s.apply([PLACE[1]] * 4)
    assert s.phase == TURN and s.to_act() == (0,) and s.audit() == []


def test_swap_semantics_option():
    """T19/T20 alternative move_semantics='swap': effect 3 swaps with the card 2 places right."""
    s = from_position([T, U], display=[9], config=TrainsConfig(move_semantics="swap"))
    s.apply([USE_ONE[(3, 1)]])
    assert s.trains[0] == [51, 66, 80, 40, 22, 13, 5]


def test_all_locked_removal_option():
    """T21 alternative allow_all_locked_removal=False: effect 5 is not offered when it removes nothing."""
    locks = {0: {1: 2}, 1: {1: 10}}
    s = from_position([T, U], display=[7], locks=locks)
    assert USE[5][0] in s.legal_actions(0)
    s.apply([USE[5][0]])
    assert s.trains == [T, U] and 7 in s.discard
    s2 = from_position([T, U], display=[7], locks=locks, config=TrainsConfig(allow_all_locked_removal=False))
    assert USE[5][0] not in s2.legal_actions(0)


# --------------------------------------------------------------------------- illegal actions

def test_illegal_actions_leave_state_unchanged():
    """T8/T9: illegal actions raise IllegalAction naming seat and rule, and change nothing."""
    s = from_position([T, U], display=[4])
    before = (s.trains[0][:], s.display[:], len(s.events))
    for bad, rule in [(PLACE[1], "T8"), (USE_ONE[(2, 1)], "T10"), (("use", 1, 7), "T17")]:
        with pytest.raises(IllegalAction) as err:
            s.apply([bad])
        assert err.value.rule == rule and err.value.seat == 0
    with pytest.raises(IllegalAction):
        s.apply([DRAW, DRAW])
    assert (s.trains[0], s.display, len(s.events)) == before
    s.apply([DRAW])
    with pytest.raises(IllegalAction) as err:
        s.apply([DRAW])
    assert err.value.rule == "T9"


# --------------------------------------------------------------------------- observation

def test_observation_public_and_private_parts():
    """§8: trains, locks, display and pile sizes are public; the drawn card only for its owner."""
    s = from_position([T, U], display=[4], draw_top=[33], locks={1: {4: 2}})
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
    while s.phase != TURN:
        seat = s.to_act()[0]
        s.apply([s.legal_actions(seat)[0]])
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
    s = from_position([T, U], draw_top=[33])
    s.apply([DRAW])
    seen = {s.determinize(1, np.random.default_rng(k)).drawn for k in range(30)}
    assert len(seen) > 5
    assert {s.determinize(0, np.random.default_rng(k)).drawn for k in range(5)} == {33}


def test_unseen_cards_option():
    """§8 alternative unseen_cards=True: the observation lists the cards the seat cannot place."""
    s = from_position([T, U], display=[4], draw_top=[33], config=TrainsConfig(unseen_cards=True))
    o = s.observe(0)
    assert o.unseen == frozenset(s.draw) and 4 not in o.unseen and T[0] not in o.unseen


def test_clone_is_independent():
    s = from_position([T, U], display=[7])
    c = s.clone()
    c.apply([USE[5][0]])
    assert s.trains == [T, U] and s.display[5] == 7 and len(s.events) == 1


# --------------------------------------------------------------------------- actions & render

@pytest.mark.parametrize("action", [DRAW, PLACE[3], KEEP[42], USE_ONE[(5, None)], USE_ONE[(1, 6)], USE_ONE[(8, 7)]])
def test_action_text_round_trip(action):
    assert parse_action(format_action(action)) == action
    assert GAME.format_action(action) == format_action(action)


def test_parse_action_rejects_nonsense():
    for text in ("place 0", "keep 85", "use 9 1", "use 1 7", "jump"):
        with pytest.raises(IllegalAction):
            parse_action(text)


def test_render_log_shows_trains_display_effects_and_locks():
    trains = [[80, 66, 51, 40, 22, 13, 5], [3, 9, 20, 41, 55, 70, 18], [77, 62, 50, 36, 27, 11, 8]]
    s = from_position(trains, display=[14, 2], draw_top=[84, 33, 47])
    s.apply([USE_ONE[(8, 1)]])          # P0 locks slot 1 with card 2
    s.apply([USE[7][0]])                # P1 uses effect 7 and wins on its own refill
    text = GAME.render_log(s)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert "P0 locks slot 1 with card 2" in lines
    assert "Turn 2: P1 uses card 14: effect 7 (remove rightmost)" in lines
    assert "P1: 3 9 20 41 55 70 84" in lines
    assert "P1's train is ascending: P1 wins on turn 2 (T25)" in lines
    assert "P0: 80* 66 51 40 22 13 5 locks: slot 1 (card 2)" in lines   # locked slot marked
    assert "P2: 77 62 50 36 27 11 _" in lines                           # never refilled
    assert "display: e2:8 e6:5 e8:18" in lines


def test_render_log_full_random_game():
    s = GAME.new_state(TrainsConfig(max_turns=60), 4, np.random.default_rng(3))
    rng = np.random.default_rng(4)
    while not s.is_over():
        acts = [s.legal_actions(p)[int(rng.integers(len(s.legal_actions(p))))] for p in s.to_act()]
        s.apply(acts)
    text = GAME.render_log(s)
    assert text.count("Turn ") >= 60 and "Turn cap reached after 60 turns" in text
    assert "keeps" in text and "Final trains:" in text
