"""Strategies used by tests as `tests.plugins:Class` plug-ins."""

from simkit.engine.strategy import Strategy


class FirstLegal(Strategy):
    name = "first"
    description = "Always the first legal action (a plug-in for tests)."

    def act(self, decision):
        return decision.legal_actions[0]


class Crashes(Strategy):
    name = "crashes"
    description = "Raises on its third decision."

    def __init__(self, after: int = 2):
        self.after = after
        self.calls = 0

    def act(self, decision):
        self.calls += 1
        if self.calls > self.after:
            raise RuntimeError("boom from a test strategy")
        return decision.legal_actions[0]


class PlaysIllegal(Strategy):
    name = "illegal"
    description = "Returns an action that is never legal."

    def act(self, decision):
        return "not-a-card"


class BrokenSetup(Strategy):
    name = "broken_setup"
    description = "Raises while being set up."

    def setup(self, info, seat, rng):
        raise ValueError("cannot set up")

    def act(self, decision):
        return decision.legal_actions[0]
