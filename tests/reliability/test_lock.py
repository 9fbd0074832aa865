"""One writer per run folder: a lock file with the owner's pid and an OS lock (flock)."""

import os
import signal

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.folder_lock import LOCK_NAME, FolderBusyError, FolderLock, is_locked
from simkit.engine.runner import load_run, run
from simkit.studies.sweep import plan, run_sweep

from .helpers import manifest, simkit_process, small_spec, wait_until

SLOW = ["run", "sixnimmt", "-p", "3", "-s", "tests.reliability.plugins:Slow", "-s", "random", "-s",
        "random", "-n", "6000", "--seed", "9", "--chunk-size", "6", "--set", "max_rounds=1",
        "--no-progress", "-j", "1"]


def test_a_locked_folder_is_refused_naming_the_owner(tmp_path):
    folder = tmp_path / "r"
    folder.mkdir()
    with FolderLock(folder):
        assert is_locked(folder)
        with pytest.raises(FolderBusyError, match=f"in use by process {os.getpid()}"):
            run(small_spec(10), folder, jobs=1, progress=False)
        with pytest.raises(FolderBusyError):
            FolderLock(folder).acquire()
    assert not is_locked(folder)
    result = run(small_spec(10), folder, jobs=1, progress=False)    # free again: the run goes ahead
    assert len(result.games) == 10 and (folder / LOCK_NAME).exists()


@pytest.mark.slow
def test_resume_of_a_run_still_going_is_refused(tmp_path):
    out = tmp_path / "run"
    proc = simkit_process(*SLOW, "--out", str(out))
    try:
        wait_until(lambda: manifest(out).get("games_done", 0) >= 6, "the run to be under way", proc)
        assert is_locked(out)
        # the two refused commands run in this process: the lock held is the other process's
        second = CliRunner().invoke(main, [*SLOW, "--out", str(out), "--resume"])
        # a clean exit 1, not an exception that a subprocess would have printed as a traceback
        assert second.exit_code == 1 and isinstance(second.exception, SystemExit), second.output
        assert f"in use by process {proc.pid}" in second.stderr
        assert "6 nimmt!" not in second.output                 # no header before the refusal
        third = CliRunner().invoke(main, [*SLOW, "--out", str(out)])
        assert third.exit_code == 1 and isinstance(third.exception, SystemExit)
        assert "already exists" in third.stderr
        assert manifest(out)["status"] == "running"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=120)
    assert manifest(out)["status"] == "interrupted" and not is_locked(out)


@pytest.mark.slow
def test_two_runs_started_together_never_both_write(tmp_path):
    out = tmp_path / "run"
    args = ["run", "sixnimmt", "-p", "3", "-s", "random", "-n", "200", "--set", "max_rounds=1",
            "--no-progress", "-j", "1", "--out", str(out)]
    procs = [simkit_process(*args, "--seed", seed) for seed in ("1", "2")]
    results = [(p, *p.communicate(timeout=300)) for p in procs]
    codes = sorted(p.returncode for p, _, _ in results)
    assert codes == [0, 1], [err for _, _, err in results]
    loser_err = next(err for p, _, err in results if p.returncode == 1)
    assert "in use by process" in loser_err or "already exists" in loser_err
    winner = load_run(out)
    assert winner.manifest["status"] == "complete" and len(winner.games) == 200
    alone = run(small_spec(200, players=3, seed=winner.manifest["seed"]), tmp_path / "alone", jobs=1,
                progress=False)
    pd.testing.assert_frame_equal(winner.seats, alone.seats)


def test_a_sweep_folder_is_locked_too(tmp_path):
    planned = plan("sixnimmt", [3], ["random"], 6, 1, {}, {"max_rounds": "1"})
    out = tmp_path / "sweep"
    out.mkdir()
    with FolderLock(out), pytest.raises(FolderBusyError):
        run_sweep(planned, out, jobs=1, progress=False)
