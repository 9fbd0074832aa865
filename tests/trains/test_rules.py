"""One test or more per numbered rule T1-T25 of docs/trains-rules.md, each citing its rule, and the
options of the [CHOICE] points. The worked examples G1-G10 are in test_examples.py."""

import re

import numpy as np
import pytest

from simkit.engine.errors import IllegalAction
from simkit.games.trains import GAME, TrainsConfig
from simkit.games.trains.actions import DRAW, PLACE, USE, USE_ONE
from simkit.games.trains.rules import (
    KEEP_PHASE,
    PARAMS,
    SETUP_PLACE,
    TURN,
    apply_order_effect,
    is_ascending,
    moved_slots,
)

from .helpers import FirstLegal, T, U, at_turn, play_random, position

#: P0 to play, trains T and U, the display given, every other card in the draw pile
TWO_TRAINS = """
    P0: 80 66 51 40 22 13 5{locks}
    P1: 70 65 50 45 35 25 15
    display: {display}
    draw pile (top first): {draw}
    discard pile (bottom first): -"""


def two_trains(display="-", draw="...", locks="", config=None):
    return at_turn(TWO_TRAINS.format(display=display, draw=draw, locks=locks), config)


def use(e, p=None):
    return USE_ONE[(e, p)]


def test_every_rule_is_cited_here():
    """Each of T1-T25 appears in a test docstring of this module."""
    docs = " ".join(f.__doc__ or "" for name, f in globals().items() if name.startswith("test_T"))
    cited = {int(n) for n in re.findall(r"\bT(\d+)", docs)}
    for first, last in re.findall(r"\bT(\d+)-T(\d+)", docs):
        cited.update(range(int(first), int(last) + 1))
    assert set(range(1, 26)) - cited == set()


# --------------------------------------------------------------------------- setup

@pytest.mark.parametrize("n", [2, 3, 4])
def test_T1_T16_one_train_of_seven_wagons_per_player(n):
    """T1/T16: one train per player; the locomotive is not a slot, so a train is 7 wagons and
    effect 5 removes slot 1, the wagon next to the locomotive."""
    s = GAME.new_state(TrainsConfig(), n, np.random.default_rng(n))
    assert len(s.trains) == n and all(len(t) == 7 for t in s.trains)
    assert s.card_zones()["trains"] == 7 * n
    pos = two_trains(display="e5:7", draw="33 34 ...")
    pos.apply([use(5)])
    assert pos.trains[0] == [33] + T[1:]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_T2_T3_deal_seven_each_in_descending_order(n):
    """T2: 7 cards to each player, the rest face down; T3: laid out descending from slot 1."""
    s = GAME.new_state(TrainsConfig(start_seat=0), n, np.random.default_rng(10 + n))
    dealt = s.events[0][3]
    assert all(list(t) == sorted(t, reverse=True) for t in dealt)
    assert len(s.draw) == 84 - 7 * n - 1          # the start player has drawn its setup card
    assert sum(s.card_zones().values()) == 84


def test_T4_start_seat_random_or_fixed_and_T8_clockwise_turns():
    """T4: a random start seat by default (every seat starts sometimes), or a fixed one;
    T8: turns go clockwise from it, one action each."""
    starts = {GAME.new_state(TrainsConfig(), 3, np.random.default_rng(k)).start for k in range(30)}
    assert starts == {0, 1, 2}
    s = GAME.new_state(TrainsConfig(start_seat=2, max_turns=7), 3, np.random.default_rng(0))
    assert s.to_act() == (2,)
    order = []
    play_random(s, 0, lineup=[FirstLegal()] * 3,
                before=lambda state, step, seats: order.extend(seats) if state.phase == TURN else None)
    assert order == [2, 0, 1, 2, 0, 1, 2]


