"""Batches of games across joblib workers, written chunk by chunk into a run folder.

Chunks are contiguous ranges of game indices; a finished chunk is written at once (atomic
rename), so an interrupted run keeps every finished chunk and `resume=True` plays only the
rest. Results do not depend on the number of jobs, the chunk size or the finishing order.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from simkit.engine.chunk_index import chunk_files, entry_ids
from simkit.engine.chunk_task import play_chunk
from simkit.engine.chunks import (
    check_chunk_size,
    chunk_count,
    chunk_range,
    default_chunk_size,
    games_in_chunks,
    resolve_jobs,
)
from simkit.engine.dask_backend import dask_client, quiet_once_stopping
from simkit.engine.errors import ConfigError, RunFolderError
from simkit.engine.play import ENGINE_ERROR, Chunk, play_range
from simkit.engine.records import (
    chunk_frames,
    read_chunks,
    read_manifest,
    read_tables,
    remove_chunks,
    require_fields,
    write_chunk,
    write_manifest,
    write_tables,
)
from simkit.engine.replay_check import replay_game
from simkit.engine.run_folder import OpenedFolder, open_new, open_resume
from simkit.engine.spec import SEATINGS, RunSpec
from simkit.engine.termination import sigterm_as_interrupt
from simkit.engine.worker_deaths import surviving_chunks

__all__ = ["RunSpec", "SEATINGS", "RunResult", "run", "load_run", "replay_game"]

RESULTS = Path("results")

StopRule = Callable[[pd.DataFrame, pd.DataFrame], bool]


@dataclass
class RunResult:
    """A run's tables. `seats` leaves out the games the engine could not finish (their error
    starts with ENGINE_ERROR: no result to count); `games` keeps every game."""

    out_dir: Path
    games: pd.DataFrame
    seats: pd.DataFrame
    manifest: dict
    stopped_early: bool = False
    forfeits: int = 0
    timings: dict = field(default_factory=dict)
    engine_errors: int = 0


def _result(out_dir: Path, games: pd.DataFrame, seats: pd.DataFrame, manifest: dict,
            stopped: bool) -> RunResult:
    broken: list[int] = []
    if len(games):
        broken = games.loc[games["error"].astype(str).str.startswith(ENGINE_ERROR), "game"].tolist()
    if broken:
        seats = seats[~seats["game"].isin(broken)].reset_index(drop=True)
    return RunResult(out_dir, games, seats, manifest, stopped, _forfeits(games),
                     manifest.get("timings", {}), len(broken))


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


def _parallel_chunks(spec: RunSpec, todo: Iterable[tuple[int, int, int]], jobs: int, backend: str,
                     scheduler: str | None, out_dir: Path | None = None):
    """Yield (chunk_id, Chunk, written) as chunks finish, in any order. With `out_dir`, workers
    on this machine write their chunk into it themselves (`written`, the Chunk then has no
    rows); dask workers may be on other machines, so theirs always come back as rows."""
    if jobs == 1 and backend == "loky":
        for chunk_id, start, stop in todo:
            yield chunk_id, play_range(spec, start, stop), False
        return
    from joblib import Parallel, delayed, parallel_config

    parent = os.getpid()
    if backend == "dask":
        client = dask_client(scheduler)
        with quiet_once_stopping() as logs:
            try:
                with parallel_config(backend="dask"):
                    yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(
                        delayed(play_chunk)(spec, *t, parent) for t in todo)
            finally:
                logs.close()        # the nannies' notes on workers stopped mid-task
                client.close()
        return
    if backend == "loky":
        yield from surviving_chunks(spec, todo, jobs, parent, out_dir)
        return
    with parallel_config(backend=backend, n_jobs=jobs):
        yield from Parallel(return_as="generator_unordered")(
            delayed(play_chunk)(spec, *t, parent, out_dir) for t in todo)


class Progress:
    """The progress display on stderr: a bar with counts, rate and ETA on a terminal; otherwise
    (a log file, CI) a plain line every INTERVAL seconds with counts, rate and ETA, and a last
    line at the end if any was printed. `label` names what runs (a sweep cell, a pairing);
    `status()` adds a live text (a compare's interim Elo and LLR). `enabled=False`: nothing."""

    INTERVAL = 10.0

    def __init__(self, total: int, done: int, enabled: bool | None, label: str = "games",
                 status: Callable[[], str] | None = None):
        self.total, self.done, self.label, self.status = total, done, label, status
        self.start_done = done
        self.t0 = self.last = time.monotonic()
        self.lines = 0
        self.bar = None
        self.plain = enabled is not False and not sys.stderr.isatty()
        if enabled is not False and not self.plain:
            import shutil

            import click

            # the bar, counts, percent and ETA take about this much; the rate and status get the
            # rest of the line (a wrapped line would break the bar's redraw)
            width = 10 if status is not None else 24
            room = shutil.get_terminal_size().columns - len(label) - width - 2 * len(str(total)) - 19

            def shown(text: str | None) -> str | None:
                if not text or room < 10:
                    return None
                return text if len(text) <= room else text[:room - 1] + "…"

            self.bar = click.progressbar(length=total, label=label, file=sys.stderr, width=width,
                                         show_eta=True, show_percent=status is None, show_pos=True,
                                         item_show_func=shown)
            self.bar.__enter__()
            self.bar.update(done, self._bar_text())

    def _status(self) -> str | None:
        return self.status() if self.status is not None else None

    def _rate(self) -> tuple[float, float]:
        """Games per second since this display started, and the seconds elapsed."""
        elapsed = max(time.monotonic() - self.t0, 1e-9)
        return (self.done - self.start_done) / elapsed, elapsed

    def _bar_text(self) -> str:
        return bar_text(self._rate()[0] if self.done > self.start_done else None, self._status())

    def line(self) -> str:
        """`label: 1200/20000 games (6.0%), 340 games/s, ETA 55 s | status`."""
        rate, elapsed = self._rate()
        pct = 100 * self.done / self.total if self.total else 100.0
        text = f"{self.label}: {self.done}/{self.total} games ({pct:.1f}%), {rate:,.0f} games/s"
        if self.done < self.total:
            text += f", ETA {_duration((self.total - self.done) / rate) if rate > 0 else '?'}"
        else:
            text += f", done in {_duration(elapsed)}"
        status = self._status()
        return f"{text} | {status}" if status else text

    def update(self, k: int) -> None:
        self.done += k
        if self.bar is not None:
            self.bar.update(k, self._bar_text())
        elif self.plain and time.monotonic() - self.last >= self.INTERVAL:
            self.last = time.monotonic()
            self.lines += 1
            print(self.line(), file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
        elif self.plain and self.lines:
            print(self.line(), file=sys.stderr, flush=True)


def bar_text(rate: float | None, status: str | None) -> str:
    """What the terminal bar shows after its counts: `340 games/s`, or `status | 340 games/s`
    (the status first: a narrow terminal cuts the end). No rate before the first games are in."""
    shown = f"{rate:,.0f} games/s" if rate is not None else ""
    return " | ".join(part for part in (status, shown) if part)


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _progress_label(out_dir: Path) -> str:
    """`games`, or for a sweep cell / ladder pairing its name and place: `cell 2/6 p4-rows=3`."""
    import json

    for listing, key, kind, folder in (("sweep.json", "cells", "cell", out_dir.parent),
                                       ("ladder.json", "pairs", "pairing", out_dir.parent.parent)):
        try:
            entries = json.loads((folder / listing).read_text())[key]
            names = [e["label"] if kind == "cell" else e["folder"] for e in entries]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if out_dir.name in names:
            return f"{kind} {names.index(out_dir.name) + 1}/{len(names)} {out_dir.name}"
    return "games"


def check_backend(backend: str, scheduler: str | None) -> None:
    if backend not in ("loky", "threading", "multiprocessing", "dask"):
        raise ConfigError(f"--backend {backend!r} is not allowed: one of loky, dask")
    if scheduler is not None and backend != "dask":
        raise ConfigError(f"--scheduler {scheduler} needs --backend dask (the {backend} backend "
                          f"runs on this machine only)")


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def run(spec: RunSpec, out_dir: Path | str, *, jobs: int = -1, chunk_size: int | None = None,
        backend: str = "loky", scheduler: str | None = None, progress: bool | None = None,
        resume: bool = False, stop: StopRule | None = None,
        on_start: Callable[[], None] | None = None,
        notify: Callable[[str], None] = _stderr,
        status: Callable[[], str] | None = None) -> RunResult:
    """Play the run into `out_dir`; return the tables. See the module docstring.

    `on_start` is called once every option is checked and the folder is locked, before the
    first game (the CLI prints its header there); `notify` receives notices such as chunks set
    aside on resume; `status()` is a live text shown beside the progress display. SIGTERM stops
    the run like Ctrl-C (it raises `Terminated`).
    """
    out_dir = Path(out_dir)
    jobs = resolve_jobs(jobs)
    check_backend(backend, scheduler)
    if spec.decision_timeout is not None and backend != "loky":
        raise ConfigError(f"--decision-timeout needs the loky backend (the default), whose workers play "
                          f"in their main thread; --backend {backend} plays games in worker threads, "
                          f"where a decision cannot be interrupted: drop one of the two")
    if chunk_size is not None:
        check_chunk_size(chunk_size)
    if resume:
        opened = open_resume(spec, out_dir)
    else:
        opened = open_new(spec, out_dir, chunk_size or default_chunk_size(spec.n_games, jobs, spec.engine))
    with opened.lock:
        write_manifest(out_dir, opened.manifest)
        if on_start is not None:
            on_start()
        for notice in opened.notices:
            notify(notice)
        with sigterm_as_interrupt():
            display = Progress(spec.n_games, games_in_chunks(opened.done, spec.n_games,
                                                             int(opened.manifest["chunk_size"])),
                               progress, _progress_label(out_dir), status)
            return _play_chunks(spec, out_dir, opened, jobs, backend, scheduler, display, stop)


def _play_chunks(spec: RunSpec, out_dir: Path, opened: OpenedFolder, jobs: int, backend: str,
                 scheduler: str | None, bar: Progress, stop: StopRule | None) -> RunResult:
    manifest, done = opened.manifest, opened.done
    chunk_size = int(manifest["chunk_size"])
    n_chunks = chunk_count(spec.n_games, chunk_size)

    def games_done(chunk_ids) -> int:
        return games_in_chunks(chunk_ids, spec.n_games, chunk_size)

    todo = ((k, *chunk_range(k, spec.n_games, chunk_size)) for k in range(n_chunks) if k not in done)
    t0 = time.perf_counter()
    finished = set(done)
    saved = games_done(finished)
    prefix = _Prefix(out_dir, n_chunks)
    stopped = False
    status = "interrupted"
    writing: int | None = None
    # a stop rule reads every chunk's rows in this process, so they come back here to be written
    chunks = _parallel_chunks(spec, todo, jobs, backend, scheduler, out_dir if stop is None else None)
    # held by name: a `break` would otherwise close it (and joblib warn) outside _quiet_cancel
    received = _disk_errors(chunks, lambda: games_done(finished), out_dir)
    try:
        for chunk_id, chunk, written in received:
            writing = chunk_id
            if not written:
                try:
                    write_chunk(out_dir, chunk_id, chunk.games, chunk.seats)
                except OSError as exc:
                    raise _disk_error(exc, "a finished chunk", saved, out_dir) from None
            finished.add(chunk_id)
            writing = None
            saved += chunk.stop - chunk.start
            manifest["games_done"] = saved
            _write_manifest_quietly(out_dir, manifest)
            if stop is not None:
                prefix.add(chunk_id, chunk)
                stopped = prefix.grow_until(finished, stop)
            bar.update(chunk.stop - chunk.start)      # after the stop rule: its status is current
            if stopped:
                break
        status = "stopped" if stopped else "complete"
    finally:
        with _quiet_cancel():
            received.close()
            chunks.close()
        bar.close()
        if writing is not None and chunk_files(out_dir, writing)[2].exists():
            finished.add(writing)        # stopped just after the chunk's index entry was written
        if status == "interrupted" and stop is None:
            finished |= entry_ids(out_dir)       # chunks workers wrote that were not yet received
        elapsed = time.perf_counter() - t0
        keep = range(prefix.length) if stopped else sorted(finished)
        timings = manifest.get("timings", {})
        manifest["timings"] = {**timings, "wall_seconds": round(timings.get("wall_seconds", 0) + elapsed, 3),
                               "jobs": jobs, "backend": backend}
        manifest["status"] = "interrupted"
        manifest["games_done"] = games_done(keep)
        if status == "interrupted":
            _write_manifest_quietly(out_dir, manifest)
    if stopped:
        remove_chunks(out_dir, finished - set(keep))
    try:
        games, seats, tables = write_tables(out_dir, list(keep))
    except OSError as exc:
        _write_manifest_quietly(out_dir, manifest)
        raise _disk_error(exc, "the merged tables", manifest["games_done"], out_dir) from None
    except BaseException:            # stopped while merging: the chunks are all still there
        _write_manifest_quietly(out_dir, manifest)
        raise
    manifest.update(status=status, tables=tables,
                    finished=datetime.now(UTC).isoformat(timespec="seconds"))
    write_manifest(out_dir, manifest)
    remove_chunks(out_dir, keep)
    return _result(out_dir, games, seats, manifest, stopped)


@contextmanager
def _quiet_cancel():
    """Closing joblib's generator early warns that finished or running tasks were dropped: after
    a stop rule or an interruption that is intended, so exactly that warning is silenced."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"\d+ tasks (have been successfully executed|which were "
                                r"still being processed)", category=UserWarning, module=r"joblib\.parallel")
        yield


def _disk_errors(chunks, saved: Callable[[], int], out_dir: Path):
    """`chunks`, with a worker's failure to write its chunk explained as the parent's would be."""
    try:
        yield from chunks
    except OSError as exc:
        raise _disk_error(exc, "a finished chunk", saved(), out_dir) from None


def _write_manifest_quietly(out_dir: Path, manifest: dict) -> None:
    """Record progress; a failure here (disk full) must not hide the error being handled."""
    try:
        write_manifest(out_dir, manifest)
    except OSError:
        pass


def _disk_error(exc: OSError, what: str, saved: int, out_dir: Path) -> RunFolderError:
    return RunFolderError(f"cannot write {what} ({exc.strerror or exc}): {saved} finished games are "
                          f"saved in chunks in {out_dir / 'chunks'}; free space, then finish with the "
                          f"same command plus --resume --out {out_dir}")


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

    def grow_until(self, finished: set[int], stop: StopRule) -> bool:
        """Extend the prefix by the finished chunks one at a time, asking `stop` at every new
        length: a run stops at the first chunk boundary where its rule says so, whatever order
        the workers finish in (asking once after several chunks would depend on timing)."""
        while self.length < self.n_chunks and self.length in finished:
            chunk = self.pending.pop(self.length, None)
            if chunk is None:
                g, s = read_chunks(self.out_dir, [self.length])
            else:
                g, s = chunk_frames(chunk.games, chunk.seats)     # as read back: the same schema
            self.games.append(g)
            self.seats.append(s)
            self.length += 1
            if stop(*self.frames()):
                return True
        return False

    def frames(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        return (pd.concat(self.games, ignore_index=True), pd.concat(self.seats, ignore_index=True))


def load_run(run_dir: Path | str) -> RunResult:
    """A run folder's manifest and tables, checked (see simkit.engine.records.read_tables)."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    require_fields(manifest, run_dir)
    games, seats = read_tables(run_dir, manifest)
    return _result(run_dir, games, seats, manifest, manifest.get("status") == "stopped")


def _forfeits(games: pd.DataFrame) -> int:
    return int((games["forfeit_seat"] >= 0).sum()) if len(games) else 0
