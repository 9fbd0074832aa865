"""Rummikub benchmarks on one core, in CPU time (other processes on the machine do not count):

- solver time for 14-tile opening racks (initial-meld queries), median and 95th percentile;
- solver time for mid-game positions with about 40 tiles on the table and 10 on the rack:
  positions met in greedy_tiles self-play (`game`) and random valid tables (`random`, with
  jokers on the table about as often as in play), under the default strict joker rule;
- full games per second with greedy_tiles (4 players) and with random (4 players) through the
  public runner (`play_range`);
- the solver tail grid of issue 12 (`random_positions.tail_grid`: tables of 40-80 tiles, racks of
  6-24, 0-2 jokers on the table and on the rack, strict rule, both objectives) through the
  default `solve` (forward DP, the mirrored DP taking turns past `STATE_CAP` states): median,
  p95, p99 and max of the solve time, and peak memory (tracemalloc over the slowest solves,
  Python allocations of the solve alone: since issue 21 the table DP's memo lives in numba's
  allocator and is not seen, so the process's ru_maxrss is the figure), beside the targets
  (max <= 0.5 s, peak <= 200 MB). With `forward` as third argument the grid is also solved by
  the forward DP alone (`state_cap=None`, the solver before the cap).

Run: `python scripts/bench_rummikub.py [seconds] [grid seeds] [forward]` (grid seeds 0 skips the
grid; the default 10 gives 1,200 positions, 2,400 solves, a few minutes).

Before/after (issue 21 item 5, issue 20's Rummikub item), in one sitting:
`python scripts/bench_rummikub.py --compare /work/main [rounds] [games] [decisions]` times the
same 4-player `greedy_tiles` games (games 1..`games` of seed 1, after game 0 as warm-up) and the
same 100-iteration `ismcts` decisions (positions of a 2-player greedy game, fixed seeds) in
fresh processes, alternating this tree and the tree given (`PYTHONPATH`, e.g. main's checkout),
`rounds` times; then prints each figure's best per tree and the ratio. Without a tree to compare
with, `--compare python` times the same code with the compiled table DP switched off
(`dp.USE_KERNEL = False`: the Python DP). The numba compile of a fresh install (no disk
cache) is timed by `--compile-time` in an empty cache directory."""

from __future__ import annotations

import resource
import sys
import time
import tracemalloc

import numpy as np

#: issue 12's targets for the tail grid
MAX_TARGET_MS = 500.0
PEAK_TARGET_MB = 200.0
DEFAULT = "default"


def _solver_times(queries, **kw) -> tuple[float, float]:
    from simkit.games.rummikub.solver import solve

    times = []
    for table, rack, opened in queries:
        t0 = time.process_time()
        solve(table, rack, opened=opened, **kw)
        times.append(time.process_time() - t0)
    ms = np.array(times) * 1000
    return float(np.median(ms)), float(np.percentile(ms, 95))


def game_positions(n: int, seed: int = 1, lo: int = 35, hi: int = 45, rack_lo: int = 8, rack_hi: int = 12):
    """(table, rack, True) positions met by greedy_tiles players in 4-player self-play."""
    from simkit.engine.play import play_out
    from simkit.engine.strategy import GameInfo, parse_strategy
    from simkit.games.rummikub import GAME
    from simkit.games.rummikub.config import RummikubConfig

    cfg = RummikubConfig()
    info = GameInfo("rummikub", cfg, 4)
    lineup = [parse_strategy("greedy_tiles", "rummikub")] * 4
    out = []

    def collect(state, step, seats):
        obs = state.observe(seats[0])
        on_table = sum(len(m.tiles) for m in obs.table)
        if obs.opened[obs.seat] and lo <= on_table <= hi and rack_lo <= len(obs.rack) <= rack_hi:
            out.append((obs.table, list(obs.rack), True))

    for g in range(10 * n):
        if len(out) >= n:
            break
        state = GAME.new_state(cfg, 4, np.random.default_rng(seed * 1000 + g))
        play_out(state, lineup, info, [np.random.default_rng(s) for s in range(4)], forfeit_on_error=False,
                 before=collect)
    return out[:n]


def random_positions(n: int, seed: int = 2):
    from simkit.games.rummikub.random_positions import random_position

    rng = np.random.default_rng(seed)
    return [(*random_position(rng, 40, 10, jokers=True, joker_prob=0.08), True) for _ in range(n)]


def opening_queries(n: int, seed: int = 3):
    rng = np.random.default_rng(seed)
    return [((), rng.permutation(106)[:14].tolist(), False) for _ in range(n)]


def _games_per_s(strategies, seconds: float) -> float:
    from simkit.engine.play import play_range
    from simkit.engine.runner import RunSpec

    spec = RunSpec.create(game="rummikub", n_players=4, strategies=strategies, n_games=10**7, seed=1)
    play_range(spec, 0, 1)
    done, step = 1, 1
    start = time.process_time()
    while True:
        play_range(spec, done, done + step)
        done += step
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return (done - 1) / elapsed
        step = min(200, step * 2)


