"""6 nimmt! kernel against the scalar engine, in one sitting, on one core (CPU time, the two
engines timed in turns, best of several): single rounds, 4 players, all `random`, and
`heuristic` + 3 `random`, rounds per second and the ratios beside their targets (>= 100x and
>= 30x, issue 21); a C reference of the same round (scripts/bench_kernel_ref.c, when a C
compiler is found) in the same turns, for how close the kernel is to the limit; then the
kernel's first start with an empty numba cache (the compile, as after an install) and a later
start with the cache filled, each in a fresh interpreter.
Then Game of Trains, 4 players, whole games: `random`, `greedy` and `rival` lineups, games per
second and the ratios (targets: random >= 50x, rival >= 20x); and Shipside games, `random` and
`octopus` in both seats (>= 50x and >= 20x); each game's first and later start as for 6 nimmt!
(every built-in kernel form compiled; `--start` also times Rummikub, whose one 4-player
`greedy_tiles` game compiles its table DP and opening search; the DP alone:
`scripts/bench_rummikub.py --compile-time`). Targets: first start <= 30 s, later start <= 2 s
(issue 21); compare CPU seconds, as wall seconds on a shared machine measure the other work too.

    python scripts/bench_kernel.py [seconds] [sixnimmt|trains|shipside]
    python scripts/bench_kernel.py --start [later starts] [games]   # start times only (also rummikub)
    python scripts/bench.py --game kernel        # the same rows in the project's table
"""

from __future__ import annotations

import functools
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

REPS = 3
ROUNDS = {"random": "sixnimmt kernel / scalar, 4p single round, random, same sitting",
          "heuristic": "sixnimmt kernel / scalar, 4p single round, heuristic + 3 random, same sitting"}

# what a fresh interpreter plays per game, timed by `_start`: import simkit, compile (or load)
# the kernel and every built-in kernel form, play one game; Rummikub (no kernel engine) one
# 4-player `greedy_tiles` game, which compiles (or loads) its table DP and opening search
_PLAY = """
from simkit.engine.spec import RunSpec
from simkit.games.{game}.kernel import play_range_kernel
for lineup in {lineups!r}:
    play_range_kernel(RunSpec.create("{game}", len(lineup), lineup, 10, seed=1), 0, 1)
"""
STARTS = {
    "sixnimmt": _PLAY.format(game="sixnimmt", lineups=[["heuristic", "random", "lowest", "highest"]]),
    # `random` in every seat: its game loop was once typed by the bot's own dispatcher, a cache
    # key no later process found (each compiled the loop again); now the same loop as above
    "sixnimmt-random": _PLAY.format(game="sixnimmt", lineups=[["random"] * 4]),
    "trains": _PLAY.format(game="trains", lineups=[["random", "greedy", "rival"]]),
    "shipside": _PLAY.format(game="shipside", lineups=[["random", "octopus"], ["greedy", "random"]]),
    "rummikub": """
from simkit.engine.play import play_range
from simkit.engine.spec import RunSpec
play_range(RunSpec.create("rummikub", 4, ["greedy_tiles"], 10, seed=1), 0, 1)
""",
}


def _rate(play, spec, games: int) -> float:
    start = time.process_time()
    play(spec, 0, games)
    return games / (time.process_time() - start)


