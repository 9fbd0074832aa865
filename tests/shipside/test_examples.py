"""The nine constructed scenarios of the spec's §13 (row 28-30-32-34-36, wrap-around on)."""

from __future__ import annotations

import pytest

from simkit.engine.errors import IllegalAction
from simkit.games.shipside import Octopus, Play, Rum
from simkit.games.shipside.rules import DIR, OVER

from .helpers import A, B, config, crew_at, position, ship


def test_scenario_1_threshold_inclusive():
    """S32, S35, S36: B's side of 30 holds 27; B plays a 3 -> 30 >= 30: B takes 30 and its sailor."""
    st = position(hands=((1, 2), (3, 5)), sides={30: ((4,), (10, 9, 8))}, cur=B)
    st.apply([Play(3, False, 30, B, None)])
    s = ship(st, 30)
    assert s not in st.row and st.captured[B] == [s]
    assert st.score == [0, 2]                       # ship 1 + sailor 1 (S54)
    assert st.sides[s] == [[], []] and st.tot[s] == [0, 0]
    assert len(st.out) == 5                         # all cards of both sides left the game
    assert "sailor" not in crew_at(st).get(30, ())


def test_scenario_2_rum():
    """S48, S38: A's mug on 30 makes it 36; B at 30 takes nothing; B plays 6 -> 36 captures; mug gone."""
    st = position(hands=((1,), (6, 3)), sides={30: ((), (10, 10, 7))}, mugs={30: [A]},
                  rum_left=(0, 1), cur=B)
    st.apply([Play(3, False, 30, B, None)])         # B's side now 30: below the raised defense 36
    assert ship(st, 30) in st.row
    st.apply([st.legal_actions(B)[0]])              # B ends the turn (declines rum after)
    st.apply([Play(1, False, 28, A, None)])          # A has no rum left: B's turn follows
    st.apply([Play(6, False, 30, B, None)])         # 36 >= 36
    assert st.captured[B] == [ship(st, 30)]
    assert st.mugs[ship(st, 30)] == [] and st.rum_left[A] == 0   # removed from the game (S38)


def test_scenario_3_opponents_side():
    """S19, S25: A plays a -4 jellyfish on B's side of 34 (31 -> 27); A chooses the crew's direction."""
    crew = {36: "captain", 34: "mate", 30: "sailor", 28: "sailor"}
    st = position(hands=((-4, 2), (5,)), sides={34: ((), (10, 10, 10, 1))}, crew=crew, cur=A)
    legal = st.legal_actions(A)
    assert Play(-4, True, 34, B, "L") in legal and Play(-4, True, 34, B, "R") in legal
    assert Play(-4, True, 34, B, None) not in legal
    st.apply([Play(-4, True, 34, B, "R")])
    assert st.tot[ship(st, 34)][B] == 27
    assert crew_at(st)[32] == ("mate",)             # right from 34: 36 occupied, wraps 28, 30 -> 32
    move = [e for e in st.events if e[0] == "move"][-1]
    assert move[4] == A                             # the player who played the card chose
    assert ship(st, 34) in st.row                   # B could not capture from that card


def test_scenario_4_skip_and_wrap():
    """S26-S28: 32 scored; mate on 34, 30 and 28 occupied, 36 empty: left skips 30, 28, wraps to 36."""
    crew = {34: "mate", 30: "sailor", 28: "captain"}
    st = position(hands=((-2,), (1,)), crew=crew, scored={32: B}, cur=A)
    st.apply([Play(-2, True, 34, A, "L")])
    assert crew_at(st) == {36: ("mate",), 30: ("sailor",), 28: ("captain",)}


def test_scenario_5_escape_before_capture():
    """S30, S33: A's 5th card (a -1 jellyfish) makes 23 > 20; the sailor leaves first, then A takes 30."""
    st = position(hands=((-1, 4), (1,)), sides={30: ((6, 6, 6, 6), (5, 5, 5, 3, 2))}, cur=A)
    st.apply([Play(-1, True, 30, A, "L")])
    assert st.captured[A] == [ship(st, 30)]
    assert st.score[A] == 1                         # the ship without the sailor
    assert crew_at(st)[34] == ("sailor",)           # left from 30: 28 taken -> wraps -> 36, 34: 36 taken


def test_scenario_6_full_tie():
    """S34: both sides of 36 hold 5 cards totalling 27: nobody scores, ship and captain leave the game."""
    st = position(hands=((3, 1), (1,)), sides={36: ((6, 6, 6, 6), (7, 5, 5, 5, 5))}, cur=A)
    st.apply([Play(3, False, 36, A, None)])
    s = ship(st, 36)
    assert s not in st.row and s in st.ships_out
    assert st.score == [0, 0]
    assert "captain" in [st.T.crew_kind[t] for t in st.crew_out]


def test_scenario_7_octopus():
    """S40-S44: A moves a 9 from B's side of 30 to A's side; no draw; B cannot move it (S43: a card
    carrying an octopus cannot be chosen); it comes back."""
    st = position(hands=((1, 2, 3, 4), (1, 2, 3, 4)), sides={30: ((10,), (9, 5))}, cur=A)
    hand_before = list(st.hands[A])
    st.apply([Octopus(9, False, 30, B, 30, A, None)])
    s = ship(st, 30)
    nine = st.sides[s][A][-1]
    assert st.T.value[nine] == 9 and st.octo_on[nine] == A
    assert st.tot[s] == [19, 5] and s in st.row     # checked: 19 < 30, nothing happens
    assert st.hands[A] == hand_before               # S41: no draw
    st.apply([st.legal_actions(A)[0]])              # end turn (no rum)
    b_moves = [a for a in st.legal_actions(B) if type(a) is Octopus]
    assert b_moves and not any(a.value == 9 and a.src_ship == 30 and a.src_side == A for a in b_moves)
    with pytest.raises(IllegalAction):
        st.apply([Octopus(9, False, 30, A, 28, B, None)])
    assert not st._octopus_ready(A)                 # A's octopus stays on the 9 (S44)
    # 30 is scored: A's octopus returns (S37, S44)
    st.apply([Play(4, False, 30, A, None)])         # B plays a 4 on A's side: 23
    st.apply([st.legal_actions(B)[0]])              # B ends the turn
    st.apply([Play(4, False, 30, A, None)])         # A: 27
    st.apply([st.legal_actions(A)[0]])
    st.apply([Play(3, False, 30, A, None)])         # B: 30 >= 30, A captures
    assert s not in st.row and st.captured[A] == [s]
    assert st.octo_at[A] == -1 and st._octopus_ready(A)


def test_scenario_8_freeze():
    """S29: three ships and three crew tokens remain: move symbols have no effect."""
    crew = {36: "captain", 34: "mate", 30: "sailor"}
    st = position(hands=((-3, 1), (1,)), crew=crew, scored={32: A, 28: B}, cur=A)
    legal = st.legal_actions(A)
    assert Play(-3, True, 34, A, None) in legal and Play(-3, True, 34, A, "L") not in legal
    st.apply([Play(-3, True, 34, A, None)])
    assert crew_at(st) == {36: ("captain",), 34: ("mate",), 30: ("sailor",)}


def test_scenario_9_end_at_4():
    """S53, S55: A has 3 points, captures a ship with crew -> 5: the game ends at once, A wins."""
    st = position(hands=((10, 1), (1,)), sides={30: ((10, 10), ())}, scored={32: (A, "mate"), 34: A},
                  crew={36: "captain", 30: "sailor", 28: "sailor"}, cur=A)
    assert st.score[A] == 3
    st.apply([Play(10, False, 30, A, None)])
    assert st.phase == OVER and st.is_over() and st.reason == "points"
    assert st.score == [5, 0]
    out = st.outcome()
    assert out.win_shares == (1.0, 0.0) and out.ranks == (1, 2)
    assert len(st.hands[A]) == 1                    # no draw after the end


def test_scenario_3_owner_chooses_when_configured():
    """S25 alternative (movement.chooser=owner): B, the owner of the side, picks the direction."""
    crew = {36: "captain", 34: "mate", 30: "sailor", 28: "sailor"}
    st = position(config(movement__chooser="owner"), hands=((-4, 2), (5,)),
                  sides={34: ((), (10, 10, 10, 1))}, crew=crew, cur=A)
    assert Play(-4, True, 34, B, None) in st.legal_actions(A)
    st.apply([Play(-4, True, 34, B, None)])
    assert st.phase == DIR and st.to_act() == (B,)
    st.apply([st.legal_actions(B)[0]])              # B picks left
    assert crew_at(st)[32] == ("mate",)
    assert [e for e in st.events if e[0] == "move"][-1][4] == B


def test_rum_is_free_extra_before_action():
    """S17, S49: rum before the action keeps the turn; the player then acts."""
    st = position(hands=((5,), (1,)), cur=A)
    st.apply([Rum(30, "before")])
    assert st.to_act() == (A,) and st.rum_left[A] == 0
    assert not any(type(a) is Rum for a in st.legal_actions(A))
