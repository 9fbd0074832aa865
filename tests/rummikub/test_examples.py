"""The spec's worked examples K1-K17 (docs/rummikub-rules.md)."""

from __future__ import annotations

import pytest

from simkit.engine.errors import IllegalAction
from simkit.games.rummikub import rules
from simkit.games.rummikub.actions import DRAW, PASS, InitialMeld, Play
from simkit.games.rummikub.tiles import parse_tile
from tests.rummikub.helpers import G, R, T, make_state


def value(m):
    err, v, _ = rules.analyse_meld(m)
    assert err is None, err
    return v


def test_K1_group_of_four_colours():
    assert value(G("R3 K3 O3 B3")) == 12


def test_K2_run_of_four():
    assert value(R("B1 B2 B3 B4")) == 10


@pytest.mark.parametrize("meld, rule", [
    (G("R3 R3 B3"), "R4"),          # colour repeated
    (G("R5 B5"), "R3"),             # fewer than 3 tiles
    (R("R12 R13 R1"), "R5"),        # no wrap-around
    (R("R4 B5 R6"), "R5"),          # mixed colours
    (R("R12 R13 J0"), "R5"),        # the joker would be 14
    (G("R5 K5 O5 B5 J0"), "R4"),    # a group of 5
])
def test_K3_invalid_melds(meld, rule):
    err = rules.meld_error(meld)
    assert err is not None and err.startswith(rule)


def test_K4_joker_roles():
    """R6/R14: a joker stands for any tile; its role (and value) follows from its meld."""
    j0, j1 = 104, 105
    assert value(R("J0 R5 R6")) == 15
    assert rules.analyse_meld(R("J0 R5 R6"))[2][j0] == {parse_tile("R4") >> 1}
    assert value(R("R5 R6 J0")) == 18
    assert rules.analyse_meld(R("R5 R6 J0"))[2][j0] == {parse_tile("R7") >> 1}
    assert value(G("R5 J0 J1")) == 15
    assert value(R("J0 J1 R5")) == 12
    assert value(R("R5 J0 J1")) == 18
    assert value(G("R10 B10 J0")) == 30
    assert rules.analyse_meld(G("R10 B10 J0"))[2][j0] == {parse_tile("K10") >> 1, parse_tile("O10") >> 1}
    assert rules.analyse_meld(G("R5 J0 J1"))[2][j1] == {parse_tile(x) >> 1 for x in ("K5", "O5", "B5")}


def _initial(melds, rack, **kw):
    return rules.check_initial_meld(melds, rack, **kw)


def test_K5_initial_meld_threshold():
    assert _initial([R("R10 R11 R12")], T("R10 R11 R12")) is None
    bad = _initial([G("K8 B8 O8")], T("K8 B8 O8"))
    assert bad is not None and bad.rule == "R11" and "24" in bad.message
    assert _initial([G("K8 B8 O8"), R("R1 R2 R3")], T("K8 B8 O8 R1 R2 R3")) is None
    assert _initial([G("R10 B10 J0")], T("R10 B10 J0")) is None
    bad = _initial([G("R10 B10 J0")], T("R10 B10 J0"), jokers_allowed=False)
    assert bad is not None and bad.rule == "R16" and bad.meld == 0


def test_K5_initial_meld_through_the_engine():
    st = make_state(2, racks=[T("R10 R11 R12 K1"), T("K2")], opened=[False, False])
    st.apply([InitialMeld((R("R10 R11 R12"),))])
    assert st.opened[0] and st.table == (R("R10 R11 R12"),) and st.racks[0] == T("K1")


def test_K6_initial_meld_turn_cannot_touch_the_table():
    table = (R("B4 B5 B6"),)
    st = make_state(2, table=table, racks=[T("R10 R11 R12 B7 K1"), T("K2")], opened=[False, True],
                    on_illegal="raise")
    # adding B7 to the table run in the same turn: as an initial meld it uses a table tile
    bad = st.violation(0, InitialMeld((R("R10 R11 R12"), R("B4 B5 B6 B7"))))
    assert bad.rule == "R11" and bad.meld == 1 and "not on your rack" in bad.message
    # as a Play it is refused: no initial meld yet
    bad = st.violation(0, Play((R("B4 B5 B6 B7"), R("R10 R11 R12"))))
    assert bad.rule == "R11"
    with pytest.raises(IllegalAction) as info:
        st.apply([Play((R("B4 B5 B6 B7"), R("R10 R11 R12")))])
    assert info.value.rule == "R11"
    # the table run cannot count towards the 30: B7 alone is no meld
    assert st.violation(0, InitialMeld((R("R10 R11 R12"),))) is None