def _start(cache: str, code: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one fresh start with this numba cache."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench_start(game: str, later: int = 1):
    """A game's first start in a fresh interpreter with an empty numba cache (the compile, as
    after an install), then `later` starts with the cache filled (targets <= 30 s / <= 2 s)."""
    with tempfile.TemporaryDirectory() as cache:
        wall, cpu = _start(cache, STARTS[game])
        yield f"{game} kernel first start, empty numba cache (compile)", wall, f"s (CPU {cpu:.2f} s)"
        for _ in range(later):
            wall, cpu = _start(cache, STARTS[game])
            yield f"{game} kernel later start, numba cache filled", wall, f"s (CPU {cpu:.2f} s)"


def _c_reference(folder: str) -> str | None:
    """The C reference compiled into `folder`, or None without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_kernel_ref.c")
    target = os.path.join(folder, "bench_kernel_ref")
    # the best this machine's C compiler makes of it (-O2 alone was 8-10 % slower on 2026-12-04)
    subprocess.run([compiler, "-O3", "-march=native", "-o", target, source], check=True, capture_output=True)
    return target


def _c_rounds_rate(program: str, master: int | None, kernel_rounds: int) -> float:
    return _c_rate(program, 10 * kernel_rounds, *(() if master is None else (master,)))


def _c_rate(program: str, rounds: int, *extra: object) -> float:
    """The C reference's rounds per CPU second: its own seeds, or (`extra`: a master seed) each
    game's streams from SeedSequence(master, spawn_key=(game,)), the kernel's games (then
    "deal": the deals alone)."""
    done = subprocess.run([program, str(rounds), *map(str, extra)], capture_output=True, text=True,
                          check=True)
    return float(done.stdout.split()[0])


def _turns(spec, seconds: float, warm: int, probes: tuple[int, int], floors: tuple[int, int],
           references: tuple[Callable[[int], float], ...] = ()) -> tuple[int, int, float, float, list[float]]:
    """The scalar engine and the kernel on `spec`, timed in turns, best of REPS: (scalar games,
    kernel games, scalar rate, kernel rate, reference rates); each plays about seconds / REPS a
    turn (sized by a probe of `probes` games, at least `floors`) after `warm` games;
    `references` (each called with the kernel's games), more rates in the same turns."""
    from simkit.engine.play import play_range

    kernel_play = _kernel_play(spec.game)
    play_range(spec, 0, warm)
    kernel_play(spec, 0, warm)
    scalar_games = max(floors[0], int(_rate(play_range, spec, probes[0]) * seconds / REPS))
    kernel_games = max(floors[1], int(_rate(kernel_play, spec, probes[1]) * seconds / REPS))
    scalar = kernel = 0.0
    others = [0.0] * len(references)
    for _ in range(REPS):
        scalar = max(scalar, _rate(play_range, spec, scalar_games))
        kernel = max(kernel, _rate(kernel_play, spec, kernel_games))
        others = [max(other, reference(kernel_games)) for other, reference in zip(others, references)]
    return scalar_games, kernel_games, scalar, kernel, others


def _kernel_play(game: str):
    import importlib

    return importlib.import_module(f"simkit.games.{game}.kernel").play_range_kernel


def bench_trains(seconds: float = 3.0):
    """Game of Trains rows: 4 players, whole games, each lineup's scalar and kernel rates (the
    engines timed in turns, best of REPS) and their ratio."""
    from simkit.engine.spec import RunSpec

    for name in ("random", "greedy", "rival"):
        spec = RunSpec.create("trains", 4, [name], 10**9, seed=1)
        scalar_games, kernel_games, scalar, kernel, _ = _turns(spec, seconds, 5, (30, 1000), (20, 500))
        yield f"trains 4p {name}, scalar engine, 1 core ({scalar_games} games)", scalar, "games/s"
        yield f"trains 4p {name}, kernel, 1 core ({kernel_games} games)", kernel, "games/s"
        yield f"trains kernel / scalar, 4p {name}, same sitting", kernel / scalar, "x"
    yield from bench_start("trains")


def bench(seconds: float = 3.0, game: str = ""):
    """(label, value, unit) rows, about `seconds` per figure (one game's rows with `game`)."""
    if game in ("", "trains"):
        yield from bench_trains(seconds)
    if game in ("", "shipside"):
        yield from bench_shipside(seconds)
    if game in ("", "sixnimmt"):
        yield from bench_sixnimmt(seconds)


def bench_sixnimmt(seconds: float = 3.0):
    """6 nimmt! single rounds: scalar, kernel and C reference rates, ratios, start times."""
    from simkit.engine.spec import RunSpec

    folder = tempfile.mkdtemp()
    program = _c_reference(folder)
    for name, lineup in (("random", ["random"]), ("heuristic", ["heuristic", "random", "random", "random"])):
        spec = RunSpec.create("sixnimmt", 4, lineup, 10**9, seed=1, overrides={"max_rounds": "1"})
        c_turns: tuple[Callable[[int], float], ...] = ()
        if program is not None and name == "random":       # the C reference: 10x the rounds
            c_turns = (functools.partial(_c_rounds_rate, program, None),
                       functools.partial(_c_rounds_rate, program, spec.seed))
        scalar_games, kernel_games, scalar, kernel, cs = _turns(spec, seconds, 20, (300, 20_000),
                                                                (200, 2000), c_turns)
        yield f"sixnimmt 4p single round, {name} lineup, scalar engine, 1 core", scalar, "rounds/s"
        yield f"sixnimmt 4p single round, {name} lineup, kernel, 1 core", kernel, "rounds/s"
        yield ROUNDS[name], kernel / scalar, "x"
        for c, how in zip(cs, ("own seeds, no SeedSequence", "SeedSequence per game: the kernel's games")):
            yield f"sixnimmt 4p single round, random, C reference ({how}), 1 core", c, "rounds/s"
            yield f"sixnimmt kernel / C reference ({how})", kernel / c, "x"
            yield f"sixnimmt C reference ({how}) / scalar: the most a compiled round reaches", c / scalar, "x"
    shutil.rmtree(folder, ignore_errors=True)
    yield from bench_start("sixnimmt")


SHIPSIDE = {"random": "shipside kernel / scalar, random vs random, same sitting",
            "octopus": "shipside kernel / scalar, octopus vs octopus, same sitting"}


def bench_shipside(seconds: float = 3.0):
    """Shipside games per second, default rules, scalar engine and kernel, and their ratio
    (targets >= 50x for random, >= 20x for octopus, issue 21)."""
    from simkit.engine.spec import RunSpec

    for name in ("random", "octopus"):
        spec = RunSpec.create("shipside", 2, [name], 10**9, seed=1)
        scalar_games, kernel_games, scalar, kernel, _ = _turns(spec, seconds, 5, (50, 2000), (50, 500))
        yield f"shipside {name} vs {name}, scalar engine, 1 core", scalar, "games/s"
        yield f"shipside {name} vs {name}, kernel, 1 core", kernel, "games/s"
        yield SHIPSIDE[name], kernel / scalar, "x"
    yield from bench_start("shipside")


if __name__ == "__main__":
    from script_args import args_or_help, fail, number
    args = args_or_help(__doc__)
    if args[:1] == ["--start"]:             # start times only: --start [later starts] [games]
        later = number(args[1], "later starts", int) if len(args) > 1 else 2
        games = args[2:] or list(STARTS)
        unknown = sorted(set(games) - set(STARTS))
        if unknown:
            fail(f"unknown game(s) {', '.join(unknown)}: allowed are {', '.join(STARTS)}")
        rows = (row for game in games for row in bench_start(game, later))
    else:
        rows = bench(number(args[0], "seconds") if args else 3.0, args[1] if len(args) > 1 else "")
    for label, value, unit in rows:
        print(f"{label:<80} {value:12.4g} {unit}", flush=True)
