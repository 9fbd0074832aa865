"""The worked examples G1-G10 of docs/trains-rules.md, named after them, plus the seed table's
per-effect lists. Positions are written as text (simkit/games/trains/position.py)."""

import numpy as np
import pytest

from simkit.engine.errors import IllegalAction
from simkit.games.trains import GAME, TrainsConfig
from simkit.games.trains.actions import DRAW, PLACE, USE_ONE
from simkit.games.trains.rules import (
    CYCLE,
    EFFECT_OF_PERIODIC,
    EFFECT_OF_SEED,
    TURN,
    apply_order_effect,
    cards_per_effect,
    initial_train,
    is_ascending,
)

from .helpers import T, at_turn, play_random, position

G6_TRAINS = """
    P0: 80 66 51 40 22 13 5
    P1: 3 9 20 41 55 70 18
    P2: 77 62 50 36 27 11 8
    display: e7:14
    draw pile (top first): 33 84 47 ...
    discard pile (bottom first): -"""


def use(e, p=None):
    return USE_ONE[(e, p)]


# --------------------------------------------------------------------------- G1

def test_G1_table_entries_counts_and_irregular_tail():
    """G1 / §1.1-1.2: the seed table as printed, its counts, and where it breaks the cycle."""
    E = EFFECT_OF_SEED
    expected = {1: 3, 8: 2, 48: 2, 49: 2, 50: 3, 58: 3, 59: 3, 60: 8, 67: 6, 72: 6, 76: 4, 84: 2}
    assert {n: E[n] for n in expected} == expected
    assert cards_per_effect(E) == {1: 10, 2: 11, 3: 11, 4: 11, 5: 10, 6: 11, 7: 10, 8: 10}
    assert sum(cards_per_effect(E).values()) == 84
    assert all(E[n] == CYCLE[(n - 1) % 8] for n in range(1, 49))
    assert all(E[n] != CYCLE[(n - 1) % 8] for n in range(49, 85))


def test_seed_table_lists_per_effect():
    """§1.2 'Lists per effect (for tests)': every card of every effect, exactly."""
    lists = {
        1: [4, 12, 20, 28, 36, 44, 53, 62, 71, 80],
        2: [8, 16, 24, 32, 40, 48, 49, 57, 66, 75, 84],
        3: [1, 9, 17, 25, 33, 41, 50, 58, 59, 68, 77],
        4: [3, 11, 19, 27, 35, 43, 52, 61, 70, 76, 79],
        5: [7, 15, 23, 31, 39, 47, 56, 65, 74, 83],
        6: [5, 13, 21, 29, 37, 45, 54, 63, 67, 72, 81],
        7: [6, 14, 22, 30, 38, 46, 55, 64, 73, 82],
        8: [2, 10, 18, 26, 34, 42, 51, 60, 69, 78],
    }
    for e, cards in lists.items():
        assert [n for n in range(1, 85) if EFFECT_OF_SEED[n] == e] == cards, e


def test_seed_table_insertions_shift_the_cycle():
    """§1.2: the tail is CYCLE with 4 entries inserted at 49, 59, 67, 76."""
    E = EFFECT_OF_SEED
    assert (E[49], E[59], E[67], E[76]) == (2, 3, 6, 4)
    assert all(E[n] == CYCLE[(n - 2) % 8] for n in range(50, 59))
    assert all(E[n] == CYCLE[(n - 3) % 8] for n in range(60, 67))
    assert all(E[n] == CYCLE[(n - 4) % 8] for n in range(68, 76))
    assert all(E[n] == CYCLE[(n - 5) % 8] for n in range(77, 85))


def test_periodic_table_option_counts():
    """§1.2 [CHOICE] effect_table='periodic': 11 cards each for 3, 8, 4, 1 and 10 for 6, 7, 5, 2."""
    assert cards_per_effect(EFFECT_OF_PERIODIC) == {1: 11, 2: 10, 3: 11, 4: 11, 5: 10, 6: 10, 7: 10, 8: 11}
    s = GAME.new_state(TrainsConfig(effect_table="periodic"), 2, np.random.default_rng(0))
    assert s.eff is EFFECT_OF_PERIODIC


# --------------------------------------------------------------------------- G2

