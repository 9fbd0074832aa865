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

from simkit.engine.kernel_records import ArrayResults, array_chunk
from simkit.engine.kernels import (
    kernel_form,
    kernel_params,
    load_function,
    quiet_numba,
    run_reason,
)
from simkit.engine.play import Chunk, chunk_deals
from simkit.engine.seeding import _stream_inc, batch_stream_array
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import StrategySpec
from simkit.games.sixnimmt import kernel_layout as L
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import max_decision_steps

_NO_TRACE = np.zeros(0, dtype=np.int64)
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


class _Lineup:
    """The compiled bots and parameters of a run's lineup slots (padded to MAX_SLOTS)."""

    def __init__(self, strategies: tuple[StrategySpec, ...] | list[StrategySpec], config: SixNimmtConfig,
                 n: int):
        from simkit.games.sixnimmt.kernel_play import MAX_SLOTS
        self.strategies = list(strategies)
        fns = [load_function(kernel_form(s)) for s in strategies]
        params = [kernel_params(s, config, n) for s in strategies]
        self.fns = tuple(fns + [fns[0]] * (MAX_SLOTS - len(fns)))
        self.params = tuple(params + [params[0]] * (MAX_SLOTS - len(params)))


def _generators(n: int) -> np.ndarray:
    """Scratch rows for a game's generators: chance, one per seat, seating."""
    from simkit.engine.kernel_rng import ROW_WORDS
    return np.zeros((n + 2, ROW_WORDS), dtype=np.uint64)


def _incs(streams: int) -> np.ndarray:
    incs = np.zeros((streams, 2), dtype=np.uint64)
    for stream in range(streams):
        inc = _stream_inc(stream)
        incs[stream] = (inc >> 64, inc & 0xFFFFFFFFFFFFFFFF)
    return incs


def play_range_kernel(spec: RunSpec, start: int, stop: int) -> Chunk:
    """Play games start..stop-1 of `spec` in the kernel; the same columns as `play_range`.

    Raises ValueError with `kernel_supported`'s reason for a run it cannot play.
    """
    reason = kernel_supported(spec)
    if reason is not None:
        raise ValueError(f"the kernel cannot play this run: {reason}")
    from simkit.engine.kernel_rng import batch_stream_words
    from simkit.games.sixnimmt.kernel_play import direct_bots, new_layout, play_games

    config: SixNimmtConfig = spec.config      # type: ignore[assignment]
    n = spec.n_players
    lineup = _Lineup(spec.strategies, config, n)
    fns = direct_bots(lineup.fns)
    cfg = config_array(config, n, seating=spec.seating, duplicate=spec.duplicate)
    g, gens = new_layout(cfg), _generators(n)
    size = stop - start
    index = np.arange(start, stop, dtype=np.int64)
    words = batch_stream_words(spec.seed, start, stop, n + 2)
    deals = chunk_deals(spec, start, stop)
    if deals is None:
        chance, deal = np.ascontiguousarray(words[:, :2]), index
    else:
        chance = np.array(deals[0], dtype=np.uint64).reshape(size, 2)
        deal = np.array(deals[1], dtype=np.int64)
    incs = _incs(n + 2)
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
                                           fns, lineup.params, slots[part], rotation[part],
                                           totals[part], ranks[part], wins[part], rounds[part],
                                           steps[part], failed[part], log, _NO_TRACE)
            pieces.append(log[:logged])
            if bad >= 0:
                game = at + done
                strategy = spec.strategies[slots[game, bad]]
                raise ValueError(f"the kernel form of {strategy.text!r} (seat {bad}, game {start + game}) "
                                 f"answered outside its legal list")
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
    """A `SixNimmtState` as the kernel's (g, cfg, chance generator row): the same rows, hands
    (in list order), totals, this round's points, seen cards, pool and phase; during a row pick
    the turn's revealed cards and which one waits. The chance row continues the state's own
    generator (its next deal is the one the scalar state would deal)."""
    from simkit.engine import kernel_rng as kr
    from simkit.games.sixnimmt.kernel_play import new_layout
    from simkit.games.sixnimmt.rules import DRAFT, OVER, PLAY, ROW_PICK

    config, n = state.config, state.n
    cfg = config_array(config, n)
    g = new_layout(cfg)
    g[L.ROUND], g[L.TURN] = state.round, state.turn
    g[L.PHASE] = {PLAY: L.PLAY, ROW_PICK: L.ROW_PICK, DRAFT: L.DRAFT, OVER: L.OVER}[state.phase]
    for r, row in enumerate(state.rows):
        g[g[L.O_ROW_LEN] + r] = len(row)
        g[g[L.O_ROWS] + r * config.row_capacity:][:len(row)] = row
    for s, hand in enumerate(state.hands):
        g[g[L.O_HAND_LEN] + s] = len(hand)
        g[g[L.O_HANDS] + s * config.hand_size:][:len(hand)] = hand
    g[g[L.O_TOTALS]:][:n] = state.totals
    g[g[L.O_POINTS]:][:n] = state.points
    g[g[L.O_LAST]:][:n] = state.last_round
    for card in state.seen:
        g[g[L.O_SEEN] + card] = 1
    g[L.N_SEEN] = len(state.seen)
    g[L.POOL_LEN] = len(state.pool)
    g[g[L.O_POOL]:][:len(state.pool)] = state.pool
    g[L.FIRST_ONE] = state.round_one_drafter
    if state.phase == DRAFT:
        g[L.FIRST], g[L.DRAFT_I], g[L.ACTOR] = state.drafters[0], state.draft_i, state.acting[0]
    if state.phase == ROW_PICK:
        for i, (card, seat) in enumerate(state.pending):
            g[g[L.O_PENDING] + 2 * i], g[g[L.O_PENDING] + 2 * i + 1] = card, seat
        g[L.PENDING_AT] = state.pending_at
        g[L.CARD], g[L.ACTOR] = state.pending[state.pending_at]
    chance = np.zeros(kr.ROW_WORDS, dtype=np.uint64)
    bits = state.rng.bit_generator.state
    inner = bits["state"]
    chance[kr.S_HI], chance[kr.S_LO] = inner["state"] >> 64, inner["state"] & 0xFFFFFFFFFFFFFFFF
    chance[kr.I_HI], chance[kr.I_LO] = inner["inc"] >> 64, inner["inc"] & 0xFFFFFFFFFFFFFFFF
    chance[kr.HAS32], chance[kr.U32] = bits["has_uint32"], bits["uinteger"]
    return g, cfg, chance


