"""Batches of games across joblib workers, written chunk by chunk into a run folder.

Chunks are contiguous ranges of game indices; a finished chunk is written at once (atomic
rename), so an interrupted run keeps every finished chunk and `resume=True` plays only the
rest. Results do not depend on the number of jobs, the chunk size or the finishing order.
"""

from __future__ import annotations

import sys
import time
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import pandas as pd

from simkit.core.chunks import chunk_ranges, default_chunk_size, resolve_jobs
from simkit.core.errors import ConfigError, RunFolderError
from simkit.core.play import Chunk, play_game, play_range
from simkit.core.records import (chunk_paths, consolidate, done_chunks, read_chunks, read_manifest,
                                 read_tables, versions, write_chunk, write_manifest)
from simkit.core.spec import SEATINGS, RunSpec

__all__ = ["RunSpec", "SEATINGS", "RunResult", "run", "load_run", "replay_game"]

RESULTS = Path("results")

StopRule = Callable[[pd.DataFrame, pd.DataFrame], bool]


@dataclass
class RunResult:
    out_dir: Path
    games: pd.DataFrame
    seats: pd.DataFrame
    manifest: dict
    stopped_early: bool = False
    forfeits: int = 0
    timings: dict = field(default_factory=dict)


def default_out_dir(spec: RunSpec, root: Path = RESULTS) -> Path:
    return stamped_dir(spec.game, spec.seed, root)


def stamped_dir(stem: str, seed: int, root: Path = RESULTS) -> Path:
    """A new folder `root/<stem>-<time>-s<seed>`, with `-2`, `-3`, ... added if it exists."""
    name = f"{stem}-{datetime.now():%Y%m%d-%H%M%S}-s{seed}"
    path, k = root / name, 1
    while path.exists():
        k += 1
        path = root / f"{name}-{k}"
    return path


def _prepare_folder(spec: RunSpec, out_dir: Path, resume: bool, chunk_size: int) -> tuple[dict, set[int]]:
    fields = spec.manifest_fields()
    if resume:
        if not (out_dir / "manifest.json").exists():
            raise RunFolderError(f"--resume: {out_dir} has no manifest.json, so there is nothing to resume")
        old = read_manifest(out_dir)
        differs = [k for k in ("game", "n_players", "strategies", "n_games", "seed", "seating",
                               "duplicate", "config") if old.get(k) != fields[k]]
        if differs:
            raise RunFolderError(f"--resume: {out_dir} was started with different "
                                 f"{', '.join(differs)}; resume with the same options or use a new --out")
        if old.get("status") == "complete":
            raise RunFolderError(f"--resume: {out_dir} is already complete")
        old["status"] = "running"
        return old, done_chunks(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()):
        raise RunFolderError(f"output folder {out_dir} already exists and is not empty: "
                             f"choose a new --out, or add --resume to finish an interrupted run")
    out_dir.mkdir(parents=True, exist_ok=True)
    manifest = {**fields, "chunk_size": chunk_size, "status": "running",
                "games_done": 0, "versions": versions(),
                "started": datetime.now(timezone.utc).isoformat(timespec="seconds"), "timings": {}}
    write_manifest(out_dir, manifest)
    return manifest, set()


def _parallel_chunks(spec: RunSpec, todo: list[tuple[int, int, int]], jobs: int, backend: str,
                     scheduler: str | None):
    """Yield (chunk_id, Chunk) as chunks finish, in any order."""
    if jobs == 1 and backend == "loky":
        for chunk_id, start, stop in todo:
            yield chunk_id, play_range(spec, start, stop)
        return
    from joblib import Parallel, delayed, parallel_config

    def task(chunk_id, start, stop):
        return chunk_id, play_range(spec, start, stop)

    if backend == "dask":
        client = _dask_client(scheduler)
        try:
            with parallel_config(backend="dask"):
                yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(
                    delayed(task)(*t) for t in todo)
        finally:
            client.close()
        return
    with parallel_config(backend=backend, n_jobs=jobs):
        yield from Parallel(return_as="generator_unordered")(delayed(task)(*t) for t in todo)


def _dask_client(scheduler: str | None):
    try:
        from dask.distributed import Client
    except ImportError:
        raise ConfigError("--backend dask needs dask.distributed: pip install 'simkit[dask]'") from None
    try:
        return Client(scheduler) if scheduler else Client(processes=True, dashboard_address=None)
    except OSError as exc:
        raise ConfigError(f"--scheduler {scheduler}: cannot connect ({exc})") from None


