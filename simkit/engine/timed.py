"""A per-decision time budget for every seat of a run (Rummikub's optional R18 `time_budget_s`).

A game that offers `Game.decision_budget(config) -> (seconds, late action)` gets its seats
wrapped where the run's strategies are resolved (`RunSpec.create`, so plain runs, compare,
ladder and sweeps alike): `Timed` times each `act` on the wall clock and, when it took longer
than the budget, submits the game's late action instead of the strategy's answer (the game's
rules decide what that costs). The game loop itself is untouched, and without a budget the
specs are returned unchanged. Results under a budget depend on the machine's speed and load.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.engine.game import Action, Game, GameConfig
from simkit.engine.strategy import Decision, GameInfo, Strategy, StrategySpec


class Timed(Strategy):
    """`inner` under a budget: an answer that took longer than `seconds` becomes `late`."""

    def __init__(self, inner: Strategy, seconds: float, late: Action):
        self.inner = inner
        self.seconds = seconds
        self.late = late

    def setup(self, info: GameInfo, seat: int, rng: np.random.Generator) -> None:
        super().setup(info, seat, rng)
        self.inner.setup(info, seat, rng)

    def act(self, decision: Decision) -> Action:
        start = time.perf_counter()
        action = self.inner.act(decision)
        return self.late if time.perf_counter() - start > self.seconds else action


@dataclass(frozen=True)
class TimedSpec(StrategySpec):
    """A strategy spec whose strategies are built wrapped in `Timed` (same text and label)."""

    seconds: float = 0.0
    late: Any = None

    def build(self) -> Strategy:
        return Timed(super().build(), self.seconds, self.late)


def budget_of(game: Game, config: GameConfig) -> tuple[float, Action] | None:
    """The game's per-decision (seconds, late action) under `config`, or None (no budget)."""
    hook = game.decision_budget
    return hook(config) if hook is not None else None


def timed_specs(game: Game, config: GameConfig,
                specs: Sequence[StrategySpec]) -> tuple[StrategySpec, ...]:
    """`specs` wrapped in the game's per-decision budget, or unchanged when it sets none."""
    budget = budget_of(game, config)
    if budget is None:
        return tuple(specs)
    seconds, late = budget
    return tuple(TimedSpec(s.text, s.target, s.params, s.path, seconds, late) for s in specs)
