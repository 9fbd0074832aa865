"""Flat Monte Carlo: every action scored by rollouts from fresh determinizations.

No `from __future__ import annotations` here: the CLI reads the constructor's annotations.
"""

from collections.abc import Sequence

from simkit.engine.game import Action
from simkit.engine.strategy import Decision
from simkit.search.base import Budget, SearchStrategy, check_rollout_params
from simkit.search.simulator import Simulator


class FlatMC(SearchStrategy):
    name = "mc"
    description = (
        "Flat Monte Carlo: each action is played `samples` times, each time on a fresh "
        "determinization (hidden cards resampled from this seat's view) and rolled out with the "
        "`rollout` strategy for every seat; the best mean reward wins (first in order on ties). "
        "reward=win or rank as for ismcts. Reproducible from the seed, except under a game's "
        "per-decision time budget (Rummikub time_budget_s): then it stops sampling in time for "
        "it (half the budget) and its answers depend on the machine.")

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
        budget = self.budget()
        actions = self.root_actions(decision)
        if len(actions) == 1:
            return actions[0]
        sim = self.simulator(decision.rng)
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            rewards = self._sample(decision, sim, actions, budget)
            if rewards is None:
                break
            for i, reward in enumerate(rewards):
                totals[i] += reward
        best = max(range(len(actions)), key=totals.__getitem__)
        return actions[best]

    def _sample(self, decision: Decision, sim: Simulator, actions: Sequence[Action],
                budget: Budget | None) -> list[float] | None:
        """One rollout per action; None when the time budget ran out first (the round is dropped,
        so every action keeps the same number of samples)."""
        rewards = []
        for action in actions:
            if budget is not None and not budget.more():
                return None
            state = decision.sample_state()
            sim.start()
            sim.step(state, decision.seat, action)
            rewards.append(sim.finish(state, decision.seat, 1))
        return rewards