@pytest.mark.parametrize("seed", range(20))
def test_G2_setup_shape_three_players(seed):
    """G2 / T2, T5-T7: 63 cards after the deal, 57 after setup, 0+1+2 setup discards plus pairs."""
    s = GAME.new_state(TrainsConfig(), 3, np.random.default_rng(seed))
    start_event = s.events[0]
    assert start_event[0] == "start" and sum(len(t) for t in start_event[3]) == 21
    assert len(s.draw) + 1 == 84 - 21          # the start player has already drawn its 1 card
    play_random(s, seed + 100, max_steps=5)    # 1 placement, then 2 x (keep, place)
    assert s.phase == TURN
    assert len(s.draw) == 57
    paired = sum(len(ev[2]) for ev in s.events if ev[0] == "pairs")
    assert len(s.discard) == 3 + paired
    assert sum(1 for c in s.display if c) <= 3
    assert sum(1 for c in s.display if c) == 3 - paired
    assert not any(is_ascending(t) for t in s.trains)
    assert s.audit() == []


def test_G2_setup_descending_layout():
    """G2 / T3: the dealt hand is laid out in descending order."""
    assert initial_train({5, 13, 22, 40, 51, 66, 80}) == [80, 66, 51, 40, 22, 13, 5]


# --------------------------------------------------------------------------- G3

@pytest.mark.parametrize("effect,i,expected", [
    (1, 3, [80, 66, 40, 51, 22, 13, 5]),
    (2, 2, [80, 40, 51, 66, 22, 13, 5]),
    (3, 1, [66, 51, 80, 40, 22, 13, 5]),
    (3, 5, [80, 66, 51, 40, 13, 5, 22]),
    (4, 7, [80, 66, 51, 40, 5, 22, 13]),
    (4, 3, [51, 80, 66, 40, 22, 13, 5]),
])
def test_G3_effects_1_to_4(effect, i, expected):
    """G3 / T17-T20 (3/4 as insertions)."""
    assert apply_order_effect(T, effect, i) == expected


@pytest.mark.parametrize("effect,i", [(3, 6), (3, 7), (4, 1), (4, 2)])
def test_G3_illegal_sources(effect, i):
    """G3 / T19-T20: effect 3 not on the 2 rightmost cards, effect 4 not on the 2 leftmost."""
    with pytest.raises(ValueError):
        apply_order_effect(T, effect, i)
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15
        display: e3:9 e4:3
        draw pile (top first): ...
        discard pile (bottom first): -""")
    assert ("use", effect, i) not in s.legal_actions(0)
    with pytest.raises(IllegalAction) as err:
        s.apply([("use", effect, i)])
    assert err.value.rule == f"T{16 + effect}" and err.value.seat == 0


def test_G3_effects_in_state_change_only_own_train():
    """G3 / §5: effects 1-4 reorder the actor's own train only."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15
        display: e1:4
        draw pile (top first): ...
        discard pile (bottom first): -""")
    s.apply([use(1, 3)])
    assert s.trains == [[80, 66, 40, 51, 22, 13, 5], [70, 65, 50, 45, 35, 25, 15]]
    assert 4 in s.discard and s.display[1] == 0


# --------------------------------------------------------------------------- G4

def test_G4_win_by_own_effect_1():
    """G4 / T25: e1(3) sorts the train, the actor wins immediately."""
    s = at_turn("""
        P0: 3 9 41 20 55 70 84
        P1: 80 66 51 40 22 13 5
        display: e1:12
        draw pile (top first): ...
        discard pile (bottom first): -""")
    s.apply([use(1, 3)])
    assert s.trains[0] == [3, 9, 20, 41, 55, 70, 84]
    assert s.is_over() and s.outcome().win_shares == (1.0, 0.0)
    assert s.outcome().extras == {"turns": 1, "capped": False, "start_seat": 0, "reshuffles": 0}


def test_G4_win_by_own_effect_4():
    """G4 / T20, T25: [9,20,3,...] with e4(3) gives the same ascending train and the win."""
    s = position("""
        start: P0
        turn: 1
        phase: turn
        current: P1
        P0: 80 66 51 40 22 13 5
        P1: 9 20 3 41 55 70 84
        display: e4:11
        draw pile (top first): ...
        discard pile (bottom first): -""")
    s.apply([use(4, 3)])
    assert s.trains[1] == [3, 9, 20, 41, 55, 70, 84]
    assert s.winner == 1 and s.outcome().ranks == (2, 1)


def test_G4_gaps_in_numbers_still_ascending():
    """G4 / T25 [STANDARD]: numbers need not be consecutive."""
    assert is_ascending([3, 9, 20, 41, 55, 70, 84])
    assert not is_ascending([3, 9, 20, 41, 55, 84, 70])


# --------------------------------------------------------------------------- G5

def test_G5_pair_rule_on_draw():
    """G5 / T9, T11: the replaced 41 (e3) meets 9 (e3) in the display: both discarded."""
    s = at_turn("""
        P0: 80 66 51 41 22 13 5
        P1: 70 65 50 45 35 25 15
        display: e3:9
        draw pile (top first): 60 ...
        discard pile (bottom first): -""")
    s.apply([DRAW])
    assert s.drawn == 60 and s.to_act() == (0,)
    s.apply([PLACE[4]])
    assert s.trains[0][3] == 60
    assert s.display[3] == 0
    assert s.discard[-2:] == [9, 41]
    assert ("pairs", 3, (9, 41)) in s.events
    assert s.audit() == []


G5_BATCH = """
    P0: 41 66 55 40 22 13 5
    P1: 50 49 44 39 32 21 12
    display: e3:9 e5:7
    draw pile (top first): ...
    discard pile (bottom first): -"""


def test_G5_pair_rule_batch_last_arrival_stays():
    """G5 / T11 [CHOICE]: 41 then 50 (both e3) arrive at {9}: 9+41 discarded, 50 stays."""
    s = at_turn(G5_BATCH)
    s.apply([use(5)])
    assert s.display[3] == 50
    assert 9 in s.discard and 41 in s.discard and 50 not in s.discard
    assert s.audit() == []


def test_G5_pair_keep_first_option():
    """T11 alternative pair_keep='first': the card already there stays, 41+50 go."""
    s = at_turn(G5_BATCH, TrainsConfig(pair_keep="first"))
    s.apply([use(5)])
    assert s.display[3] == 9 and 41 in s.discard and 50 in s.discard


# --------------------------------------------------------------------------- G6

def test_G6_effect_7_opponent_wins_mid_refill():
    """G6 / T23, T25: P1's refill completes its train; P1 wins at once and P2 does not draw."""
    s = at_turn(G6_TRAINS)
    s.apply([use(7)])
    removed = [ev[1:] for ev in s.events if ev[0] == "remove"]
    assert removed == [(0, 7, 5), (1, 7, 18), (2, 7, 8)]
    assert sorted(c for c in s.display if c) == [5, 8, 18]
    assert s.trains[0] == [80, 66, 51, 40, 22, 13, 33]
    assert s.trains[1] == [3, 9, 20, 41, 55, 70, 84]
    assert s.trains[2][6] == 0           # P2 never refilled
    assert s.draw[-1] == 47              # 47 is still on top of the draw pile
    assert s.is_over() and s.winner == 1
    assert s.outcome().win_shares == (0.0, 1.0, 0.0)
    assert 14 in s.discard               # the used card is discarded after resolution
    assert s.audit() == []