def tail_grid_rows(seeds: int = 10, traced: int = 10,
                   state_cap: int | None | str = DEFAULT) -> list[tuple[str, float, str]]:
    """Solve every grid position under both objectives (CPU time each); then solve the `traced`
    slowest again under tracemalloc for their peak memory, and once more for their time (the
    machine is noisy: a max that is not met again is load). `state_cap` DEFAULT: solve's own."""
    from simkit.games.rummikub.random_positions import tail_grid
    from simkit.games.rummikub.solver import solve

    kw = {} if state_cap == DEFAULT else {"state_cap": state_cap}
    cap_text = "default solver" if state_cap == DEFAULT else f"state_cap={state_cap}"
    grid = tail_grid(seeds)
    for _, table, rack in grid[:3]:     # the compiled DP loads (or compiles) on its first call
        solve(table, rack, **kw)
    times = []
    for cell, table, rack in grid:
        for objective in ("tiles", "points"):
            t0 = time.process_time()
            solve(table, rack, objective=objective, **kw)
            times.append((time.process_time() - t0, cell, table, rack, objective))
    ms = np.array([t[0] for t in times]) * 1000
    worst = sorted(times, key=lambda t: -t[0])[:traced]
    peak = 0
    for _, _, table, rack, objective in worst:
        tracemalloc.start()
        solve(table, rack, objective=objective, **kw)
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    again = []
    for _, _, table, rack, objective in worst:
        t0 = time.process_time()
        solve(table, rack, objective=objective, **kw)
        again.append(time.process_time() - t0)
    slow = worst[0]
    label = f"rummikub tail grid ({len(times)} solves), {cap_text}"
    return [(f"{label} median", float(np.median(ms)), "ms"),
            (f"{label} p95", float(np.percentile(ms, 95)), "ms"),
            (f"{label} p99", float(np.percentile(ms, 99)), "ms"),
            (f"{label} max [target <= {MAX_TARGET_MS:g} ms]", float(ms.max()),
             f"ms (table {slow[1][0]}, rack {slow[1][1]}, jokers {slow[1][2]}+{slow[1][3]}, {slow[4]})"),
            (f"{label} max of the {len(worst)} slowest timed again [target <= {MAX_TARGET_MS:g} ms]",
             max(again) * 1000, "ms"),
            (f"{label} peak traced memory of one solve [target <= {PEAK_TARGET_MB:g} MB]",
             peak / 2**20, "MB")]


def bench(seconds: float = 3.0, grid_seeds: int = 10, forward: bool = False) -> list[tuple[str, float, str]]:
    rows = []
    med, p95 = _solver_times(opening_queries(300))
    rows += [("rummikub solver opening 14 tiles median", med, "ms"),
             ("rummikub solver opening 14 tiles p95", p95, "ms")]
    n_mid = max(20, int(12 * seconds))
    for label, queries in (("game", game_positions(n_mid)), ("random", random_positions(n_mid))):
        med, p95 = _solver_times(queries)
        rows += [(f"rummikub solver mid-game ({label}, ~40+10) median", med, "ms"),
                 (f"rummikub solver mid-game ({label}, ~40+10) p95", p95, "ms")]
    rows.append(("rummikub 4p greedy_tiles", _games_per_s(["greedy_tiles"], seconds), "games/s"))
    rows.append(("rummikub 4p random", _games_per_s(["random"], seconds), "games/s"))
    if grid_seeds:
        rows += tail_grid_rows(grid_seeds)
        rows.append(("process peak RSS (ru_maxrss: everything this process ran so far)",
                     resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "MB"))
        if forward:
            rows += tail_grid_rows(grid_seeds, state_cap=None)
    return rows


def measure_games(games: int) -> float:
    """CPU seconds of 4-player greedy_tiles games 1..games (seed 1), after game 0."""
    from simkit.engine.play import play_range
    from simkit.engine.runner import RunSpec

    spec = RunSpec.create(game="rummikub", n_players=4, strategies=["greedy_tiles"], n_games=10**7, seed=1)
    play_range(spec, 0, 1)
    start = time.process_time()
    play_range(spec, 1, 1 + games)
    return time.process_time() - start


