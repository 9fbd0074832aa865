"""The game's arc: how the lead moves during a game, from every seat's running score.

Input per game: the cumulative score of every seat after each step of the arc (a round of 6
nimmt!, a hand of Rummikub: their `round_scores`, points per round, added up here; a round of
turns of Game of Trains and Shipside: their `running_score`, already the standing after each
step, simkit/engine/running.py), and who won. Per game:

- length: the number of steps;
- lead changes: steps at which no seat that led before still leads (ties share the lead);
- decided at: the share of the game played when the eventual winner took the lead for good
  (1/length: it led from the first step on; 1: only the last step settled it);
- comeback: the winner was alone in last place at half time (after step ceil(length/2));
- drama: how far behind the leader the eventual winner fell at worst, in the game's points
  (0 when it never trailed).

Each is summarised over games with a 95 % interval (Student-t for means, Wilson for shares).
A game with co-winners counts the co-winner that took the lead for good earliest; a game where
a seat has no result (forfeit, engine error) or without a winner (a draw: Trains' turn cap) is
left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats as _st

from simkit.stats.intervals import wilson
from simkit.stats.rounds import ROUND_SCORES
from simkit.stats.tables import player_key

#: the seats.parquet column of standings per step (written by the engine:
#: `simkit.engine.game.RUNNING_SCORE`, Game of Trains and Shipside)
RUNNING_SCORE = "running_score"

#: the figures in report order, with what each means in one line
MEANINGS = {
    "length": "steps (rounds, hands, rounds of turns) a game lasts",
    "lead_changes": "how often the lead passes to a seat that did not lead before, per game",
    "decided_at": "share of the game played when the eventual winner took the lead for good",
    "comebacks": "share of games won by the seat that was alone in last place at half time",
    "drama": "how far behind the leader the eventual winner fell at worst (points)",
    "trailed": "share of games whose winner trailed the leader at some point",
}


@dataclass(frozen=True)
class GameArc:
    length: int
    lead_changes: int
    decided_at: float
    comeback: bool
    drama: float


def game_arc(cumulative: np.ndarray, winners: Sequence[int], higher_is_better: bool = True) -> GameArc:
    """One game: `cumulative[t, seat]` is each seat's running score after step t+1."""
    scores = np.asarray(cumulative, dtype=float)
    if not higher_is_better:
        scores = -scores                        # from here on, more is better
    length = scores.shape[0]
    best = scores.max(axis=1, keepdims=True)
    leads = scores == best                      # [t, seat]
    changes = int(sum(not (leads[t] & leads[t - 1]).any() for t in range(1, length)))
    decided = min(_lead_for_good(leads[:, w]) for w in winners)
    half = (length + 1) // 2 - 1
    worst = scores[half] == scores[half].min()
    comeback = bool(length >= 2 and worst.sum() == 1 and any(worst[w] for w in winners))
    drama = float(min((best[:, 0] - scores[:, w]).max() for w in winners))
    return GameArc(length, changes, decided / length, comeback, drama)


def _lead_for_good(leading: np.ndarray) -> int:
    """The step (1-based) from which the seat (co-)leads to the end; the last step when it does
    not lead even there (a game won on another count than the running score)."""
    trailing = np.flatnonzero(~leading)
    return 1 if len(trailing) == 0 else min(int(trailing[-1]) + 2, len(leading))


@dataclass(frozen=True)
class Figure:
    value: float
    low: float
    high: float


