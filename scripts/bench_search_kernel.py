"""ISMCTS iterations per CPU second, compiled whole and with kernel rollouts ÷ Python (issue 21).

    python scripts/bench_search_kernel.py [seconds] [--game NAME ...] [--iterations 100]
                                          [--profile compiled|kernel|python]
    python scripts/bench_search_kernel.py [seconds] --decision-ms defaults,300,600,1000

For every game naming a `Game.kernel_rollout` ("no kernel rollout" for the others), ISMCTS at
the game's own defaults (simkit/search/defaults.py: what `-s ismcts` plays) and at the GENERIC
settings (random rollouts to the end of the game, win reward, no prior), from positions met
along seeded random games (the seat to act has a choice; a fixed shuffled order, so early and
late positions count). The same decisions are searched with `kernel=true` and `kernel=false`,
in turn, until the slowest path has spent about `seconds` of CPU time; every path must give the
same action (checked).
Where the game names a `Game.kernel_search` (6 nimmt!, Shipside), a third path is timed in the same
rotation: the iterations compiled whole ("compiled", docs/search.md "Compiled search
iterations"); "kernel" is then the Python loop with kernel rollouts (the compiled search
switched off in this script), and its action must agree too.
6 nimmt! is measured on single rounds, whole matches and advanced matches (4 players); Trains
and Shipside with 2 players. The first kernel rollout of a process loads (or compiles) the
kernel: that time is printed apart and not counted. Under each row: the CPU time of one
rollout alone (no tree, from determinized positions), kernel and Python: the most the kernel
can save per iteration. The 6 nimmt! defaults infer the other hands (`infer`), which its
compiled search plays; the "no-infer" row is the same search with `infer=false`.

`--decision-ms`: instead, the CPU ms per decision of `-s ismcts` (compiled where it can) in 6
nimmt! 4-player single rounds against three `heuristic` bots (the ISMCTS seat rotated, every
decision it searches timed, about `seconds` per setting): at the defaults, at the given
iteration counts (the other parameters the defaults) or with the given parameters
(`kernel=false;iterations=300`: the Python loop).
"""

from __future__ import annotations

import argparse
import time

#: game -> [(label, rule overrides, players)]
VARIANTS = {
    "sixnimmt": [("single round, 4p", {"max_rounds": "1"}, 4), ("whole match, 4p", {}, 4),
                 ("advanced match, 4p", {"advanced": "true"}, 4)],
    "trains": [("2p", {}, 2)],
    "shipside": [("2p", {}, 2)],
}
GENERIC = dict(rollout="random", reward="win", c=1.414, horizon=0, round_cut=False, prior_weight=0.0,
               infer=False)
#: the defaults with `infer` off, for games whose defaults infer
NO_INFER = dict(infer=False)


def _positions(game, config, n: int, count: int) -> list:
    """(state, seat) with a choice, along seeded random games, shuffled."""
    import numpy as np

    found: list = []
    k = 0
    while len(found) < 4 * count and k < 50:
        state = game.new_state(config, n, np.random.default_rng([5, k]))
        rng = np.random.default_rng([6, k])
        steps = 0
        while not state.is_over() and steps < 2000:
            seats = state.to_act()
            legal = [state.legal_actions(s) for s in seats]
            if len(legal[0]) > 1:
                found.append((state.clone(), seats[0]))
            state.apply([actions[rng.integers(len(actions))] for actions in legal])
            steps += 1
        k += 1
    order = np.random.default_rng(7).permutation(len(found))
    return [found[i] for i in order[:count]]


PATHS = ("compiled", "kernel", "python")


def _search(game, config, n, params, path: str, state, seat, seed):
    import numpy as np

    from simkit.engine.strategy import Decision, GameInfo
    from simkit.search import ismcts
    from simkit.search.compiled import compiled_search

    bot = ismcts.ISMCTS(**params, kernel=path != "python")
    rng = np.random.default_rng(seed)
    bot.setup(GameInfo(game.name, config, n), seat, rng)
    if path == "kernel":               # the Python loop with kernel rollouts
        ismcts.compiled_search = lambda *args: (None, "switched off")   # type: ignore[assignment]
    try:
        return bot.act(Decision(state, seat, rng))
    finally:
        ismcts.compiled_search = compiled_search


