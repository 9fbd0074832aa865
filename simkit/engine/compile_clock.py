"""Time spent compiling kernels is not a strategy's thinking time.

The first decision that needs a compiled kernel (the Rummikub solver, a search's kernel
rollouts) compiles it, or loads it from numba's disk cache: half a minute or more on a fresh
install. `DecisionGuard` must not charge that to the seat deciding (a 60 s `--decision-timeout`
would forfeit a sound strategy on a fresh machine), so it restarts a decision's clock while
numba holds its compiler lock, or while this process waits for a child compiling a kernel for it
(`compiling()`). `listen()` is called where simkit imports numba; this module
itself imports nothing heavy, so the guard can ask `busy()` without importing numba.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_listening = False


def busy() -> bool:
    """Whether numba is compiling (or loading compiled code) in this process now."""
    return _depth > 0


def _enter() -> None:
    global _depth
    with _lock:
        _depth += 1


def _leave() -> None:
    global _depth
    with _lock:
        _depth = max(0, _depth - 1)


@contextmanager
def compiling() -> Iterator[None]:
    """The block counts as compiling: waiting for a child process that compiles a kernel
    (simkit/engine/compile_aside.py) is the compile's time too, not the seat's."""
    _enter()
    try:
        yield
    finally:
        _leave()


def listen() -> None:
    """Follow numba's compiler lock from now on (once per process; numba must be importable)."""
    global _listening
    if _listening:
        return
    from numba.core import event

    class _CompilerLock(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            _enter()

        def on_end(self, ev: event.Event) -> None:
            _leave()

    event.register("numba:compiler_lock", _CompilerLock())
    _listening = True