def test_T5_T6_setup_draw_counts_and_keep_is_a_decision():
    """T5/T6: the k-th player draws k cards and keeps one of them (a real decision for k > 1)."""
    s = GAME.new_state(TrainsConfig(start_seat=1), 4, np.random.default_rng(3))
    keeps = []

    def record(state, step, seats):
        if state.phase == KEEP_PHASE:
            keeps.append((seats[0], len(state.legal_actions(seats[0])), len(state.hands[seats[0]])))

    play_random(s, 3, max_steps=7, before=record)
    assert s.phase == TURN
    assert keeps == [(2, 2, 2), (3, 3, 3), (0, 4, 4)]
    assert [ev[1] for ev in s.events if ev[0] == "setup_draw"] == [1, 2, 3, 0]
    assert s.to_act() == (1,)


def test_T6_setup_discards_are_face_down_and_private():
    """T6: the cards not kept go face down to the discard pile: the owner knows them, the
    others see only how many."""
    s = GAME.new_state(TrainsConfig(start_seat=0), 3, np.random.default_rng(8))
    play_random(s, 8, max_steps=5)
    assert [len(h) for h in s.hidden] == [0, 1, 2]
    assert set(s.hidden[2]) <= set(s.discard)
    assert s.observe(2).own_setup_discards == tuple(s.hidden[2]) and s.observe(0).own_setup_discards == ()
    assert [ev[2:] for ev in s.observe(0).log if ev[0] == "keep"] == [(None, 1), (None, 2)]


def test_T7_setup_placement_sends_the_replaced_card_to_the_display():
    """T7: the kept card goes into any slot; the card there goes face up to the display."""
    s = GAME.new_state(TrainsConfig(start_seat=0), 2, np.random.default_rng(5))
    assert s.phase == SETUP_PLACE and s.legal_actions(0) == tuple(PLACE[1:])
    kept, old = s.kept[0], s.trains[0][2]
    s.apply([PLACE[3]])
    assert s.trains[0][2] == kept and s.display[s.eff[old]] == old


def test_T5_T7_simultaneous_setup_option():
    """T5-T7 alternative: all players draw, then all keep at once, then all place at once."""
    s = GAME.new_state(TrainsConfig(setup_order="simultaneous", start_seat=0), 4, np.random.default_rng(1))
    assert s.phase == KEEP_PHASE and s.to_act() == (1, 2, 3)
    assert [len(s.hands[p]) for p in range(4)] == [0, 2, 3, 4]
    s.apply([s.legal_actions(p)[0] for p in (1, 2, 3)])
    assert s.to_act() == (0, 1, 2, 3)
    s.apply([PLACE[1]] * 4)
    assert s.phase == TURN and s.to_act() == (0,) and s.audit() == []


# --------------------------------------------------------------------------- the turn

def test_T9_a_drawn_card_must_go_into_a_slot():
    """T9: after a draw the only choices are the 7 slots; the replaced card enters the display."""
    s = two_trains(display="e1:4", draw="33 ...")
    s.apply([DRAW])
    assert s.legal_actions(0) == tuple(PLACE[1:])
    with pytest.raises(IllegalAction) as err:
        s.apply([use(1, 1)])
    assert err.value.rule == "T9"
    s.apply([PLACE[2]])
    assert s.trains[0][1] == 33 and s.display[s.eff[66]] == 66 and s.to_act() == (1,)


def test_T10_the_used_card_leaves_the_display_and_is_discarded_after():
    """T10: using an effect takes its card from the display and discards it face down (an
    effect 8 card becomes a lock instead)."""
    s = two_trains(display="e2:8 e8:10")
    s.apply([use(2, 1)])
    assert s.display[2] == 0 and s.discard == [8]
    assert s.trains[0] == apply_order_effect(T, 2, 1)
    s.apply([use(8, 1)])
    assert s.display[8] == 0 and s.locks[1][0] == 10 and 10 not in s.discard


def test_T11_a_placement_never_leaves_two_cards_of_one_effect():
    """T11: the card replaced by a draw meets its effect's display card: both are discarded."""
    s = two_trains(display="e6:21", draw="33 ...")       # 13 (slot 6) has effect 6, like 21
    s.apply([DRAW])
    s.apply([PLACE[6]])
    assert s.display[6] == 0 and s.discard == [21, 13]


def test_T12_discard_pile_is_face_down():
    """T12: observations give the discard pile's size, never its cards."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15
        display: -
        draw pile (top first): ...
        discard pile (bottom first): 1 9 17""")
    o = s.observe(1)
    assert o.discard_size == len(s.discard) == 3
    assert not any(isinstance(v, (list, tuple)) and set(v) >= {1, 9, 17}
                   for k, v in o._asdict().items() if k not in ("effects", "log"))


def test_T13_eager_reshuffle_option():
    """T13 alternative reshuffle='eager': reshuffle as soon as the last card is drawn."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 70 60 50 45 35 24 16
        display: -
        draw pile (top first): 33
        discard pile (bottom first): ...""", TrainsConfig(reshuffle="eager"))
    rest = sorted(s.discard)
    s.apply([DRAW])
    assert s.drawn == 33 and s.discard == [] and sorted(s.draw) == rest


def test_T14_a_display_emptied_by_use_leaves_the_next_player_only_draw():
    """T14: once the only display card is used, the next player can only draw."""
    s = two_trains(display="e1:4")
    s.apply([use(1, 6)])
    assert s.to_act() == (1,) and s.legal_actions(1) == (DRAW,)


def test_T15_turn_cap_ends_in_a_draw():
    """T15: after max_turns actions the game ends with no winner; extras report the cap."""
    s = GAME.new_state(TrainsConfig(max_turns=5, start_seat=0), 2, np.random.default_rng(4))
    play_random(s, 4, lineup=[FirstLegal()] * 2)      # always draw, place in slot 1
    out = s.outcome()
    assert out.win_shares == (0.0, 0.0) and out.extras["capped"] is True and out.extras["turns"] == 5
    assert s.events[-1] == ("cap", 5)


def test_T8_T9_illegal_actions_leave_state_unchanged():
    """T8/T9: illegal actions raise IllegalAction naming seat and rule, and change nothing."""
    s = two_trains(display="e1:4")
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


# --------------------------------------------------------------------------- effects

@pytest.mark.parametrize("effect,params", [(1, range(1, 7)), (2, range(1, 6)), (3, range(1, 6)),
                                           (4, range(3, 8))])
def test_T17_T20_parameter_domains(effect, params):
    """T17-T20: effect 1 swaps i, i+1 (i 1..6); 2 swaps i, i+2 (1..5); 3 moves slot 1..5 two
    places right; 4 moves slot 3..7 two places left. Exactly these are offered."""
    card = {1: 4, 2: 8, 3: 9, 4: 11}[effect]
    s = two_trains(display=f"e{effect}:{card}")
    assert [a[2] for a in s.legal_actions(0) if a[0] == "use"] == list(params) == list(PARAMS[effect])


def test_T18_swap_across_one_keeps_the_middle_card():
    """T18: effect 2 swaps slots i and i+2; the card between them stays."""
    assert apply_order_effect(T, 2, 5) == [80, 66, 51, 40, 5, 13, 22]
    assert apply_order_effect(T, 2, 1) == [51, 66, 80, 40, 22, 13, 5]


def test_T19_T20_swap_semantics_option():
    """T19/T20 alternative move_semantics='swap': effect 3 swaps with the card 2 places right."""
    s = two_trains(display="e3:9", config=TrainsConfig(move_semantics="swap"))
    s.apply([USE_ONE[(3, 1)]])
    assert s.trains[0] == [51, 66, 80, 40, 22, 13, 5]


def test_T21_all_locked_removal_option():
    """T21 alternative allow_all_locked_removal=False: effect 5 is not offered when it removes nothing."""
    body = """
        P0: 80 66 51 40 22 13 5 | locks 1:2
        P1: 70 65 50 45 35 25 15 | locks 1:10
        display: e5:7
        draw pile (top first): ...
        discard pile (bottom first): -"""
    s = at_turn(body)
    assert USE[5][0] in s.legal_actions(0)
    s.apply([USE[5][0]])
    assert s.trains == [T, U] and 7 in s.discard
    s2 = at_turn(body, TrainsConfig(allow_all_locked_removal=False))
    assert USE[5][0] not in s2.legal_actions(0)