def measure(game, config, n, params, seconds: float, iterations: int, profile: str | None = None) -> dict:
    """The same decisions searched in turn by each path until the slowest has spent about
    `seconds`; iterations per CPU second of each, and whether every action agreed."""
    import numpy as np

    from simkit.engine.strategy import GameInfo, parse_strategy
    from simkit.search.compiled import compiled_search
    from simkit.search.defaults import defaults_for
    from simkit.search.simulator import kernel_rollout

    params = dict(params, iterations=iterations)
    rollout = params.get("rollout") or defaults_for(game.name).rollout
    info, spec = GameInfo(game.name, config, n), parse_strategy(rollout, game.name)
    t0 = time.perf_counter()
    kernel, reason = kernel_rollout(game, info, spec)
    whole, whole_reason = compiled_search(game, info, spec)
    load = time.perf_counter() - t0
    if whole is not None:                  # the search's own parameters may keep it in Python
        from simkit.search.ismcts import ISMCTS
        probe = ISMCTS(**params)
        probe.setup(info, 0, np.random.default_rng(0))
        if probe.compiled() is None:
            whole, whole_reason = None, probe.compiled_reason
    paths = [p for p in PATHS if p != "compiled" or whole is not None]
    positions = _positions(game, config, n, 400)
    spent = {p: 0.0 for p in paths}
    done = 0
    agree = True
    profiler = None
    if profile:
        from pyinstrument import Profiler
        profiler = Profiler()
    while done < 2 or max(spent.values()) < seconds:         # the slowest path: about `seconds`
        state, seat = positions[done % len(positions)]
        actions = {}
        for path in paths:
            if profiler is not None and path == profile:
                profiler.start()
            t = time.process_time()
            actions[path] = _search(game, config, n, params, path, state, seat, done)
            spent[path] += time.process_time() - t
            if profiler is not None and path == profile:
                profiler.stop()
        agree = agree and len({repr(a) for a in actions.values()}) == 1
        done += 1
    if profiler is not None:
        print(profiler.output_text(unicode=False, color=False, show_all=False))
    rate = {path: done * iterations / spent[path] for path in spent}
    return {"rate": rate, "decisions": done, "agree": agree, "load": load, "reason": reason,
            "whole_reason": whole_reason, "rollout": rollout}


def rollout_costs(game, config, n, params, seconds: float) -> tuple[float, float]:
    """CPU µs of one rollout alone (no tree), kernel and Python, from determinized positions with
    bots set up afresh: what the kernel saves per iteration at most."""
    import numpy as np

    from simkit.engine.strategy import GameInfo, parse_strategy
    from simkit.search.defaults import defaults_for
    from simkit.search.simulator import Simulator

    merged = defaults_for(game.name).merged(**params)
    spec = parse_strategy(merged.rollout, game.name)
    info = GameInfo(game.name, config, n)
    rng = np.random.default_rng(3)
    samples = [state.determinize(seat, rng) for state, seat in _positions(game, config, n, 200)]
    spent = {}
    for use in (True, False):
        sim = Simulator(game, info, spec, np.random.default_rng(0), merged.reward, None,
                        merged.horizon or None, merged.round_cut, kernel=use)
        left = sim.max_steps if not merged.horizon else merged.horizon
        done, total = 0, 0.0
        while done < 2 or total < seconds:
            state = samples[done % len(samples)].clone()
            sim.start()
            t = time.process_time()
            if use:
                sim.kernel.play(state, sim.rngs, left, merged.round_cut)
            else:
                sim._play(state, left)
            total += time.process_time() - t
            done += 1
        spent[use] = 1e6 * total / done
    return spent[True], spent[False]


