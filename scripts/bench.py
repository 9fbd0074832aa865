#!/usr/bin/env python
"""Throughput of the engine through the public runner, per game, beside a reference run.

    python scripts/bench.py                 # every game, ~3 s per figure
    python scripts/bench.py --game sixnimmt --seconds 5
    python scripts/bench.py --save-reference   # record these figures as the new reference
    python scripts/bench.py --game search      # search: clone/apply/determinize µs, ISMCTS decisions/s

Every row is printed beside the reference figure (scripts/bench_reference.json, whose `_source`
says what code it was measured on: the code before issue 12, run through this same script with
`PYTHONPATH=/path/to/old/checkout python scripts/bench.py --save-reference --reference-source ...`
in the same sitting) and beside issue 12's target for it (TARGETS), with whether it is met.
Single-core rates are in CPU time, so other processes on a shared machine do not count.

6 nimmt!: rounds/s on one core (4 players, single rounds) with `random` and with `heuristic`,
the speed-up of a 2-worker run over a 1-worker run of the same games, and the µs of `clone()`
and `apply()` (what search pays per simulated step). Other games add
their rows from scripts/bench_<game>.py (a `bench(seconds)` function returning rows).
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "bench_reference.json"


def _rate(spec, seconds: float) -> float:
    """Games per CPU second of play_range in this process, over about `seconds` (CPU time: other
    processes on a shared machine do not count)."""
    from simkit.engine.play import play_range

    play_range(spec, 0, 50)  # warm up imports and caches
    n, start = 200, 0
    while True:
        t0 = time.process_time()
        play_range(spec, start, start + n)
        dt = time.process_time() - t0
        if dt * 2 > seconds or n >= 1_000_000:
            return n / dt
        start += n
        n = int(n * min(10.0, max(2.0, seconds / 2 / max(dt, 1e-3))))


def _overhead(base, variant, seconds: float) -> float:
    """Extra time per game of `variant` over `base`, in percent: both timed in alternation on
    the same games, best of 5 each, so a noisy machine affects both alike."""
    from simkit.engine.play import play_range

    play_range(base, 0, 50)
    play_range(variant, 0, 50)
    n = max(200, int(_rate(base, seconds / 5) * seconds / 10))
    best = {id(base): math.inf, id(variant): math.inf}
    for _ in range(5):
        for spec in (base, variant):
            t0 = time.perf_counter()
            play_range(spec, 0, n)
            best[id(spec)] = min(best[id(spec)], time.perf_counter() - t0)
    return 100.0 * (best[id(variant)] / best[id(base)] - 1.0)


def _speedup(spec, n: int, tries: int = 2) -> float:
    """Wall time of run() with 1 worker over 2 workers, on the same n games, best of `tries`
    alternations (worker start-up and the final merge included, as a user's run has them)."""
    from simkit.engine.runner import run

    best = {1: math.inf, 2: math.inf}
    tmp = Path(tempfile.mkdtemp())
    try:
        for k in range(tries):
            for jobs in (1, 2):
                t0 = time.perf_counter()
                run(spec.__class__(**{**spec.__dict__, "n_games": n}), tmp / f"{jobs}-{k}", jobs=jobs,
                    progress=False)
                best[jobs] = min(best[jobs], time.perf_counter() - t0)
                shutil.rmtree(tmp / f"{jobs}-{k}", ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return best[1] / best[2]


def _floor_round(rng, uniform, deck_array, bh) -> None:
    """The least a 4-player round can cost in Python: the rules inlined, no protocol, no
    strategies, no validation, no log. Context for the engine's figure, not a simkit path."""
    deck = rng.permutation(deck_array).tolist()
    hands = [deck[0:10], deck[10:20], deck[20:30], deck[30:40]]
    rows = [[deck[40]], [deck[41]], [deck[42]], [deck[43]]]
    points = [0, 0, 0, 0]
    for _ in range(10):
        plays = sorted((hand.pop(int(uniform() * len(hand))), s) for s, hand in enumerate(hands))
        for card, s in plays:
            best, best_end = -1, 0
            for i in range(4):
                end = rows[i][-1]
                if best_end < end < card:
                    best, best_end = i, end
            if best < 0:
                costs = [sum([bh[x] for x in row]) for row in rows]
                best = costs.index(min(costs))
                points[s] += costs[best]
                rows[best] = [card]
            elif len(rows[best]) >= 5:
                points[s] += sum([bh[x] for x in rows[best]])
                rows[best] = [card]
            else:
                rows[best].append(card)


def _floor_rate(seconds: float) -> float:
    import numpy as np

    from simkit.games.sixnimmt.rules import BH

    rng = np.random.default_rng(1)
    uniform = np.random.default_rng(2).random
    deck = np.arange(1, 105)
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(500):
            _floor_round(rng, uniform, deck, BH)
        n += 500
    return n / (time.perf_counter() - t0)


def _protocol_costs(spec, seconds: float) -> tuple[float, float, float]:
    """CPU µs of `clone()` per call, of `apply()` per decision step, and decision steps per game,
    over the positions met along the first games of `spec` (every step of a round)."""
    from simkit.engine.play import play_out
    from simkit.engine.registry import get_game
    from simkit.engine.seeding import game_streams
    from simkit.engine.strategy import GameInfo

    game = get_game(spec.game)
    info = GameInfo(game.name, spec.config, spec.n_players)
    positions: list = []
    games = 0
    while games < 200:
        streams = game_streams(spec.seed, games, spec.n_players)
        state = game.new_state(spec.config, spec.n_players, streams.chance)
        play_out(state, list(spec.strategies), info, streams.seats, forfeit_on_error=False,
                 before=lambda st, step, seats: positions.append([st.clone()]),
                 after=lambda st, step, seats, joint: positions[-1].append(list(joint)))
        games += 1
    clone_spent = apply_spent = 0.0
    clones = applies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for state, joint in positions:
            t0 = time.process_time()
            copy = state.clone()
            t1 = time.process_time()
            copy.apply(joint)
            apply_spent += time.process_time() - t1
            clone_spent += t1 - t0
        clones += len(positions)
        applies += len(positions)
    return 1e6 * clone_spent / clones, 1e6 * apply_spent / applies, len(positions) / games


SPEEDUP_GAMES = 200_000


def bench_sixnimmt(seconds: float) -> Iterator[tuple[str, float, str]]:
    """Rows one at a time, so a reference checkout that lacks a later feature still gives the
    earlier rows."""
    from simkit.engine.runner import RunSpec

    for strategies in (["random"], ["heuristic"]):
        spec = RunSpec.create("sixnimmt", 4, strategies, 10**9, seed=1, overrides={"max_rounds": "1"})
        yield f"sixnimmt 4p single round, {strategies[0]}, 1 core", _rate(spec, seconds), "rounds/s"
    spec = RunSpec.create("sixnimmt", 4, ["random"], 10**9, seed=1, overrides={"max_rounds": "1"})
    yield (f"sixnimmt 4p single round, random, 2 workers vs 1 ({SPEEDUP_GAMES} games)",
           _speedup(spec, SPEEDUP_GAMES), "x")
    yield "sixnimmt 4p round, inlined rules, no protocol (floor)", _floor_rate(seconds), "rounds/s"
    timed = dataclasses.replace(spec, decision_timeout=60.0)
    yield ("sixnimmt 4p single round, random, --decision-timeout 60, 1 core", _rate(timed, seconds),
           "rounds/s")
    yield ("sixnimmt random: cost of --decision-timeout (best of 5 alternations)",
           _overhead(spec, timed, seconds), "%")
    clone, apply, steps = _protocol_costs(spec, seconds)
    yield "sixnimmt 4p single round, random: clone() per call", clone, "µs (CPU)"
    yield "sixnimmt 4p single round, random: apply() per decision step", apply, "µs (CPU)"
    yield ("sixnimmt 4p single round, random: apply() per game", apply * steps,
           f"µs (CPU, {steps:.1f} steps)")


def bench_cli(seconds: float) -> list[tuple[str, float, str]]:
    """Wall time of `simkit --help` in a fresh interpreter, best of 5 (heavy libraries must be
    imported lazily)."""
    best = math.inf
    for _ in range(5):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simkit", "--help"], check=True, capture_output=True)
        best = min(best, time.perf_counter() - t0)
    return [("simkit --help start-up (best of 5)", best, "s")]


#: (label pattern, comparison, figure, of what): a row's target, "ref" meaning a multiple of the
#: reference figure, None an absolute figure. Patterns are fnmatch patterns over row labels.
TARGETS = [
    ("sixnimmt 4p single round, random, 1 core", ">=", 3.0, "ref"),
    ("sixnimmt 4p single round, heuristic, 1 core", ">=", 3.0, "ref"),
    ("sixnimmt 4p single round, random, 2 workers vs 1 *", ">=", 1.8, None),
    ("sixnimmt batch / scalar, same sitting*", ">=", 30.0, None),
    ("sixnimmt kernel / scalar, 4p single round, random, same sitting", ">=", 100.0, None),
    ("sixnimmt kernel / scalar, 4p single round, heuristic + 3 random, same sitting", ">=", 30.0, None),
    ("shipside kernel / scalar, random vs random, same sitting", ">=", 50.0, None),
    ("shipside kernel / scalar, octopus vs octopus, same sitting", ">=", 20.0, None),
    ("sixnimmt kernel first start, empty numba cache*", "<=", 30.0, None),
    ("sixnimmt kernel later start, numba cache filled", "<=", 2.0, None),
    ("trains 4p random", ">=", 2.0, "ref"),
    ("trains kernel / scalar, 4p random, same sitting", ">=", 50.0, None),
    ("trains kernel / scalar, 4p rival, same sitting", ">=", 20.0, None),
    ("trains kernel first start, empty numba cache*", "<=", 30.0, None),
    ("trains kernel later start, numba cache filled", "<=", 2.0, None),
    ("shipside random vs random", ">=", 2.0, "ref"),
    ("rummikub tail grid * median", "<=", 1.0, "ref"),
    ("rummikub tail grid * max *", "<=", 500.0, None),
    ("rummikub tail grid * peak traced memory*", "<=", 200.0, None),
    ("simkit --help start-up*", "<=", 0.5, None),
]


def meets(label: str, value: float, reference: float | None) -> tuple[str, str]:
    """(target text, 'yes' / 'NO' / '') of a row."""
    for pattern, op, figure, of in TARGETS:
        if not fnmatch.fnmatchcase(label, pattern):
            continue
        if of == "ref" and reference is None:
            return f"{op} {figure:g}x ref", ""
        bound = figure * reference if of == "ref" else figure
        ok = value >= bound if op == ">=" else value <= bound
        text = f"{op} {bound:.4g}" + (f" ({figure:g}x ref)" if of == "ref" else "")
        return text, "yes" if ok else "NO"
    return "", ""


def _game_modules() -> dict[str, object]:
    found = {}
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if name == "reference":
            continue
        spec = importlib.util.spec_from_file_location(f"_bench_{name}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module      # where dataclasses look a module's classes up
        spec.loader.exec_module(module)
        if hasattr(module, "bench"):
            found[name] = module
    return found


def _rows(fn, seconds: float, name: str, tolerate: bool) -> Iterator[tuple[str, float, str]]:
    """The rows of one bench; with `tolerate` (recording a reference from an older checkout,
    which may lack what a later row measures) a failure ends that bench with a note."""
    try:
        yield from fn(seconds)
    except Exception as exc:
        if not tolerate:
            raise
        print(f"{name}: not measured further here ({type(exc).__name__}: {exc})", flush=True)


def _load_note(when: str) -> str:
    """The machine's load average, and a warning when other work shares the cores: CPU-time
    rates leave the others' time out, but not their effect on caches and shared cores, which
    slows the Python engines more than the compiled ones (2026-12-04: Game of Trains kernel /
    scalar 44-60x at load 4-12, 32x on the same code at load 0.7), so ratios measured under
    load overstate a kernel's gain."""
    load = os.getloadavg()[0]
    cores = os.cpu_count() or 1
    note = f"machine load {when}: {load:.2f} (1-minute average, {cores} cores; this bench counts about 1)"
    if load - 1 > cores / 4:
        note += "; other work shares the cores: ratios to the Python engines read high, rates low"
    return note


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--save-reference", action="store_true", help="store the figures as the reference")
    parser.add_argument("--reference-source", help="with --save-reference: what the figures are of "
                                                   "(commit, date), printed above every later table")
    args = parser.parse_args()
    benches = {"sixnimmt": bench_sixnimmt, "cli": bench_cli}
    benches.update({name: module.bench for name, module in _game_modules().items()})
    unknown = set(args.game or []) - set(benches)
    if unknown:
        print(f"unknown game(s) {', '.join(sorted(unknown))}: allowed are {', '.join(benches)}",
              file=sys.stderr)
        return 2
    reference = json.loads(REFERENCE.read_text()) if REFERENCE.exists() else {}
    results = {}
    print(f"reference: {reference.get('_source', 'figures in ' + REFERENCE.name)}")
    print(_load_note("at the start"))
    print(f"{'case':<70} {'now':>12} {'reference':>12}  {'unit':<14} {'target':<22} met")
    for name, fn in benches.items():
        if args.game and name not in args.game:
            continue
        for label, value, unit in _rows(fn, args.seconds, name, tolerate=args.save_reference):
            ref = reference.get(label)
            ref = ref if isinstance(ref, (int, float)) else None
            ref_text = f"{ref:12.4g}" if ref is not None else f"{'-':>12}"
            target, ok = meets(label, value, ref)
            print(f"{label:<70} {value:12.4g} {ref_text}  {unit:<14} {target:<22} {ok}", flush=True)
            results[label] = value
    print(_load_note("at the end"))
    if args.save_reference:
        source = args.reference_source or "figures of an earlier run of this script"
        REFERENCE.write_text(json.dumps({**reference, **results, "_source": source}, indent=1,
                                        sort_keys=True) + "\n")
        print(f"saved as reference in {REFERENCE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
