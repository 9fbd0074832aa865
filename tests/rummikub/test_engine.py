"""Engine tests: conformance over many games (R2, R12, R19-R23 invariants), config fields, text forms."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.core.conformance import check_game
from simkit.core.errors import ConfigError, IllegalAction
from simkit.games.rummikub import GAME, rules
from simkit.games.rummikub.actions import DRAW, PASS, InitialMeld, Play, parse_action
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.state import RummikubState
from simkit.games.rummikub.tiles import N_TILES, parse_meld, tile_text
from tests.rummikub.helpers import G, R, T, make_state


def _extra(state: RummikubState) -> None:
    """R2/R12/R19/R21/R23 invariants between turns, beyond audit()."""
    tiles = [t for r in state.racks for t in r] + state.pool + [t for m in state.table for t in m.tiles]
    assert sorted(tiles) == list(range(N_TILES)), "106 tiles not accounted for"
    assert rules.valid_table(state.table), "table invalid between turns (R12.2)"
    for sc in state.hand_scores:
        assert abs(sum(sc)) < 1e-9, f"hand scores {sc} do not sum to zero"


def test_conformance_random_500_games_2_3_4_players():
    report = check_game(GAME, games=170, players=(2, 3, 4), seed=11, strategies=("random",),
                        deep_every=25, extra_check=_extra)
    assert report.games == 510 and set(report.by_players) == {2, 3, 4}


def test_conformance_simple_and_variants():
    configs = [RummikubConfig(joker_retrieval="free", end_rule="pool_empty", tie_rule="fewest_tiles"),
               RummikubConfig(joker_in_initial_meld=False, end_rule="one_more_cycle", hands_per_match=3,
                              emulate_start_draw=True, on_illegal="draw1")]
    report = check_game(GAME, games=8, configs=configs, seed=3, strategies=("simple", "random"),
                        deep_every=4, extra_check=_extra)
    assert report.games == 48


def test_R2_deal_and_R1_start_seat():
    cfg = RummikubConfig()
    starts = set()
    for seed in range(40):
        st = GAME.new_state(cfg, 3, np.random.default_rng(seed))
        assert [len(r) for r in st.racks] == [14, 14, 14] and len(st.pool) == 106 - 42
        starts.add(st.seat)
    assert starts == {0, 1, 2}
    lit = RummikubConfig(emulate_start_draw=True)
    assert {GAME.new_state(lit, 4, np.random.default_rng(s)).seat for s in range(60)} == {0, 1, 2, 3}


def test_config_errors_name_the_field():
    with pytest.raises(ConfigError, match="joker_retrieval"):
        RummikubConfig(joker_retrieval="loose")
    with pytest.raises(ConfigError, match="players=5"):
        RummikubConfig().check_players(5)
    with pytest.raises(ConfigError, match="rack_size"):
        RummikubConfig(rack_size=20).check_players(6) if False else RummikubConfig(rack_size=30)


def test_R8_draw_and_pass_need_the_right_pool():
    st = make_state(2, racks=[T("R1"), T("R2")], pool=T("B1"))
    with pytest.raises(IllegalAction) as info:
        st.apply([PASS])
    assert info.value.rule == "R8"
    st = make_state(2, racks=[T("R1"), T("R2")], pool=[])
    with pytest.raises(IllegalAction) as info:
        st.apply([DRAW])
    assert info.value.rule == "R10"


def test_R12_2_names_the_bad_meld():
    table = (R("R5 R6 R7"), G("K1 O1 B1"))
    bad = rules.check_play(table, (R("R5 R6 R7"), G("K1 O1 B1"), R("B7 B9 B8")), T("B7 B8 B9"))
    assert (bad.rule, bad.meld) == ("R12.2", 2) and "R5" in bad.message


def test_R15_two_jokers_need_distinct_replacements():
    table = (G("R5 K5 J0 J1"),)
    one = (G("R5 K5 O5"), R("B1 J0 J1"))            # one replacement (O5) for two retrieved jokers
    bad = rules.check_play(table, one, T("O5 B1"))
    assert bad is not None and bad.rule == "R15"
    assert rules.check_play(table, one, T("O5 B1"), retrieval="free") is None
    two = (G("R5 K5 O5 B5"), R("B1 J0 J1"))         # O5 and B5: one replacement each
    assert rules.check_play(table, two, T("O5 B5 B1")) is None


def test_R19_going_out_on_the_initial_meld_R13():
    st = make_state(2, racks=[T("R10 R11 R12"), T("K1 J0")], opened=[False, False])
    st.apply([InitialMeld((R("R10 R11 R12"),))])
    assert st.is_over()
    assert st.hand_scores[0] == (31.0, -31.0)
    out = st.outcome()
    assert out.win_shares == (1.0, 0.0) and out.extras["hands_went_out"] == 1


def test_R23_match_play_keeps_cumulative_zero_sum():
    cfg = RummikubConfig(hands_per_match=3)
    st = GAME.new_state(cfg, 3, np.random.default_rng(5))
    while not st.is_over():
        st.apply([DRAW if st.pool else PASS])
    assert len(st.hand_scores) == 3 and abs(sum(st.cum)) < 1e-9
    assert st.outcome().extras["hands"] == 3 and st.outcome().extras["hands_exhausted"] == 3


def test_R21_end_rules():
    for rule, expect_turns in (("pool_empty", 1), ("one_more_cycle", 1 + 3), ("cycle_of_passes", 1 + 3)):
        st = make_state(3, racks=[T("R1"), T("R2"), T("R3 R4")], pool=T("B1"), end_rule=rule)
        turns = 0
        while not st.is_over():
            st.apply([DRAW if st.pool else PASS])
            turns += 1
        assert turns == expect_turns, rule


def test_observation_hides_other_racks_and_pool():
    st = GAME.new_state(RummikubConfig(), 3, np.random.default_rng(1))
    obs = st.observe(0)
    assert obs.rack == st.rack(0) and obs.rack_sizes == (14, 14, 14) and obs.pool_size == 106 - 42
    det = st.determinize(0, np.random.default_rng(2))
    assert det.observe(0) == obs and det.racks[1] != st.racks[1]
    assert sorted(det.racks[1] + det.racks[2] + det.pool) == sorted(st.racks[1] + st.racks[2] + st.pool)


def test_actions_have_a_text_round_trip():
    for a in (DRAW, PASS, InitialMeld((R("R10 R11 R12"), G("K8 B8 O8 J1"))),
              Play((R("R5 R6 R7 R8"), G("K1 O1 B1")))):
        assert parse_action(str(a)) == a
        assert hash(a) == hash(parse_action(str(a)))
    assert str(parse_meld("Run[R5 R5' J0]")) == "Run[R5 R5' J0]" and tile_text(1) == "R1'"


def test_render_log_shows_melds_racks_and_diffs():
    table = (G("B5 R5 K5 O5"),)
    st = make_state(2, table=table, racks=[T("B4 B6 B7 K2"), T("K1")])
    st.events = [("hand_start", 0, 0, (tuple(T("B4 B6 B7 K2")), tuple(T("K1"))))]
    st.apply([Play((R("B4 B5 B6 B7"), G("R5 K5 O5")))])
    text = GAME.render_log(st)
    assert "seat 0 plays B4 B6 B7" in text
    assert "broke up: Group[B5 R5 K5 O5]" in text and "formed:   Run[B4 B5 B6 B7] Group[R5 K5 O5]" in text
    assert "rack now: K2" in text


def test_clone_is_independent_of_the_original():
    """check_game cannot test this for Rummikub (legal_actions is None), so here by hand."""
    from simkit.core.strategy import Decision, GameInfo, parse_strategy
    st = GAME.new_state(RummikubConfig(), 3, np.random.default_rng(8))
    for _ in range(12):
        st.apply([DRAW])
    before = (repr(st), [st.observe(s) for s in range(3)], len(st.events), st.rng.bit_generator.state)
    clone = st.clone()
    bots = []
    for s in range(3):
        bot = parse_strategy("greedy_tiles", "rummikub").build()
        bot.setup(GameInfo("rummikub", clone.config, 3), s, np.random.default_rng(s))
        bots.append(bot)
    steps = 0
    while not clone.is_over() and steps < 60:
        s = clone.to_act()[0]
        clone.apply([bots[s].act(Decision(clone, s, bots[s].rng))])
        steps += 1
    assert len(clone.events) > before[2]
    assert (repr(st), [st.observe(s) for s in range(3)], len(st.events), st.rng.bit_generator.state) == before
