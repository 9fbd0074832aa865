"""The Game of Trains kernel engine: whole games as numba-compiled code (kernel_play.py), every
rule (T1-T25) and config field of the scalar engine.

`play_range_kernel(spec, start, stop)` returns the same `Chunk` as `simkit.engine.play.play_range`
when every seat has a kernel form (simkit/engine/kernels.py); `kernel_supported(spec)` says why a
run cannot use it, without importing numba.

**The same games as the scalar engine.** Every chance draw (the deal T2, the start player T4,
each T13 reshuffle, the random seating) and every draw of the `random` bot comes from the game's
own PCG64 streams in the scalar engine's order (simkit/engine/kernel_rng.py), so a run played by
the kernel has the same rows as one played by the scalar engine, game by game, for every built-in
bot with a kernel form (tests/trains/test_kernel.py). `simkit replay` therefore replays a kernel
game through the scalar engine and shows its log; `traced_game` gives a game's answers.
"""

from __future__ import annotations

import numpy as np

from simkit.engine.compile_aside import loop_aside
from simkit.engine.kernel_records import ArrayResults, array_chunk, seat_lists
from simkit.engine.kernels import (
    GameStreams,
    KernelLineup,
    bad_answer,
    check_run,
    game_streams,
    quiet_numba,
    run_reason,
)
from simkit.engine.play import Chunk
from simkit.engine.running import CAP
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import StrategySpec
from simkit.games.trains import kernel_layout as L
from simkit.games.trains.config import TrainsConfig
from simkit.games.trains.rules import effect_table

#: the compiled game loop (module:function), found by `compile_aside.game_loop`
GAME_LOOP = "simkit.games.trains.kernel_play:play_games"
#: games per kernel call (a call costs ~20 µs to enter; the outputs stay small)
BLOCK = 65536
_NO_TRACE = np.zeros(0, dtype=np.int64)


def kernel_supported(spec: RunSpec) -> str | None:
    """None if the kernel can play `spec`, else the reason it cannot (one sentence)."""
    return run_reason(spec, "trains", "Game of Trains", TrainsConfig)


def max_steps(config: TrainsConfig, n: int) -> int:
    """The scalar engine's hard step cap (`Game.max_steps`)."""
    from simkit.engine.registry import get_game
    return int(get_game("trains").max_steps(config, n))


def config_array(config: TrainsConfig, n: int, *, seating: str = "fixed",
                 duplicate: bool = False) -> np.ndarray:
    """The run's settings as the kernel's `cfg` (kernel_layout.C_*)."""
    cfg = np.zeros(L.CFG_SIZE, dtype=np.int64)
    cfg[L.C_N], cfg[L.C_MAX_TURNS], cfg[L.C_START_SEAT] = n, config.max_turns, config.start_seat
    cfg[L.C_SIMULTANEOUS] = config.setup_order == "simultaneous"
    cfg[L.C_BEFORE] = config.used_card == "before"
    cfg[L.C_STAYS] = config.used_card_stays
    cfg[L.C_FIRST] = config.pair_keep == "first"
    cfg[L.C_EAGER] = config.reshuffle == "eager"
    cfg[L.C_SWAP] = config.move_semantics == "swap"
    cfg[L.C_COMPLETE] = config.refill_stop == "complete"
    cfg[L.C_ALLOW_ALL] = config.allow_all_locked_removal
    cfg[L.C_CHOSEN] = config.lock_voiding == "chosen"
    cfg[L.C_DOUBLE] = config.double_lock
    cfg[L.C_STEP_CAP] = max_steps(config, n)
    cfg[L.C_SEATING] = L.SEATINGS.index(seating)
    cfg[L.C_DUPLICATE] = duplicate
    return cfg


def _effects(config: TrainsConfig) -> np.ndarray:
    table = effect_table(config.effect_table)
    return np.array([0] + list(table[1:]), dtype=np.int64)


class _Lineup(KernelLineup):
    """The compiled bots and parameters of a run's lineup slots (padded to MAX_SLOTS)."""

    def __init__(self, strategies: tuple[StrategySpec, ...] | list[StrategySpec], config: TrainsConfig,
                 n: int):
        from simkit.games.trains.kernel_play import MAX_SLOTS, UNIFORM
        super().__init__(strategies, config, n, MAX_SLOTS)
        self.direct = np.zeros(MAX_SLOTS, dtype=np.int64)        # slots the step calls directly
        self.direct[:len(self.forms)] = [form.function == UNIFORM for form in self.forms]


