"""Strategies for the reliability tests, used as `tests.reliability.plugins:Class`."""

import time

from simkit.engine.strategy import Strategy


class Slow(Strategy):
    """Plays its first legal action after a short pause, so a run lasts long enough to be
    killed in the middle (no test measures time)."""

    name = "slow"
    description = "First legal action after a pause."

    def __init__(self, pause: float = 0.002):
        self.pause = pause

    def act(self, decision):
        time.sleep(self.pause)
        return decision.legal_actions[0]


class Labelled(Strategy):
    """First legal action; its `label` parameter carries arbitrary text into the manifest."""

    name = "labelled"
    description = "First legal action, with a free-text label."

    def __init__(self, label: str = ""):
        self.label = label

    def act(self, decision):
        return decision.legal_actions[0]