def measure_ismcts(decisions: int, iterations: int = 100) -> float:
    """Mean CPU seconds of one `ismcts:iterations=100` decision (random rollouts, the default),
    over positions every 6th step of a 2-player greedy_tiles game (seed 5), seeded per position."""
    from simkit.engine.play import play_out
    from simkit.engine.strategy import Decision, GameInfo, parse_strategy
    from simkit.games.rummikub import GAME
    from simkit.games.rummikub.config import RummikubConfig

    cfg = RummikubConfig()
    info = GameInfo("rummikub", cfg, 2)
    states = []

    def collect(state, step, seats):
        if step % 6 == 0:
            states.append(state.clone())

    state = GAME.new_state(cfg, 2, np.random.default_rng(5))
    play_out(state, [parse_strategy("greedy_tiles", "rummikub")] * 2, info,
             [np.random.default_rng(s) for s in range(2)], forfeit_on_error=False, before=collect)
    spec = parse_strategy(f"ismcts:iterations={iterations}", "rummikub")
    total = 0.0
    for i, st in enumerate(states[:decisions]):
        seat = st.to_act()[0]
        strategy = spec.build()
        strategy.setup(info, seat, np.random.default_rng(i))
        t0 = time.process_time()
        strategy.act(Decision(st, seat, np.random.default_rng(100 + i)))
        total += time.process_time() - t0
    return total / min(decisions, len(states))


def _child(tree: str | None, what: str, count: int, python_dp: bool = False) -> float:
    """One measurement in a fresh process on `tree` (None: this tree)."""
    import os
    import subprocess
    from pathlib import Path

    here = Path(__file__).resolve()
    env = dict(os.environ)
    env["PYTHONPATH"] = tree or str(here.parent.parent)
    args = [sys.executable, str(here), "--measure", what, str(count)] + (["python"] if python_dp else [])
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def compare(other: str, rounds: int = 2, games: int = 20, decisions: int = 6) -> None:
    python_dp = other == "python"
    label = "this tree, Python table DP" if python_dp else other
    figures: dict[str, dict[str, list[float]]] = {"greedy": {"now": [], "before": []},
                                                   "ismcts": {"now": [], "before": []}}
    for _ in range(rounds):
        for what, count in (("greedy", games), ("ismcts", decisions)):
            if not count:
                continue
            figures[what]["before"].append(_child(None if python_dp else other, what, count, python_dp))
            figures[what]["now"].append(_child(None, what, count))
    g_before = games / min(figures["greedy"]["before"])
    g_now = games / min(figures["greedy"]["now"])
    print(f"rummikub 4p greedy_tiles, games 1-{games} of seed 1 (best of {rounds} alternated runs, CPU)")
    print(f"  before ({label}) {g_before:8.2f} games/s")
    print(f"  now               {g_now:8.2f} games/s   ratio {g_now / g_before:.2f}x [target >= 10x]")
    if not decisions:
        return
    i_before = min(figures["ismcts"]["before"])
    i_now = min(figures["ismcts"]["now"])
    print(f"rummikub ismcts:iterations=100 (random rollouts), {decisions} decisions of a 2p greedy game, "
          f"CPU s per decision (best of {rounds})")
    print(f"  before ({label}) {i_before:8.3f} s")
    print(f"  now               {i_now:8.3f} s   ratio {i_before / i_now:.2f}x [target <= 1 s]")


def compile_time() -> None:
    """The first solve of a fresh install (numba compiles, no disk cache) and of a later run
    (loads the cache), each in a new process with an empty / the same cache directory."""
    import os
    import subprocess
    import tempfile
    from pathlib import Path

    code = ("import time; t = time.perf_counter(); c = time.process_time(); "
            "from simkit.games.rummikub.solver import solve; "
            "from simkit.games.rummikub.random_positions import random_position; import numpy as np; "
            "table, rack = random_position(np.random.default_rng(0), 30, 8, jokers=True, joker_prob=0.5); "
            "solve(table, rack); print(time.process_time() - c, time.perf_counter() - t)")
    here = Path(__file__).resolve()
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(here.parent.parent))
        for label in ("first run (compiles)", "second run (disk cache)"):
            out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                 check=True)
            cpu, wall = (float(x) for x in out.stdout.split()[-2:])
            print(f"rummikub solver {label}: {cpu:.2f} s CPU ({wall:.2f} s wall) to the first answer "
                  f"[target <= 30 s / <= 2 s]")


if __name__ == "__main__":
    from script_args import args_or_help, number

    args_or_help(__doc__)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10000))
    if sys.argv[1:2] == ["--measure"]:
        if sys.argv[4:5] == ["python"]:
            from simkit.games.rummikub import dp

            dp.USE_KERNEL = False
        fn = measure_games if sys.argv[2] == "greedy" else measure_ismcts
        print(fn(int(sys.argv[3])))
        sys.exit(0)
    if sys.argv[1:2] == ["--compare"]:
        compare(sys.argv[2], *(int(a) for a in sys.argv[3:6]))
        sys.exit(0)
    if sys.argv[1:2] == ["--compile-time"]:
        compile_time()
        sys.exit(0)
    secs = number(sys.argv[1], "seconds") if len(sys.argv) > 1 else 3.0
    seeds = number(sys.argv[2], "seeds", int) if len(sys.argv) > 2 else 10
    for label, value, unit in bench(secs, seeds, forward="forward" in sys.argv[3:]):
        print(f"{label:55s} {value:10.2f} {unit}")
