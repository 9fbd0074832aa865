"""Kills through subprocesses: SIGTERM stops a run like Ctrl-C, games_done is kept current,
no worker outlives the run, and --resume finishes it to the same tables as an unbroken run."""

import os
import signal
from pathlib import Path

import pandas as pd
import pytest

from simkit.engine.runner import load_run, run
from simkit.engine.termination import Terminated

from .helpers import alive, descendants, manifest, simkit, simkit_process, small_spec, wait_until

SLOW = "tests.reliability.plugins:Slow"
ARGS = ["run", "sixnimmt", "-p", "3", "-s", SLOW, "-s", "random", "-s", "random", "-n", "300",
        "--seed", "9", "--chunk-size", "6", "--set", "max_rounds=1", "--no-progress"]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The tables of the unbroken run of ARGS (`-j 2`), played once for the module: what every
    interrupted and resumed run must come back to."""
    out = tmp_path_factory.mktemp("whole") / "run"
    done = simkit(*ARGS, "-j", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return {name: pd.read_parquet(out / name) for name in ("games.parquet", "seats.parquet")}


def _chunk_games(run_dir) -> int:
    return sum(1 for _ in (run_dir / "chunks").glob("chunk-*.json")) * 6


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigterm_stops_like_ctrl_c_and_resume_finishes_identically(tmp_path, jobs, whole):
    out = tmp_path / "run"
    proc = simkit_process(*ARGS, "-j", jobs, "--out", str(out))
    wait_until(lambda: manifest(out).get("games_done", 0) >= 12, "a few chunks to finish", proc)
    assert manifest(out)["status"] == "running"      # games_done is written as chunks finish
    workers = descendants(proc.pid)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143
    saved = manifest(out)
    assert saved["status"] == "interrupted"
    assert saved["games_done"] == _chunk_games(out) > 0
    assert f"{saved['games_done']} finished games are saved in {out}" in err
    assert "Traceback" not in err
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers to stop")
    done = simkit(*ARGS, "-j", "2", "--out", str(out), "--resume")
    assert done.returncode == 0, done.stderr
    for name, table in whole.items():
        pd.testing.assert_frame_equal(pd.read_parquet(out / name), table)


def test_report_on_a_killed_run_tells_the_truth(tmp_path):
    out = tmp_path / "run"
    proc = simkit_process(*ARGS, "-j", "1", "--out", str(out))
    wait_until(lambda: manifest(out).get("games_done", 0) >= 12, "a few chunks to finish", proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=60)
    result = load_run(out)
    assert manifest(out)["status"] == "running"      # nobody could record the kill ...
    assert len(result.games) == _chunk_games(out)    # ... but only verified chunks are read
    assert manifest(out)["games_done"] <= len(result.games)


def test_sigterm_in_the_library_leaves_an_interrupted_run(tmp_path, monkeypatch):
    import simkit.engine.runner as runner_mod
    real = runner_mod.write_chunk
    calls = {"n": 0}

    def terminate_after_two(*args, **kwargs):
        real(*args, **kwargs)
        calls["n"] += 1
        if calls["n"] == 2:
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(runner_mod, "write_chunk", terminate_after_two)
    with pytest.raises(Terminated):
        run(small_spec(50), tmp_path / "r", jobs=1, chunk_size=10, progress=False)
    assert manifest(tmp_path / "r")["status"] == "interrupted"
    assert manifest(tmp_path / "r")["games_done"] == 20
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL   # the handler is put back


@pytest.mark.slow
def test_no_worker_outlives_a_sigkill_of_the_main_process(tmp_path):
    out = tmp_path / "run"
    proc = simkit_process(*ARGS, "-j", "2", "--out", str(out))
    wait_until(lambda: manifest(out).get("games_done", 0) >= 12, "a few chunks to finish", proc)
    workers = descendants(proc.pid)
    assert workers
    os.kill(proc.pid, signal.SIGKILL)                 # the main process only, not its group
    proc.wait(timeout=60)                             # (orphans would still hold its pipes)
    proc.stdout.close()
    proc.stderr.close()
    try:
        wait_until(lambda: not any(alive(pid) for pid in workers),
                   f"the orphaned workers to exit: {[_cmdline(pid) for pid in workers if alive(pid)]}")
    finally:
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    done = simkit(*ARGS, "-j", "2", "--out", str(out), "--resume")
    assert done.returncode == 0, done.stderr
    assert manifest(out)["status"] == "complete" and manifest(out)["games_done"] == 300


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:120]
    except OSError:
        return "?"
