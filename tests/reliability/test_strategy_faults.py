"""A strategy cannot stop or skew the batch (issue 23, section 2): whatever a strategy returns
or raises, however long it takes, whatever it prints, kills or forks, the damage is at most a
forfeit of its own seat in the game where it misbehaved."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pandas as pd
import pytest

from simkit.engine.faults import ERROR_TEXT_LIMIT
from simkit.engine.play import ENGINE_ERROR, play_range
from simkit.engine.runner import run
from simkit.engine.spec import RunSpec
from tests.reliability.helpers import PATIENCE, ROOT, alive, wait_until

H = "tests.reliability.hostile:"


def _spec(middle: str, n_games: int = 4, **kw) -> RunSpec:
    """Three seats, the misbehaving strategy in seat 1 of every game, one round of 6 nimmt!."""
    return RunSpec.create("sixnimmt", 3, [H + "First", H + middle, H + "First"], n_games, seed=4,
                          seating="fixed", overrides={"max_rounds": "1"}, **kw)


def test_an_illegal_action_that_cannot_be_printed_is_its_seats_forfeit():
    chunk = play_range(_spec("UnprintableAction"), 0, 4)
    assert chunk.games["forfeit_seat"] == [1] * 4
    for error in chunk.games["error"]:
        assert error.startswith("illegal action") and "unprintable" in error, error


@pytest.mark.parametrize("kind", ["ZeroDimArray", "Float64"])
def test_a_numpy_value_equal_to_a_legal_action_is_that_action(kind):
    honest, chunk = play_range(_spec("First"), 0, 4), play_range(_spec(kind), 0, 4)
    assert chunk.games["forfeit_seat"] == [-1] * 4 and chunk.games["error"] == [""] * 4
    assert chunk.seats["score"] == honest.seats["score"]


def test_a_numpy_value_equal_to_no_legal_action_is_its_seats_forfeit():
    chunk = play_range(_spec("Float64OffByHalf"), 0, 4)
    assert chunk.games["forfeit_seat"] == [1] * 4
    assert all(e.startswith("illegal action") for e in chunk.games["error"]), chunk.games["error"]


@pytest.mark.parametrize("kind", ["HugeReprAction", "HugeMessage"])
def test_the_stored_error_text_is_capped(kind):
    chunk = play_range(_spec(kind), 0, 3)
    assert chunk.games["forfeit_seat"] == [1] * 3
    for error in chunk.games["error"]:
        assert 100 < len(error) <= ERROR_TEXT_LIMIT and not error.startswith(ENGINE_ERROR)
        assert error.endswith("characters cut)")


@pytest.mark.parametrize("kind,text", [("RaisesGeneratorExit", "GeneratorExit"),
                                       ("RaisesOwnBaseException", "OwnBaseException: mine"),
                                       ("SetupRaisesOwnBaseException", "OwnBaseException: in setup")])
def test_a_base_exception_raised_by_a_strategy_is_its_seats_forfeit(kind, text):
    chunk = play_range(_spec(kind), 0, 3)
    assert chunk.games["forfeit_seat"] == [1] * 3
    assert all(e.startswith(text) for e in chunk.games["error"]), chunk.games["error"]


def test_a_run_with_a_base_exception_strategy_finishes(tmp_path):
    result = run(_spec("RaisesOwnBaseException", 6), tmp_path / "r", jobs=1, chunk_size=2, progress=False)
    assert result.manifest["status"] == "complete" and result.forfeits == 6


def test_an_action_returned_after_the_time_limit_is_a_forfeit():
    chunk = play_range(_spec("SwallowsTheTimeout", decision_timeout=0.2), 0, 2)
    assert chunk.games["forfeit_seat"] == [1, 1]
    assert all(e.startswith("DecisionTimeout: seat 1") for e in chunk.games["error"]), chunk.games["error"]


def test_setup_is_timed():
    start = time.monotonic()
    chunk = play_range(_spec("SlowSetup", decision_timeout=0.2), 0, 2)
    assert chunk.games["forfeit_seat"] == [1, 1]
    assert all(e.startswith("DecisionTimeout: seat 1") for e in chunk.games["error"]), chunk.games["error"]
    assert time.monotonic() - start < 30      # the 30 s sleep was cut short, not sat out


def _cli(*args: str, env: dict | None = None, timeout: float = PATIENCE) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "simkit", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=timeout)


def _run_args(middle: str, out, jobs: int, n_games: int = 12) -> list[str]:
    return ["run", "sixnimmt", "-p", "3", "-s", H + "First", "-s", H + middle, "-s", H + "First",
            "--seating", "fixed", "--set", "max_rounds=1", "-n", str(n_games), "--seed", "4",
            "-j", str(jobs), "--chunk-size", "3", "--no-progress", "--out", str(out)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_printing_strategy_does_not_corrupt_json_output(tmp_path, jobs):
    done = _cli(*_run_args("Prints", tmp_path / "r", jobs), "--json", "-q")
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    assert facts["run"]["games_played"] == 12
    assert "a strategy talking" in done.stderr and "a strategy writing to fd 1" in done.stderr


def _tables(run_dir):
    """The run's tables without the strategy labels (the twins' names differ)."""
    seats = pd.read_parquet(run_dir / "seats.parquet").drop(columns="strategy")
    return pd.read_parquet(run_dir / "games.parquet"), seats


def test_a_strategy_that_kills_its_worker_forfeits_those_games_and_the_run_finishes(tmp_path):
    killed = run(_spec("ExitsProcess", 30), tmp_path / "killed", jobs=2, chunk_size=5, progress=False)
    honest = run(_spec("RaisesInstead", 30), tmp_path / "honest", jobs=1, chunk_size=5, progress=False)
    assert killed.manifest["status"] == "complete"
    assert 0 < killed.forfeits < 30
    pd.testing.assert_series_equal(killed.games["forfeit_seat"], honest.games["forfeit_seat"])  # null: none
    pd.testing.assert_frame_equal(killed.seats.drop(columns="strategy"),
                                  honest.seats.drop(columns="strategy"))
    assert not (tmp_path / "killed" / "chunks").exists()
    for error, seat in zip(killed.games["error"], killed.games["forfeit_seat"]):
        assert (seat == 1) == str(error).startswith("the worker process died"), error   # null: no error


@pytest.fixture(scope="module")
def honest_tables(tmp_path_factory):
    """The tables of `_run_args("First", ...)`, played in-process once for the module (the same
    spec: seed 4, fixed seats, 12 games in chunks of 3): what the forking runs must equal."""
    out = tmp_path_factory.mktemp("honest") / "h"
    run(_spec("First", 12), out, jobs=1, chunk_size=3, progress=False)
    return _tables(out)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_forking_strategy_neither_doubles_the_writer_nor_hangs_the_caller(tmp_path, jobs,
                                                                            honest_tables):
    log = tmp_path / "forks.log"
    done = _cli(*_run_args("Forks", tmp_path / "r", jobs), env={"SIMKIT_TEST_FORK_LOG": str(log)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("charts and a report to share") == 1, done.stdout
    children = [int(line) for line in log.read_text().split()]
    assert children
    for child in children:
        wait_until(lambda pid=child: not alive(pid), f"forked child {child} to end")
    for forked, plain in zip(_tables(tmp_path / "r"), honest_tables):
        pd.testing.assert_frame_equal(forked, plain)


def test_an_engine_failure_after_it_changed_the_state_is_still_the_engines(monkeypatch):
    """Checking each seat's action after a failed step must not blame a seat whose card the
    broken engine already took away: only an IllegalAction, a numpy value or an action's own
    code bring a seat into it."""
    from tests.golden import CASES  # noqa: F401  (registers the toy game "highcard")
    from tests.highcard import GAME as HIGHCARD

    real_apply = HIGHCARD.new_state.apply

    def apply(self, actions):
        if len(self.tricks) == 2:
            for seat, card in zip(self.acting, actions):
                self.hands[seat].remove(card)
            raise KeyError("engine bug after the cards left the hands")
        real_apply(self, actions)

    monkeypatch.setattr(HIGHCARD.new_state, "apply", apply)
    spec = RunSpec.create("highcard", 3, ["tests.highcard:RandomPlay"], 3, seed=4)
    chunk = play_range(spec, 0, 3)
    assert chunk.games["forfeit_seat"] == [-1] * 3
    assert all(e.startswith(ENGINE_ERROR + "KeyError") for e in chunk.games["error"]), chunk.games["error"]
