"""The dask.distributed side of a run: its client, and a Ctrl-C that prints one line.

A local cluster's scheduler, nannies and client live in this process and log to stderr. Once
the run is stopping (Ctrl-C, SIGTERM, the end of the run) what they log is the cancellation
racing their work ("Couldn't gather keys ... forgotten", workers stopped mid-task): expected,
not news, and it would bury the one line that says what was saved.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from simkit.engine.errors import ConfigError


def dask_client(scheduler: str | None):
    try:
        from dask.distributed import Client
    except ImportError:
        raise ConfigError("--backend dask needs dask.distributed: pip install 'simkit[dask]'") from None
    try:
        if scheduler:
            return Client(scheduler)
        with _workers_ignore_ctrl_c():
            # the scheduler's HTTP server on any free local port: its default, 8787, may be taken
            # (another run), and dask then warns on stderr; no dashboard
            return Client(processes=True, dashboard_address="127.0.0.1:0",
                          scheduler_kwargs={"dashboard": False})
    except OSError as exc:
        raise ConfigError(f"--scheduler {scheduler}: cannot connect ({exc})") from None


class ShutdownGate(logging.Filter):
    """A filter on the log handlers dask.distributed's records reach: they pass until `close()`
    (other loggers' records always pass, as on the root's handlers)."""

    def __init__(self) -> None:
        super().__init__()
        self.open = True

    def close(self) -> None:
        self.open = False

    def filter(self, record: logging.LogRecord) -> bool:
        return self.open or not (record.name == "distributed" or record.name.startswith("distributed."))


def _distributed_handlers() -> list[logging.Handler]:
    """Every handler a `distributed.*` record can reach: those of `distributed` and of its
    descendants, and the root's while `distributed` propagates to it."""
    top = logging.getLogger("distributed")
    loggers: list[logging.Logger] = [top]
    loggers += [logger for name, logger in logging.Logger.manager.loggerDict.items()
                if name.startswith("distributed.") and isinstance(logger, logging.Logger)]
    handlers = {id(h): h for logger in loggers for h in logger.handlers}
    if top.propagate:
        handlers.update({id(h): h for h in logging.getLogger().handlers})
    return list(handlers.values())


@contextmanager
def quiet_once_stopping() -> Iterator[ShutdownGate]:
    """Inside the block, dask.distributed logs as configured until the gate closes: at a SIGINT
    or SIGTERM (before the handler already installed raises, so before joblib cancels the
    tasks) or when the caller closes it. Signals are watched from the main thread only."""
    gate = ShutdownGate()
    handlers = _distributed_handlers()
    for handler in handlers:
        handler.addFilter(gate)
    saved = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(signum)
            if callable(previous):
                def close_then(sig, frame, previous=previous):
                    gate.close()
                    previous(sig, frame)

                saved[signum] = signal.signal(signum, close_then)
    try:
        yield gate
    finally:
        for signum, previous in saved.items():
            signal.signal(signum, previous)
        for handler in handlers:
            handler.removeFilter(gate)


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """Processes started inside ignore SIGINT (an ignored signal stays ignored in a child) and log
    only critical failures: a Ctrl-C at the terminal reaches the whole process group, and the
    local dask workers would each print their own KeyboardInterrupt traceback; this process stops
    them. Nor do they log the transfers cut short on the way out ("failed during get data", a
    traceback): a worker's own failures reach this process anyway, as a task's error or as the
    nanny's note of a worker that died."""
    quiet = {"DASK_LOGGING__DISTRIBUTED": "critical"}
    saved = {key: os.environ.get(key) for key in quiet}
    os.environ.update(quiet)
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
