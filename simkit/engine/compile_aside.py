"""A kernel's first compile, split over two processes (issue 21: the first run after an install).

With an empty numba cache a kernel run compiles its game loop and its lineup's bots, one after
the other, in one process: the loop is most of it (Shipside's about 20 s CPU, its `greedy` bot
about 7 s more). The loop does not depend on which bots it plays (it takes them as first-class
function types, one signature for every bot: tests/engine/test_kernel_cache.py), so a child
process can compile it, by playing one game of the game's `random` bots, while this process
compiles the lineup's bots; the loop then loads from numba's disk cache, where the child left
it. On a machine with two free cores the first start takes about the loop's time instead of
the sum; it spends more CPU (the child's start, and the helpers the bots and the loop share,
compiled in both: docs/performance.md, "A first start compiles in two processes").

The child only fills the cache: nothing depends on it. When it fails or is not used (one core,
the loop already cached, no bot to compile beside it, `SIMKIT_COMPILE_ASIDE=0`), this process
compiles what is missing itself, as before. Results never depend on it. The workers of a
parallel run compile in their own processes (`share_cores`): the other workers have the cores.
"""

from __future__ import annotations

import importlib
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from simkit.engine import compile_clock
from simkit.engine.kernels import lineup_bots

#: "0" compiles everything in the run's own process
SWITCH = "SIMKIT_COMPILE_ASIDE"
#: seconds to wait for the child before compiling without it
PATIENCE = 900.0


def uncached(dispatcher: Any) -> bool:
    """Whether numba's disk cache holds nothing current for the compiled function `dispatcher`
    (no index, another numba's, or one whose source stamp is stale): its first call compiles."""
    cache = getattr(dispatcher, "_cache", None)
    index = getattr(cache, "_cache_file", None)
    return index is not None and not index._load_index()


def game_loop(spec: Any) -> Any:
    """The compiled game loop (a dispatcher) of the kernel run `spec`: `GAME_LOOP` of its game's
    kernel module."""
    from simkit.engine.spec import kernel_module

    module, _, name = kernel_module(spec.game).GAME_LOOP.partition(":")
    return getattr(importlib.import_module(module), name)


def compiles_first(spec: Any) -> bool:
    """Whether the kernel run `spec` compiles before its first game, as after an install or an
    update: its game loop or one of its bots is not in numba's disk cache."""
    return uncached(game_loop(spec)) or any(uncached(bot) for bot in lineup_bots(spec))


def share_cores() -> None:
    """This process is one of a run's parallel workers: the others take the other cores, so its
    first compile stays in it."""
    os.environ[SWITCH] = "0"


def _free_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:          # not on Linux
        return os.cpu_count() or 1


class Aside:
    """A child process calling `target` ("module:function") with `args` (pickled), its output
    discarded; started at once."""

    def __init__(self, target: str, args: tuple):
        payload = pickle.dumps((list(sys.path), target, args))
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from simkit.engine.compile_aside import _child; _child()"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(payload)
            self.process.stdin.close()
        except OSError:             # the child is already gone: wait() says it failed
            pass

    def wait(self, timeout: float = PATIENCE) -> bool:
        """Wait for the child; True when it finished its work. A child still running after
        `timeout` seconds is stopped. The wait is compile time to a decision's clock
        (`compile_clock`): the solver's first use of a part can wait inside a decision."""
        try:
            with compile_clock.compiling():
                return self.process.wait(timeout) == 0
        except subprocess.TimeoutExpired:
            self.stop()
            return False

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _child() -> None:
    path, target, args = pickle.load(sys.stdin.buffer)
    sys.path[:] = path
    os.environ[SWITCH] = "0"            # its own first compiles stay in it: no child of a child
    module, _, name = target.partition(":")
    getattr(importlib.import_module(module), name)(*args)


def _may_start() -> bool:
    return os.environ.get(SWITCH, "1") != "0" and _free_cores() >= 2


#: the children started by `start`, by key
_STARTED: dict[str, Aside] = {}


def start(key: str, target: str, args: tuple = ()) -> bool:
    """Start a child calling `target` with `args` unless one for `key` was started in this
    process already, or a child would not help (switched off, one core); True if started."""
    if key in _STARTED or not _may_start():
        return False
    _STARTED[key] = Aside(target, args)
    return True


def wait_for(key: str) -> None:
    """Wait for the child started for `key` in this process, if there is one."""
    aside = _STARTED.get(key)
    if aside is not None:
        aside.wait()


@contextmanager
def loop_aside(spec: Any) -> Iterator[Aside | None]:
    """Around the loading of the bots of a kernel run `spec`: when its game loop (`game_loop`)
    and one of its bots but `random` (`kernels.lineup_bots`) would both be compiled,
    a child compiles the loop meanwhile (one game of `random` bots of the run's game, player
    count and config) and this block waits for it at the end. Yields the child, or None."""
    if (not _may_start() or not uncached(game_loop(spec))
            or not any(uncached(bot) for bot in lineup_bots(spec))):
        yield None
        return
    aside = Aside(f"{__name__}:play_one_random_game", (spec.game, spec.n_players, spec.config))
    try:
        yield aside
    except BaseException:
        aside.stop()
        raise
    aside.wait()


def play_one_random_game(game: str, n_players: int, config: Any) -> None:
    """Compile (or load) a game's kernel loop by playing one game of `random` bots in it."""
    from simkit.engine.spec import RunSpec, kernel_module

    spec = RunSpec.create(game, n_players, ["random"] * n_players, 1, seed=0, config=config,
                          engine="kernel")
    kernel_module(game).play_range_kernel(spec, 0, 1)