def test_T22_effect_6_removes_every_middle_wagon():
    """T22: effect 6 removes slot 4 of every player, refilled clockwise from the actor."""
    s = position("""
        start: P0
        turn: 1
        phase: turn
        current: P1
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15
        display: e6:21
        draw pile (top first): 33 34 ...
        discard pile (bottom first): -""")
    s.apply([use(6)])
    assert [ev[1:] for ev in s.events if ev[0] == "remove"] == [(1, 4, 45), (0, 4, 40)]
    assert s.trains[1][3] == 33 and s.trains[0][3] == 34
    assert s.display[6] == 45 and s.display[2] == 40 and 21 in s.discard


def test_T23_complete_refills_two_trains_completed_first_clockwise_wins():
    """T21-T23 alternative refill_stop='complete': two refills complete trains; the first one
    clockwise from the actor wins, and the game still ends at once."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 3 9 20 41 55 70 18
        P2: 1 4 8 11 27 36 19
        display: e7:14
        draw pile (top first): 33 84 47 ...
        discard pile (bottom first): -""", TrainsConfig(refill_stop="complete"))
    s.apply([use(7)])
    assert is_ascending(s.trains[1]) and is_ascending(s.trains[2])
    assert s.winner == 1 and s.outcome().win_shares == (0.0, 1.0, 0.0)
    assert s.audit() == []


def test_T24_lock_placed_with_effect_8_and_not_twice():
    """T24: effect 8 locks an unlocked slot of {1,4,7}; the lock card leaves circulation."""
    s = two_trains(display="e8:2")
    assert [a for a in s.legal_actions(0) if a[0] == "use"] == [use(8, 1), use(8, 4), use(8, 7)]
    s.apply([use(8, 4)])
    assert s.locks[0][3] == 2 and 2 not in s.discard and s.display[8] == 0
    s2 = two_trains(display="e8:10", locks=" | locks 4:2")
    assert [a[2] for a in s2.legal_actions(0) if a[0] == "use"] == [1, 7]


def test_T24_opponent_actions_never_void_a_lock():
    """T24: an opponent's action never voids a lock."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15 | locks 1:2
        display: e1:4
        draw pile (top first): ...
        discard pile (bottom first): -""")
    s.apply([use(1, 1)])
    assert s.locks[1][0] == 2


def test_T24_swap_semantics_voids_only_the_swapped_slots():
    """T24 with move_semantics='swap': effect 3 on slot 2 swaps slots 2 and 4; slot 3's card
    stays, so a lock there survives while a lock on slot 4 is voided."""
    cfg = TrainsConfig(move_semantics="swap")
    s = two_trains(display="e3:9", locks=" | locks 4:2", config=cfg)
    s.apply([use(3, 2)])
    assert s.trains[0] == [80, 40, 51, 66, 22, 13, 5] and s.locks[0][3] == 0
    s = two_trains(display="e3:9", locks=" | locks 4:2", config=cfg)
    s.apply([use(3, 3)])          # swaps 3 and 5: slot 4 is passed over and keeps its lock
    assert s.locks[0][3] == 2


@pytest.mark.parametrize("insertion", [True, False])
def test_T24_range_voiding_is_exactly_the_changed_slots(insertion):
    """T24 [CHOICE 'range']: for every effect 1-4 and parameter, the slots a lock is voided on
    are exactly the slots whose card changes; and every reordering keeps the same 7 cards."""
    for e in (1, 2, 3, 4):
        for i in PARAMS[e]:
            after = apply_order_effect(T, e, i, insertion)
            assert sorted(after) == sorted(T)
            changed = {k + 1 for k in range(7) if after[k] != T[k]}
            assert changed == set(moved_slots(e, i, "range", insertion)), (e, i)


def test_T25_a_draw_that_sorts_the_train_wins_at_once():
    """T25: the drawn 50 completes P0's train: P0 wins on that turn, P1 never acts."""
    s = at_turn("""
        P0: 3 9 20 41 77 70 84
        P1: 71 65 60 45 35 25 15
        display: -
        draw pile (top first): 50 ...
        discard pile (bottom first): -""")
    s.apply([DRAW])
    s.apply([PLACE[5]])
    assert s.is_over() and s.winner == 0 and s.outcome().extras["turns"] == 1
    assert s.events[-1] == ("win", 0, 1)
