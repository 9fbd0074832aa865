"""Ratings for multi-player fields: the Plackett–Luce model fitted by MM iterations.

Model. Strategy i has a strength w_i > 0. A finished game's ranking is read as a sequence of
choices from the best place down: at each stage the seats of the best remaining rank are chosen
among the seats still unranked, seat by seat in proportion to their strategies' strengths
(Plackett 1975; Luce 1959). Tied seats (same rank) are handled with Breslow's approximation:
a tie group G chosen from the remaining set R contributes prod_{i in G} w_i / (sum_{R} w)^|G|.
A strategy holding several seats of one game enters R once per seat. With two players and no
ties the model is the Bradley–Terry model.

Fit. Hunter (2004), "MM algorithms for generalized Bradley-Terry models", Ann. Statist. 32,
section 5: w_i <- W_i / sum_stages |G|·[i in R]·c_i(R) / sum_R w, where W_i counts the times i was
chosen and c_i(R) its seats in R. To keep every estimate finite (a strategy that never loses),
each strategy plays `prior_games` virtual won and lost pairings against a reference of strength
1, the geometric mean of the field (strengths are renormalised to geometric mean 1 after every
MM step).

Reported on the Elo scale: rating_i = 400·log10(w_i), centred to mean 0 over the strategies, so
a difference of 400·log10(3) ≈ 191 means 3:1 odds in a two-seat pairing. Standard errors from
the observed information (Hessian of the log-likelihood in log-strengths) of the fitted model.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simkit.stats.intervals import Z95
from simkit.stats.tables import player_key, players

ELO_PER_LOG = 400.0 / math.log(10.0)


def _stages(seats: pd.DataFrame, order: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Aggregated choice stages: (remaining counts C, chosen counts, weight)."""
    code = {p: i for i, p in enumerate(order)}
    k = len(order)
    ent = player_key(seats).map(code).to_numpy()
    game = seats["game"].to_numpy()
    rank = seats["rank"].to_numpy()
    idx = np.lexsort((-rank, game))          # by game, rank descending (worst first)
    ent, game, rank = ent[idx], game[idx], rank[idx]
    onehot = np.zeros((len(ent), k))
    onehot[np.arange(len(ent)), ent] = 1.0
    # cumulative counts of seats ranked at least as badly, restarting at each game
    cum = np.cumsum(onehot, axis=0)
    game_start = np.r_[True, game[1:] != game[:-1]]
    starts = np.flatnonzero(game_start)
    before = np.vstack([np.zeros((1, k)), cum[starts[1:] - 1]])
    cum = cum - np.repeat(before, np.diff(np.r_[starts, len(ent)]), axis=0)
    # blocks of equal (game, rank); the block's last row holds the remaining set R
    block_start = game_start | np.r_[True, rank[1:] != rank[:-1]]
    block_id = np.cumsum(block_start) - 1
    block_end = np.r_[block_start[1:], True]
    remaining = cum[block_end]
    chosen = np.zeros((int(block_id[-1]) + 1 if len(block_id) else 0, k))
    np.add.at(chosen, block_id, onehot)
    keep = remaining.sum(axis=1) > 1
    remaining, chosen = remaining[keep], chosen[keep]
    if len(remaining) == 0:
        return np.zeros((0, k)), np.zeros((0, k)), np.zeros(0)
    both = np.hstack([remaining, chosen]).astype(np.int64)
    # aggregate identical stages: encode each row as one integer (counts < base)
    base = int(both.max()) + 1
    codes = (both @ (base ** np.arange(2 * k - 1, -1, -1, dtype=np.int64))
             if base ** (2 * k) < 2 ** 62 else None)
    if codes is None:
        uniq, counts = np.unique(both, axis=0, return_counts=True)
    else:
        _, first, counts = np.unique(codes, return_index=True, return_counts=True)
        uniq = both[first]
    return uniq[:, :k].astype(float), uniq[:, k:].astype(float), counts.astype(float)


def plackett_luce(seats: pd.DataFrame, prior_games: float = 1.0, tol: float = 1e-9,
                  max_iter: int = 20000) -> pd.DataFrame:
    """Plackett–Luce ratings of the strategies of a run (see module docstring).

    Returns one row per strategy in lineup order: player, rating (Elo scale, mean 0), se,
    low, high (95 %), games, plus the attribute `iterations` in `DataFrame.attrs`."""
    order = players(seats)
    k = len(order)
    games = (pd.DataFrame({"p": player_key(seats).to_numpy(), "g": seats["game"].to_numpy()})
             .drop_duplicates()["p"].value_counts())
    if k == 0:
        return pd.DataFrame(columns=["player", "rating", "se", "low", "high", "games"])
    C, G, wt = _stages(seats, order)
    g = G.sum(axis=1)
    won = (wt[:, None] * G).sum(axis=0) + prior_games
    w = np.ones(k)
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 (read after the loop: iterations used)
        tot = C @ w
        denom = ((wt * g / tot)[:, None] * C).sum(axis=0) + 2.0 * prior_games / (w + 1.0)
        new = won / denom
        new = new / np.exp(np.mean(np.log(new)))
        done = np.max(np.abs(np.log(new) - np.log(w))) < tol
        w = new
        if done:
            break
    theta = np.log(w)
    # observed information in theta = log w
    tot = C @ w
    P = C * w[None, :] / tot[:, None]
    coef = wt * g
    info = np.diag((coef[:, None] * P).sum(axis=0)) - (P * coef[:, None]).T @ P
    if prior_games > 0:
        q = w / (w + 1.0)
        info = info + np.diag(2.0 * prior_games * q * (1.0 - q))
    cov = np.linalg.pinv(info)
    centre = np.eye(k) - 1.0 / k
    cov_c = centre @ cov @ centre.T
    se = np.sqrt(np.clip(np.diag(cov_c), 0.0, None)) * ELO_PER_LOG
    rating = (theta - theta.mean()) * ELO_PER_LOG
    df = pd.DataFrame({"player": order, "rating": rating, "se": se,
                       "low": rating - Z95 * se, "high": rating + Z95 * se,
                       "games": [int(games.get(p, 0)) for p in order]})
    df.attrs["iterations"] = it
    df.attrs["method"] = ("Plackett-Luce (Breslow ties), MM iterations (Hunter 2004), "
                          f"prior {prior_games:g} virtual win+loss vs a reference")
    return df
