"""Cutting a run into worker tasks: the number of workers and the chunks of games they play.

Results never depend on these choices (game i's randomness comes from its index alone); they
only trade scheduling overhead against load balance and how often a stop rule is checked.
"""

from __future__ import annotations

import math
import os

from simkit.core.errors import ConfigError

MAX_CHUNK = 5000
TASKS_PER_WORKER = 8
COMPARE_BATCH = 100


def resolve_jobs(jobs: int) -> int:
    """Worker processes for `--jobs`: -1 (or any negative count) means all cores."""
    if jobs == 0:
        raise ConfigError("--jobs 0 is not allowed: use a positive count, or -1 for all cores")
    return (os.cpu_count() or 1) if jobs < 0 else jobs


def default_chunk_size(n_games: int, jobs: int) -> int:
    """Thousands of games per task where possible, but enough tasks to balance the workers."""
    return max(1, min(MAX_CHUNK, math.ceil(n_games / max(1, jobs * TASKS_PER_WORKER))))


def whole_deal_chunk_size(batch: int | None, deal_size: int) -> int:
    """About `batch` games (default 100) rounded up to whole deals, so every check of a stop
    rule sees complete deals (each deal played once per seat rotation)."""
    return max(deal_size, math.ceil((batch or COMPARE_BATCH) / deal_size) * deal_size)


def chunk_ranges(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    """The [start, stop) game ranges of chunks 0, 1, ...; the last one may be shorter."""
    if chunk_size < 1:
        raise ConfigError(f"--chunk-size {chunk_size} is not allowed: at least 1")
    return [(start, min(n_games, start + chunk_size)) for start in range(0, n_games, chunk_size)]
