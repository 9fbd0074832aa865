"""Flat Monte Carlo: every action scored by rollouts from fresh determinizations.

No `from __future__ import annotations` here: the CLI reads the constructor's annotations.
"""

from simkit.core.game import Action
from simkit.core.strategy import Decision
from simkit.search.base import SearchStrategy, check_rollout_params


class FlatMC(SearchStrategy):
    name = "mc"
    description = (
        "Flat Monte Carlo: each action is played `samples` times, each time on a fresh "
        "determinization (hidden cards resampled from this seat's view) and rolled out with the "
        "`rollout` strategy for every seat; the best mean reward wins (first in order on ties). "
        "reward=win or rank as for ismcts. Reproducible from the seed.")

    def __init__(self, samples: int = 20, rollout: str = "random", reward: str = "win",
                 max_rollout_steps: int | None = None):
        if samples < 1:
            raise ValueError(f"samples={samples} is not allowed: 1 or more")
        check_rollout_params(reward, max_rollout_steps)
        self.samples = samples
        self.rollout = rollout
        self.reward = reward
        self.max_rollout_steps = max_rollout_steps

    def act(self, decision: Decision) -> Action:
        actions = self.root_actions(decision)
        if len(actions) == 1:
            return actions[0]
        sim = self.simulator(decision.rng)
        me = decision.seat
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            for i, action in enumerate(actions):
                state = decision.sample_state()
                sim.start()
                sim.step(state, me, action)
                totals[i] += sim.finish(state, me, 1)
        best = max(range(len(actions)), key=totals.__getitem__)
        return actions[best]
