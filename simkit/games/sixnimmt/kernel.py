"""The 6 nimmt! kernel engine: whole matches as numba-compiled code (kernel_play.py), every
rule and config field of the scalar engine, the basic and the advanced game (N1-N19).

`play_range_kernel(spec, start, stop)` returns the same `Chunk` as `simkit.engine.play.play_range`
when every seat has a kernel form (simkit/engine/kernels.py); `kernel_supported(spec)` says why a
run cannot use it, without importing numba.

**The same games as the scalar engine.** Every chance draw (the deals N1-N3, the advanced game's
first drafter N19, the random seating) and every draw of the `random` bot comes from the game's
own PCG64 streams in the scalar engine's order (simkit/engine/kernel_rng.py), so a run played by
the kernel has the same rows as one played by the scalar engine, game by game, for every built-in
bot with a kernel form, random ones included (tests/sixnimmt/test_kernel.py). `simkit replay`
therefore replays a kernel game through the scalar engine and shows its log.

`rollout(state, lineup, ...)` plays a scalar position on to the end (or N steps) in the kernel,
for search; `state_to_kernel` converts a `SixNimmtState` to the kernel's arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simkit.engine.compile_aside import loop_aside
from simkit.engine.kernel_records import ArrayResults, array_chunk
from simkit.engine.kernels import (
    KernelLineup,
    bad_answer,
    check_run,
    game_streams,
    quiet_numba,
    run_reason,
)
from simkit.engine.play import Chunk
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import StrategySpec
from simkit.games.sixnimmt import kernel_layout as L
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import max_decision_steps

_NO_TRACE = np.zeros(0, dtype=np.int64)
#: the compiled game loop (module:function), found by `compile_aside.game_loop`
GAME_LOOP = "simkit.games.sixnimmt.kernel_play:play_games"
#: games per kernel call: the per-game outputs stay small (a call costs ~20 µs to enter)
BLOCK = 65536


def kernel_supported(spec: RunSpec) -> str | None:
    """None if the kernel can play `spec`, else the reason it cannot (one sentence)."""
    return run_reason(spec, "sixnimmt", "6 nimmt!", SixNimmtConfig)


def config_array(config: SixNimmtConfig, n: int, *, seating: str = "fixed",
                 duplicate: bool = False) -> np.ndarray:
    """The run's settings as the kernel's `cfg` (kernel_layout.C_*)."""
    cfg = np.zeros(L.CFG_SIZE, dtype=np.int64)
    cfg[L.C_N], cfg[L.C_R], cfg[L.C_CAP], cfg[L.C_H] = n, config.rows, config.row_capacity, config.hand_size
    cfg[L.C_DECK] = config.deck_cards(n)
    cfg[L.C_ADVANCED] = config.advanced
    cfg[L.C_THRESHOLD], cfg[L.C_INCLUSIVE] = config.end_threshold, config.end_inclusive
    cfg[L.C_MAX_ROUNDS] = config.max_rounds or 0
    cfg[L.C_TIE] = L.TIE_BREAKS.index(config.tie_break)
    cfg[L.C_FIRST] = L.FIRST_DRAFTERS.index(config.first_drafter)
    cfg[L.C_STEP_CAP] = max_decision_steps(config, n)
    cfg[L.C_SEATING] = L.SEATINGS.index(seating)
    cfg[L.C_DUPLICATE] = duplicate
    return cfg


class _Lineup(KernelLineup):
    """The compiled bots and parameters of a run's lineup slots (padded to MAX_SLOTS)."""

    def __init__(self, strategies: tuple[StrategySpec, ...] | list[StrategySpec], config: SixNimmtConfig,
                 n: int):
        from simkit.games.sixnimmt.kernel_play import MAX_SLOTS
        super().__init__(strategies, config, n, MAX_SLOTS)


def _generators(n: int) -> np.ndarray:
    """Scratch rows for a game's generators: chance, one per seat, seating."""
    from simkit.engine.kernel_rng import ROW_WORDS
    return np.zeros((n + 2, ROW_WORDS), dtype=np.uint64)


