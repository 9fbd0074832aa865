"""Synthetic run tables with the runner's schema: for testing estimators and reports without
playing games (and for trying the statistics on a known truth)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd


def synth(n_games: int = 2000, strengths: Sequence[float] = (0.7, 0.3), n_players: int = 2,
          seed: int | np.random.Generator = 0, labels: Sequence[str] | None = None,
          higher: bool = True, duplicate: bool = False, spread: float = 3.0, draw_every: int = 0,
          forfeit_every: int = 0, seat_bonus: Sequence[float] | None = None
          ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(games, seats) DataFrames: lineup slot k scores round(N(3·strength_k + seat_bonus, spread)).

    Rotate seating (slot of seat s = (s + rotation) % n, rotation = game % n); with `duplicate`
    deal = game // n. Every `draw_every`-th game is a draw (all scores equal, no winner);
    every `forfeit_every`-th game seat 0 forfeits (score NaN, ranked last). `seed`: an int or
    a numpy Generator."""
    rng = seed if isinstance(seed, np.random.Generator) else np.random.Generator(np.random.PCG64(seed))
    k = n_players
    strengths = list(strengths) * (k // len(strengths)) if len(strengths) < k else list(strengths)
    labels = list(labels) if labels else [f"s{i}" for i in range(len(strengths))]
    if len(labels) < k:
        labels = labels * (k // len(labels))
    bonus = list(seat_bonus) if seat_bonus is not None else [0.0] * k
    rows, grows = [], []
    for g in range(n_games):
        rot = g % n_players
        deal = g // n_players if duplicate else g
        slots = [(s + rot) % k for s in range(n_players)]
        sc = np.array([np.round(rng.normal(strengths[sl] * 3 + bonus[i], spread))
                       for i, sl in enumerate(slots)])
        draw = bool(draw_every and g % draw_every == 0)
        forfeit = bool(forfeit_every and g % forfeit_every == 1)
        if draw:
            sc[:] = 0.0
        key = sc if higher else -sc
        if forfeit:
            key = key.copy()
            key[0] = -np.inf
        ranks = [1 + int((key > key[i]).sum()) for i in range(n_players)]
        best = [i for i in range(n_players) if ranks[i] == 1]
        for i in range(n_players):
            win = 0.0 if draw else (1.0 / len(best) if ranks[i] == 1 else 0.0)
            rows.append(dict(game=g, deal=deal, rotation=rot, seat=i, slot=slots[i],
                             strategy=labels[slots[i]],
                             score=float("nan") if (forfeit and i == 0) else float(sc[i]),
                             rank=ranks[i], win=win, forfeit=bool(forfeit and i == 0)))
        grows.append(dict(game=g, deal=deal, rotation=rot, n_players=n_players,
                          steps=int(rng.integers(10, 20)), forfeit_seat=0 if forfeit else -1,
                          error="boom" if forfeit else "", draw=draw,
                          rounds=int(rng.integers(1, 4)), capped=bool(g % 10 == 0)))
    return pd.DataFrame(grows), pd.DataFrame(rows)
