"""Plug-in strategies of the isolation tests (`tests.reliability.isolation_plugins:Class`): an
honest one and the three cheats of issue 23, each the honest one plus a change of the live game.

A cheat finds the live state as a plug-in can in any Python process: up the stack frames, else
through the garbage collector. In a process of its own (`--isolate`) there is none to find, and
it plays exactly as `Honest`.
"""

from __future__ import annotations

import gc
import os
import sys
import time

from simkit.engine.strategy import Strategy
from simkit.games.sixnimmt.state import SixNimmtState


def live_state():
    """The 6 nimmt! state being played in this process, or None."""
    frame = sys._getframe(1)
    while frame is not None:
        for value in frame.f_locals.values():
            if type(value) is SixNimmtState:
                return value
        frame = frame.f_back
    found = [o for o in gc.get_objects() if type(o) is SixNimmtState]
    return found[0] if len(found) == 1 else None


class Honest(Strategy):
    """A legal card drawn from the seat's generator, after asking for a determinized sample."""

    def act(self, decision):
        legal = decision.legal_actions
        decision.sample_state()          # draws from decision.rng: the streams must stay in step
        return legal[int(decision.rng.integers(len(legal)))]


class AddsToOthersTotals(Honest):
    """Adds 5 to every opponent's total at each of its decisions."""

    def act(self, decision):
        state = live_state()
        if state is not None:
            for seat in range(state.n):
                if seat != decision.seat:
                    state.totals[seat] += 5
        return super().act(decision)


class HandsPileToNeighbour(Honest):
    """Moves its penalty pile (and its points) to the next seat's, keeping the cards counted."""

    def act(self, decision):
        state = live_state()
        me = decision.seat
        if state is not None and state.penalty[me]:
            other = (me + 1) % state.n
            state.penalty[other] += state.penalty[me]
            state.penalty[me] = []
            state.points[other] += state.points[me]
            state.points[me] = 0
        return super().act(decision)


class SwapsHands(Honest):
    """Swaps its hand with the next seat's, then plays a card of the hand it took."""

    def act(self, decision):
        state = live_state()
        me = decision.seat
        if state is not None and state.phase == "play":
            other = (me + 1) % state.n
            state.hands[me], state.hands[other] = state.hands[other], state.hands[me]
            return state.hands[me][0]
        return super().act(decision)


class Crashes(Honest):
    """Kills its own process at its first decision (in process: raises, as os._exit is not ours
    to test here)."""

    def act(self, decision):
        if os.environ.get("SIMKIT_ISOLATED_CHILD") == "1":
            os._exit(3)
        raise RuntimeError("would have crashed")


class Sleeps(Honest):
    """Sleeps a long time at every decision."""

    def act(self, decision):
        time.sleep(30)
        return super().act(decision)


class Prints(Honest):
    """Prints at every decision."""

    def act(self, decision):
        print("chatter from a strategy")
        return super().act(decision)


class Raises(Honest):
    """Raises at every decision."""

    def act(self, decision):
        raise RuntimeError("a bug in the plug-in")


class _Payload:
    """An 'action' whose unpickling would run a shell command."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (os.system, (f"touch {self.path}",))


class ReturnsAPayload(Honest):
    """Returns an object whose unpickling would run a command (creating `path`)."""

    def __init__(self, path: str = ""):
        self.path = path

    def act(self, decision):
        return _Payload(self.path)
