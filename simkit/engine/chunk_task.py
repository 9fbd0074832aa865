"""A worker's task: play one chunk of a run and, where the worker shares the run folder's disk,
write the chunk there itself, so the parent process only records it (writing Parquet in the
parent took a core's share from the workers and capped the speed-up of a second worker)."""

from __future__ import annotations

import os
from pathlib import Path

from simkit.engine.compile_aside import share_cores
from simkit.engine.orphan_guard import exit_with_parent
from simkit.engine.play import Chunk, play_range
from simkit.engine.records import write_chunk
from simkit.engine.spec import RunSpec


def play_chunk(spec: RunSpec, chunk_id: int, start: int, stop: int, parent: int,
               out_dir: Path | None = None) -> tuple[int, Chunk, bool]:
    """(chunk_id, its rows, False); with `out_dir`, the chunk is written there (seats, games,
    then its index entry, as the parent would) and (chunk_id, an empty Chunk, True) returned."""
    exit_with_parent(parent)
    share_cores()
    chunk = play_range(spec, start, stop)
    if out_dir is None:
        return chunk_id, chunk, False
    write_chunk(out_dir, chunk_id, chunk.games, chunk.seats)
    return chunk_id, Chunk(start, stop), True


def play_marked(spec: RunSpec, start: int, stop: int, parent: int, marks: str) -> Chunk:
    """The rows of games start..stop-1, noting in the file `marks` (8 bytes) the seat being set
    up or asked (-1 between), so that the parent can name it if this process dies."""
    exit_with_parent(parent)
    share_cores()
    fd = os.open(marks, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        def mark(seat: int) -> None:
            os.pwrite(fd, seat.to_bytes(8, "little", signed=True), 0)

        mark(-1)
        return play_range(spec, start, stop, mark)
    finally:
        os.close(fd)
