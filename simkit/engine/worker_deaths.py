"""A worker process that dies (a strategy calls `os._exit`, crashes the interpreter, or the
process is killed) costs its chunk, not the run.

`surviving_chunks` plays a run's chunks on loky workers like `joblib.Parallel` (each worker
watches from its start that the run's process lives: simkit/engine/orphan_guard.py) and, when a worker
dies (`TerminatedWorkerError`), plays the chunks that were in flight again, each in a fresh
worker of its own, one game per task, with the worker noting in a small file which seat it is
setting up or asking (`chunk_task.play_marked`). A game during which that fresh worker dies too
is recorded as a forfeit of that seat (an engine error when no seat was deciding), a new worker
takes the next game, and the run goes on. Under `--strict` the run stops there instead.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from simkit.engine.chunk_index import chunk_files
from simkit.engine.chunk_task import play_chunk, play_marked
from simkit.engine.errors import StrategyError
from simkit.engine.orphan_guard import started_by
from simkit.engine.play import Chunk, died_game, join_chunks
from simkit.engine.spec import RunSpec

Task = tuple[int, int, int]


def surviving_chunks(spec: RunSpec, todo: Iterable[Task], jobs: int, parent: int,
                     out_dir: Path | None) -> Iterator[tuple[int, Chunk, bool]]:
    """(chunk_id, Chunk, written) as chunks finish, as `play_chunk` returns them; see the
    module docstring for what a dead worker changes."""
    from joblib import Parallel, delayed, parallel_config
    from joblib.externals.loky.process_executor import BrokenProcessPool

    tasks = iter(todo)
    while True:
        sent: dict[int, Task] = {}

        def feed(sent: dict[int, Task] = sent) -> Iterator[Task]:
            for task in tasks:
                sent[task[0]] = task
                yield task

        try:
            with parallel_config(backend="loky", n_jobs=jobs, initializer=started_by,
                                 initargs=(parent,)):
                for chunk_id, chunk, written in Parallel(return_as="generator_unordered")(
                        delayed(play_chunk)(spec, *t, parent, out_dir) for t in feed()):
                    sent.pop(chunk_id, None)
                    yield chunk_id, chunk, written
            return
        except BrokenProcessPool:
            pass
        for chunk_id, start, stop in sorted(sent.values()):
            if out_dir is not None and chunk_files(out_dir, chunk_id)[2].exists():
                yield chunk_id, Chunk(start, stop), True      # written before the death
            else:
                yield chunk_id, play_one_by_one(spec, start, stop, parent), False


def play_one_by_one(spec: RunSpec, start: int, stop: int, parent: int) -> Chunk:
    """Games start..stop-1, one task each, in a fresh worker; a game during which the worker
    dies is recorded by `died_game` and the next game goes to a new worker."""
    from joblib.externals.loky import ProcessPoolExecutor
    from joblib.externals.loky.process_executor import BrokenProcessPool

    pieces: list[Chunk] = []
    index = start
    with tempfile.TemporaryDirectory(prefix="simkit-seat-") as folder:
        marks = os.path.join(folder, "seat")
        while index < stop:
            executor = ProcessPoolExecutor(max_workers=1, initializer=started_by, initargs=(parent,))
            try:
                futures = [executor.submit(play_marked, spec, g, g + 1, parent, marks)
                           for g in range(index, stop)]
                for future in futures:
                    pieces.append(future.result())
                    index += 1
            except BrokenProcessPool:
                pieces.append(_died(spec, index, _read_seat(marks)))
                index += 1
            finally:
                executor.shutdown(wait=True, kill_workers=True)
    return join_chunks(pieces, start, stop)


def _died(spec: RunSpec, index: int, seat: int) -> Chunk:
    who = f"while seat {seat} was deciding or being set up" if seat >= 0 else "between decisions"
    why = (f"the worker process died during this game {who}, in a fresh worker too "
           f"(os._exit, a crash of the interpreter, or a kill)")
    if spec.strict and seat >= 0:
        raise StrategyError(f"game {index}, seat {seat}: {why}", seat=seat, strategy="")
    return died_game(spec, index, seat, why)


def _read_seat(path: str) -> int:
    try:
        data = Path(path).read_bytes()
    except OSError:
        return -1
    return int.from_bytes(data[:8], "little", signed=True) if len(data) >= 8 else -1
