"""A game played on by strategy objects, position by position, each bot with its own seeded
generator: what the tests and research scripts that study positions met in real play share
(the search, opponent-model and kernel rollout checks)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from simkit.engine.game import State
from simkit.engine.strategy import Decision, GameInfo, Strategy


def positions(state: State, bots: Sequence[Strategy], info: GameInfo, seed: int) -> Iterator[State]:
    """Set bot s up with the generator `default_rng([seed, s])`, then play `state` on to its end,
    yielding it before each step: the live state (clone it to keep it; a caller may stop early).
    Each bot is asked through a Decision with its own generator, as the runner asks it."""
    rngs = [np.random.default_rng([seed, s]) for s in range(len(bots))]
    for s, bot in enumerate(bots):
        bot.setup(info, s, rngs[s])
    while not state.is_over():
        yield state
        state.apply([bots[s].act(Decision(state, s, rngs[s])) for s in state.to_act()])
