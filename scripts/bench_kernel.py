"""6 nimmt! kernel against the scalar engine, in one sitting, on one core (CPU time, the two
engines timed in turns, best of several): single rounds, 4 players, all `random`, and
`heuristic` + 3 `random`, rounds per second and the ratios beside their targets (>= 100x and
>= 30x, issue 21); Shipside games, `random` and `octopus` in both seats (>= 50x and
>= 20x); then the kernel's first start with an empty numba cache (the compile, as after an
install) and a later start with the cache filled, each in a fresh interpreter.

    python scripts/bench_kernel.py [seconds]
    python scripts/bench.py --game kernel        # the same rows in the project's table
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

REPS = 3
ROUNDS = {"random": "sixnimmt kernel / scalar, 4p single round, random, same sitting",
          "heuristic": "sixnimmt kernel / scalar, 4p single round, heuristic + 3 random, same sitting"}

# a fresh interpreter: import simkit, compile (or load) the kernel, play one game
_START = """
import time
t0 = time.perf_counter()
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt.kernel import play_range_kernel
spec = RunSpec.create("sixnimmt", 4, ["heuristic", "random", "lowest", "highest"], 10, seed=1)
play_range_kernel(spec, 0, 1)
print(time.perf_counter() - t0)
"""


def _rate(play, spec, games: int) -> float:
    start = time.process_time()
    play(spec, 0, games)
    return games / (time.process_time() - start)


def _start(cache: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one fresh start with this numba cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", _START], env=env, capture_output=True, text=True,
                          check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return float(done.stdout.split()[-1]), cpu


def bench(seconds: float = 3.0):
    """(label, value, unit) rows, about `seconds` per figure."""
    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec
    from simkit.games.sixnimmt.kernel import play_range_kernel

    for name, lineup in (("random", ["random"]), ("heuristic", ["heuristic", "random", "random", "random"])):
        spec = RunSpec.create("sixnimmt", 4, lineup, 10**9, seed=1, overrides={"max_rounds": "1"})
        play_range(spec, 0, 20)
        play_range_kernel(spec, 0, 20)
        scalar_games = max(200, int(_rate(play_range, spec, 300) * seconds / REPS))
        kernel_games = max(2000, int(_rate(play_range_kernel, spec, 20_000) * seconds / REPS))
        scalar = kernel = 0.0
        for _ in range(REPS):
            scalar = max(scalar, _rate(play_range, spec, scalar_games))
            kernel = max(kernel, _rate(play_range_kernel, spec, kernel_games))
        yield f"sixnimmt 4p single round, {name} lineup, scalar engine, 1 core", scalar, "rounds/s"
        yield f"sixnimmt 4p single round, {name} lineup, kernel, 1 core", kernel, "rounds/s"
        yield ROUNDS[name], kernel / scalar, "x"
    yield from bench_shipside(seconds)
    with tempfile.TemporaryDirectory() as cache:
        wall, cpu = _start(cache)
        yield "sixnimmt kernel first start, empty numba cache (compile)", wall, f"s (CPU {cpu:.1f} s)"
        wall, cpu = _start(cache)
        yield "sixnimmt kernel later start, numba cache filled", wall, f"s (CPU {cpu:.1f} s)"


SHIPSIDE = {"random": "shipside kernel / scalar, random vs random, same sitting",
            "octopus": "shipside kernel / scalar, octopus vs octopus, same sitting"}


def bench_shipside(seconds: float = 3.0):
    """Shipside games per second, default rules, scalar engine and kernel, and their ratio
    (targets >= 50x for random, >= 20x for octopus, issue 21)."""
    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec
    from simkit.games.shipside.kernel import play_range_kernel

    for name in ("random", "octopus"):
        spec = RunSpec.create("shipside", 2, [name], 10**9, seed=1)
        play_range(spec, 0, 5)
        play_range_kernel(spec, 0, 5)
        scalar_games = max(50, int(_rate(play_range, spec, 50) * seconds / REPS))
        kernel_games = max(500, int(_rate(play_range_kernel, spec, 2000) * seconds / REPS))
        scalar = kernel = 0.0
        for _ in range(REPS):
            scalar = max(scalar, _rate(play_range, spec, scalar_games))
            kernel = max(kernel, _rate(play_range_kernel, spec, kernel_games))
        yield f"shipside {name} vs {name}, scalar engine, 1 core", scalar, "games/s"
        yield f"shipside {name} vs {name}, kernel, 1 core", kernel, "games/s"
        yield SHIPSIDE[name], kernel / scalar, "x"


if __name__ == "__main__":
    for label, value, unit in bench(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0):
        print(f"{label:<80} {value:12.4g} {unit}", flush=True)