def test_K7_a_draw_ends_the_turn():
    st = make_state(2, racks=[T("R7 R8 K1"), T("K2 K3")], pool=T("R9"))
    st.apply([DRAW])
    assert parse_tile("R9") in st.racks[0]
    assert st.to_act() == (1,)           # R9: no play after drawing; the turn passed on
    assert st.violation(0, Play((R("R7 R8 R9"),))).rule == "R8"


def test_K8_manipulation_and_going_out():
    table = (G("B5 R5 K5 O5"),)
    final = (R("B4 B5 B6 B7"), G("R5 K5 O5"))
    assert rules.check_play(table, final, T("B4 B6 B7")) is None
    st = make_state(2, table=table, racks=[T("B4 B6 B7"), T("K1 K2")])
    st.apply([Play(final)])
    assert st.is_over() and st.hand_scores[0] == (sum(rules.tile_value(t) for t in st.racks[1]),
                                                  -sum(rules.tile_value(t) for t in st.racks[1]))


def test_K9_rearranging_without_a_rack_tile_is_not_a_play():
    table = (R("B4 B5 B6 B7"), G("R5 K5 O5"))
    bad = rules.check_play(table, (G("B5 R5 K5 O5"), R("B4 B6 B7")), T("K1"))
    assert bad is not None and bad.rule in ("R12.1", "R12.2")
    bad = rules.check_play(table, (R("B4 B5 B6"), G("R5 K5 O5"), ) + (), T("B7"))
    assert bad.rule == "R12.3"     # B7 from the table cannot go back
    bad = rules.check_play(table, (R("B5 B6 B7"), G("R5 K5 O5"), R("B4")), T("K1"))
    assert bad.rule == "R12.1" and "no rack tile" in bad.message


def test_K10_joker_retrieval_with_a_rack_tile():
    table = (R("R5 R6 J0"),)
    final = (R("R5 R6 R7"), G("J0 K9 O9"))
    for mode in ("strict", "free"):
        assert rules.check_play(table, final, T("R7 K9 O9"), retrieval=mode) is None


def test_K11_joker_retrieval_with_a_table_tile():
    table = (G("R5 B5 K5 O5"), R("J0 R6 R7"))
    final = (G("B5 K5 O5"), R("R5 R6 R7"), R("J0 B9 B10"))
    for mode in ("strict", "free"):
        assert rules.check_play(table, final, T("B9 B10"), retrieval=mode) is None


def test_K12_joker_taken_without_replacement():
    table = (R("R5 R6 R7 J0"),)
    final = (R("R5 R6 R7"), G("J0 K9 O9"))
    assert rules.check_play(table, final, T("K9 O9"), retrieval="free") is None
    bad = rules.check_play(table, final, T("K9 O9"), retrieval="strict")
    assert bad.rule == "R15" and bad.meld == 1


def test_K12_engine_reports_rule_and_meld_then_penalises():
    st = make_state(2, table=(R("R5 R6 R7 J0"),), racks=[T("K9 O9"), T("K1")], pool=T("B1 B2 B3 B4"))
    bad = st.violation(0, Play((R("R5 R6 R7"), G("J0 K9 O9"))))
    assert (bad.rule, bad.meld) == ("R15", 1)
    st.apply([Play((R("R5 R6 R7"), G("J0 K9 O9")))])
    assert st.events[-1][:4] == ("illegal", 0, "R15", 1) and len(st.racks[0]) == 5


def test_K12b_split_that_keeps_the_joker_role():
    table = (R("R3 R4 R5 J0 R7 R8 R9"),)
    final = (R("R3 R4 R5"), R("J0 R7 R8 R9"), G("K1 O1 B1"))
    assert rules.check_play(table, final, T("K1 O1 B1"), retrieval="strict") is None


def test_K13_a_joker_never_returns_to_the_rack():
    table = (R("R5 R6 R7 J0"), G("K1 O1 B1"))
    bad = rules.check_play(table, (R("R5 R6 R7 R8"), G("K1 O1 B1")), T("R8"), retrieval="free")
    assert bad.rule == "R12.3" and "J0" in bad.message