def rollout(state: Any, lineup: list[StrategySpec], seeds: np.random.Generator,
            max_steps: int | None = None) -> np.ndarray:
    """Play a copy of `state` on in the kernel with `lineup[seat]`'s kernel form in each seat
    (seat generators seeded from `seeds`), to the end of the match or `max_steps` steps; returns
    the totals per seat (the match's scores when it ended; the state is not changed). ValueError
    when a seat has no kernel form."""
    from simkit.engine import kernel_rng as kr
    from simkit.games.sixnimmt.kernel_play import play_on

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
                                   limit, log, 0, _NO_TRACE)
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
    reason = kernel_supported(spec)
    if reason is not None:
        raise ValueError(f"the kernel cannot play this run: {reason}")
    from simkit.games.sixnimmt.kernel_play import new_layout, play_games

    config: SixNimmtConfig = spec.config      # type: ignore[assignment]
    n = spec.n_players
    lineup = _Lineup(spec.strategies, config, n)
    cfg = config_array(config, n, seating=spec.seating, duplicate=spec.duplicate)
    words = batch_stream_array(spec.seed, index, index + 1, n + 2)
    deals = chunk_deals(spec, index, index + 1)
    chance = np.ascontiguousarray(words[:, :2]) if deals is None else \
        np.array(deals[0], dtype=np.uint64).reshape(1, 2)
    cap = int(cfg[L.C_STEP_CAP])
    trace = np.zeros(1 + min(cap, 1 << 22) * n, dtype=np.int64)
    with quiet_numba():
        outputs = (np.zeros((1, n), dtype=np.int64), np.zeros(1, dtype=np.int64),
                   np.zeros((1, n), dtype=np.int64), np.zeros((1, n), dtype=np.int64), np.zeros((1, n)),
                   np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool))
        play_games(new_layout(cfg), _generators(n), cfg, np.array([index], dtype=np.int64), words, chance,
                   _incs(n + 2), lineup.fns, lineup.params, *outputs, np.zeros(1 << 16, dtype=np.int64),
                   trace)
    return trace[1:1 + trace[0]].tolist()