def decision_ms(text: str, seconds: float) -> tuple[float, int, str | None]:
    """(CPU ms per decision, decisions, why Python or None) of the search `text` (ismcts...) in
    6 nimmt! 4p single rounds against three `heuristic` bots."""
    import numpy as np

    from simkit.engine.config import with_overrides
    from simkit.engine.registry import get_game
    from simkit.engine.strategy import Decision, GameInfo, parse_strategy

    game = get_game("sixnimmt")
    config = with_overrides(game.config_cls(), {"max_rounds": "1"})
    info = GameInfo("sixnimmt", config, 4)
    spent, done, k, reason = 0.0, 0, 0, None
    warm = True                         # the first decision loads the compiled search: not counted
    while spent < seconds or done < 2:
        state = game.new_state(config, 4, np.random.default_rng([8, k]))
        me = k % 4
        bots = []
        for s in range(4):
            bot = parse_strategy(text if s == me else "heuristic", "sixnimmt").build()
            rng = np.random.default_rng([9, k, s])
            bot.setup(info, s, rng)
            bots.append((bot, rng))
        while not state.is_over():
            joint = []
            for s in state.to_act():
                bot, rng = bots[s]
                t = time.process_time()
                joint.append(bot.act(Decision(state.clone(), s, rng)))
                if s == me and len(state.legal_actions(s)) > 1:
                    if not warm:
                        spent += time.process_time() - t
                        done += 1
                    warm = False
                    reason = getattr(bot, "compiled_reason", None)
            state.apply(joint)
        k += 1
    return 1000 * spent / done, done, reason


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=float, default=5.0,
                        help="CPU seconds of the slowest path per figure (default 5)")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--iterations", type=int, default=100, help="ISMCTS iterations per decision")
    parser.add_argument("--profile", choices=PATHS, help="pyinstrument that path")
    parser.add_argument("--settings", choices=("defaults", "generic", "no-infer", "both"), default="both",
                        help="both: every settings row (no-infer only where the defaults infer)")
    parser.add_argument("--decision-ms", metavar="LIST",
                        help="only CPU ms per decision of 6 nimmt! single-round ismcts at these "
                             "settings, each `defaults`, an iteration count or ismcts parameters "
                             "(`;` between several), e.g. defaults,300,1000,kernel=false")
    args = parser.parse_args(argv)
    if args.decision_ms:
        print(f"6 nimmt! 4p single rounds, `ismcts` vs 3 x heuristic, CPU ms per searched decision "
              f"(about {args.seconds:g} CPU s each)")
        for item in args.decision_ms.split(","):
            item = item.strip()
            text = ("ismcts" if item == "defaults" else
                    f"ismcts:iterations={item}" if item.isdigit() else "ismcts:" + item.replace(";", ","))
            ms, done, why = decision_ms(text, args.seconds)
            print(f"{text:<34} {ms:8.1f} ms/decision over {done:5d} decisions   "
                  f"{'compiled' if why is None else 'python: ' + why}")
        return

    from simkit.engine.config import with_overrides
    from simkit.engine.registry import get_game
    from simkit.search.defaults import defaults_for

    print(f"ISMCTS {args.iterations} iterations a decision, iterations per CPU second; "
          f"the same decisions on every path, about {args.seconds:g} CPU s on the slowest")
    print(f"{'game':<10} {'variant':<18} {'settings':<9} {'rollout':<10} {'compiled it/s':>13} "
          f"{'kernel it/s':>12} {'python it/s':>12} {'compiled÷py':>11} {'kernel÷py':>9} "
          f"{'decisions':>9}  same actions")
    for name in args.game or list(VARIANTS):
        game = get_game(name)
        if game.kernel_rollout is None:
            print(f"{name:<10} no kernel rollout")
            continue
        settings = {"defaults": {}, "generic": GENERIC}
        if defaults_for(name).infer:
            settings["no-infer"] = NO_INFER
        chosen = list(settings) if args.settings == "both" else [args.settings]
        chosen = [which for which in chosen if which in settings]
        for label, overrides, n in VARIANTS.get(name, [("", {}, game.min_players)]):
            config = with_overrides(game.config_cls(), overrides)
            for which in chosen:
                row = measure(game, config, n, settings[which], args.seconds, args.iterations, args.profile)
                if row["reason"] is not None:
                    print(f"{name:<10} {label:<18} {which:<9} {row['rollout']:<10} python only: "
                          f"{row['reason']}")
                    continue
                rate = row["rate"]
                whole = rate.get("compiled")
                py = rate["python"]
                whole_text, ratio_text = (f"{whole:,.0f}", f"{whole / py:.1f}x") if whole else ("-", "-")
                print(f"{name:<10} {label:<18} {which:<9} {row['rollout']:<10} "
                      f"{whole_text:>13} {rate['kernel']:>12,.0f} {py:>12,.0f} {ratio_text:>11} "
                      f"{rate['kernel'] / py:>8.1f}x {row['decisions']:>9}  "
                      f"{'yes' if row['agree'] else 'NO'}   (kernels loaded in {row['load']:.1f} s)")
                if whole is None:
                    print(f"{'':<10} {'':<18} {'':<9} not compiled whole: {row['whole_reason']}")
                kernel_us, python_us = rollout_costs(game, config, n, settings[which], args.seconds / 3)
                print(f"{'':<10} {'':<18} {'':<9} one rollout alone: kernel {kernel_us:,.0f} µs, python "
                      f"{python_us:,.0f} µs ({python_us / kernel_us:.1f}x)")


if __name__ == "__main__":
    main()
