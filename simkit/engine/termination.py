"""SIGTERM handled like Ctrl-C: it raises `Terminated` in the main thread, so a run stops the
same way (workers stopped, finished chunks kept, status `interrupted`).

`Terminated` is a BaseException but not a KeyboardInterrupt: the game loop forfeits a strategy
that raises KeyboardInterrupt itself, and a SIGTERM arriving while a strategy decides is not
that strategy's fault. Catch `STOPS` to handle both ways of stopping a run.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: conventional exit statuses of a command stopped by SIGINT and by SIGTERM
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class Terminated(BaseException):
    """The process received SIGTERM."""


#: the exceptions that mean "the user stopped the run": Ctrl-C and SIGTERM
STOPS = (KeyboardInterrupt, Terminated)


def _raise_terminated(signum, frame) -> None:
    raise Terminated("terminated by SIGTERM")


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Inside the block, SIGTERM raises Terminated (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def exit_status(exc: BaseException) -> int:
    return EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED
