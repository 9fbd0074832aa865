"""Each ASSUMED parameter of the spec (and the main LIKELY ones): flipping it changes exactly the
behaviour the spec says it changes."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.errors import ConfigError, IllegalAction
from simkit.games.shipside import EndTurn, Mark, Octopus, Pass, Pick, Play, Rum, ShipsideState
from simkit.games.shipside.rules import MAIN, MARK, OVER, PICK, RUM

from .helpers import A, B, config, crew_at, position, ship


def _dirs_for(st, value, sym, defense, side):
    return sorted(a.dir or "-" for a in st.legal_actions(st.cur)
                  if type(a) is Play and a.value == value and a.sym == sym and a.ship == defense
                  and a.side == side)


# ---------------------------------------------------------------- ASSUMED parameters

def test_s6_move_symbol_flip_deck_move_symbol():
    """S6 (deck.move_symbol): default only jellyfish move crew; [5] makes every 5 move crew instead."""
    st = position(hands=((5, -2), (1,)))
    assert _dirs_for(st, 5, False, 30, A) == ["-"]
    assert _dirs_for(st, -2, True, 30, A) == ["L", "R"]
    st = position(config(deck__move_symbol="[5]"), hands=((5, -2), (1,)))
    assert _dirs_for(st, 5, True, 30, A) == ["L", "R"]
    assert _dirs_for(st, -2, False, 30, A) == ["-"]
    st.apply([Play(5, True, 30, A, "R")])
    assert "sailor" not in crew_at(st).get(30, ())


def test_s6_move_symbol_triples_name_single_copies():
    """S6: a [strength, mark, copy] triple gives the symbol to that one card only."""
    from simkit.games.shipside.rules import tables
    T = tables(config(deck__move_symbol='[[-2, "shell", 0], [3, "starfish", 1]]'))
    marked = [(T.value[c], T.mark[c], T.copy[c]) for c in range(T.n_cards) if T.sym[c]]
    assert marked == [(-2, 1, 0), (3, 0, 1)]
    with pytest.raises(ConfigError, match="allowed copies are 0 to 0"):
        config(deck__move_symbol='[[-2, "shell", 1]]')


def test_s11_crew_start_flip():
    """S11 (setup.crew_start): 34 empty by default; 28-empty and middle-empty move the empty ship."""
    def start(mode):
        st = ShipsideState(config(setup__crew_start=mode), 2, np.random.default_rng(0))
        return {st.T.defense[s]: st.T.crew_kind[st.crew[s][0]] for s in st.row if st.crew[s]}
    assert start("34-empty") == {36: "captain", 32: "mate", 30: "sailor", 28: "sailor"}
    assert start("28-empty") == {36: "captain", 34: "mate", 32: "sailor", 30: "sailor"}
    assert 32 not in start("middle-empty") and len(start("middle-empty")) == 4


def test_s17_rum_timing_flip():
    """S17 (rum.timing): 'either' offers rum after the action; 'before' only before it."""
    st = position(hands=((5, 1), (1,)))
    st.apply([Play(5, False, 30, A, None)])
    assert st.phase == RUM and st.to_act() == (A,)
    assert Rum(32, "after") in st.legal_actions(A)
    st.apply([Rum(32, "after")])
    assert st.cur == B and st.mugs[ship(st, 32)] == [A]
    st = position(config(rum__timing="before"), hands=((5, 1), (1,)))
    assert Rum(32, "before") in st.legal_actions(A)
    st.apply([Play(5, False, 30, A, None)])
    assert st.phase == MAIN and st.cur == B        # no rum step after the action


def _stuck_b(cfg):
    """A plays a card; B has no card and its octopus lies on a card on the table."""
    st = position(cfg, hands=((5, 1), ()), sides={30: ((2,), ())}, octopus={B: (30, A, 2)},
                  rum_left=(0, 0), deck=())
    st.apply([Play(5, False, 32, A, None)])
    return st


def test_s18_pass_when_stuck_flip():
    """S18 (rules.pass_when_stuck): a stuck player passes by default; false ends the game."""
    st = _stuck_b(config())
    assert st.cur == B and st.legal_actions(B) == [Pass()]
    st.apply([Pass()])
    assert st.cur == A and not st.is_over()
    with pytest.raises(IllegalAction):                 # A has a card: passing is not allowed
        st.apply([Pass()])
    st = _stuck_b(config(rules__pass_when_stuck="false"))
    assert st.phase == OVER and st.reason == "stuck"


def test_s28_s30_no_wrap_blocked_direction_flip():
    """S28/S30 (movement.wrap_around): without wrap the row's end blocks; if neither way works the
    crew stays (ASSUMED). Here skip_occupied=false so the occupied 34 blocks the left."""
    crew = {36: "captain", 34: "mate", 32: "sailor"}
    st = position(config(movement__skip_occupied="false"), hands=((-1,), (1,)), crew=crew)
    assert _dirs_for(st, -1, True, 36, A) == ["R"]          # wraps right to the empty 28
    st.apply([Play(-1, True, 36, A, "R")])
    assert crew_at(st)[28] == ("captain",)
    st = position(config(movement__skip_occupied="false", movement__wrap_around="false"),
                  hands=((-1,), (1,)), crew=crew)
    assert _dirs_for(st, -1, True, 36, A) == ["-"]          # neither works: nobody moves
    st.apply([Play(-1, True, 36, A, None)])
    assert crew_at(st)[36] == ("captain",)
    assert ("stay", 36) in st.events


def test_s44_octopus_reuse_flip():
    """S44 (octopus.reuse): on_return waits for the ship to be scored; free may relocate at once
    (the old card loses its protection); once never comes back."""
    def after_move(reuse):
        st = position(config(octopus__reuse=reuse), hands=((1, 2), (1, 2)), sides={30: ((9,), (8,))})
        st.apply([Octopus(9, False, 30, A, 32, A, None)])
        st.apply([EndTurn()])
        st.apply([Play(1, False, 28, B, None)])
        st.apply([EndTurn()])
        return st
    st = after_move("on_return")
    assert not any(type(a) is Octopus for a in st.legal_actions(A))
    st = after_move("free")
    moves = [a for a in st.legal_actions(A) if type(a) is Octopus]
    assert moves and any(a.value == 9 for a in moves)       # the 9 is no longer protected by A
    st.apply([Octopus(8, False, 30, B, 30, A, None)])
    nine = st.sides[ship(st, 32)][A][0]
    assert st.octo_on[nine] == -1 and st.T.value[st.octo_at[A]] == 8
    st = after_move("once")
    assert not any(type(a) is Octopus for a in st.legal_actions(A))
    st = position(config(octopus__reuse="once"), hands=((1,), (1,)), sides={30: ((9,), ())},
                  octopus_used=(A,))                       # even once it has come home
    assert not any(type(a) is Octopus for a in st.legal_actions(A))


def test_s45_octopus_check_origin_flip():
    """S45 (octopus.check_origin): moving a -3 off A's side of 30 lifts it to 30: captured by
    default, not when only the destination is checked."""
    sides = {30: ((10, 10, 10, -3), ())}
    st = position(hands=((1,), (1,)), sides=sides)
    st.apply([Octopus(-3, True, 30, A, 34, B, None)])
    assert st.captured[A] == [ship(st, 30)]
    st = position(config(octopus__check_origin="false"), hands=((1,), (1,)), sides=sides)
    st.apply([Octopus(-3, True, 30, A, 34, B, None)])
    assert ship(st, 30) in st.row and st.tot[ship(st, 30)][A] == 30


def test_s52_rum_max_per_ship_flip():
    """S52 (rum.max_per_ship): one mug per ship by default; 2 lets both mugs stack (+12)."""
    st = position(hands=((1,), (1,)), mugs={30: [A]}, rum_left=(0, 1), cur=B)
    assert Rum(30, "before") not in st.legal_actions(B)
    with pytest.raises(IllegalAction):
        st.apply([Rum(30, "before")])
    st = position(config(rum__max_per_ship="2"), hands=((1,), (1,)), mugs={30: [A]}, rum_left=(0, 1), cur=B)
    st.apply([Rum(30, "before")])
    assert st.observe(A).row[1].threshold == 42


def test_s56_mark_assignment_flip():
    """S56 (variant.mark_assignment): random deals the marks at setup; chooser lets the start player
    take one."""
    st = ShipsideState(config(variant__enabled="true"), 2, np.random.default_rng(3))
    assert st.phase == PICK and st.marks in (("starfish", "shell"), ("shell", "starfish"))
    st = ShipsideState(config(variant__enabled="true", variant__mark_assignment="chooser"), 2,
                       np.random.default_rng(3))
    assert st.phase == MARK and st.to_act() == (A,)
    assert st.legal_actions(B) == []
    st.apply([Mark("shell")])
    assert st.marks == ("shell", "starfish") and st.phase == PICK


# ---------------------------------------------------------------- LIKELY parameters

def test_s32_threshold_inclusive_flip():
    sides = {30: ((10, 10, 7), ())}
    st = position(hands=((3,), (1,)), sides=sides)
    st.apply([Play(3, False, 30, A, None)])
    assert st.captured[A] == [ship(st, 30)]
    st = position(config(scoring__threshold_inclusive="false"), hands=((3,), (1,)), sides=sides)
    st.apply([Play(3, False, 30, A, None)])
    assert ship(st, 30) in st.row


def test_s34_full_tie_stay_flip():
    sides = {36: ((6, 6, 6, 6), (7, 5, 5, 5, 5))}
    st = position(config(scoring__full_tie="stay"), hands=((3,), (1,)), sides=sides)
    st.apply([Play(3, False, 36, A, None)])
    s = ship(st, 36)
    assert s in st.row and st.sides[s] == [[], []] and crew_at(st)[36] == ("captain",)


def test_s30_before_scoring_flip():
    """S30 (movement.before_scoring=false): the ship is checked first, so the sailor is captured."""
    sides = {30: ((6, 6, 6, 6), (5, 5, 5, 3, 2))}
    st = position(config(movement__before_scoring="false"), hands=((-1,), (1,)), sides=sides)
    st.apply([Play(-1, True, 30, A, "L")])
    assert st.score[A] == 2


def test_s53_points_to_win_flip():
    st = position(config(end__points_to_win="2"), hands=((3,), (1,)), sides={30: ((10, 10, 7), ())})
    st.apply([Play(3, False, 30, A, None)])
    assert st.is_over() and st.reason == "points"
    st = position(config(end__points_to_win="3"), hands=((3,), (1,)), sides={30: ((10, 10, 7), ())})
    st.apply([Play(3, False, 30, A, None)])
    assert not st.is_over()


def test_s55_tie_result_flip():
    from simkit.games.shipside.rules import final_result
    assert final_result([3, 3], [2, 1], "draw") == [0.0, 0.0]
    assert final_result([3, 3], [2, 1], "tiebreak") == [1.0, 0.0]
    assert final_result([3, 3], [1, 1], "tiebreak") == [0.0, 0.0]


def test_s41_octopus_draw_flip():
    st = position(config(octopus__draw="true"), hands=((1,), (1,)), sides={30: ((9,), ())})
    st.apply([Octopus(9, False, 30, A, 32, A, None)])
    assert len(st.hands[A]) == 2


def test_s42_octopus_as_placement_flip():
    """S42 (octopus.as_placement): by default the moved card counts as placed, so its destination
    is checked for scoring; false skips that check."""
    sides = {30: ((10, 10, 9), (2,))}
    st = position(hands=((1,), (1,)), sides=sides)
    st.apply([Octopus(2, False, 30, B, 30, A, None)])
    assert st.captured[A] == [ship(st, 30)]
    st = position(config(octopus__as_placement="false"), hands=((1,), (1,)), sides=sides)
    st.apply([Octopus(2, False, 30, B, 30, A, None)])
    assert ship(st, 30) in st.row and st.tot[ship(st, 30)][A] == 31


def test_s38_rum_on_scored_flip():
    sides = {30: ((10, 10, 10, 5), ())}
    st = position(config(rum__on_scored="returned"), hands=((1,), (1,)), sides=sides,
                  mugs={30: [B]}, rum_left=(1, 0))
    st.apply([Play(1, False, 30, A, None)])
    assert st.captured[A] == [ship(st, 30)] and st.rum_left[B] == 1
    st = position(hands=((1,), (1,)), sides=sides, mugs={30: [B]}, rum_left=(1, 0))
    st.apply([Play(1, False, 30, A, None)])
    assert st.rum_left[B] == 0


def test_s19_play_on_any_side_flip():
    st = position(config(rules__play_on_any_side="false"), hands=((1,), (1,)))
    assert all(a.side == A for a in st.legal_actions(A) if type(a) is Play)
    with pytest.raises(IllegalAction):
        st.apply([Play(1, False, 30, B, None)])


def test_s58_personal_decks_flip():
    for personal, piles in (("true", 2), ("false", 1)):
        st = ShipsideState(config(variant__enabled="true", variant__personal_decks=personal), 2,
                           np.random.default_rng(1))
        while st.phase == PICK:
            st.apply([st.legal_actions(0)[0], st.legal_actions(1)[-1]])
        assert len(st.piles) == piles
        assert sum(len(p) for p in st.piles) == 52 - 8
        if personal == "true":                     # S58: each pile holds only its owner's mark
            for s in (0, 1):
                assert {st.T.mark[c] for c in st.piles[s]} == {("starfish", "shell").index(st.marks[s])}


def test_s57_opening_hand_is_chosen():
    """S57: each player chooses their 4 opening cards from their own deck (here the highest and
    the lowest); a card not in the own deck cannot be picked."""
    st = ShipsideState(config(variant__enabled="true"), 2, np.random.default_rng(2))
    assert st.to_act() == (0, 1)
    for _ in range(4):
        a0 = max(st.legal_actions(0), key=lambda a: a.value)
        a1 = min(st.legal_actions(1), key=lambda a: a.value)
        st.apply([a0, a1])
    assert sorted(st.T.value[c] for c in st.hands[0]) == [9, 9, 10, 10]
    assert sorted(st.T.value[c] for c in st.hands[1]) == [-4, -3, -2, -1]
    assert st.phase == MAIN
    with pytest.raises(IllegalAction):
        ShipsideState(config(variant__enabled="true"), 2, np.random.default_rng(2)).apply(
            [Pick(99, False), Pick(1, False)])
