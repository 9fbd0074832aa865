"""Shipside throughput on one core: games per second for the basic game and the variant with the
baseline strategies, and for the greedy bots, through the runner's `play_range` (which plays each
game with `play_out`). Run: `python scripts/bench_shipside.py [seconds]`.

Time is this process's CPU time (`time.process_time`), so the figures stay meaningful on a
machine shared with other jobs; on an idle machine they match wall-clock games per second."""

from __future__ import annotations

import time

LINEUPS = [
    ("shipside random vs random", ["random"], {}),
    ("shipside variant random vs random", ["random"], {"variant.enabled": "true"}),
    ("shipside greedy vs random", ["greedy", "random"], {}),
    ("shipside octopus vs greedy", ["octopus", "greedy"], {}),
]


def _games_per_second(strategies, overrides, seconds: float) -> float:
    from simkit.engine.play import play_range
    from simkit.engine.runner import RunSpec  # (also where older checkouts have it, for their reference run)

    spec = RunSpec.create(game="shipside", n_players=2, strategies=strategies, n_games=10**7,
                          seed=1, overrides=overrides)
    play_range(spec, 0, 5)                      # warm up imports and caches
    done, start, step = 0, time.process_time(), 5
    while True:
        play_range(spec, done, done + step)
        done += step
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed
        rate = done / elapsed           # aim the next chunk at the end of the time box
        step = max(1, min(2000, int(rate * (seconds - elapsed)) + 1))


def bench(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """(label, value, unit) rows; each lineup is timed for about `seconds` seconds."""
    return [(label, _games_per_second(strats, ov, seconds), "games/s")
            for label, strats, ov in LINEUPS]


if __name__ == "__main__":
    from script_args import args_or_help, number
    args = args_or_help(__doc__)
    secs = number(args[0], "seconds") if args else 3.0
    for label, value, unit in bench(secs):
        print(f"{label:<40} {value:10.1f} {unit}")
