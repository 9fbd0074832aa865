"""SIGTERM handled like Ctrl-C: it raises `Terminated` (a KeyboardInterrupt) in the main thread,
so a run stops the same way (workers stopped, finished chunks kept, status `interrupted`)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: conventional exit statuses of a command stopped by SIGINT and by SIGTERM
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class Terminated(KeyboardInterrupt):
    """The process received SIGTERM."""


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


def exit_status(exc: KeyboardInterrupt) -> int:
    return EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED
