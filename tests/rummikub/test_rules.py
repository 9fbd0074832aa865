"""One test or more per numbered rule of docs/rummikub-rules.md (R1-R23), and the config fields
that choose between the [CHOICE] readings (its section 9)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.errors import ConfigError, IllegalAction
from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo
from simkit.games.rummikub import GAME, rules
from simkit.games.rummikub.actions import DRAW, PASS, InitialMeld
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.position import format_position, parse_position
from simkit.games.rummikub.state import RummikubState
from tests.rummikub.helpers import DrawOrPass, G, R, T, make_state, position_text


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
        RummikubConfig(rack_size=30)


def _draw_or_pass_to_the_end(st: RummikubState) -> int:
    """Every seat only draws or passes until the match ends; returns the turns played."""
    rngs = [np.random.default_rng(s) for s in range(st.n)]
    played = play_out(st, [DrawOrPass() for _ in range(st.n)], GameInfo("rummikub", st.config, st.n), rngs,
                      forfeit_on_error=False)
    return played.steps


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
    assert st.is_over() and st.phase == rules.OVER and st.to_act() == ()
    assert st.hand_scores[0] == (31.0, -31.0)
    out = st.outcome()
    assert out.win_shares == (1.0, 0.0) and out.extras["hands_went_out"] == 1


def test_R23_match_play_keeps_cumulative_zero_sum():
    cfg = RummikubConfig(hands_per_match=3)
    st = GAME.new_state(cfg, 3, np.random.default_rng(5))
    _draw_or_pass_to_the_end(st)
    assert len(st.hand_scores) == 3 and abs(sum(st.cum)) < 1e-9
    assert st.outcome().extras["hands"] == 3 and st.outcome().extras["hands_exhausted"] == 3


def test_R21_end_rules():
    for rule, expect_turns in (("pool_empty", 1), ("one_more_cycle", 1 + 3), ("cycle_of_passes", 1 + 3)):
        st = make_state(3, racks=[T("R1"), T("R2"), T("R3 R4")], pool=T("B1"), end_rule=rule)
        assert _draw_or_pass_to_the_end(st) == expect_turns, rule
        assert st.is_over()


def test_section_9_observation_hides_other_racks_and_pool():
    st = GAME.new_state(RummikubConfig(), 3, np.random.default_rng(1))
    obs = st.observe(0)
    assert obs.rack == st.rack(0) and obs.rack_sizes == (14, 14, 14) and obs.pool_size == 106 - 42
    det = st.determinize(0, np.random.default_rng(2))
    assert det.observe(0) == obs and det.racks[1] != st.racks[1]
    assert sorted(det.racks[1] + det.racks[2] + det.pool) == sorted(st.racks[1] + st.racks[2] + st.pool)


# Issue 25's position: seats 0 and 2 tie on 8 points in 2 tiles when the pool runs out.
TIED_RACKS = ["R1 K7", "R13 K6 K1", "O5 B3"]
#: every other tile, in valid melds: the second copies as whole runs, the first copies as runs
#: around the racked tiles (a joker completes B1 B2 and stands before K2 K3 K4 K5)
TIED_TABLE = [R(" ".join(f"{c}{v}'" for v in range(1, 14))) for c in "RKOB"] + [
    R(" ".join(f"R{v}" for v in range(2, 13))), R("J1 K2 K3 K4 K5"),
    R(" ".join(f"K{v}" for v in range(8, 14))),
    R("O1 O2 O3 O4"), R(" ".join(f"O{v}" for v in range(6, 14))), R("B1 B2 J0"),
    R(" ".join(f"B{v}" for v in range(4, 14)))]


@pytest.mark.parametrize("start", [0, 2])
@pytest.mark.parametrize("last_passer", [0, 1, 2])
def test_R22_fewest_tiles_tie_goes_to_the_earlier_seat_after_the_start_player(start, last_passer):
    """Seats 0 and 2 hold 8 points in 2 tiles each; whoever passes last, the tie goes to the seat
    that comes first from the hand's start player on (0 from start 0, 2 from start 2)."""
    text = position_text(3, table=TIED_TABLE, racks=[T(r) for r in TIED_RACKS], pool=[], seat=last_passer)
    text = text.replace(f"start seat: {last_passer}", f"start seat: {start}")
    text = text.replace("passes: 0", "passes: 2")
    state = parse_position(text, RummikubConfig(tie_rule="fewest_tiles"))
    assert state.pool == [] and state.to_act() == (last_passer,)
    state.apply([PASS])
    winner = start
    assert state.is_over() and state.outcome().winners == (winner,)
    assert state.outcome().scores == tuple(12.0 if s == winner else -12.0 if s == 1 else 0.0
                                           for s in range(3))


def test_R22_a_later_hand_counts_from_its_own_start_player():
    """Hand 2 starts with seat 2 while hand 1 started with seat 0: hand 2's tie goes to seat 2
    (counting from the first hand's start player, or from seat 0 who passes last, gives seat 0)."""
    text = position_text(3, table=TIED_TABLE, racks=[T(r) for r in TIED_RACKS], pool=[], seat=0)
    text = (text.replace("start seat: 0", "start seat: 0\nhand start seat: 2\nhand 1: out +3 -2 -1")
                .replace("passes: 0", "passes: 2"))
    config = RummikubConfig(tie_rule="fewest_tiles", hands_per_match=2)
    state = parse_position(text, config)
    assert format_position(parse_position(format_position(state), config)) == format_position(state)
    state.apply([PASS])
    assert state.is_over() and state.hand_scores[-1] == (0.0, -12.0, 12.0)


class _InvalidOpener(DrawOrPass):
    """Submits an initial meld that is not a valid run on its first turn, then draws or passes."""

    name = "invalid_opener"

    def act(self, decision):
        if not self.__dict__.get("tried"):
            self.tried = True
            return InitialMeld((R("R1 R5 R9"),))
        return super().act(decision)


@pytest.mark.parametrize("on_illegal, forfeits", [("penalty", False), ("draw1", False), ("raise", True)])
def test_R18_the_runner_applies_on_illegal_and_forfeits_only_when_it_raises(on_illegal, forfeits):
    """docs/rummikub.md: the game loop hands an invalid submission to `apply`, which applies the
    configured R18 consequence; only on_illegal=raise makes it the submitting seat's forfeit."""
    config = RummikubConfig(on_illegal=on_illegal)
    state = GAME.new_state(config, 2, np.random.default_rng(3))
    starter = state.to_act()[0]
    played = play_out(state, [_InvalidOpener(), _InvalidOpener()], GameInfo("rummikub", config, 2),
                      [np.random.default_rng(s) for s in range(2)])
    assert played.forfeit == (starter if forfeits else -1)
    assert state.is_over() != forfeits
    assert any(ev[0] == "illegal" and ev[1] == starter for ev in state.events) != forfeits
