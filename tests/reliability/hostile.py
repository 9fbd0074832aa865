"""Hostile and careless strategies for the reliability tests (issue 23, section 2), used as
`tests.reliability.hostile:Class`. Each misbehaves in exactly one way and otherwise plays its
first legal action, so a run with it is comparable to one with `First`."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from simkit.engine.strategy import Strategy


class First(Strategy):
    """The honest twin: the first legal action."""

    def act(self, decision):
        return decision.legal_actions[0]


class _Unprintable:
    def __repr__(self):
        raise RuntimeError("no repr for you")

    __str__ = __repr__


class UnprintableAction(Strategy):
    """Returns an object that is no legal action and cannot even be printed."""

    def act(self, decision):
        return _Unprintable()


class _Huge:
    def __repr__(self):
        return "x" * 5_000_000


class HugeReprAction(Strategy):
    """Returns an illegal object whose repr is 5 MB."""

    def act(self, decision):
        return _Huge()


class HugeMessage(Strategy):
    """Raises an exception whose text is 5 MB."""

    def act(self, decision):
        raise ValueError("y" * 5_000_000)


class ZeroDimArray(Strategy):
    """The first legal action, a card as a 0-d numpy array (a row to take as it is)."""

    def act(self, decision):
        action = decision.legal_actions[0]
        return np.array(action) if type(action) is int else action


class Float64(Strategy):
    """The first legal action, a card as np.float64 (equal to it)."""

    def act(self, decision):
        action = decision.legal_actions[0]
        return np.float64(action) if type(action) is int else action


class Float64OffByHalf(Strategy):
    """A numpy value equal to no legal action."""

    def act(self, decision):
        return np.float64(0.5)


class RaisesGeneratorExit(Strategy):
    def act(self, decision):
        raise GeneratorExit


class OwnBaseException(BaseException):
    """A plug-in's own BaseException subclass."""


class RaisesOwnBaseException(Strategy):
    def act(self, decision):
        raise OwnBaseException("mine")


class SetupRaisesOwnBaseException(First):
    def setup(self, info, seat, rng):
        raise OwnBaseException("in setup")


class SwallowsTheTimeout(First):
    """Sleeps past any limit, catching every BaseException, then answers legally."""

    def act(self, decision):
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            try:
                time.sleep(0.01)
            except BaseException:
                pass
        return decision.legal_actions[0]


class SlowSetup(First):
    """Sleeps in setup (30 s: a test with a time limit must cut it short)."""

    def setup(self, info, seat, rng):
        super().setup(info, seat, rng)
        time.sleep(30)


class Prints(First):
    """Prints on every decision, through Python and straight to file descriptor 1."""

    def act(self, decision):
        print("a strategy talking")
        os.write(1, b"a strategy writing to fd 1\n")
        return decision.legal_actions[0]


class ExitsProcess(First):
    """Kills its process (os._exit) in about one game in five, decided in setup from its own
    generator (so the same games every time); `RaisesInstead` fails the same games honestly."""

    fails: bool

    def setup(self, info, seat, rng):
        super().setup(info, seat, rng)
        self.fails = bool(rng.random() < 0.2)

    def act(self, decision):
        if self.fails:
            self.fail()
        return decision.legal_actions[0]

    def fail(self):
        os._exit(3)


class RaisesInstead(ExitsProcess):
    def fail(self):
        raise RuntimeError("instead of exiting")


class Forks(First):
    """Forks on its first decision in each process; the child returns into the engine's code as
    the parent does. The child's pid is written to $SIMKIT_TEST_FORK_LOG."""

    forked: set[int] = set()

    def act(self, decision):
        if os.getpid() not in Forks.forked:
            Forks.forked.add(os.getpid())
            pid = os.fork()
            if pid == 0:
                Forks.forked.add(os.getpid())
                with Path(os.environ["SIMKIT_TEST_FORK_LOG"]).open("a") as log:
                    log.write(f"{os.getpid()}\n")
        return decision.legal_actions[0]