def test_K14_scoring_when_someone_goes_out():
    """R17/R20: rack value = face numbers + 30 per joker (J0 O2 = 32); R19: winner takes the sum."""
    values = [0, rules.rack_value(T("R3 K7")), rules.rack_value(T("J0 O2")), rules.rack_value(T("B12 B13"))]
    assert values == [0, 10, 32, 25]
    scores = rules.score_going_out(values, 0)
    assert scores == [67, -10, -32, -25] and sum(scores) == 0


def test_K15_scoring_with_the_pool_exhausted():
    scores, winners = rules.score_exhausted([8, 15, 20, 42], [1, 2, 3, 4], 0)
    assert scores == [53, -7, -12, -34] and winners == (0,) and sum(scores) == 0


def test_K15_ties_split_or_broken_R22():
    scores, winners = rules.score_exhausted([8, 8, 20], [3, 2, 1], 0)
    assert winners == (0, 1) and scores == [6, 6, -12]
    scores, winners = rules.score_exhausted([8, 8, 20], [3, 2, 1], 0, tie_rule="fewest_tiles")
    assert winners == (1,) and scores == [0, 12, -12]


def test_K16_failed_rearrangement_restores_and_draws_what_is_left():
    """R18: an invalid submission restores table and rack, then draws min(3, pool) tiles."""
    table = (R("R5 R6 R7"),)
    st = make_state(2, table=table, racks=[T("K9 O9"), T("K1")], pool=T("B1 B2"))
    rack_before = list(st.racks[0])
    st.apply([Play((R("R5 R6 R7"), G("K9 O9 B1")))])      # B1 is not on the rack
    assert st.table == table
    assert sorted(st.racks[0]) == sorted(rack_before + T("B1 B2"))
    assert st.pool == [] and st.to_act() == (1,)
    assert st.events[-1][0] == "illegal" and st.events[-1][2] == "R12.1"


def test_K16_variants_raise_and_draw1():
    bad_play = Play((R("R5 R6 R7"), G("K9 O9 B1")))
    st = make_state(2, table=(R("R5 R6 R7"),), racks=[T("K9 O9"), T("K1")], pool=T("B1 B2"),
                    on_illegal="raise")
    with pytest.raises(IllegalAction):
        st.apply([bad_play])
    assert st.to_act() == (0,) and len(st.racks[0]) == 2
    st = make_state(2, table=(R("R5 R6 R7"),), racks=[T("K9 O9"), T("K1")], pool=T("B1 B2"),
                    on_illegal="draw1")
    st.apply([bad_play])
    assert len(st.racks[0]) == 3 and len(st.pool) == 1


def test_K17_a_full_cycle_of_passes_ends_the_hand():
    st = make_state(3, racks=[T("R1"), T("R2 R3"), T("R4")], pool=[], seat=1)
    st.apply([PASS])
    st.apply([PASS])
    assert not st.is_over()
    st.apply([PASS])
    assert st.is_over() and st.events[-1][0] == "hand_end" and st.events[-1][2] == "exhausted"
    scores = st.hand_scores[0]
    values = st.events[-1][5]
    m = min(values)
    assert scores == tuple(float(m - v) if v != m else float(sum(x - m for x in values)) for v in values)


def test_K17_a_play_restarts_the_pass_count():
    st = make_state(3, table=(R("R5 R6 R7"),), racks=[T("R1"), T("R8 K1"), T("R4")], pool=[], seat=1)
    st.apply([PASS])                                       # P1 passes
    assert st.to_act() == (2,)
    st.apply([Play((R("R4 R5 R6 R7"),))])                  # P2 plays a tile instead
    assert st.passes == 0
    for _ in range(2):
        st.apply([PASS])
    assert not st.is_over()
    st.apply([PASS])
    assert st.is_over()


def test_K16_with_an_empty_pool_an_invalid_submission_counts_as_a_pass_R21():
    st = make_state(2, table=(R("R5 R6 R7"),), racks=[T("K9 O9"), T("K1")], pool=[])
    st.apply([Play((R("R5 R6 R7"), G("K9 O9 B1")))])
    assert st.events[-1][0] == "illegal" and st.events[-1][5] == () and st.passes == 1
    st.apply([PASS])
    assert st.is_over() and st.events[-1][2] == "exhausted"
