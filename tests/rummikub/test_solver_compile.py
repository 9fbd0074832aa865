"""The Rummikub solver's two compiled parts side by side on a first start
(simkit/games/rummikub/solver_compile.py) and the warm-ups its children run."""

from __future__ import annotations

import pytest

from simkit.engine import compile_aside
from simkit.games.rummikub import solver, solver_compile
from simkit.games.rummikub.tiles import GROUP


@pytest.fixture
def calls(monkeypatch):
    """`first_use` in a fresh process: no part used yet; what it asked `compile_aside`."""
    monkeypatch.setattr(solver_compile, "_USED", set())
    log: list[tuple] = []
    monkeypatch.setattr(compile_aside, "wait_for", lambda key: log.append(("wait", key)))
    monkeypatch.setattr(compile_aside, "start", lambda key, target: log.append(("start", key, target)))
    return log


def test_the_first_use_of_a_part_starts_the_other_when_it_is_not_cached(calls, monkeypatch):
    monkeypatch.setattr(compile_aside, "uncached", lambda f: True)
    solver_compile.first_use("meld")
    assert calls == [("wait", "meld"), ("start", "dp", "simkit.games.rummikub.solver:warm_table_dp")]
    solver_compile.first_use("meld")                   # later uses: nothing
    solver_compile.first_use("dp")                     # waits for its child; the other is in use
    assert calls[2:] == [("wait", "dp")]


def test_no_child_for_a_cached_part(calls, monkeypatch):
    monkeypatch.setattr(compile_aside, "uncached", lambda f: False)
    solver_compile.first_use("dp")
    assert calls == [("wait", "dp")]


def test_the_warm_ups_solve_what_they_say():
    value, runs, groups = solver.warm_table_dp()
    assert value > 0 and len(runs) + len(groups) >= 1
    plan = solver.warm_rack_search()
    assert plan is not None and plan[0][2] == (GROUP,)
