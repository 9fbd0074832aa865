"""Guarding the game loop against strategies: decision time limits and interrupts they raise.

`DecisionGuard` is entered once per batch of games in the process's main thread. It
- tells a real Ctrl-C (a SIGINT that reached this process) from a `KeyboardInterrupt` that a
  strategy raised itself: the first stops the batch, the second only forfeits that game;
- with `seconds`, runs a watchdog thread that interrupts a decision running over the limit: the
  thread sends SIGALRM to the main thread, whose handler raises `DecisionTimeout` inside the
  strategy's `act`.

Python cannot stop a determined plug-in (it can catch BaseException, block in C code, or reset
signal handlers); the guard stops the ordinary failures: loops, sleeps, waits and stray exits.
"""

from __future__ import annotations

import signal
import threading
import time
from types import FrameType, TracebackType
from typing import Any

from simkit.engine import compile_clock
from simkit.engine.errors import ConfigError
from simkit.engine.termination import Terminated

#: the time limit of `compare` and `ladder` unless told otherwise (a hung agent must not stall them)
DEFAULT_DECISION_TIMEOUT = 60.0


class DecisionTimeout(BaseException):
    """Raised inside a strategy's `act` that ran over the time limit.

    A BaseException, so that a strategy's own `except Exception` does not swallow it. `seat`
    names the seat when it is raised after the fact (an answer given late), else None.
    """

    def __init__(self, message: str, seat: int | None = None):
        super().__init__(message)
        self.seat = seat


class DecisionGuard:
    """Context manager for the main thread; see the module docstring.

    The time limit costs the game loop nothing per decision: `play_out` registers its own frame
    once per game (`watch`), and the watchdog thread reads that frame's `steps` and `current`
    (the seat deciding now, -1 between decisions) a few times per second. A (steps, current)
    pair that stays the same, with a seat deciding, for `seconds` is a decision over the limit:
    the decision is interrupted and `overran` names the seat, so that an answer the strategy
    returns after all (it caught the interrupt) is still a forfeit. A seat's `setup` is timed
    the same way (`steps` is -1 then). Time numba spends compiling a kernel (or loading it from
    its cache) is not counted: the clock starts again when it is done (`compile_clock`).
    """

    def __init__(self, seconds: float | None = None):
        self.seconds = seconds
        self.sigint_seen = False
        self._frame: FrameType | None = None
        self._fired: tuple[int, Any, Any] | None = None
        #: the seat whose decision (or setup) of the watched game ran over the limit, else None
        self.overran: int | None = None
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

    def watch(self, frame: FrameType | None) -> None:
        """The game loop's frame to time (None when its game is over)."""
        self._frame = frame
        self.overran = None

    def check_late(self) -> None:
        """Raise DecisionTimeout naming the seat whose setup or decision, already over, ran over
        the limit in the watched game (it caught the interrupt and answered late), if one did."""
        seat = self.overran
        if seat is not None:
            raise DecisionTimeout(f"seat {seat} took over {self.seconds:g} s (--decision-timeout) "
                                  f"and answered late", seat)

    def blames_strategy(self, exc: BaseException) -> bool:
        """Whether `exc`, raised while a strategy decided, is that strategy's fault: anything
        (its own BaseException subclass, GeneratorExit, SystemExit, ...) but a real Ctrl-C or
        SIGTERM that reached this process."""
        if isinstance(exc, KeyboardInterrupt):
            return not self.sigint_seen
        return not isinstance(exc, Terminated)

    def _on_sigint(self, signum: int, frame: FrameType | None) -> None:
        self.sigint_seen = True
        raise KeyboardInterrupt

    @staticmethod
    def _progress(frame: FrameType) -> tuple[int, Any, Any]:
        seen = frame.f_locals
        return id(frame), seen.get("steps"), seen.get("current")

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        # The decision the watchdog saw may have ended before the signal arrived: check again.
        target = self._frame
        if target is None or self._fired is None or self._progress(target) != self._fired:
            return
        while frame is not None and frame is not target:
            frame = frame.f_back
        if frame is not None:
            what = "its setup" if self._fired[1] == -1 else "one decision"
            raise DecisionTimeout(f"seat {self._fired[2]} took over {self.seconds:g} s for {what} "
                                  f"(--decision-timeout)")

    def _watch(self) -> None:
        assert self.seconds is not None
        poll = min(0.05, self.seconds / 4)
        last: tuple[int, Any, Any] | None = None
        since = time.monotonic()
        while not self._stop.wait(poll):
            target = self._frame
            now = time.monotonic()
            progress = self._progress(target) if target is not None else None
            if (progress is None or progress != last or not isinstance(progress[2], int) or progress[2] < 0
                    or compile_clock.busy()):    # compiling a kernel is not the seat's thinking time
                last, since = progress, now
            elif now - since >= self.seconds:
                self._fired = progress
                if target is self._frame:
                    self.overran = progress[2]   # an answer that comes later is a forfeit too
                signal.pthread_kill(self._main_id, signal.SIGALRM)
                since = now                      # a strategy that swallows it is interrupted again
