"""Scores round by round, for games of several scored rounds (6 nimmt! rounds, Rummikub hands).

The seats table of such a game has a `round_scores` column: per seat row, its points in each
round the game lasted (they add up to its score). `round_score_curves` turns it into each
strategy's mean cumulative score after round 1, 2, ...: how a strategy's lead or deficit builds
up. A game that ended before round r counts with its final score at round r (its cumulative
score stays where it ended), so every round's mean is over the same games and the last point
is the mean final score. The interval is Student-t over games, as for the mean score: a
strategy's seats in a game are averaged first.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as _st

from simkit.stats.tables import player_key, players

#: the seats.parquet column of per-round points (written by the engine: `simkit.engine.game.ROUND_SCORES`)
ROUND_SCORES = "round_scores"


def _cumulative(lists: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the cumulative score after each round (rows padded with zero rounds after their
    last, so the total carries forward), and each row's number of rounds."""
    lengths = np.fromiter((len(x) for x in lists), dtype=np.int64, count=len(lists))
    width = int(lengths.max()) if len(lengths) else 0
    points = np.zeros((len(lists), width))
    if width:
        flat = np.concatenate([np.asarray(x, dtype=float) for x in lists])
        rows = np.repeat(np.arange(len(lists)), lengths)
        cols = np.arange(flat.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        points[rows, cols] = flat
    return np.cumsum(points, axis=1), lengths


def round_score_curves(seats: pd.DataFrame, level: float = 0.95) -> pd.DataFrame | None:
    """Per strategy and round: `mean` cumulative score after that round with its interval
    (`low`, `high`), `games`, and `running`, the share of games that lasted at least that many
    rounds. None when the table has no `round_scores` column or no game had several rounds.
    Seats without a result (forfeits, engine errors: no rounds, score NaN) are left out."""
    if ROUND_SCORES not in seats.columns:
        return None
    lists = seats[ROUND_SCORES].map(lambda x: () if x is None else x)
    keep = (lists.map(len) > 0).to_numpy() & ~np.isnan(seats["score"].to_numpy(dtype=float))
    if not keep.any():
        return None
    cum, lengths = _cumulative(lists[keep])
    if cum.shape[1] < 2:
        return None
    rounds = np.arange(1, cum.shape[1] + 1)
    per_seat = pd.DataFrame(cum, columns=rounds)
    per_seat["game"] = seats["game"].to_numpy()[keep]
    per_seat["player"] = player_key(seats).to_numpy()[keep]
    per_game = per_seat.groupby(["player", "game"], sort=False).mean()
    game_len = pd.Series(lengths).groupby(per_seat["game"].to_numpy()).max()
    running = np.array([(game_len >= r).mean() for r in rounds])
    out = []
    for p in players(seats):
        if p not in per_game.index.get_level_values(0):
            continue
        values = per_game.loc[p].to_numpy()
        n = values.shape[0]
        mean = values.mean(axis=0)
        half = (float(_st.t.ppf(0.5 + level / 2, n - 1)) * values.std(axis=0, ddof=1) / np.sqrt(n)
                if n > 1 else np.full(len(rounds), np.inf))
        out.append(pd.DataFrame({"player": p, "round": rounds, "mean": mean, "low": mean - half,
                                 "high": mean + half, "games": n, "running": running}))
    return pd.concat(out, ignore_index=True)
