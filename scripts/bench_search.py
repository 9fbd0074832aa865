"""What search costs, per game on one core: the protocol calls it makes, and decisions per second.

    python scripts/bench_search.py [seconds] [--budgets 100] [--game NAME ...]
    python scripts/bench.py --game search          # the same rows, through the engine bench

For every game whose actions can be listed (or that offers `Game.candidate_actions`), 2 players:

- **µs per call** (CPU) of `clone()`, `apply()` (one decision step, the joint action chosen by
  the game's `random` bots outside the timing) and `determinize(seat, rng)` for a seat to act,
  averaged over the positions met along seeded random games (every phase of a game, not just
  its start);
- **ISMCTS decisions per CPU second** at each budget (default 100 iterations): one search from
  each of those positions where the seat to act has a choice, in a fixed shuffled order, so
  early, middle and late positions all count (strength is measured by
  scripts/search_strength.py).

Each figure runs for about `seconds` of CPU time (at least one game or one call). Short rule variants keep
a game affordable (6 nimmt! single rounds, Shipside to 2 points); Game of Trains rolls out with
`greedy`, since random trains games run into the 1000-action cap.
"""

from __future__ import annotations

import argparse
import time

BUDGETS = (100,)
N_PLAYERS = 2
#: game -> (rule overrides, rollout policy); other games: no overrides, `random`
SETTINGS = {
    "sixnimmt": ({"max_rounds": "1"}, "random"),
    "shipside": ({"end.points_to_win": "2"}, "random"),
    "trains": ({}, "greedy"),
}


def _searchable(game) -> bool:
    import numpy as np

    if getattr(game, "candidate_actions", None) is not None:
        return True
    state = game.new_state(game.config_cls(), max(N_PLAYERS, game.min_players), np.random.default_rng(0))
    return state.legal_actions(state.to_act()[0]) is not None


def _config(game):
    from simkit.engine.config import with_overrides

    overrides, _ = SETTINGS.get(game.name, ({}, "random"))
    return with_overrides(game.config_cls(), overrides)


def _baseline(game_name: str):
    from simkit.engine.strategy import available_strategies, parse_strategy

    names = available_strategies(game_name)
    return parse_strategy("random" if "random" in names else sorted(names)[0], game_name)


def _positions(game, seconds: float) -> list:
    """(state, joint action of its step) pairs along seeded random games, about `seconds` long."""
    import numpy as np

    from simkit.engine.play import play_out
    from simkit.engine.strategy import GameInfo

    config = _config(game)
    info = GameInfo(game.name, config, N_PLAYERS)
    found: list = []
    pending: list = []

    def before(state, step, seats):
        pending.append(state.clone())

    def after(state, step, seats, joint):
        found.append((pending.pop(), list(joint)))

    start, k = time.process_time(), 0
    while k == 0 or (time.process_time() - start < seconds and len(found) < 20000):
        state = game.new_state(config, N_PLAYERS, np.random.default_rng([3, k]))
        rngs = [np.random.default_rng([4, k, s]) for s in range(N_PLAYERS)]
        play_out(state, [_baseline(game.name)] * N_PLAYERS, info, rngs, forfeit_on_error=False,
                 before=before, after=after, max_steps=2000)
        pending.clear()
        k += 1
    return found


def _per_call(call, items, seconds: float) -> float:
    """CPU µs per call of `call(item)`, cycling over `items` for about `seconds`."""
    done, spent = 0, 0.0
    while done == 0 or spent < seconds:
        for item in items:
            t0 = time.process_time()
            call(item)
            spent += time.process_time() - t0
            done += 1
            if spent >= seconds:
                break
    return 1e6 * spent / done


def protocol_costs(positions, seconds: float) -> dict[str, float]:
    """µs per call of clone, apply (one step) and determinize over `positions`."""
    import numpy as np

    rng = np.random.default_rng(0)
    costs = {"clone": _per_call(lambda item: item[0].clone(), positions, seconds / 3),
             "determinize": _per_call(lambda item: item[0].determinize(item[0].to_act()[0], rng),
                                      positions, seconds / 3)}
    spent, done = 0.0, 0
    while done == 0 or spent < seconds / 3:
        for state, joint in [(s.clone(), joint) for s, joint in positions]:  # apply consumes them
            t0 = time.process_time()
            state.apply(joint)
            spent += time.process_time() - t0
            done += 1
            if spent >= seconds / 3:
                break
    costs["apply"] = 1e6 * spent / done
    return costs


def decisions_per_second(game, positions, iterations: int, seconds: float) -> tuple[float, int]:
    """(ISMCTS decisions per CPU second, decisions timed) on the positions of random games where
    the seat to act has a choice, each searched with `iterations` iterations from a copy."""
    import numpy as np

    from simkit.engine.strategy import Decision, GameInfo
    from simkit.search.ismcts import ISMCTS

    _, rollout = SETTINGS.get(game.name, ({}, "random"))
    info = GameInfo(game.name, _config(game), N_PLAYERS)
    spent, done = 0.0, 0
    order = np.random.default_rng(6).permutation(len(positions))
    for k in order.tolist():
        state = positions[k][0]
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if legal is not None and len(legal) < 2:
            continue
        rng = np.random.default_rng([5, k])
        bot = ISMCTS(iterations=iterations, rollout=rollout)
        bot.setup(info, seat, rng)
        copy = state.clone()
        t0 = time.process_time()
        bot.act(Decision(copy, seat, rng))
        spent += time.process_time() - t0
        done += 1
        if spent >= seconds:
            break
    return (done / spent if spent else 0.0), done


def bench(seconds: float = 3.0, budgets: tuple[int, ...] = BUDGETS,
          games: tuple[str, ...] | None = None) -> list[tuple[str, float, str]]:
    """(label, value, unit) rows; each figure takes about `seconds` CPU seconds."""
    from simkit.engine.registry import all_games

    rows = []
    for game in all_games():
        if (games and game.name not in games) or not _searchable(game):
            continue
        positions = _positions(game, seconds)
        for call, micros in protocol_costs(positions, seconds).items():
            rows.append((f"{game.name} {call}()", micros, "µs per call"))
        for iterations in budgets:
            rate, done = decisions_per_second(game, positions, iterations, seconds)
            rows.append((f"{game.name} ismcts {iterations} it", rate,
                         f"decisions/s, one core ({done} decisions)"))
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seconds", nargs="?", type=float, default=3.0)
    parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    parser.add_argument("--game", action="append")
    args = parser.parse_args()
    budgets = tuple(int(b) for b in args.budgets.split(",") if b.strip())
    for label, value, unit in bench(args.seconds, budgets, tuple(args.game or ())):
        print(f"{label:<40} {value:12.3f} {unit}", flush=True)
