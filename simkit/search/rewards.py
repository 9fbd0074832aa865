"""Rewards in [0, 1] of one seat from a finished game's `Outcome`, and the value of a cut rollout.

win:    the seat's win share (1 alone, 1/k in a k-way tie for first, 0 otherwise).
rank:   the share of the other seats it finishes ahead of, a tie counting half; in a 2-player
        game this equals the win share, with more players it also rewards 2nd place over last.
margin: the normalised score margin: (s - m) / (|s| + |m|), s the seat's score and m the
        others' mean, mapped from [-1, 1] onto [0, 1] (sign turned where lower scores are
        better); 1/2 when level. Scale-free (no game's points range is needed), it tells a close
        game from a rout, which win and rank cannot.
A rollout stopped before the game ended is worth `cut_value`: the game's `evaluate` where it has
one (a standing on the rank scale, 1/2 when level; for `win` scaled so that level gives 1/n),
else NEUTRAL: what a seat expects among equal players (1/n for win, 1/2 for rank and margin),
so a cut rollout pulls no action up or down relative to the others.
"""

from __future__ import annotations

from collections.abc import Callable

from simkit.engine.errors import ConfigError
from simkit.engine.game import Outcome

REWARDS = ("win", "rank", "margin")


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


def margin_reward(outcome: Outcome, seat: int, higher_is_better: bool = True) -> float:
    scores = outcome.scores
    n = len(scores)
    if n < 2:
        return 1.0
    mine = scores[seat]
    others = (sum(scores) - mine) / (n - 1)
    size = abs(mine) + abs(others)
    if not size > 0:
        return 0.5
    lead = (mine - others) / size
    return 0.5 + 0.5 * (lead if higher_is_better else -lead)


def reward_function(kind: str, higher_is_better: bool = True) -> Callable[[Outcome, int], float]:
    if kind == "win":
        return win_reward
    if kind == "rank":
        return rank_reward
    if kind == "margin":
        return lambda outcome, seat: margin_reward(outcome, seat, higher_is_better)
    raise ConfigError(f"reward={kind!r} is not allowed: one of {', '.join(REWARDS)}")


def neutral_reward(kind: str, n_players: int) -> float:
    return 1.0 / n_players if kind == "win" else 0.5


def cut_value(kind: str, standing: float, n_players: int) -> float:
    """A cut rollout's reward from the game's `evaluate` (the rank scale, 1/2 level): as it is
    for rank and margin, times 2/n for win (so that level is worth 1/n, the neutral reward)."""
    return standing * 2.0 / n_players if kind == "win" else standing