def _mean(values: np.ndarray, level: float = 0.95) -> Figure:
    m = float(values.mean())
    if len(values) < 2 or values.std() == 0:
        return Figure(m, m, m)
    half = _st.t.ppf(0.5 + level / 2, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
    return Figure(m, m - half, m + half)


def _share(flags: np.ndarray) -> Figure:
    low, high = wilson(float(flags.sum()), float(len(flags)))
    return Figure(float(flags.mean()), low, high)


def arc_summary(arcs: Sequence[GameArc]) -> dict[str, Figure]:
    """The figures of MEANINGS over games."""
    if not arcs:
        raise ValueError("no game to summarise")
    get = lambda name: np.array([getattr(a, name) for a in arcs], dtype=float)  # noqa: E731
    drama = get("drama")
    return {"length": _mean(get("length")), "lead_changes": _mean(get("lead_changes")),
            "decided_at": _mean(get("decided_at")), "comebacks": _share(get("comeback") > 0),
            "drama": _mean(drama), "trailed": _share(drama > 0)}


def arcs_from_round_scores(seats: pd.DataFrame, higher_is_better: bool) -> list[GameArc]:
    """Every game's arc from a seats table with a `round_scores` or `running_score` column, game
    by game (the readable definition; `arc_table` computes the same for all games at once)."""
    found = running_scores(seats)
    if found is None:
        return []
    cum, length, win, _ = found
    return [game_arc(cum[g, :, :length[g]].T, list(np.flatnonzero(win[g] > 0)), higher_is_better)
            for g in range(len(length))]


class RunningScores(NamedTuple):
    """A run's running scores: cumulative[game, seat, step] (a game carries its final scores
    after its last step), each game's length, win[game, seat] and the game numbers."""

    cum: np.ndarray
    length: np.ndarray
    win: np.ndarray
    games: np.ndarray


def arc_column(seats: pd.DataFrame) -> str | None:
    """The seats table's column the arc is read from: `round_scores` (points per round) or
    `running_score` (the standing after each step); None when it has neither."""
    return next((c for c in (ROUND_SCORES, RUNNING_SCORE) if c in seats.columns), None)


def running_scores(seats: pd.DataFrame) -> RunningScores | None:
    """From a seats table with `round_scores` or `running_score`; games with a seat without a
    result, or without a winner, are left out. None without the column or such a game."""
    column = arc_column(seats)
    if column is None or seats.empty:
        return None
    lists = seats[column].map(lambda x: () if x is None else x)
    rows = seats[seats["game"].isin(_kept_games(seats))].sort_values(["game", "seat"])
    if rows.empty:
        return None
    n = int(rows["seat"].max()) + 1
    lists = lists[rows.index]
    lengths = lists.map(len).to_numpy()
    width = int(lengths.max())
    points = np.zeros((len(rows), width))
    flat = np.concatenate([np.asarray(x, dtype=float) for x in lists])
    starts = np.cumsum(lengths) - lengths
    if column == RUNNING_SCORE:             # standings: each step's change, added up again below
        flat[1:] -= flat[:-1].copy()
        first = np.concatenate([np.asarray(x[:1], dtype=float) for x in lists])
        flat[starts[lengths > 0]] = first
    r = np.repeat(np.arange(len(rows)), lengths)
    c = np.arange(flat.size) - np.repeat(starts, lengths)
    points[r, c] = flat
    cum = np.cumsum(points, axis=1).reshape(-1, n, width)
    win = rows["win"].to_numpy(dtype=float).reshape(-1, n)
    return RunningScores(cum, lengths.reshape(-1, n).max(axis=1), win, rows["game"].to_numpy()[::n])


def arc_table(cum: np.ndarray, length: np.ndarray, win: np.ndarray, higher_is_better: bool) -> pd.DataFrame:
    """`game_arc` for every game at once: cum[game, seat, step], length[game], win[game, seat]."""
    scores = cum if higher_is_better else -cum
    g, n, w = scores.shape
    steps = np.arange(w)
    live = steps[None, :] < length[:, None]                           # [game, step]
    best = scores.max(axis=1)                                         # [game, step]
    leads = scores == best[:, None, :]                                # [game, seat, step]
    kept = (leads[:, :, 1:] & leads[:, :, :-1]).any(axis=1)           # [game, step-1]
    changes = ((~kept) & live[:, 1:]).sum(axis=1)
    winner = win > 0
    trailing = ~leads & live[:, None, :]
    last = np.where(trailing.any(axis=2), w - 1 - np.argmax(trailing[:, :, ::-1], axis=2), -1)
    step = np.minimum(last + 2, length[:, None])                      # [game, seat], 1-based
    decided = np.where(winner, step, np.iinfo(np.int64).max).min(axis=1) / length
    half = (length + 1) // 2 - 1
    at_half = scores[np.arange(g), :, half]                           # [game, seat]
    worst = at_half == at_half.min(axis=1, keepdims=True)
    comeback = (length >= 2) & (worst.sum(axis=1) == 1) & (worst & winner).any(axis=1)
    deficit = np.where(live[:, None, :], best[:, None, :] - scores, 0.0).max(axis=2)
    drama = np.where(winner, deficit, np.inf).min(axis=1)
    return pd.DataFrame({"length": length, "lead_changes": changes, "decided_at": decided,
                         "comeback": comeback, "drama": drama})


def summarise_table(table: pd.DataFrame) -> dict[str, Figure]:
    """The figures of MEANINGS over the games of an `arc_table`."""
    drama = table["drama"].to_numpy(dtype=float)
    return {"length": _mean(table["length"].to_numpy(dtype=float)),
            "lead_changes": _mean(table["lead_changes"].to_numpy(dtype=float)),
            "decided_at": _mean(table["decided_at"].to_numpy(dtype=float)),
            "comebacks": _share(table["comeback"].to_numpy()), "drama": _mean(drama),
            "trailed": _share(drama > 0)}


def lead_margins(seats: pd.DataFrame, higher_is_better: bool, level: float = 0.95) -> pd.DataFrame | None:
    """Per player and step: its mean lead over the best other seat (negative: behind), with a
    95 % Student-t interval over games; a game that ended earlier counts with its final margin
    (its running scores carry forward). A strategy's seats in one game count once (their mean).
    None without round scores or with one step only."""
    found = running_scores(seats)
    if found is None or found[0].shape[2] < 2:
        return None
    scores = found.cum if higher_is_better else -found.cum
    g, n, w = scores.shape
    others = np.stack([np.delete(scores, s, axis=1).max(axis=1) for s in range(n)], axis=1)
    margin = (scores - others).reshape(g * n, w)
    done = seats[seats["game"].isin(_kept_games(seats))].sort_values(["game", "seat"])
    keys = player_key(done).to_numpy()
    games = done["game"].to_numpy()
    frame = pd.DataFrame(margin).assign(player=keys, game=games)
    per_game = frame.groupby(["player", "game"], sort=False).mean()      # seats of a game count once
    rows = []
    for player in dict.fromkeys(keys):
        values = per_game.loc[player].to_numpy()
        for step in range(w):
            f = _mean(values[:, step], level)
            rows.append({"player": player, "step": step + 1, "mean": f.value, "low": f.low,
                         "high": f.high, "games": len(values)})
    return pd.DataFrame(rows)


def _kept_games(seats: pd.DataFrame) -> set:
    """The games `running_scores` keeps: every seat has its running scores and a score, and
    some seat won (a share of) the game."""
    column = arc_column(seats)
    assert column is not None
    lists = seats[column].map(lambda x: () if x is None else x)
    bad = set(seats.loc[(lists.map(len) == 0).to_numpy() | seats["score"].isna().to_numpy(), "game"])
    won = set(seats.loc[seats["win"].to_numpy(dtype=float) > 0, "game"])
    return won - bad
