"""Shared helpers of the reliability tests: small runs, the CLI in a subprocess, polling."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import simkit.engine.runner as runner_mod
from simkit.engine.runner import RunSpec, run

ROOT = Path(__file__).resolve().parents[2]
#: the most a test waits for a subprocess to reach a state (generous: the machine is shared)
PATIENCE = 120.0


def small_spec(n_games: int = 60, strategies=("random",), players: int = 4, seed: int = 5, **kw) -> RunSpec:
    return RunSpec.create("sixnimmt", players, list(strategies), n_games, seed=seed,
                          overrides=kw.pop("overrides", {"max_rounds": "1"}), **kw)


def interrupt_after_chunks(monkeypatch, spec: RunSpec, out: Path, chunks: int = 3,
                           chunk_size: int = 10) -> Path:
    """Run `spec` into `out` and stop it with a Ctrl-C after `chunks` chunks are written (one
    worker, so chunks/ then holds chunks 0..chunks-1); return `out`."""
    real, calls = runner_mod.write_chunk, {"n": 0}

    def stop_after(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] > chunks:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(runner_mod, "write_chunk", stop_after)
        with pytest.raises(KeyboardInterrupt):
            run(spec, out, jobs=1, chunk_size=chunk_size, progress=False)
    return out


def _ctrl_c_as_at_a_terminal() -> None:
    # a pytest-xdist worker ignores SIGINT, and an ignored signal stays ignored in its children:
    # Python would then never raise KeyboardInterrupt in simkit, unlike under a user's shell
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def simkit_process(*args: str, **kw) -> subprocess.Popen:
    """`simkit ARGS` in a new process (its own session, so signals reach it alone), with Ctrl-C
    handled as a terminal's shell leaves it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", "from simkit.cli import main; main()", *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal, **kw)


def simkit(*args: str) -> subprocess.CompletedProcess:
    proc = simkit_process(*args)
    out, err = proc.communicate(timeout=PATIENCE * 3)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def wait_until(condition, what: str, proc: subprocess.Popen | None = None) -> None:
    """Poll `condition()` until true; fail naming `what` if it never is (or `proc` ends first)."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"process ended ({proc.returncode}) before {what}: {proc.stderr.read()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def manifest(run_dir: Path) -> dict:
    try:
        return json.loads((run_dir / "manifest.json").read_text())
    except (OSError, ValueError):
        return {}


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                kids = (task / "children").read_text().split()
            except OSError:
                continue
            for kid in map(int, kids):
                if kid not in found:
                    found.add(kid)
                    todo.append(kid)
    return found


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie waiting to be reaped counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"
