"""The game's arc: how the lead moves during a game, from every seat's running score.

Input per game: the cumulative score of every seat after each step of the arc (a round of 6
nimmt!, a hand of Rummikub, or the game's own progress points), and who won. Per game:

- length: the number of steps;
- lead changes: steps at which no seat that led before still leads (ties share the lead);
- decided at: the share of the game played when the eventual winner took the lead for good
  (1/length: it led from the first step on; 1: only the last step settled it);
- comeback: the winner was alone in last place at half time (after step ceil(length/2));
- drama: how far behind the leader the eventual winner fell at worst, in the game's points
  (0 when it never trailed).

Each is summarised over games with a 95 % interval (Student-t for means, Wilson for shares).
A game with co-winners counts the co-winner that took the lead for good earliest; a game where
a seat has no result (forfeit, engine error) is left out.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as _st

from simkit.stats.intervals import wilson
from simkit.stats.rounds import ROUND_SCORES
from simkit.stats.tables import player_key

#: the figures in report order, with what each means in one line
MEANINGS = {
    "length": "steps (rounds, hands) a game lasts",
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
    """Every game's arc from a seats table with a `round_scores` column (points per round)."""
    return [game_arc(cum, winners, higher_is_better) for cum, winners, _ in _games(seats)]


def _games(seats: pd.DataFrame) -> Iterator[tuple[np.ndarray, list[int], list[str]]]:
    """Per finished game: cumulative[t, seat], the winning seats and each seat's player."""
    if ROUND_SCORES not in seats.columns:
        return
    keys = player_key(seats).to_numpy()
    for _, rows in seats.assign(_player=keys).groupby("game", sort=True):
        lists = [() if x is None else x for x in rows[ROUND_SCORES]]
        if any(len(x) == 0 for x in lists) or rows["score"].isna().any():
            continue
        length = max(len(x) for x in lists)
        points = np.zeros((length, len(rows)))
        for col, x in enumerate(lists):
            points[:len(x), col] = np.asarray(x, dtype=float)
        wins = rows["win"].to_numpy(dtype=float)
        yield np.cumsum(points, axis=0), [i for i in range(len(rows)) if wins[i] > 0], list(rows["_player"])


def lead_margins(seats: pd.DataFrame, higher_is_better: bool, level: float = 0.95) -> pd.DataFrame | None:
    """Per player and step: its mean lead over the best other seat (negative: behind), with a
    95 % Student-t interval over games; a game that ended earlier counts with its final margin.
    None without round scores or with one step only."""
    per_player: dict[str, list[np.ndarray]] = {}
    width = 0
    for cum, _, players_ in _games(seats):
        scores = cum if higher_is_better else -cum
        width = max(width, len(scores))
        mine: dict[str, list[np.ndarray]] = {}
        for seat, player in enumerate(players_):
            mine.setdefault(player, []).append(scores[:, seat] - np.delete(scores, seat, axis=1).max(axis=1))
        for player, margins in mine.items():       # a strategy's seats in one game count once
            per_player.setdefault(player, []).append(np.mean(margins, axis=0))
    if width < 2:
        return None
    rows = []
    for player, margins in per_player.items():
        padded = np.array([np.concatenate([m, np.full(width - len(m), m[-1])]) for m in margins])
        for step in range(width):
            f = _mean(padded[:, step], level)
            rows.append({"player": player, "step": step + 1, "mean": f.value, "low": f.low, "high": f.high,
                         "games": len(padded)})
    return pd.DataFrame(rows)
