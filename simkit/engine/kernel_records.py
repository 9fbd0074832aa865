"""A chunk's result columns from arrays: the record-writing step of the kernels.

`play_range` builds the same columns from `GameRecord`s (simkit/engine/play.py, `_Rows`): the
names, order, types and values must stay identical, so a kernel run's files equal the scalar
engine's. The kernels' equality tests compare every column of both (tests/sixnimmt/
test_kernel.py): a change to one writer that the other does not follow fails them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from simkit.engine.game import ROUND_SCORES, RUNNING_SCORE
from simkit.engine.play import ENGINE_ERROR, Chunk


@dataclass
class ArrayResults:
    """Games start..stop-1 of a run as arrays, G games of n seats.

    `failed`: games with no result (the step cap; their scores, wins and extras are ignored);
    `failure`: their error text without ENGINE_ERROR; `extras`: game-level int columns (e.g.
    rounds); `round_counts`/`round_points`: per game its rounds, and every finished round's points
    (n per round, games in order, failed games left out); `running`: the `running_score` column
    as it is (`seat_lists`)."""

    index: np.ndarray           # (G,) int64
    deal: np.ndarray            # (G,) int64
    rotation: np.ndarray        # (G,) int64
    slots: np.ndarray           # (G, n) int64
    steps: np.ndarray           # (G,) int64
    scores: np.ndarray          # (G, n) float64
    ranks: np.ndarray           # (G, n) int64
    wins: np.ndarray            # (G, n) float64
    failed: np.ndarray          # (G,) bool
    failure: str
    extras: dict[str, np.ndarray]
    round_counts: np.ndarray | None = None
    round_points: np.ndarray | None = None
    running: pa.ListArray | None = None


def array_chunk(start: int, stop: int, labels: list[str], res: ArrayResults) -> Chunk:
    """The `Chunk` play_range would return for these games (no forfeits: kernel bots cannot fail)."""
    size, n = res.slots.shape
    failed = res.failed
    scores, wins, ranks = res.scores, res.wins, res.ranks
    errors = _strings(failed.astype(np.int8), ["", ENGINE_ERROR + res.failure])
    extras: dict[str, np.ndarray | pa.Array] = dict(res.extras)
    if failed.any():
        scores, wins, ranks = scores.copy(), wins.copy(), ranks.copy()
        scores[failed] = np.nan
        wins[failed] = np.nan
        ranks[failed] = n
        extras = {k: pa.array(v, mask=failed) for k, v in extras.items()}
    games = {"game": res.index, "deal": res.deal, "rotation": res.rotation,
             "n_players": np.full(size, n, dtype=np.int64), "steps": res.steps,
             "forfeit_seat": np.full(size, -1, dtype=np.int64), "error": errors,
             "draw": ~(wins > 0).any(axis=1) & ~failed, **extras}
    slots = res.slots.reshape(-1)
    seats = {"game": res.index.repeat(n), "deal": res.deal.repeat(n),
             "rotation": res.rotation.repeat(n),
             "seat": np.tile(np.arange(n, dtype=np.int64), size), "slot": slots,
             "strategy": _strings(slots, labels), "score": scores.reshape(-1), "rank": ranks.reshape(-1),
             "win": wins.reshape(-1), "forfeit": np.zeros(size * n, dtype=bool)}
    if res.round_counts is not None and res.round_points is not None:
        seats[ROUND_SCORES] = _round_scores(res.round_counts, res.round_points, failed, n)
    if res.running is not None:
        seats[RUNNING_SCORE] = res.running
    return Chunk(start, stop, games, seats)


def seat_lists(counts: np.ndarray, flat: np.ndarray, n: int) -> pa.ListArray:
    """list<double> per seat row from a kernel's record: counts[game] values for each of its n
    seats, `flat` holding them seat row by seat row (a game without a result: count 0)."""
    offsets = np.zeros(counts.size * n + 1, dtype=np.int32)
    np.cumsum(np.repeat(counts, n), out=offsets[1:])
    return pa.ListArray.from_arrays(offsets, flat[:int(offsets[-1])])


def _strings(codes: np.ndarray, texts: list[str]) -> pa.Array:
    """texts[codes] as an Arrow string array, built in C (no Python object per row)."""
    return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32)), pa.array(texts, pa.string())) \
        .cast(pa.string())


def _round_scores(counts: np.ndarray, points: np.ndarray, failed: np.ndarray, n: int) -> pa.ListArray:
    """list<double> per seat row: its points in each round of its game (empty without a result).
    `points`: n per round, games in order, the failed games' rounds left out."""
    played = np.where(failed, 0, counts).astype(np.int64)
    lengths = np.repeat(played, n)
    offsets = np.zeros(lengths.size + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    points = points.astype(np.float64, copy=False)
    if (played == 1).all():                     # single rounds: already seat row by seat row
        return pa.ListArray.from_arrays(offsets, points)
    firsts = np.zeros(played.size, dtype=np.int64)
    np.cumsum(played[:-1], out=firsts[1:])
    row = np.repeat(np.arange(lengths.size), lengths)       # the seat row of each value
    game, seat = np.divmod(row, n)
    within = np.arange(int(offsets[-1])) - offsets[:-1].astype(np.int64)[row]
    return pa.ListArray.from_arrays(offsets, points[(firsts[game] + within) * n + seat])