def play_range_kernel(spec: RunSpec, start: int, stop: int) -> Chunk:
    """Play games start..stop-1 of `spec` in the kernel; the same columns as `play_range`.

    Raises ValueError with `kernel_supported`'s reason for a run it cannot play.
    """
    check_run(kernel_supported(spec))
    from simkit.games.sixnimmt.kernel_play import direct_slots, new_layout, play_games

    config: SixNimmtConfig = spec.config      # type: ignore[assignment]
    n = spec.n_players
    with loop_aside(spec):
        lineup = _Lineup(spec.strategies, config, n)
    direct = direct_slots(lineup.fns)
    cfg = config_array(config, n, seating=spec.seating, duplicate=spec.duplicate)
    g, gens = new_layout(cfg), _generators(n)
    size = stop - start
    run = game_streams(spec, start, stop, n + 2)
    index, words, chance, deal, incs = run.index, run.words, run.chance, run.deal, run.incs
    slots = np.zeros((size, n), dtype=np.int64)
    rotation = np.zeros(size, dtype=np.int64)
    totals = np.zeros((size, n), dtype=np.int64)
    ranks = np.zeros((size, n), dtype=np.int64)
    wins = np.zeros((size, n), dtype=np.float64)
    rounds = np.zeros(size, dtype=np.int64)
    steps = np.zeros(size, dtype=np.int64)
    failed = np.zeros(size, dtype=bool)
    per_game = 1 if config.max_rounds == 1 else 8
    pieces = []
    at = 0
    with quiet_numba():
        while at < size:
            end = min(size, at + BLOCK)
            log = np.empty(max(n, (end - at) * n * per_game), dtype=np.int64)
            part = slice(at, end)
            done, logged, bad = play_games(g, gens, cfg, index[part], words[part], chance[part], incs,
                                           lineup.fns, lineup.params, direct, slots[part],
                                           rotation[part],
                                           totals[part], ranks[part], wins[part], rounds[part],
                                           steps[part], failed[part], log, _NO_TRACE)
            pieces.append(log[:logged])
            if bad >= 0:
                raise bad_answer(spec, slots[at + done], bad, start + at + done)
            if bad == -2:
                per_game *= 2
            at += done
    cap = cfg[L.C_STEP_CAP]
    results = ArrayResults(index, deal, rotation, slots, steps, totals.astype(np.float64), ranks, wins,
                           failed, f"the game did not end within {cap} steps (its hard step cap, "
                           "Game.max_steps)", {"rounds": rounds},
                           rounds, np.concatenate(pieces) if len(pieces) > 1 else pieces[0])
    return array_chunk(start, stop, [s.text for s in spec.strategies], results)


