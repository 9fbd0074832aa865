"""Baseline Game of Trains strategy: uniformly random over every legal action."""

from __future__ import annotations

from simkit.engine.strategy import Decision, Strategy
from simkit.games.trains.config import TrainsConfig


class RandomStrategy(Strategy[TrainsConfig]):
    name = "random"
    description = "uniform over all legal actions, parameters included (keep, slot, draw, use e(p))"
    reusable = True     # setup() empties the draw buffer
    kernel_form = "strategies.trains.kernels:RANDOM"

    def __init__(self) -> None:
        self._buf: list[float] = []

    def setup(self, info, seat, rng) -> None:
        super().setup(info, seat, rng)
        self._buf = []

    def act(self, decision: Decision):
        legal = decision.legal_actions
        buf = self._buf
        if not buf:
            buf += decision.rng.random(64).tolist()
        return legal[int(buf.pop() * len(legal))]
