"""The last tracebacks and silent paths (issue 23, section 3): each input or damaged folder below
is one line and a non-zero exit (or is handled as documented), never a traceback or a hang."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.errors import RunFolderError
from simkit.engine.runner import load_run, run

from .helpers import (
    PATIENCE,
    ROOT,
    alive,
    descendants,
    interrupt_after_chunks,
    manifest,
    simkit_process,
    small_spec,
    wait_until,
)

RUN = ["run", "sixnimmt", "-p", "3", "-s", "random", "-n", "6", "--seed", "1", "-j", "1", "--no-progress"]


@pytest.fixture
def cli():
    return CliRunner()


def _one_line_refusal(result, message: str) -> None:
    assert result.exit_code != 0, result.output
    assert message in result.output and "Traceback" not in result.output, result.output


# --- options refused before anything runs -----------------------------------------------------

def test_dask_with_a_decision_timeout_is_refused_up_front(cli, tmp_path):
    result = cli.invoke(main, [*RUN, "--backend", "dask", "--decision-timeout", "1",
                               "--out", str(tmp_path / "r")])
    _one_line_refusal(result, "--decision-timeout needs the loky backend")
    assert not (tmp_path / "r").exists()


def _limited_memory() -> None:
    limit = 1_500_000_000
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


@pytest.mark.parametrize("command", [["run", "sixnimmt", "-p", "1000000000"],
                                     ["sweep", "sixnimmt", "-p", "4,1000000000", "-s", "random",
                                      "-s", "random"]])
def test_a_huge_player_count_is_refused_before_the_lineup_is_filled(tmp_path, command):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "simkit", *command, "-n", "4", "--no-progress",
                           "--out", str(tmp_path / "r")], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=PATIENCE, preexec_fn=_limited_memory)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "--players 1000000000 is not allowed for sixnimmt: allowed are 2 to 10" in done.stderr


@pytest.mark.parametrize("players,vary", [("4,4", []), ("4", ["--vary", "rows=3,3"]),
                                          ("4", ["--vary", "rows=3,03"])])
def test_a_sweep_with_a_repeated_value_is_refused_before_playing(cli, tmp_path, players, vary):
    result = cli.invoke(main, ["sweep", "sixnimmt", "-p", players, *vary, "-n", "4", "--seed", "1",
                               "-j", "1", "--no-progress", "--out", str(tmp_path / "s")])
    _one_line_refusal(result, "are the same game: give each --players count and --vary value once")
    assert not (tmp_path / "s").exists()


NOT_DOCUMENTED = {
    "underscore in -n": (["-n", "1_000"], "'1_000' is not a valid integer: digits 0-9"),
    "full-width digits": (["-n", "１０００"], "is not a valid integer"),
    "plus sign in -n": (["-n", "+4"], "'+4' is not a valid integer"),
    "full-width -p": (["-p", "４"], "is not a comma-separated list of whole numbers"),
    "plus sign in --set": (["--set", "rows=+4"], "rows='+4' is not a whole number"),
    "underscore in --set": (["--set", "rows=1_0"], "rows='1_0' is not a whole number"),
    "--jobs -7": (["--jobs", "-7"], "--jobs -7 is not allowed: use a positive count, or -1 for all cores"),
    "timeout with underscore": (["--decision-timeout", "1_0"], "'1_0' is not a valid number"),
}


@pytest.mark.parametrize("case", list(NOT_DOCUMENTED))
def test_numbers_in_an_undocumented_form_are_refused(cli, tmp_path, case):
    extra, message = NOT_DOCUMENTED[case]
    result = cli.invoke(main, [*RUN, *extra, "--out", str(tmp_path / "r")])
    _one_line_refusal(result, message)
    assert not (tmp_path / "r").exists()


def test_documented_forms_are_still_read(cli, tmp_path):
    """Spaces around a --set field and value are documented as ignored: ' rows = 4' is rows=4."""
    result = cli.invoke(main, [*RUN, "-n", "4", "--set", " rows = 4", "--set", "max_rounds=1", "-j", "-1",
                               "--decision-timeout", "2.5e1", "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    recorded = manifest(tmp_path / "r")
    assert recorded["config"]["rows"] == 4 and recorded["decision_timeout"] == 25.0


# --- replay and report read only verified files -----------------------------------------------

@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    out = tmp_path_factory.mktemp("fin") / "r"
    return run(small_spec(30), out, jobs=1, chunk_size=10, progress=False).out_dir


@pytest.fixture
def finished_copy(finished, tmp_path):
    return Path(shutil.copytree(finished, tmp_path / "r"))


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _edit_manifest(run_dir: Path, **changes) -> None:
    path = run_dir / "manifest.json"
    data = json.loads(path.read_text())
    for key, value in changes.items():
        if value is _DELETE:
            del data[key]
        else:
            data[key] = value
    path.write_text(json.dumps(data))


_DELETE = object()


def test_replay_refuses_a_truncated_table_in_one_line(cli, finished_copy):
    _truncate(finished_copy / "seats.parquet")
    result = cli.invoke(main, ["replay", str(finished_copy), "--game", "3"])
    _one_line_refusal(result, "seats.parquet does not match the checksum")


def test_replay_refuses_a_truncated_chunk_in_one_line(cli, tmp_path, monkeypatch):
    out = interrupt_after_chunks(monkeypatch, small_spec(100), tmp_path / "r")
    _truncate(out / "chunks" / "games-000001.parquet")
    result = cli.invoke(main, ["replay", str(out), "--game", "12"])
    _one_line_refusal(result, "games-000001.parquet")
    assert "cannot be trusted" in result.output


@pytest.mark.parametrize("command", ["replay", "report", "resume"])
def test_a_chunk_size_of_zero_is_one_line(cli, tmp_path, monkeypatch, command):
    out = interrupt_after_chunks(monkeypatch, small_spec(100), tmp_path / "r")
    _edit_manifest(out, chunk_size=0)
    args = {"replay": ["replay", str(out), "--game", "12"], "report": ["report", str(out)],
            "resume": ["run", "sixnimmt", "-p", "4", "-n", "100", "--seed", "5", "--set", "max_rounds=1",
                       "-j", "1", "--no-progress", "--resume", "--out", str(out)]}[command]
    result = cli.invoke(main, args)
    _one_line_refusal(result, "chunk_size")


@pytest.mark.parametrize("tables", [_DELETE, [], "games.parquet", {"games.parquet": "x", "seats.parquet": 1}],
                         ids=["deleted", "a list", "a string", "entries of the wrong kind"])
def test_a_manifest_without_valid_table_checksums_is_refused(finished_copy, tmp_path, tables):
    other = run(small_spec(30, seed=99), tmp_path / "other", jobs=1, progress=False).out_dir
    shutil.copy(other / "seats.parquet", finished_copy / "seats.parquet")     # another run's table
    _edit_manifest(finished_copy, tables=tables)
    with pytest.raises(RunFolderError, match="records no checksums"):
        load_run(finished_copy)


def test_a_fifo_named_like_a_chunk_file_does_not_hang_report_or_resume(tmp_path, monkeypatch):
    spec = small_spec(100)
    out = interrupt_after_chunks(monkeypatch, spec, tmp_path / "r")
    games = out / "chunks" / "games-000001.parquet"
    games.unlink()
    os.mkfifo(games)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    report = subprocess.run([sys.executable, "-m", "simkit", "report", str(out)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=PATIENCE)
    assert report.returncode == 1 and "games-000001.parquet is not a regular file" in report.stderr
    resumed = run(spec, out, jobs=1, progress=False, resume=True, notify=lambda text: None)
    assert resumed.manifest["status"] == "complete" and len(resumed.games) == 100
    assert (out / "quarantine" / "games-000001.parquet").is_fifo()


# --- processes ----------------------------------------------------------------------------------

SLOW = ["run", "sixnimmt", "-p", "3", "-s", "tests.reliability.plugins:Slow:pause=0.3",
        "--set", "max_rounds=1", "--no-progress"]


def _loky_workers(pid: int) -> set[int]:
    found = set()
    for kid in descendants(pid):
        try:
            if b"LokyProcess" in Path(f"/proc/{kid}/cmdline").read_bytes():
                found.add(kid)
        except OSError:
            pass
    return found


@pytest.mark.slow
def test_a_worker_that_never_got_a_task_dies_with_the_main_process(tmp_path):
    out = tmp_path / "run"
    proc = simkit_process(*SLOW, "-n", "6", "--chunk-size", "6", "-j", "2", "--out", str(out))
    wait_until(lambda: len(_loky_workers(proc.pid)) == 2, "two workers to start", proc)
    wait_until(lambda: (out / "manifest.json").exists(), "the run to start", proc)
    below = descendants(proc.pid)                   # the workers and the resource trackers
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    proc.stdout.close()
    proc.stderr.close()
    try:
        wait_until(lambda: not any(alive(pid) for pid in below), "every orphan to exit")
    finally:
        for pid in below:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.slow
def test_ctrl_c_under_dask_prints_one_line(tmp_path):
    pytest.importorskip("dask.distributed")
    out = tmp_path / "run"
    # a 0.02 s pause: the first chunk (3 games of 30 decisions) is done in about 2 s after the
    # cluster starts, and the other 297 games would still take over a minute on 2 workers, so the
    # Ctrl-C lands in the middle of the run (at 0.3 s the test sat 30 s waiting for that chunk)
    args = [arg.replace("pause=0.3", "pause=0.02") for arg in SLOW]
    proc = simkit_process(*args, "-n", "300", "--chunk-size", "3", "--backend", "dask", "-j", "2",
                          "--out", str(out))
    wait_until(lambda: manifest(out).get("games_done", 0) >= 3, "a chunk to finish", proc)
    os.killpg(proc.pid, signal.SIGINT)                  # as a terminal does: the whole group
    _, err = proc.communicate(timeout=PATIENCE)
    assert proc.returncode == 130
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err and len(lines) == 2, err          # the header and the message
    assert lines[-1].startswith("interrupted: ")
