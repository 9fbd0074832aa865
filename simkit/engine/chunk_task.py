"""A worker's task: play one chunk of a run and, where the worker shares the run folder's disk,
write the chunk there itself, so the parent process only records it (writing Parquet in the
parent took a core's share from the workers and capped the speed-up of a second worker)."""

from __future__ import annotations

from pathlib import Path

from simkit.engine.orphan_guard import exit_with_parent
from simkit.engine.play import Chunk, play_range
from simkit.engine.records import write_chunk
from simkit.engine.spec import RunSpec


def play_chunk(spec: RunSpec, chunk_id: int, start: int, stop: int, parent: int,
               out_dir: Path | None = None) -> tuple[int, Chunk, bool]:
    """(chunk_id, its rows, False); with `out_dir`, the chunk is written there (seats, games,
    then its index entry, as the parent would) and (chunk_id, an empty Chunk, True) returned."""
    exit_with_parent(parent)
    chunk = play_range(spec, start, stop)
    if out_dir is None:
        return chunk_id, chunk, False
    write_chunk(out_dir, chunk_id, chunk.games, chunk.seats)
    return chunk_id, Chunk(start, stop), True
