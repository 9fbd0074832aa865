#!/usr/bin/env python
"""Instructions per game, counted (valgrind), for issue 12's throughput figures: this checkout
beside a reference checkout, with the target and whether it is met.

    python scripts/bench_instructions.py --ref /path/to/old/checkout      # every case
    python scripts/bench_instructions.py --ref ../old --case trains        # cases whose label has it

A shared machine's timings move by a third within the hour (docs/performance.md); the number of
machine instructions a game costs does not. Each figure is the difference of two counted runs of
the same process (warm-up only, then warm-up plus N games through `play_range`) divided by N, so
start-up and imports cancel out. The count still moves with Python's string-hash seed (dict and
set layouts: up to +-7 % between seeds), so each figure is the mean over several fixed seeds
(`--hash-seeds`, default 0,1,2), the same seeds for both checkouts. A rate's speed-up is the
ratio of instructions per game (reference / now); CPU time follows it closely for pure-Python
code, while NumPy code does more per instruction, so the batch engine's time ratio runs ahead of
its instruction ratio.
Needs valgrind (`apt-get install valgrind`); each count takes 10-60 s, two run at a time.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent


@dataclass(frozen=True)
class Case:
    label: str
    game: str
    players: int
    strategies: tuple[str, ...]
    overrides: tuple[tuple[str, str], ...]
    games: int                  # counted games (after 20 warm-up games)
    target: float               # reference instructions / now, at least
    engine: str = "scalar"


SINGLE_ROUND = (("max_rounds", "1"),)
CASES = [
    Case("sixnimmt 4p single round, random", "sixnimmt", 4, ("random",), SINGLE_ROUND, 300, 3.0),
    Case("sixnimmt 4p single round, heuristic", "sixnimmt", 4, ("heuristic",), SINGLE_ROUND, 100, 3.0),
    Case("trains 4p random", "trains", 4, ("random",), (), 20, 2.0),
    Case("shipside random vs random", "shipside", 2, ("random",), (), 100, 2.0),
]
#: the batch engine against this checkout's scalar engine (same case, same checkout)
BATCH = Case("sixnimmt 4p single round, random, batch engine", "sixnimmt", 4, ("random",), SINGLE_ROUND,
             16_384, 30.0, engine="batch")

#: what the counted process runs: `play_range` over games 0..19, then 20..20+N (when N > 0)
DRIVER = """
import dataclasses, sys
from simkit.engine.play import play_range
from simkit.engine.runner import RunSpec
game, players, strategies, overrides, engine, n = sys.argv[1:7]
spec = RunSpec.create(game, int(players), strategies.split(","), 10**7, seed=1,
                      overrides=dict(kv.split("=", 1) for kv in overrides.split(";") if kv))
if engine != "scalar":
    spec = dataclasses.replace(spec, engine=engine)
play_range(spec, 0, 20)
if int(n):
    play_range(spec, 20, 20 + int(n))
"""


def count(checkout: Path, case: Case, games: int, hash_seed: int) -> int:
    """Instructions valgrind counts for the driver over `games` games (after the warm-up)."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONHASHSEED": str(hash_seed),
           "OPENBLAS_NUM_THREADS": "1"}       # idle BLAS threads add counts of their own
    overrides = ";".join(f"{k}={v}" for k, v in case.overrides)
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, "-c", DRIVER, case.game, str(case.players), ",".join(case.strategies),
           overrides, case.engine, str(games)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=checkout)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if out.returncode != 0 or found is None:
        tail = "\n".join(out.stderr.strip().splitlines()[-5:])
        raise RuntimeError(f"counting {case.label} in {checkout} failed:\n{tail}")
    return int(found.group(1).replace(",", ""))


def per_game(pool: ThreadPoolExecutor, checkout: Path, case: Case, hash_seeds: list[int]) -> float:
    """Mean instructions per game over `hash_seeds`."""
    runs = [(n, seed) for seed in hash_seeds for n in (0, case.games)]
    counts = dict(zip(runs, pool.map(lambda run: count(checkout, case, *run), runs)))
    return statistics.fmean((counts[case.games, seed] - counts[0, seed]) / case.games for seed in hash_seeds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", type=Path, help="the reference checkout (e.g. a `git worktree` of 638ca3d)")
    parser.add_argument("--case", action="append", help="only cases whose label contains this (repeatable)")
    parser.add_argument("--hash-seeds", default="0,1,2", help="PYTHONHASHSEED values to average over")
    args = parser.parse_args()
    try:
        seeds = [int(x) for x in args.hash_seeds.split(",")]
    except ValueError:
        print(f"--hash-seeds {args.hash_seeds!r} is not allowed: whole numbers separated by commas",
              file=sys.stderr)
        return 2
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: apt-get install valgrind", file=sys.stderr)
        return 2
    if args.ref is not None and not (args.ref / "simkit").is_dir():
        print(f"--ref {args.ref} is not a simkit checkout (it has no simkit/ folder)", file=sys.stderr)
        return 2
    chosen = [c for c in [*CASES, BATCH] if not args.case or any(part in c.label for part in args.case)]
    if not chosen:
        print(f"no case matches {args.case}: the cases are " + "; ".join(c.label for c in [*CASES, BATCH]),
              file=sys.stderr)
        return 2
    print(f"reference: {args.ref or '(none given)'}; instructions per game, counted by valgrind, "
          f"mean over PYTHONHASHSEED {args.hash_seeds}")
    print(f"{'case':<50} {'now':>12} {'reference':>12} {'speed-up':>9} {'target':>8}  met")
    with ThreadPoolExecutor(2) as pool:
        scalar_now: dict[str, float] = {}
        for case in chosen:
            if case is BATCH:
                scalar = scalar_now.get(CASES[0].label) or per_game(pool, CHECKOUT, CASES[0], seeds)
                now = per_game(pool, CHECKOUT, case, seeds)
                _row(case.label + " (vs scalar, now)", now, scalar, case.target)
                continue
            now = scalar_now[case.label] = per_game(pool, CHECKOUT, case, seeds)
            ref = per_game(pool, args.ref, case, seeds) if args.ref is not None else None
            _row(case.label, now, ref, case.target)
    return 0


def _row(label: str, now: float, ref: float | None, target: float) -> None:
    if ref is None:
        print(f"{label:<50} {now:12,.0f} {'-':>12} {'-':>9} {target:7g}x", flush=True)
        return
    ratio = ref / now
    print(f"{label:<50} {now:12,.0f} {ref:12,.0f} {ratio:8.2f}x {target:7g}x  "
          f"{'yes' if ratio >= target else 'NO'}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
