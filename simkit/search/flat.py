"""Flat Monte Carlo: every action scored by rollouts, with common random numbers.

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
        "Flat Monte Carlo: `samples` rounds; in each, one determinization (hidden cards "
        "resampled from this seat's view) and one set of rollout seeds are shared by every action "
        "(common random numbers, crn=true; crn=false draws them afresh per action), each action "
        "played on it and rolled out with the `rollout` strategy for every seat; the best mean "
        "reward wins (first in order on ties). reward=win, rank or margin and horizon as for "
        "ismcts. Reproducible from the seed, except under a game's per-decision time budget "
        "(Rummikub time_budget_s): then it stops sampling in time for it (half the budget) and "
        "its answers depend on the machine. kernel=false: rollouts in Python even where the "
        "game's compiled kernel could play them (the same answers, slower).")

    def __init__(self, samples: int = 20, rollout: str = "random", reward: str = "win",
                 max_rollout_steps: int | None = None, horizon: int | None = None, crn: bool = True,
                 kernel: bool = True):
        if samples < 1:
            raise ValueError(f"samples={samples} is not allowed: 1 or more")
        if horizon is not None and horizon < 0:
            raise ValueError(f"horizon={horizon} is not allowed: 0 (none) or more")
        check_rollout_params(reward, max_rollout_steps)
        self.samples = samples
        self.rollout = rollout
        self.reward = reward
        self.max_rollout_steps = max_rollout_steps
        self.horizon = horizon or None
        self.crn = crn
        self.kernel = kernel

    def simulator(self, rng) -> Simulator:
        return Simulator(self.game, self.info, self.rollout_spec, rng, self.reward,
                         self.max_rollout_steps, self.horizon, kernel=self.kernel)

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
        so every action keeps the same number of samples). With crn, every action starts from a
        clone of one determinization and the rollout bots' generators replay the same draws."""
        rewards = []
        shared = decision.sample_state() if self.crn else None
        seeds = sim.generator_states() if self.crn else None
        for action in actions:
            if budget is not None and not budget.more():
                return None
            if shared is not None and seeds is not None:
                state = shared.clone()
                sim.restore(seeds)
            else:
                state = decision.sample_state()
            sim.start()
            sim.step(state, decision.seat, action)
            rewards.append(sim.rollout(state, decision.seat, 1))
        return rewards      # the bots' generators go on from the last action's draws: fresh seeds
