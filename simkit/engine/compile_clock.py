"""Time spent compiling kernels is not a strategy's thinking time.

The first decision that needs a compiled kernel (the Rummikub solver, a search's kernel
rollouts) compiles it, or loads it from numba's disk cache: half a minute or more on a fresh
install. `DecisionGuard` must not charge that to the seat deciding (a 60 s `--decision-timeout`
would forfeit a sound strategy on a fresh machine), so it restarts a decision's clock while
numba holds its compiler lock. `listen()` is called where simkit imports numba; this module
itself imports nothing heavy, so the guard can ask `busy()` without importing numba.
"""

from __future__ import annotations

import threading

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
