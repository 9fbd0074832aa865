"""Rewards in [0, 1] of one seat from a finished game's `Outcome`.

win:  the seat's win share (1 alone, 1/k in a k-way tie for first, 0 otherwise).
rank: the share of the other seats it finishes ahead of, a tie counting half; in a 2-player
      game this equals the win share, with more players it also rewards 2nd place over last.
A rollout stopped by the step cap before the game ended scores NEUTRAL: what a seat expects
among equal players (1/n for win, 1/2 for rank), so a cut rollout pulls no action up or down
relative to the others.
"""

from __future__ import annotations

from collections.abc import Callable

from simkit.engine.errors import ConfigError
from simkit.engine.game import Outcome

REWARDS = ("win", "rank")


def win_reward(outcome: Outcome, seat: int) -> float:
    return outcome.win_shares[seat]


def rank_reward(outcome: Outcome, seat: int) -> float:
    ranks = outcome.ranks
    n = len(ranks)
    if n < 2:
        return 1.0
    mine = ranks[seat]
    beaten = sum(1 for r in ranks if r > mine)
    tied = sum(1 for r in ranks if r == mine) - 1
    return (beaten + 0.5 * tied) / (n - 1)


def reward_function(kind: str) -> Callable[[Outcome, int], float]:
    if kind == "win":
        return win_reward
    if kind == "rank":
        return rank_reward
    raise ConfigError(f"reward={kind!r} is not allowed: one of {', '.join(REWARDS)}")


def neutral_reward(kind: str, n_players: int) -> float:
    return 1.0 / n_players if kind == "win" else 0.5
