"""One search rollout through Python (`Simulator._play`) against the game's kernel rollout
(`Game.kernel_rollout`, issue 21 item 4), from the same positions, on one core.

    python scripts/bench_rollouts.py [--repeat 3] [--positions 30] [--samples 10] [--game trains]

For each game: positions met along seeded `random` games (every `step` steps), each rolled out
from `--samples` determinizations for the acting seat in a row (as a search's iterations do),
then for each rollout setting (`random` to the
end; the game's `ismcts` default rollout bot and horizon from simkit/search/defaults.py) the CPU
µs per rollout of both paths and their ratio (the best of `--repeat` passes; the kernel's
compilation is excluded: one warm-up pass first). The per-rollout conversion (state to arrays
and back, generators) is inside the kernel's figure.
"""

from __future__ import annotations

import argparse
import time

#: game -> (players, steps between positions)
GAMES = {"trains": (2, 25), "shipside": (2, 4)}


def _positions(game_name: str, n: int, every: int, count: int) -> list:
    import numpy as np

    from simkit.engine import seeded_play
    from simkit.engine.registry import get_game
    from simkit.engine.strategy import GameInfo, parse_strategy

    game = get_game(game_name)
    config = game.config_cls()
    info = GameInfo(game_name, config, n)
    found: list = []
    seed = 0
    while len(found) < count:
        start = game.new_state(config, n, np.random.default_rng(seed))
        bots = [parse_strategy("random", game_name).build() for _ in range(n)]
        for step, state in enumerate(seeded_play.positions(start, bots, info, seed)):
            if len(found) == count:
                break
            if step % every == 0:
                found.append(state.clone())
        seed += 1
    return found


def _samples(states: list, samples: int) -> list:
    import numpy as np

    return [state.determinize(state.to_act()[0], np.random.default_rng([i, k]))
            for i, state in enumerate(states) for k in range(samples)]


def _time(play, states: list, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        copies = [s.clone() for s in states]
        start = time.process_time()
        for state in copies:
            play(state)
        best = min(best, time.process_time() - start)
    return best / len(states) * 1e6


def bench(game_name: str, count: int, repeat: int, samples: int) -> list[tuple]:
    import importlib

    import numpy as np

    from simkit.engine.registry import get_game
    from simkit.engine.strategy import GameInfo, parse_strategy
    from simkit.search.defaults import defaults_for
    from simkit.search.simulator import Simulator

    game = get_game(game_name)
    n, every = GAMES[game_name]
    states = _samples(_positions(game_name, n, every, count), samples)
    info = GameInfo(game_name, states[0].config, n)
    module, _, name = str(game.kernel_rollout).partition(":")
    rollout_class = getattr(importlib.import_module(module), name)
    defaults = defaults_for(game_name)
    rows = []
    for bot, horizon in (("random", None), (defaults.rollout, defaults.horizon)):
        spec = parse_strategy(bot, game_name)
        sim = Simulator(game, info, spec, np.random.default_rng(0), "win", None, horizon)
        left = sim.max_steps if horizon is None else horizon
        kernel = rollout_class(info, spec)

        def python(state, sim=sim, left=left):
            sim.start()
            sim._play(state, left)

        def compiled(state, sim=sim, left=left, kernel=kernel):
            kernel.play(state, sim.rngs, left, False)

        _time(compiled, states[:3], 1)                  # compile (or load numba's cache)
        py, kn = _time(python, states, repeat), _time(compiled, states, repeat)
        rows.append((game_name, n, bot, "end" if horizon is None else horizon, len(states), py, kn, py / kn))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    args = parser.parse_args()
    print("| game | players | rollout | horizon | rollouts | Python µs | kernel µs | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for game_name in args.game or sorted(GAMES):
        for row in bench(game_name, args.positions, args.repeat, args.samples):
            print("| {} | {} | {} | {} | {} | {:,.0f} | {:,.1f} | {:.1f}× |".format(*row), flush=True)


if __name__ == "__main__":
    main()