def _setup(spec: RunSpec, start: int, stop: int) -> tuple[_Lineup, np.ndarray, np.ndarray, np.ndarray,
                                                          GameStreams]:
    """(lineup, cfg, g, gens, the games' streams) of games start..stop-1."""
    from simkit.games.trains.kernel_play import GEN_WORDS, new_layout

    check_run(kernel_supported(spec))
    config: TrainsConfig = spec.config      # type: ignore[assignment]
    n = spec.n_players
    with loop_aside(spec):
        lineup = _Lineup(spec.strategies, config, n)
    cfg = config_array(config, n, seating=spec.seating, duplicate=spec.duplicate)
    g = new_layout(cfg, _effects(config))
    gens = np.zeros((n + 2, GEN_WORDS), dtype=np.uint64)
    return lineup, cfg, g, gens, game_streams(spec, start, stop, n + 2)


def play_range_kernel(spec: RunSpec, start: int, stop: int) -> Chunk:
    """Play games start..stop-1 of `spec` in the kernel; the same columns as `play_range`.

    Raises ValueError with `kernel_supported`'s reason for a run it cannot play.
    """
    lineup, cfg, g, gens, run = _setup(spec, start, stop)
    from simkit.games.trains.kernel_play import play_games

    n = spec.n_players
    size = stop - start
    index, words, chance, deal, incs = run.index, run.words, run.chance, run.deal, run.incs
    slots = np.zeros((size, n), dtype=np.int64)
    rotation = np.zeros(size, dtype=np.int64)
    winner = np.full(size, -1, dtype=np.int64)
    turns = np.zeros(size, dtype=np.int64)
    first = np.zeros(size, dtype=np.int64)
    reshuffles = np.zeros(size, dtype=np.int64)
    capped = np.zeros(size, dtype=bool)
    steps = np.zeros(size, dtype=np.int64)
    failed = np.zeros(size, dtype=bool)
    run_len = np.zeros(size, dtype=np.int64)
    run_flat = np.zeros(size * CAP * n, dtype=np.float64)
    run_at = np.zeros(1, dtype=np.int64)
    at = 0
    with quiet_numba():
        while at < size:
            part = slice(at, min(size, at + BLOCK))
            done, bad = play_games(g, gens, cfg, index[part], words[part], chance[part], incs, lineup.fns,
                                   lineup.params, lineup.direct, slots[part], rotation[part], winner[part],
                                   turns[part], first[part], reshuffles[part], capped[part], steps[part],
                                   failed[part], _NO_TRACE, run_len[part], run_flat, run_at)
            if bad >= 0:
                raise bad_answer(spec, slots[at + done], bad, start + at + done)
            at += done
    won = winner[:, None] == np.arange(n)[None, :]
    scores = won.astype(np.float64)
    ranks = np.where(won | (winner[:, None] < 0), 1, 2).astype(np.int64)
    results = ArrayResults(index, deal, rotation, slots, steps, scores, ranks, scores.copy(), failed,
                           f"the game did not end within {cfg[L.C_STEP_CAP]} steps (its hard step cap, "
                           "Game.max_steps)",
                           {"turns": turns, "capped": capped, "start_seat": first, "reshuffles": reshuffles},
                           running=seat_lists(run_len, run_flat, n))
    return array_chunk(start, stop, [s.text for s in spec.strategies], results)


def traced_game(spec: RunSpec, index: int) -> list[int]:
    """Every answer of the bots of game `index` of `spec` played in the kernel, in order:
    positions in the scalar engine's legal lists (`simkit.engine.kernels.replay_answers` plays
    them through the scalar engine)."""
    lineup, cfg, g, gens, run = _setup(spec, index, index + 1)
    from simkit.games.trains.kernel_play import play_games

    n = spec.n_players
    trace = np.zeros(1 + min(int(cfg[L.C_STEP_CAP]), 1 << 22) * n, dtype=np.int64)
    ints = [np.zeros(1, dtype=np.int64) for _ in range(5)]
    flags = [np.zeros(1, dtype=bool) for _ in range(2)]
    with quiet_numba():
        play_games(g, gens, cfg, run.index, run.words, run.chance, run.incs, lineup.fns,
                   lineup.params, lineup.direct, np.zeros((1, n), dtype=np.int64), *ints, flags[0],
                   np.zeros(1, dtype=np.int64), flags[1], trace, np.zeros(1, dtype=np.int64),
                   np.zeros(CAP * n), np.zeros(1, dtype=np.int64))
    return trace[1:1 + trace[0]].tolist()
