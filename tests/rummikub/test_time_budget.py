"""R18's optional per-decision time budget (`time_budget_s`): a late decision is a failed
rearrangement, with the same consequence as an invalid submission (on_illegal)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.errors import IllegalAction
from simkit.engine.play import play_out
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import GameInfo
from simkit.engine.timed import TimedSpec
from simkit.games.rummikub.actions import LATE, parse_action
from tests.rummikub.helpers import R, T, make_state

SLOW = "tests.rummikub.helpers:SlowDraw:sleep_s="


def _late_state(**cfg):
    return make_state(2, table=(R("R5 R6 R7"),), racks=[T("K9 O9"), T("K1")], pool=T("B1 B2 B3 B4"), **cfg)


def test_late_is_a_failed_rearrangement_R18():
    st = _late_state(time_budget_s=0.5)
    table, rack = st.table, list(st.racks[0])
    assert not st.is_legal(0, LATE)
    st.apply([LATE])
    assert st.table == table
    assert sorted(st.racks[0]) == sorted(rack + T("B1 B2 B3"))
    kind, seat, rule, meld, message, drawn = st.events[-1]
    assert (kind, seat, rule, meld, len(drawn)) == ("illegal", 0, "R18", None, 3)
    assert "0.5 s" in message and st.to_act() == (1,)


def test_late_follows_on_illegal_draw1_and_raise():
    st = _late_state(time_budget_s=1, on_illegal="draw1")
    st.apply([LATE])
    assert len(st.racks[0]) == 3 and st.events[-1][2] == "R18"
    st = _late_state(time_budget_s=1, on_illegal="raise")
    with pytest.raises(IllegalAction) as err:
        st.apply([LATE])
    assert err.value.rule == "R18" and st.to_act() == (0,) and len(st.racks[0]) == 2


def test_late_text_round_trip():
    assert parse_action(str(LATE)) == LATE


def _play(budget: float, sleep_s: float, n_steps: int = 4):
    spec = RunSpec.create("rummikub", 2, [SLOW + str(sleep_s)], 1, seed=1,
                          overrides={"time_budget_s": str(budget)})
    st = _late_state(**{"time_budget_s": budget})
    rngs = [np.random.default_rng(s) for s in range(2)]
    play_out(st, spec.strategies, GameInfo("rummikub", spec.config, 2), rngs, forfeit_on_error=False,
             max_steps=n_steps)
    return st


def test_a_seat_over_the_budget_gets_the_R18_penalty_in_a_run():
    st = _play(budget=0.005, sleep_s=0.03)
    late = [ev for ev in st.events if ev[0] == "illegal"]
    assert [ev[1] for ev in late] == [0, 1, 0, 1] and all(ev[2] == "R18" for ev in late)
    assert len(late[0][5]) == 3 and st.table == (R("R5 R6 R7"),)


def test_a_seat_under_the_budget_plays_as_without_one():
    st = _play(budget=5.0, sleep_s=0.0)
    assert [ev[0] for ev in st.events[-4:]] == ["draw"] * 4


def test_no_budget_leaves_the_strategies_unwrapped():
    plain = RunSpec.create("rummikub", 2, ["greedy_tiles", "simple"], 4, seed=3)
    zero = RunSpec.create("rummikub", 2, ["greedy_tiles", "simple"], 4, seed=3,
                          overrides={"time_budget_s": "0"})
    timed = RunSpec.create("rummikub", 2, ["greedy_tiles", "simple"], 4, seed=3,
                           overrides={"time_budget_s": "60"})
    assert zero.strategies == plain.strategies
    assert not any(isinstance(s, TimedSpec) for s in plain.strategies)
    assert all(isinstance(s, TimedSpec) and s.seconds == 60 for s in timed.strategies)
    assert [s.text for s in timed.strategies] == [s.text for s in plain.strategies]
