"""Guarding the game loop against strategies: decision time limits and interrupts they raise.

`DecisionGuard` is entered once per batch of games in the process's main thread. It
- tells a real Ctrl-C (a SIGINT that reached this process) from a `KeyboardInterrupt` that a
  strategy raised itself: the first stops the batch, the second only forfeits that game;
- with `seconds`, runs a watchdog thread that interrupts a decision running over the limit: the
  thread sends SIGALRM to the main thread, whose handler raises `DecisionTimeout` inside the
  strategy's `act`. The strategy's cost is three attribute writes per decision.

Python cannot stop a determined plug-in (it can catch BaseException, block in C code, or reset
signal handlers); the guard stops the ordinary failures: loops, sleeps, waits and stray exits.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

from simkit.core.errors import ConfigError


class DecisionTimeout(BaseException):
    """Raised inside a strategy's `act` that ran over the time limit.

    A BaseException, so that a strategy's own `except Exception` does not swallow it.
    """


class DecisionGuard:
    """Context manager for the main thread; see the module docstring."""

    def __init__(self, seconds: float | None = None):
        self.seconds = seconds
        self.sigint_seen = False
        self.seat = -1            # the seat deciding now, -1 between decisions
        self.ticks = 0            # decisions started so far
        self._fired_tick = -1
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._saved: dict[int, Any] = {}

    def __enter__(self) -> DecisionGuard:
        if threading.current_thread() is not threading.main_thread():
            if self.seconds is not None:
                raise ConfigError("--decision-timeout needs games played in a process's main thread: "
                                  "use the loky backend (the default), not dask threads")
            return self
        self._saved[signal.SIGINT] = signal.signal(signal.SIGINT, self._on_sigint)
        if self.seconds is not None:
            self._saved[signal.SIGALRM] = signal.signal(signal.SIGALRM, self._on_alarm)
            self._main_id = threading.get_ident()
            self._thread = threading.Thread(target=self._watch, name="simkit-decision-watchdog",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        for signum, handler in self._saved.items():
            signal.signal(signum, handler)

    def timed(self, act: Callable[[Any], Any], seat: int) -> Callable[[Any], Any]:
        """`act` with this guard's clock running while it decides (identity without a limit)."""
        if self.seconds is None:
            return act

        def timed_act(decision: Any) -> Any:
            self.ticks += 1
            self.seat = seat
            try:
                return act(decision)
            finally:
                self.seat = -1

        return timed_act

    def blames_strategy(self, exc: BaseException) -> bool:
        """Whether `exc`, raised while a strategy decided, is that strategy's fault."""
        if isinstance(exc, KeyboardInterrupt):
            return not self.sigint_seen
        return isinstance(exc, (Exception, DecisionTimeout, SystemExit))

    def _on_sigint(self, signum: int, frame: FrameType | None) -> None:
        self.sigint_seen = True
        raise KeyboardInterrupt

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        # The decision the watchdog saw may have ended before the signal arrived: check again.
        if self.seat >= 0 and self.ticks == self._fired_tick:
            raise DecisionTimeout(f"seat {self.seat} took over {self.seconds:g} s for one decision "
                                  f"(--decision-timeout)")

    def _watch(self) -> None:
        assert self.seconds is not None
        poll = min(0.05, self.seconds / 4)
        tick, since = -1, time.monotonic()
        while not self._stop.wait(poll):
            now = time.monotonic()
            if self.seat < 0 or self.ticks != tick:
                tick, since = self.ticks, now
            elif now - since >= self.seconds:
                self._fired_tick = tick
                signal.pthread_kill(self._main_id, signal.SIGALRM)
                since = now                      # a strategy that swallows it is interrupted again
