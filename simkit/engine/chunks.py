"""Cutting a run into worker tasks: the number of workers and the chunks of games they play.

Results never depend on these choices (game i's randomness comes from its index alone); they
only trade scheduling overhead against load balance and how often a stop rule is checked.
"""

from __future__ import annotations

import math
import os

from simkit.engine.errors import ConfigError

MAX_CHUNK = 5000
#: the batch engine plays a chunk as arrays: its measured block size (simkit/games/sixnimmt/batch.py)
#: is ~13 % faster than chunks of MAX_CHUNK games; a kernel's chunks are as large (fewer calls)
MAX_BATCH_CHUNK = 16_384
TASKS_PER_WORKER = 8
COMPARE_BATCH = 100
#: the most games one run may hold (docs/reliability.md); larger studies are several runs
MAX_GAMES = 1_000_000_000
#: --jobs may ask for at most this many workers per core (more only thrashes the machine)
MAX_JOBS_PER_CORE = 4


def max_jobs() -> int:
    return MAX_JOBS_PER_CORE * (os.cpu_count() or 1)


def resolve_jobs(jobs: int) -> int:
    """Worker processes for `--jobs`: -1 means all cores; 0 and other negative counts are refused."""
    if jobs == 0 or jobs < -1:
        raise ConfigError(f"--jobs {jobs} is not allowed: use a positive count, or -1 for all cores")
    if jobs > max_jobs():
        raise ConfigError(f"--jobs {jobs} is not allowed: at most {max_jobs()} "
                          f"({MAX_JOBS_PER_CORE} per core on this machine), or -1 for all cores")
    return (os.cpu_count() or 1) if jobs < 0 else jobs


def check_game_count(n_games: int) -> None:
    """Refuse run sizes outside 1..MAX_GAMES in one line."""
    if n_games < 1:
        raise ConfigError(f"--games {n_games} is not allowed: at least 1")
    if n_games > MAX_GAMES:
        raise ConfigError(f"{n_games} games is more than one run may hold: at most {MAX_GAMES:,} "
                          f"(split the study into several runs with different seeds)")


def default_chunk_size(n_games: int, jobs: int, engine: str = "scalar") -> int:
    """Thousands of games per task where possible (more for the batch engine), but enough tasks
    to balance the workers."""
    most = MAX_BATCH_CHUNK if engine in ("batch", "kernel") else MAX_CHUNK
    return max(1, min(most, math.ceil(n_games / max(1, jobs * TASKS_PER_WORKER))))


def whole_deal_chunk_size(batch: int | None, deal_size: int) -> int:
    """About `batch` games (default 100) rounded up to whole deals, so every check of a stop
    rule sees complete deals (each deal played once per seat rotation)."""
    return max(deal_size, math.ceil((batch or COMPARE_BATCH) / deal_size) * deal_size)


def check_chunk_size(chunk_size: int) -> None:
    if chunk_size < 1:
        raise ConfigError(f"--chunk-size {chunk_size} is not allowed: at least 1")
    if chunk_size > MAX_GAMES:
        raise ConfigError(f"--chunk-size {chunk_size} is not allowed: at most {MAX_GAMES:,}")


def chunk_count(n_games: int, chunk_size: int) -> int:
    """How many chunks a run of `n_games` has (computed, never listed)."""
    check_chunk_size(chunk_size)
    return -(-n_games // chunk_size)


def chunk_range(chunk_id: int, n_games: int, chunk_size: int) -> tuple[int, int]:
    """The [start, stop) games of chunk `chunk_id`; the last chunk may be shorter."""
    start = chunk_id * chunk_size
    return start, min(n_games, start + chunk_size)


def games_in_chunks(chunk_ids, n_games: int, chunk_size: int) -> int:
    """The number of games held by the chunks `chunk_ids`."""
    return sum(stop - start for start, stop in (chunk_range(k, n_games, chunk_size) for k in chunk_ids))


def chunk_ranges(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    """The [start, stop) game ranges of chunks 0, 1, ... as a list (small runs and tests only:
    the runner plans chunks lazily with chunk_count and chunk_range)."""
    return [chunk_range(k, n_games, chunk_size) for k in range(chunk_count(n_games, chunk_size))]
