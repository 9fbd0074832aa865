"""Baseline: a uniformly random legal action."""

from __future__ import annotations

from simkit.engine.strategy import Decision, Strategy
from simkit.games.shipside.config import ShipsideConfig


class RandomStrategy(Strategy[ShipsideConfig]):
    name = "random"
    description = "Uniformly random legal action (card and place, octopus move, rum, direction, pick)."
    reusable = True     # setup() empties the draw buffer
    kernel_form = "strategies.shipside.kernels:RANDOM"

    def setup(self, info, seat, rng) -> None:
        super().setup(info, seat, rng)
        self._buf: list[float] = []

    def act(self, decision: Decision):
        legal = decision.legal_actions
        buf = self._buf
        if not buf:
            buf.extend(self.rng.random(32).tolist())
        return legal[int(buf.pop() * len(legal))]
