"""What strategies print never reaches standard output: while games are played, `sys.stdout` and
file descriptor 1 (what C code, `os.write(1, ...)` and child processes write to) both point at
standard error. Standard output stays the caller's, for machine-readable output (`--json`).

`stdout_to_stderr()` nests and may be entered from several threads at once (the threading
backend): the first entry redirects, the last exit restores.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_lock = threading.Lock()
_depth = 0
_saved: tuple[Any, int | None] | None = None


def _flush(stream: Any) -> None:
    try:
        if stream is not None:
            stream.flush()
    except (OSError, ValueError):
        pass


def _redirect() -> tuple[Any, int | None]:
    saved_stream = sys.stdout
    _flush(saved_stream)
    try:
        saved_fd: int | None = os.dup(1)
        os.dup2(2, 1)
    except OSError:                  # no descriptor 1 or 2 (a daemon): nothing to protect there
        saved_fd = None
    if sys.stderr is not None:
        sys.stdout = sys.stderr
    return saved_stream, saved_fd


def _restore(saved: tuple[Any, int | None]) -> None:
    saved_stream, saved_fd = saved
    _flush(sys.stdout)
    sys.stdout = saved_stream
    if saved_fd is not None:
        os.dup2(saved_fd, 1)
        os.close(saved_fd)


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Inside the block, standard output (the object and descriptor 1) goes to standard error."""
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = _redirect()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _saved is not None:
                saved, _saved = _saved, None
                _restore(saved)
