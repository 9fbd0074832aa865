"""How long does `simkit ladder GAME` on its defaults take? Pilot, projection, and the whole run.

Per game: plays `--deals` duplicate deals of every pairing of the default ladder in this process
(one core, so process time is the CPU the pairing costs), prints each pairing's CPU seconds per
game, projects the full default ladder (its games per pairing) to CPU time and to wall time on
2 quiet cores (CPU / 2: a ladder keeps both workers busy), and fits each agent's CPU seconds per
seat and game (least squares over the pairings) for the cost table of
simkit/studies/ladder_defaults.py, beside the table's own estimate. CPU time, not wall time, is
the figure to trust on a loaded machine.

`--whole` then runs the whole default ladder as a user would (`python -m simkit ladder GAME
--jobs 2 --seed S`), prints its output (ratings, pairings, skill depth) and its wall and CPU time.

    python scripts/ladder_timing.py --game shipside --deals 2
    python scripts/ladder_timing.py --game sixnimmt --game trains --deals 1
    python scripts/ladder_timing.py --game shipside --whole --out results/ladder-shipside-timing

Pilot deals are deals 0..deals-1 of `--seed`; the numbers depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def _pilot(game: str, deals: int, seed: int) -> None:
    from simkit.engine.lineup import default_players
    from simkit.engine.registry import get_game
    from simkit.studies.ladder import plan_ladder, run_ladder
    from simkit.studies.ladder_defaults import default_games, estimate, ladder_defaults, minutes

    n = default_players(get_game(game))
    full = plan_ladder(game, n)
    pilot = plan_ladder(game, n, games_per_pair=deals * n, seed=seed)
    print(f"== {game}: {len(full.agents)} agents, {len(full.pairs)} pairings, {n} players, "
          f"{default_games(game)} games a pairing (default); pilot: {pilot.games_per_pair} games a pairing, "
          f"seed {seed}")
    with tempfile.TemporaryDirectory() as tmp:
        warm = plan_ladder(game, n, [full.agents[-1], full.agents[0]], games_per_pair=n, seed=seed + 1)
        t0 = time.process_time()
        run_ladder(warm, Path(tmp) / "warm", jobs=1, progress=False)     # load kernels, caches
        spent = time.process_time() - t0
        print(f"warm-up ({warm.agents[0]} vs {warm.agents[1]}, {n} games): {spent:.1f} s CPU", flush=True)
        print(f"{'pairing':<34} {'CPU s/game':>11} {'projected CPU':>14}", flush=True)
        marks: list[float] = []

        def mark(i: int, pair=None) -> None:
            marks.append(time.process_time())
            if i > 0:
                done = full.pairs[i - 1]
                cost = (marks[-1] - marks[-2]) / pilot.games_per_pair
                print(f"{done.a + ' vs ' + done.b:<34} {cost:>11.3f} "
                      f"{minutes(cost * full.games_per_pair):>14}", flush=True)

        run_ladder(pilot, Path(tmp) / "pilot", jobs=1, progress=False, on_pair=mark)
        mark(len(full.pairs))
    per_game = np.diff(marks) / pilot.games_per_pair
    seats_a, seats_b = (n + 1) // 2, n // 2
    agents = list(full.agents)
    rows = np.zeros((len(full.pairs), len(agents)))
    for k, pair in enumerate(full.pairs):
        rows[k, agents.index(pair.a)] += seats_a
        rows[k, agents.index(pair.b)] += seats_b
    cpu = float(per_game.sum() * full.games_per_pair)
    print(f"projected default ladder: {minutes(cpu)} CPU, about {minutes(cpu / 2)} wall on 2 quiet cores "
          f"({cpu:.0f} s CPU; target 30 min)")
    fitted = np.clip(np.linalg.lstsq(rows, per_game, rcond=None)[0], 0.0, None)
    print("fitted CPU s per seat and game: " + ", ".join(f'"{a}": {c:.3g}' for a, c in zip(agents, fitted)))
    table = ladder_defaults(game).seat_seconds
    print("cost table now:                 " + ", ".join(f'"{a}": {table.get(a, float("nan")):.3g}'
                                                        for a in agents))
    print(estimate(game, [(p.a, p.b) for p in full.pairs], n, full.games_per_pair, 2).text())


def _whole(game: str, seed: int, out: Path | None) -> None:
    folder = out or Path(tempfile.mkdtemp()) / f"ladder-{game}"
    command = [sys.executable, "-m", "simkit", "ladder", game, "--jobs", "2", "--seed", str(seed),
               "--out", str(folder), "--no-progress"]
    print(f"== whole default ladder: {' '.join(command[1:])}", flush=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(command, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(f"exit {done.returncode}; wall {wall:.0f} s ({wall / 60:.1f} min) on this machine; CPU {cpu:.0f} s "
          f"({cpu / 60:.1f} min), so about {cpu / 120:.1f} min on 2 quiet cores; folder {folder}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append",
                        help="game (repeat); default: every game with a default ladder")
    parser.add_argument("--deals", type=int, default=1, help="pilot deals per pairing (default 1)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--whole", action="store_true", help="then run the whole default ladder (--jobs 2)")
    parser.add_argument("--no-pilot", action="store_true", help="only the whole ladder")
    parser.add_argument("--out", type=Path, default=None, help="folder of the whole ladder (one game)")
    args = parser.parse_args(argv)
    from simkit.studies.ladder_defaults import PER_GAME

    games = args.game or list(PER_GAME)
    if args.deals < 1:
        parser.error("--deals must be 1 or more")
    if args.out is not None and len(games) != 1:
        parser.error("--out names one ladder folder: give one --game")
    for game in games:
        if not args.no_pilot:
            _pilot(game, args.deals, args.seed)
        if args.whole:
            _whole(game, args.seed, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
