"""6 nimmt! batch engine against the scalar engine, in one sitting, on one core (CPU time):
single rounds, 4 players, all `random`, rounds per second of `play_range` and of
`play_range_batch`, measured alternately (best of several) so both see the same machine load,
and their ratio (target >= 30).

Run: `python scripts/bench_batch.py [seconds]`."""

from __future__ import annotations

import sys
import time


def _best_rate(play, spec, games: int, reps: int) -> float:
    best = 0.0
    for _ in range(reps):
        start = time.process_time()          # CPU time: other processes on the machine do not count
        play(spec, 0, games)
        best = max(best, games / (time.process_time() - start))
    return best


def bench(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """(label, value, unit) rows: scalar and batch rounds/s, and the ratio; about `seconds` each."""
    from simkit.core.play import play_range
    from simkit.core.spec import RunSpec
    from simkit.games.sixnimmt.batch import play_range_batch

    spec = RunSpec.create("sixnimmt", 4, ["random"], 10**9, seed=1, overrides={"max_rounds": "1"})
    play_range(spec, 0, 20)
    play_range_batch(spec, 0, 20)
    reps = 5
    scalar_games = max(200, int(seconds / reps * 5_000))
    batch_games = max(4096, int(seconds / reps * 100_000))
    scalar = batch = 0.0
    for _ in range(reps):                    # alternate so a load change hits both
        scalar = max(scalar, _best_rate(play_range, spec, scalar_games, 1))
        batch = max(batch, _best_rate(play_range_batch, spec, batch_games, 1))
    return [("sixnimmt 4p single round, random, scalar engine, 1 core", scalar, "rounds/s"),
            ("sixnimmt 4p single round, random, batch engine, 1 core", batch, "rounds/s"),
            ("sixnimmt batch / scalar (target >= 30)", batch / scalar, "x")]


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for label, value, unit in bench(secs):
        print(f"{label:<58} {value:10.1f} {unit}")