# ---- rollouts from a scalar position (for search) --------------------------------------------
def state_to_kernel(state: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A `SixNimmtState` as the kernel's (g, cfg, chance generator row): `write_state` into a
    fresh layout. The chance row continues the state's own generator (its next deal is the one
    the scalar state would deal)."""
    from simkit.engine import kernel_rng as kr
    from simkit.games.sixnimmt.kernel_play import new_layout

    cfg = config_array(state.config, state.n)
    g = new_layout(cfg)
    write_state(g, state)
    chance = np.zeros(kr.ROW_WORDS, dtype=np.uint64)
    bits = state.rng.bit_generator.state
    inner = bits["state"]
    chance[kr.S_HI], chance[kr.S_LO] = inner["state"] >> 64, inner["state"] & 0xFFFFFFFFFFFFFFFF
    chance[kr.I_HI], chance[kr.I_LO] = inner["inc"] >> 64, inner["inc"] & 0xFFFFFFFFFFFFFFFF
    chance[kr.HAS32], chance[kr.U32] = bits["has_uint32"], bits["uinteger"]
    return g, cfg, chance


_PHASE_CODES = {"play": L.PLAY, "row_pick": L.ROW_PICK, "draft": L.DRAFT, "over": L.OVER}
_ZEROS = [0] * L.CARDS


def write_state(g: np.ndarray, state: Any) -> None:
    """Write a `SixNimmtState` into the kernel layout `g` (new_layout of its config; `g` may hold
    an earlier position: every part the kernel reads is written). The same rows, hands (in list
    order), totals, this round's points and penalty piles, seen cards, pool and phase; during a
    row pick the turn's revealed cards and which one waits; during the draft its order.

    Built as one list of the arrays from O_ROW_LEN to O_LAST (they follow each other, in the
    order new_layout lays them) and written at once: a search writes a state per rollout."""
    config, n = state.config, state.n
    cap, hand = config.row_capacity, config.hand_size
    phase = _PHASE_CODES[state.phase]
    rows, hands, seen, pool = state.rows, state.hands, state.seen, state.pool
    acting = state.acting
    actor = acting[0] if phase == L.DRAFT else 0
    card = pending_at = 0
    if phase == L.ROW_PICK:
        pending_at = state.pending_at
        card, actor = state.pending[pending_at]
    g[L.ROUND:L.PENDING_AT + 1] = (state.round, state.turn, phase, actor, card, len(seen), len(pool),
                                   state.drafters[0] if state.drafters else 0, state.round_one_drafter,
                                   state.draft_i, pending_at)
    if rows:
        body = [len(row) for row in rows]
        for row in rows:
            body += row
            body += _ZEROS[:cap - len(row)]
    else:
        body = [0] * (config.rows * (1 + cap))
    body += map(len, hands)
    for held in hands:
        body += held
        body += _ZEROS[:hand - len(held)]
    body += state.totals
    body += state.points
    flags = _ZEROS.copy()
    for c in seen:
        flags[c] = 1
    body += flags
    body += pool
    body += _ZEROS[:L.CARDS - len(pool)]
    if phase == L.ROW_PICK:
        body += [v for pair in state.pending for v in pair]
    else:
        body += _ZEROS[:2 * n]
    body += state.last_round
    at = g[L.O_ROW_LEN]
    g[at:at + len(body)] = body
    penalty = state.penalty
    at = g[L.O_PILE_LEN]
    g[at:at + n] = [len(pile) for pile in penalty]
    cells = g[L.O_PILES]
    for s, pile in enumerate(penalty):
        if pile:
            g[cells + s * L.CARDS:cells + s * L.CARDS + len(pile)] = pile


def rollout(state: Any, lineup: list[StrategySpec], seeds: np.random.Generator,
            max_steps: int | None = None) -> np.ndarray:
    """Play a copy of `state` on in the kernel with `lineup[seat]`'s kernel form in each seat
    (seat generators seeded from `seeds`), to the end of the match or `max_steps` steps; returns
    the totals per seat (the match's scores when it ended; the state is not changed). ValueError
    when a seat has no kernel form."""
    from simkit.engine import kernel_rng as kr
    from simkit.games.sixnimmt.kernel_play import direct_slots, play_on

    g, cfg, chance = state_to_kernel(state)
    n = state.n
    bots = _Lineup(lineup, state.config, n)
    gens = np.zeros((n + 1, kr.ROW_WORDS), dtype=np.uint64)
    gens[0] = chance
    words = seeds.integers(0, 1 << 63, size=(n, 4), dtype=np.int64).astype(np.uint64)
    for s in range(n):
        gens[1 + s, [kr.S_HI, kr.S_LO, kr.I_HI, kr.I_LO]] = words[s]
        gens[1 + s, kr.I_LO] |= np.uint64(1)
    log = np.empty(n * 64, dtype=np.int64)
    with quiet_numba():
        limit = -1 if max_steps is None else max_steps
        while True:     # a match longer than the round log: the log is only scratch here
            done, bad, _ = play_on(g, cfg, gens, np.arange(n, dtype=np.int64), bots.fns, bots.params,
                                   direct_slots(bots.fns), limit, log, 0, _NO_TRACE)
            if bad != -2:
                break
            limit = limit if limit < 0 else limit - done
    if bad >= 0:
        raise ValueError(f"the kernel form of {lineup[bad].text!r} (seat {bad}) answered outside "
                         f"its legal list")
    return g[g[L.O_TOTALS]:][:n].copy()


def traced_game(spec: RunSpec, index: int) -> list[int]:
    """Every answer of the bots of game `index` of `spec` played in the kernel, in order:
    positions in the scalar engine's legal lists (`simkit.engine.kernels.replay_answers` plays
    them through the scalar engine)."""
    check_run(kernel_supported(spec))
    from simkit.games.sixnimmt.kernel_play import direct_slots, new_layout, play_games

    config: SixNimmtConfig = spec.config      # type: ignore[assignment]
    n = spec.n_players
    with loop_aside(spec):
        lineup = _Lineup(spec.strategies, config, n)
    cfg = config_array(config, n, seating=spec.seating, duplicate=spec.duplicate)
    run = game_streams(spec, index, index + 1, n + 2)
    cap = int(cfg[L.C_STEP_CAP])
    trace = np.zeros(1 + min(cap, 1 << 22) * n, dtype=np.int64)
    with quiet_numba():
        outputs = (np.zeros((1, n), dtype=np.int64), np.zeros(1, dtype=np.int64),
                   np.zeros((1, n), dtype=np.int64), np.zeros((1, n), dtype=np.int64), np.zeros((1, n)),
                   np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool))
        play_games(new_layout(cfg), _generators(n), cfg, run.index, run.words, run.chance,
                   run.incs, lineup.fns, lineup.params, direct_slots(lineup.fns), *outputs,
                   np.zeros(1 << 16, dtype=np.int64), trace)
    return trace[1:1 + trace[0]].tolist()
