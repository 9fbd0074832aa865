"""The forward model of one search decision: rollout bots for every seat, their generators, rewards.

Rollouts go through `simkit.engine.play.play_out`, the one game loop, so a search plays games by
exactly the rules and conventions a run does.
"""

from __future__ import annotations

import numpy as np

from simkit.engine.game import Action, Game, State
from simkit.engine.play import play_out
from simkit.engine.strategy import Decision, GameInfo, StrategySpec
from simkit.search.rewards import neutral_reward, reward_function


class Simulator:
    """Rollout policy for every seat of one decision's determinizations.

    The bots' generators are drawn from the searching strategy's own generator, so a search is
    reproducible from the game's seed. (Not `Generator.spawn`: it derives children from the
    generator's original seed sequence, not from its current state, and the runner re-seeds
    pooled generators by setting their state.)
    """

    def __init__(self, game: Game, info: GameInfo, rollout: StrategySpec, rng: np.random.Generator,
                 reward: str, max_steps: int | None):
        n = info.n_players
        self.info = info
        self.bots = [rollout.build() for _ in range(n)]
        self.rngs = [np.random.Generator(np.random.PCG64(int(seed)))
                     for seed in rng.integers(1 << 63, size=n)]
        self._reward = reward_function(reward)
        self.neutral = neutral_reward(reward, n)
        self.max_steps = game.max_steps(info.config, n) if max_steps is None else max_steps

    def start(self) -> None:
        """Set the bots up afresh for a new determinization (they forget the previous one)."""
        for seat, bot in enumerate(self.bots):
            bot.setup(self.info, seat, self.rngs[seat])

    def choose(self, state: State, seat: int) -> Action:
        """`seat`'s rollout action, decided from its own view of `state`."""
        return self.bots[seat].act(Decision(state, seat, self.rngs[seat]))

    def step(self, state: State, seat: int, action: Action) -> None:
        """One decision step: `seat` plays `action`, every other acting seat its rollout choice."""
        joint = [action if s == seat else self.choose(state, s) for s in state.to_act()]
        state.apply(joint)

    def finish(self, state: State, seat: int, steps_done: int) -> float:
        """Play `state` on with the rollout bots; `seat`'s reward (neutral if the cap cut it)."""
        left = max(0, self.max_steps - steps_done)
        play_out(state, self.bots, self.info, self.rngs, forfeit_on_error=False, max_steps=left)
        return self._reward(state.outcome(), seat) if state.is_over() else self.neutral
