"""Built-in strategies: every one plays only legal actions (check_game), and their plans."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.rummikub import GAME
from simkit.games.rummikub.actions import DRAW, InitialMeld, Play
from simkit.games.rummikub.solver import solve
from simkit.studies.conformance import check_game
from strategies.rummikub import BUILTIN
from tests.rummikub.helpers import G, R, T, make_state


def _bot(name, state, seat=0, seed=0):
    bot = parse_strategy(name, "rummikub").build()
    rng = np.random.default_rng(seed)
    bot.setup(GameInfo("rummikub", state.config, state.n), seat, rng)
    return bot, Decision(state, seat, rng)


def test_every_builtin_loads_and_describes_itself():
    for name in BUILTIN:
        cls = type(parse_strategy(name, "rummikub").build())
        assert cls.name == name and cls.description


@pytest.mark.slow
@pytest.mark.parametrize("lineup", [("greedy_tiles",), ("greedy_value", "simple"), ("patient", "random")])
def test_strategies_play_legal_games(lineup):
    report = check_game(GAME, games=2, players=(2, 3), seed=5, strategies=lineup, deep_every=4)
    assert report.games == 4


def test_greedy_tiles_plays_the_solver_optimum():
    st = make_state(2, table=(G("B5 R5 K5 O5"),), racks=[T("B4 B6 B7 K1"), T("K2")])
    bot, dec = _bot("greedy_tiles", st)
    action = bot.act(dec)
    assert isinstance(action, Play) and st.is_legal(0, action)
    assert len({t for m in action.table for t in m.tiles}) == 4 + 3


def test_greedy_value_prefers_points():
    # tiles: R1 R2 R3 R4 (4 tiles, 10 points); points: K11 K12 K13 (3 tiles, 36 points)
    st = make_state(2, table=(G("O9 B9 R9"),), racks=[T("R1 R2 R3 R4 K11 K12 K13 O1"), T("K2")])
    bot, dec = _bot("greedy_value", st)
    placed = {t for m in bot.act(dec).table for t in m.tiles} - {t for m in st.table for t in m.tiles}
    assert set(T("K11 K12 K13")) <= placed


def test_simple_opens_with_30_points_or_draws_R11():
    st = make_state(2, racks=[T("R10 R11 R12 K1"), T("K2")], opened=[False, False])
    bot, dec = _bot("simple", st)
    action = bot.act(dec)
    assert action == InitialMeld((R("R10 R11 R12"),))
    st = make_state(2, racks=[T("R1 R2 R3 K1"), T("K2")], opened=[False, False])
    bot, dec = _bot("simple", st)
    assert bot.act(dec) == DRAW


def test_patient_holds_back_then_goes_out():
    table = (R("K5 K6 K7"),)
    opponent = T("K2 K3 K4 K10 K11 K12 K13")
    st = make_state(2, table=table, racks=[T("B1 B2 B3 O9"), opponent])
    bot, dec = _bot("patient", st)
    assert bot.act(dec) == DRAW                           # could play B1-B3 but holds them
    st = make_state(2, table=table, racks=[T("B1 B2 B3 K8"), opponent])
    bot, dec = _bot("patient", st)
    action = bot.act(dec)                                 # now it can go out in one turn
    assert isinstance(action, Play) and st.is_legal(0, action)
    assert {t for m in action.table for t in m.tiles} >= set(T("B1 B2 B3 K8"))


def test_patient_keeps_its_joker_when_the_pool_runs_low():
    st = make_state(2, table=(R("K5 K6 K7"),), racks=[T("B1 B2 B3 O9 J0"), T("K2")], pool=T("O1 O2"))
    bot, dec = _bot("patient", st)
    action = bot.act(dec)                                 # urgent: pool is low
    placed = {t for m in action.table for t in m.tiles}
    assert set(T("B1 B2 B3")) <= placed and 104 not in placed
    full = solve(st.table, st.racks[0])
    assert 104 in full.placed                             # greedy would have used the joker
