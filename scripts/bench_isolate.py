#!/usr/bin/env python
"""What `--isolate` costs per decision: the same games played in process and with every seat in
a process of its own (simkit/engine/isolation.py), wall-clock ms per decision.

    python scripts/bench_isolate.py                  # 6 nimmt!, 4 players: random and ismcts
    python scripts/bench_isolate.py --games 40 --repeats 5

Each row plays the same seeded games both ways, in alternation, best of `--repeats` each (the
strategy processes are started before timing: starting one costs a Python start-up, paid once
per strategy and seat in each worker). A `random` decision measures the protocol alone (an
observation and the legal actions out, an action back); an ISMCTS decision adds one round trip
per iteration for its determinized sample.
"""

from __future__ import annotations

import argparse
import time

from simkit.engine.play import play_range
from simkit.engine.spec import RunSpec

CASES = [("sixnimmt", 4, "random", {"max_rounds": "1"}),
         ("sixnimmt", 4, "ismcts:iterations=50", {"max_rounds": "1"})]


def decisions_of(spec: RunSpec, games: int) -> int:
    """Decisions in games 0..games-1 of `spec` (counted once, in process)."""
    from simkit.engine.play import _Table, play_out
    from simkit.engine.seeding import game_streams

    table = _Table(spec)
    count = 0

    def before(state, step, seats) -> None:
        nonlocal count
        count += len(seats)

    from simkit.engine.play import seat_slots
    for index in range(games):
        streams = game_streams(spec.seed, index, spec.n_players)
        slots, _, _ = seat_slots(spec.seating, spec.duplicate, index, spec.n_players, streams)
        state = table.game.new_state(spec.config, spec.n_players, streams.chance)
        play_out(state, [spec.strategies[k] for k in slots], table.info, streams.seats, before=before)
    return count


def best_time(spec: RunSpec, games: int) -> float:
    start = time.perf_counter()
    play_range(spec, 0, games)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':10} {'strategy':22} {'decisions':>9} {'in process':>12} {'isolated':>12} {'extra':>10}")
    for game, players, strategy, overrides in CASES:
        plain = RunSpec.create(game, players, [strategy], args.games, seed=1, overrides=overrides)
        isolated = RunSpec.create(game, players, [strategy], args.games, seed=1, overrides=overrides,
                                  isolate="all")
        play_range(isolated, 0, 1)                  # start the strategy processes
        n = decisions_of(plain, args.games)
        times: dict[str, list[float]] = {"plain": [], "isolated": []}
        for _ in range(args.repeats):
            times["plain"].append(best_time(plain, args.games))
            times["isolated"].append(best_time(isolated, args.games))
        a, b = min(times["plain"]) / n * 1e3, min(times["isolated"]) / n * 1e3
        print(f"{game:10} {strategy:22} {n:9d} {a:9.3f} ms {b:9.3f} ms {b - a:7.3f} ms")


if __name__ == "__main__":
    main()
