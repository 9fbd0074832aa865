"""Where a 6 nimmt! kernel round's time goes: `play_range_kernel(spec, 0, N)` for 4-player single
rounds of `random` (scripts/bench_kernel.py's spec), split by calling its pieces one by one (py-spy
cannot see inside numba), CPU microseconds per round, best of REPS, one core; then the C reference
(scripts/bench_kernel_ref.c) split the same way, with the kernel's seeding (SeedSequence per game,
its games: the same checksum) and without.

    python scripts/bench_kernel_phases.py [rounds]        # default 200,000

The pieces: `game_streams` (the SeedSequence words of every game, kernel_rng.seed_words, and the
deal list), and inside `play_games` per game: the generator rows and the seating (`game_rows`,
`seat_slots`), the deal (`new_match`: the rows reset and the Fisher-Yates shuffle of 104 cards,
N1-N4), then the 10 turns with the `random` bot's buffered draws (N5-N13), the round log and the
results (N17); `array_chunk` (the Arrow/NumPy columns). The two compiled drivers below stop after
the seating and after the deal; the turns are the rest of `play_games`.

Measured 2026-12-04 00:00-00:20 UTC, N = 200,000, load 2.3-4.3 on the 2 shared cores (a figure
moves by ~10 % between runs at that load), CPU µs per round:

| phase | µs/round |
|---|---|
| play_range_kernel, all | 4.3-4.7 |
| game_streams (SeedSequence words of 6 streams + deals) | 0.06 |
| game_rows + seat_slots | 0.05 |
| new_match: rows reset + deal shuffle (N1-N4) | 0.80-0.87 |
| 10 turns + round log + results (N5-N13, N17) | 3.2-3.5 (3.9 in a loaded run) |
| array_chunk | 0.10-0.20 |
| the rest (allocations, Python glue, first touch of the output pages) | ~0.3 |
| C reference, whole round, own seeds | 2.7 |
| C reference, whole round, SeedSequence per game (the kernel's games) | 2.8 |
| C reference, deal only (SeedSequence + shuffle) | 0.8 |

So the seeding is not the bound (~1-3 % of a round, in the kernel and in C); the deal is at C's
cost; the turns take ~1.7x C's (C: ~2.0 µs), and the kernel runs ~2.3x C's instructions per
round (valgrind --tool=callgrind, 10,000 rounds: ~31,600 against ~13,500). Under perf (cpu-clock,
JIT addresses mapped to functions) the kernel's samples were: the game loop `play_on` ~50 %, the
deal's `shuffle` ~20 %, `row_points` ~9 % (now summed inside `cheapest_row`), `buffered_double`
~9 % (now inlined), `_take`, `uniform_choice`, `_start_round`, `game_rows`, `_results` 1-3 % each.
"""

from __future__ import annotations

import sys
import tempfile
import time

import numpy as np

from simkit.engine import kernel_rng as kr
from simkit.engine.kernel_games import seat_slots
from simkit.engine.kernel_records import ArrayResults, array_chunk
from simkit.engine.kernel_rng import compiled
from simkit.engine.kernels import game_streams, quiet_numba
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt import kernel as K
from simkit.games.sixnimmt import kernel_layout as L
from simkit.games.sixnimmt.kernel_play import direct_slots, new_layout, new_match, play_games

REPS = 3


@compiled()
def _upto(deal, g, gens, cfg, index, words, chance_words, incs, slots, rotation):
    """`play_games` up to the seating (and, with `deal`, the deal), for every game."""
    n = cfg[L.C_N]
    for k in range(index.size):
        kr.game_rows(gens, n + 2, k, words, chance_words, incs)
        rotation[k] = seat_slots(n, cfg[L.C_SEATING], cfg[L.C_DUPLICATE], index[k], gens[n + 1], slots[k])
        if deal:
            new_match(g, cfg, gens[0])
    return 0


def _best(rounds: int, play) -> float:
    """Best CPU µs per round of `play()` over REPS calls."""
    best = float("inf")
    for _ in range(REPS):
        start = time.process_time()
        play()
        best = min(best, time.process_time() - start)
    return best * 1e6 / rounds


def phases(rounds: int):
    """(label, µs per round) of the kernel's pieces."""
    spec = RunSpec.create("sixnimmt", 4, ["random"], 10**9, seed=1, overrides={"max_rounds": "1"})
    n = spec.n_players
    K.play_range_kernel(spec, 0, 100)                   # compiled or loaded from the cache
    cfg = K.config_array(spec.config, n, seating=spec.seating, duplicate=spec.duplicate)
    lineup = K._Lineup(spec.strategies, spec.config, n)
    direct = direct_slots(lineup.fns)
    run = game_streams(spec, 0, rounds, n + 2)
    yield "play_range_kernel, all", _best(rounds, lambda: K.play_range_kernel(spec, 0, rounds))
    yield "game_streams (SeedSequence words + deals)", _best(rounds,
                                                             lambda: game_streams(spec, 0, rounds, n + 2))
    out = [np.zeros((rounds, n), dtype=np.int64), np.zeros(rounds, dtype=np.int64),
           np.zeros((rounds, n), dtype=np.int64), np.zeros((rounds, n), dtype=np.int64),
           np.zeros((rounds, n)), np.zeros(rounds, dtype=np.int64), np.zeros(rounds, dtype=np.int64),
           np.zeros(rounds, dtype=bool)]
    log = np.empty(rounds * n, dtype=np.int64)

    def play():
        g, gens = new_layout(cfg), K._generators(n)
        with quiet_numba():
            play_games(g, gens, cfg, run.index, run.words, run.chance, run.incs, lineup.fns, lineup.params,
                       direct, *out, log, K._NO_TRACE)

    def upto(deal: bool):
        def call():
            g, gens = new_layout(cfg), K._generators(n)
            _upto(deal, g, gens, cfg, run.index, run.words, run.chance, run.incs, out[0], out[1])
        return call

    games = _best(rounds, play)
    seat = _best(rounds, upto(False))
    deal = _best(rounds, upto(True))
    yield "play_games, all", games
    yield "  game_rows + seat_slots", seat
    yield "  new_match: rows reset + deal shuffle", deal - seat
    yield "  10 turns + round log + results", games - deal
    slots, rotation, totals, ranks, wins, rounds_, steps, failed = out
    results = ArrayResults(run.index, run.deal, rotation, slots, steps, totals.astype(np.float64), ranks,
                           wins, failed, "", {"rounds": rounds_}, rounds_, log)
    labels = [s.text for s in spec.strategies]
    yield "array_chunk", _best(rounds, lambda: array_chunk(0, rounds, labels, results))


def c_phases(rounds: int):
    """(label, µs per round) of the C reference, or nothing without a C compiler."""
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    from bench_kernel import _c_rate, _c_reference

    with tempfile.TemporaryDirectory() as folder:
        program = _c_reference(folder)
        if program is None:
            return
        for label, args in (("C reference, own seeds, whole round", ()),
                            ("C reference, SeedSequence seeds, whole round", (1,)),
                            ("C reference, SeedSequence seeds, deal only", (1, "deal"))):
            yield label, 1e6 / max(_c_rate(program, rounds, *args) for _ in range(REPS))


if __name__ == "__main__":
    from script_args import args_or_help, number
    args = args_or_help(__doc__)
    count = number(args[0], "rounds", int) if args else 200_000
    print(f"{count} rounds, CPU µs per round, best of {REPS}")
    for label, value in [*phases(count), *c_phases(5 * count)]:
        print(f"{label:<60} {value:8.3f}", flush=True)
