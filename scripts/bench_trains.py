"""Game of Trains throughput on one core through the public runner (`play_range`), in CPU time:
games per second and actions per second for 4 players with `random` and with `greedy` (and 2-player
lineups for context). Random games almost always run into the T15 cap of 1000 actions, so their
games/s mostly measures 1000-action games; the actions/s column compares across lineups.

Run: `python scripts/bench_trains.py [seconds]`."""

from __future__ import annotations

import time

LINEUPS = [
    ("trains 4p random", 4, ["random"]),
    ("trains 4p greedy", 4, ["greedy"]),
    ("trains 4p rival", 4, ["rival"]),
    ("trains 2p greedy vs random", 2, ["greedy", "random"]),
]


def _rates(n_players: int, strategies, seconds: float) -> tuple[float, float]:
    from simkit.engine.play import play_range
    from simkit.engine.runner import RunSpec  # (also where older checkouts have it, for their reference run)

    spec = RunSpec.create(game="trains", n_players=n_players, strategies=strategies,
                          n_games=10**7, seed=1)
    play_range(spec, 0, 2)                      # warm up imports and caches
    done, turns, step = 0, 0, 2
    start = time.process_time()           # CPU time: other processes on the machine do not count
    while True:
        chunk = play_range(spec, done, done + step)
        turns += sum(chunk.games["turns"])
        done += step
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed, turns / elapsed
        step = min(1000, step * 2)


def bench(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """(label, value, unit) rows; each lineup is timed for about `seconds` seconds."""
    rows = []
    for label, n, strategies in LINEUPS:
        games, turns = _rates(n, strategies, seconds)
        rows.append((label, games, "games/s"))
        rows.append((label + " (actions)", turns, "actions/s"))
    return rows


if __name__ == "__main__":
    from script_args import args_or_help, number
    args = args_or_help(__doc__)
    secs = number(args[0], "seconds") if args else 3.0
    for label, value, unit in bench(secs):
        print(f"{label:<40} {value:10.1f} {unit}")