def test_G6_complete_refills_option_same_winner():
    """T21-T23 alternative refill_stop='complete': all refill, the winner is the same."""
    s = at_turn(G6_TRAINS, TrainsConfig(refill_stop="complete"))
    s.apply([use(7)])
    assert s.winner == 1 and s.trains[2][6] == 47


# --------------------------------------------------------------------------- G7

def test_G7_lock_protects_against_removal():
    """G7 / T21, T24: P1's locked slot 1 is skipped; only P0 loses and redraws a card."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15 | locks 1:2
        display: e5:7
        draw pile (top first): 33 ...
        discard pile (bottom first): -""")
    s.apply([use(5)])
    assert s.trains[0] == [33, 66, 51, 40, 22, 13, 5]
    assert s.trains[1] == [70, 65, 50, 45, 35, 25, 15] and s.locks[1][0] == 2
    assert ("protected", 1, 1) in s.events
    assert [ev[1] for ev in s.events if ev[0] == "refill"] == [0]
    assert s.display[1] == 80 and s.audit() == []


def test_G7_lock_protects_against_own_removal():
    """T24: the protection also holds against the owner's own effect 5-7."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5 | locks 7:2
        P1: 70 65 50 45 35 25 15
        display: e7:14
        draw pile (top first): 33 ...
        discard pile (bottom first): -""")
    s.apply([use(7)])
    assert s.trains[0] == T and s.locks[0][6] == 2
    assert s.trains[1][6] == 33


# --------------------------------------------------------------------------- G8

@pytest.mark.parametrize("effect,i,lock_slot,voided", [
    (1, 1, 7, False),
    (2, 5, 7, True),
    (3, 5, 7, True),
    (4, 7, 7, True),
    (3, 4, 7, False),
    (3, 2, 4, True),
    (1, 5, 4, False),
])
def test_G8_lock_voiding_by_own_effects(effect, i, lock_slot, voided):
    """G8 / T24 [CHOICE 'range']: a lock is voided when the owner's effect moves its slot's card."""
    card = {1: 4, 2: 8, 3: 9, 4: 11}[effect]
    s = at_turn(f"""
        P0: 80 66 51 40 22 13 5 | locks {lock_slot}:2
        P1: 70 65 50 45 35 25 15
        display: e{effect}:{card}
        draw pile (top first): ...
        discard pile (bottom first): -""")
    s.apply([use(effect, i)])
    assert (s.locks[0][lock_slot - 1] == 0) == voided
    assert (2 in s.discard) == voided
    assert any(ev[0] == "void" for ev in s.events) == voided
    assert s.audit() == []