class _Progress:
    def __init__(self, total: int, done: int, enabled: bool | None):
        if enabled is None:
            enabled = sys.stderr.isatty()
        self.bar = None
        if enabled:
            import click
            self.bar = click.progressbar(length=total, label="games", file=sys.stderr,
                                         show_eta=True, show_percent=True, show_pos=True)
            self.bar.__enter__()
            self.bar.update(done)

    def update(self, k: int) -> None:
        if self.bar is not None:
            self.bar.update(k)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def run(spec: RunSpec, out_dir: Path | str, *, jobs: int = -1, chunk_size: int | None = None,
        backend: str = "loky", scheduler: str | None = None, progress: bool | None = None,
        resume: bool = False, stop: StopRule | None = None) -> RunResult:
    """Play the run into `out_dir`; return the tables. See the module docstring."""
    out_dir = Path(out_dir)
    jobs = resolve_jobs(jobs)
    if backend not in ("loky", "threading", "multiprocessing", "dask"):
        raise ConfigError(f"--backend {backend!r} is not allowed: one of loky, dask")
    if resume and (out_dir / "manifest.json").exists():
        chunk_size = read_manifest(out_dir).get("chunk_size", chunk_size)
    chunk_size = chunk_size or default_chunk_size(spec.n_games, jobs)
    ranges = chunk_ranges(spec.n_games, chunk_size)
    n_chunks = len(ranges)
    manifest, done = _prepare_folder(spec, out_dir, resume, chunk_size)
    todo = [(k, *ranges[k]) for k in range(n_chunks) if k not in done]
    t0 = time.perf_counter()
    bar = _Progress(spec.n_games, sum(ranges[k][1] - ranges[k][0] for k in done), progress)
    finished = set(done)
    prefix = _Prefix(out_dir, n_chunks)
    stopped = False
    status = "interrupted"
    chunks = _parallel_chunks(spec, todo, jobs, backend, scheduler)
    try:
        for chunk_id, chunk in chunks:
            write_chunk(out_dir, chunk_id, chunk.games, chunk.seats)
            finished.add(chunk_id)
            bar.update(chunk.stop - chunk.start)
            if stop is not None:
                prefix.add(chunk_id, chunk)
                if prefix.grow(finished) and stop(*prefix.frames()):
                    stopped = True
                    break
        status = "stopped" if stopped else "complete"
    finally:
        with warnings.catch_warnings():
            # an early stop cancels the chunks still in flight, as intended
            warnings.filterwarnings("ignore", message=".*tasks which were still being processed",
                                    category=UserWarning)
            chunks.close()
        bar.close()
        elapsed = time.perf_counter() - t0
        keep = range(_contiguous(finished, n_chunks)) if stopped else sorted(finished)
        manifest["timings"] = {**manifest.get("timings", {}),
                               "wall_seconds": round(manifest.get("timings", {}).get("wall_seconds", 0) + elapsed, 3),
                               "jobs": jobs, "backend": backend}
        manifest["status"] = status
        manifest["games_done"] = sum(ranges[k][1] - ranges[k][0] for k in keep)
        if status != "interrupted":
            manifest["finished"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
            if stopped:
                for k in finished - set(keep):
                    for p in chunk_paths(out_dir, k):
                        p.unlink(missing_ok=True)
            games, seats = consolidate(out_dir, list(keep))
        write_manifest(out_dir, manifest)
    return RunResult(out_dir, games, seats, manifest, stopped, _forfeits(games), manifest["timings"])


class _Prefix:
    """The rows of the contiguous run of finished chunks from chunk 0, for stop rules.

    Kept in memory and extended as chunks arrive (chunks finished before a resume are read
    from disk once), so a stop rule costs no re-reading of the run folder.
    """

    def __init__(self, out_dir: Path, n_chunks: int):
        self.out_dir = out_dir
        self.n_chunks = n_chunks
        self.length = 0
        self.pending: dict[int, Chunk] = {}
        self.games: list[pd.DataFrame] = []
        self.seats: list[pd.DataFrame] = []

    def add(self, chunk_id: int, chunk: Chunk) -> None:
        self.pending[chunk_id] = chunk

    def grow(self, finished: set[int]) -> bool:
        grew = False
        while self.length < self.n_chunks and self.length in finished:
            chunk = self.pending.pop(self.length, None)
            if chunk is None:
                g, s = read_chunks(self.out_dir, [self.length])
            else:
                g, s = pd.DataFrame(chunk.games), pd.DataFrame(chunk.seats)
            self.games.append(g)
            self.seats.append(s)
            self.length += 1
            grew = True
        return grew

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        return (pd.concat(self.games, ignore_index=True), pd.concat(self.seats, ignore_index=True))


def _contiguous(finished: set[int], n_chunks: int) -> int:
    k = 0
    while k < n_chunks and k in finished:
        k += 1
    return k


def load_run(run_dir: Path | str) -> RunResult:
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    games, seats = read_tables(run_dir)
    return RunResult(run_dir, games, seats, manifest, manifest.get("status") == "stopped",
                     _forfeits(games), manifest.get("timings", {}))


def _forfeits(games: pd.DataFrame) -> int:
    return int((games["forfeit_seat"] >= 0).sum()) if len(games) else 0


def replay_game(run_dir: Path | str, index: int, step: int | None = None):
    """Re-play game `index` of a run from its seed (up to decision `step` if given).

    Returns (state, record, spec); the record's outcome is empty when play stopped at `step`.
    """
    manifest = read_manifest(Path(run_dir))
    spec = RunSpec.from_manifest(manifest)
    if not 0 <= index < spec.n_games:
        raise ConfigError(f"--game {index} is out of range: the run has games 0 to {spec.n_games - 1}")
    if step is not None and step < 0:
        raise ConfigError(f"--position {step} is not allowed: a step number from 0 (the start)")
    record, state = play_game(spec, index, max_steps=step)
    if step is not None and record.steps < step:
        raise ConfigError(f"--position {step} is out of range: game {index} has steps 0 to {record.steps}")
    return state, record, spec
