"""Workers never outlive the run: a worker whose parent (the run's main process) died, even by
SIGKILL that no handler sees, exits within about a second.

`started_by(parent_pid)` is each loky worker's initializer (so a worker that never got a task is
watched too: it would otherwise idle out only after loky's 300 s, and keep the resource trackers
alive as long), and `exit_with_parent(parent_pid)` is called at the start of each worker task;
the first call in a process starts one daemon thread that polls `os.getppid()`. It does nothing in the main
process or where the worker's parent is not the run's process (dask workers belong to their
nanny).
"""

from __future__ import annotations

import os
import threading
import time

POLL_SECONDS = 1.0
_started: set[int] = set()
_lock = threading.Lock()


def started_by(parent_pid: int) -> None:
    """The initializer of a worker process that `parent_pid` started itself (loky's): watch it
    from the start, and exit at once if it is already gone (it can die while the worker starts)."""
    if os.getpid() == parent_pid:
        return
    if os.getppid() != parent_pid:
        os._exit(1)
    exit_with_parent(parent_pid)


def exit_with_parent(parent_pid: int) -> None:
    if os.getpid() == parent_pid or os.getppid() != parent_pid:
        return
    with _lock:
        if parent_pid in _started:
            return
        _started.add(parent_pid)
    threading.Thread(target=_watch, args=(parent_pid,), name="simkit-exit-with-parent",
                     daemon=True).start()


def _watch(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(POLL_SECONDS)
    os._exit(1)      # orphaned: the run is over, and nothing here is unsaved work
