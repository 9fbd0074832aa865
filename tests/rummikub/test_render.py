"""Text forms of actions (spec section 8) and the replay log."""

from __future__ import annotations

from simkit.games.rummikub import GAME
from simkit.games.rummikub.actions import DRAW, PASS, InitialMeld, Play, parse_action
from simkit.games.rummikub.tiles import parse_meld, tile_text
from tests.rummikub.helpers import G, R, T, make_state


def test_actions_have_a_text_round_trip():
    for a in (DRAW, PASS, InitialMeld((R("R10 R11 R12"), G("K8 B8 O8 J1"))),
              Play((R("R5 R6 R7 R8"), G("K1 O1 B1")))):
        assert parse_action(str(a)) == a
        assert hash(a) == hash(parse_action(str(a)))
    assert str(parse_meld("Run[R5 R5' J0]")) == "Run[R5 R5' J0]" and tile_text(1) == "R1'"


def test_render_log_shows_melds_racks_and_diffs():
    st = make_state(2, table=(G("B5 R5 K5 O5"),), racks=[T("B4 B6 B7 K2"), T("K1")])
    st.apply([Play((R("B4 B5 B6 B7"), G("R5 K5 O5")))])
    text = GAME.render_log(st)
    assert "seat 1 plays B4 B6 B7" in text            # the first seat: logs count seats from 1
    assert "broke up: Group[B5 R5 K5 O5]" in text and "formed:   Run[B4 B5 B6 B7] Group[R5 K5 O5]" in text
    assert "rack now: K2" in text