LOCKED_7 = """
    P0: 80 66 51 40 22 13 5 | locks 7:2
    P1: 70 65 50 45 35 25 15
    display: {display}
    draw pile (top first): 33 ...
    discard pile (bottom first): -"""


def test_G8_draw_into_locked_slot_voids():
    """G8 / T9, T24: the drawn card placed on slot 7 voids its lock; 5 goes to the display."""
    s = at_turn(LOCKED_7.format(display="-"))
    s.apply([DRAW])
    s.apply([PLACE[7]])
    assert s.trains[0][6] == 33 and s.locks[0][6] == 0
    assert s.display[6] == 5 and 2 in s.discard
    assert s.audit() == []


def test_G8_chosen_voiding_option():
    """T24 alternative lock_voiding='chosen': passed-over cards do not void."""
    s = at_turn(LOCKED_7.format(display="e3:9"), TrainsConfig(lock_voiding="chosen"))
    s.apply([use(3, 5)])       # source 5 moves to 7, 7 is passed over ... but 7 is not the source
    assert s.locks[0][6] == 2


# --------------------------------------------------------------------------- G9

def test_G9_empty_display_only_draw():
    """G9 / T14: an empty display leaves Draw as the only action."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15
        display: -
        draw pile (top first): ...
        discard pile (bottom first): -""")
    assert list(s.legal_actions(0)) == [DRAW]
    with pytest.raises(IllegalAction) as err:
        s.apply([use(1, 1)])
    assert err.value.rule == "T14"


ALL_LOCKED = """
    P0: 80 66 51 40 22 13 5 | locks 1:2 4:18 7:26
    P1: 70 65 50 45 35 25 15
    display: {display}
    draw pile (top first): ...
    discard pile (bottom first): -"""


def test_G9_all_lock_slots_locked_hides_effect_8():
    """G9 / T24: with slots 1, 4, 7 locked, Use(8) is not offered."""
    s = at_turn(ALL_LOCKED.format(display="e1:4 e8:10"))
    legal = s.legal_actions(0)
    assert not any(a[0] == "use" and a[1] == 8 for a in legal)
    assert len(legal) == 1 + 6
    s2 = at_turn(ALL_LOCKED.format(display="e8:10"), TrainsConfig(double_lock=True))
    assert use(8, 4) in s2.legal_actions(0)
    s2.apply([use(8, 4)])
    assert s2.locks[0][3] == 18 and 10 in s2.discard


def test_G9_turn_has_at_most_28_options():
    """G9 / §7: Draw + 6 + 5 + 5 + 5 + 1 + 1 + 1 + 3 = 28 options with a full display."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15
        display: e1:4 e2:8 e3:9 e4:11 e5:7 e6:21 e7:6 e8:2
        draw pile (top first): ...
        discard pile (bottom first): -""")
    assert len(s.legal_actions(0)) == 28


# --------------------------------------------------------------------------- G10

EMPTY_DRAW_PILE = """
    P0: 80 66 51 40 22 13 5
    P1: 70 60 50 45 35 24 16
    display: {display}
    draw pile (top first): -
    discard pile (bottom first): ..."""


def test_G10_reshuffle_on_draw():
    """G10 / T13: an empty draw pile: the discard pile (70 cards here) becomes a shuffled draw pile."""
    s = at_turn(EMPTY_DRAW_PILE.format(display="-"))
    pile = list(s.discard)
    s.apply([DRAW])
    assert s.discard == [] and len(s.draw) == 69
    assert sorted(s.draw + [s.drawn]) == pile
    assert ("reshuffle", 70) in s.events


def test_G10_reshuffle_in_refill_excludes_used_card():
    """G10 / T10, T13: during effect 5 the reshuffle happens before the used card is discarded."""
    s = at_turn(EMPTY_DRAW_PILE.format(display="e5:7"))
    pile = set(s.discard)
    s.apply([use(5)])
    assert ("reshuffle", 69) in s.events
    assert {s.trains[0][0], s.trains[1][0]} <= pile
    assert 7 not in s.draw and 7 in s.discard
    assert 80 in s.display or 70 in s.display


def test_G10_used_card_before_option_joins_reshuffle():
    """T10 alternative used_card='before': the used card is discarded first and is reshuffled."""
    s = at_turn(EMPTY_DRAW_PILE.format(display="e5:7"), TrainsConfig(used_card="before"))
    s.apply([use(5)])
    assert ("reshuffle", 70) in s.events
