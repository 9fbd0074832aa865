"""6 nimmt! batch engine against the scalar engine, in one sitting, on one core (CPU time):
single rounds, 4 players, all `random`, rounds per second of `play_range` (the scalar engine) and
of `play_range_batch`, measured in turns (best of several) so both see the same machine load,
and their ratio beside the target (>= 30).

Optionally also the scalar engine of other checkouts of simkit (each in a subprocess with its
own PYTHONPATH, in the same turns), and the batch engine's ratio to each:

    python scripts/bench_batch.py [seconds] [--ref NAME=PATH ...]
    python scripts/bench_batch.py 3 --ref old=/tmp/old --ref base=/tmp/base
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

TARGET = 30.0
REPS = 5
RATIO = f"sixnimmt batch / scalar, same sitting (target >= {TARGET:g})"

# the scalar measurement, run in another checkout (older ones have RunSpec in simkit.engine.runner)
_REF_SNIPPET = """
import sys, time
try:
    from simkit.engine.spec import RunSpec
except ImportError:
    from simkit.engine.runner import RunSpec
from simkit.engine.play import play_range
spec = RunSpec.create("sixnimmt", 4, ["random"], 10**9, seed=1, overrides={"max_rounds": "1"})
play_range(spec, 0, 20)
games = int(sys.argv[1])
start = time.process_time()
play_range(spec, 0, games)
print(games / (time.process_time() - start))
"""


def _rate(play, spec, games: int) -> float:
    start = time.process_time()          # CPU time: other processes on the machine do not count
    play(spec, 0, games)
    return games / (time.process_time() - start)


def _ref_rate(path: str, games: int) -> float:
    env = {**os.environ, "PYTHONPATH": path}
    done = subprocess.run([sys.executable, "-c", _REF_SNIPPET, str(games)], cwd=path, env=env,
                          capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def bench(seconds: float = 3.0, refs: dict[str, str] | None = None) -> list[tuple[str, float, str]]:
    """(label, value, unit) rows: scalar and batch rounds/s, and the ratio; about `seconds` each
    (and per checkout in `refs`, name -> path, its scalar rounds/s and the batch's ratio to it)."""
    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec
    from simkit.games.sixnimmt.batch import play_range_batch

    refs = refs or {}
    spec = RunSpec.create("sixnimmt", 4, ["random"], 10**9, seed=1, overrides={"max_rounds": "1"})
    play_range(spec, 0, 20)
    play_range_batch(spec, 0, 20)
    scalar_games = max(200, int(seconds / REPS * 5_000))
    batch_games = max(16_384, int(seconds / REPS * 200_000))
    scalar = batch = 0.0
    others = dict.fromkeys(refs, 0.0)
    for _ in range(REPS):                    # in turns, so a load change hits every engine
        scalar = max(scalar, _rate(play_range, spec, scalar_games))
        batch = max(batch, _rate(play_range_batch, spec, batch_games))
        for name, path in refs.items():
            others[name] = max(others[name], _ref_rate(path, scalar_games))
    rows = [("sixnimmt 4p single round, random, scalar engine, 1 core", scalar, "rounds/s"),
            ("sixnimmt 4p single round, random, batch engine, 1 core", batch, "rounds/s"),
            (RATIO, batch / scalar, "x")]
    for name, path in refs.items():
        rows.append((f"sixnimmt scalar engine at {name} ({path}), 1 core", others[name], "rounds/s"))
        rows.append((f"sixnimmt batch / scalar at {name}", batch / others[name], "x"))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", type=float, nargs="?", default=3.0, help="time per figure")
    parser.add_argument("--ref", action="append", default=[], metavar="NAME=PATH",
                        help="also time the scalar engine of the simkit checkout at PATH")
    args = parser.parse_args()
    refs = {}
    for item in args.ref:
        name, sep, path = item.partition("=")
        if not sep or not os.path.isdir(path):
            parser.error(f"--ref {item!r}: expected NAME=PATH of a simkit checkout")
        refs[name] = path
    rows = bench(args.seconds, refs)
    for label, value, unit in rows:
        print(f"{label:<62} {value:10.1f} {unit}", flush=True)
    ratio = next(value for label, value, _ in rows if label == RATIO)
    print(f"target: batch >= {TARGET:g}x the scalar engine: {'met' if ratio >= TARGET else 'NOT met'} "
          f"({ratio:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
