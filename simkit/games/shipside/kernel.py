"""The Shipside kernel engine: whole games as numba-compiled code (kernel_play.py), every rule
and config field of the scalar engine (S1-S59), the variant included.

`play_range_kernel(spec, start, stop)` returns the same `Chunk` as `simkit.engine.play.play_range`
when every seat has a kernel form (simkit/engine/kernels.py); `kernel_supported(spec)` says why a
run cannot use it, without importing numba.

**The same games as the scalar engine.** Every chance draw (the ship row S10, the start player
S14, the deal S12, the variant's mark S56 and piles S57-S58, the random seating) and every draw
of the `random` bot comes from the game's own PCG64 streams in the scalar engine's order
(simkit/engine/kernel_rng.py), and the kernel lists each decision's legal actions in the scalar
engine's order, so a run played by the kernel has the same rows as one played by the scalar
engine, game by game (tests/shipside/test_kernel.py). `simkit replay` therefore replays a kernel
game through the scalar engine and shows its log (`traced_game` gives a game's answers).
"""

from __future__ import annotations

import numpy as np

from simkit.engine.compile_aside import loop_aside
from simkit.engine.kernel_records import ArrayResults, array_chunk, seat_lists
from simkit.engine.kernels import (
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
from simkit.games.shipside import crewstart, rules
from simkit.games.shipside import kernel_layout as L
from simkit.games.shipside.config import ShipsideConfig

#: the compiled game loop (module:function), found by `compile_aside.game_loop`
GAME_LOOP = "simkit.games.shipside.kernel_play:play_games"
#: games per kernel call
BLOCK = 65536
#: the extras columns, in the order `ShipsideState.outcome` gives them
EXTRAS = ("turns", "start_seat", "end_reason", "ships_scored", "ships_removed", "octopus_moves", "rum_mugs")


def kernel_supported(spec: RunSpec) -> str | None:
    """None if the kernel can play `spec`, else the reason it cannot (one sentence)."""
    return run_reason(spec, "shipside", "Shipside", ShipsideConfig)


def settings(config: ShipsideConfig) -> np.ndarray:
    """The rules' settings as g's header (kernel_layout, NSHIPS .. NTOKENS)."""
    T = rules.tables(config)
    c = config
    values = [len(T.defense), T.n_cards, len(dict.fromkeys(T.kind)), c.setup.hand_size,
              c.rules.max_cards_per_side, c.rules.play_on_any_side, c.rules.pass_when_stuck,
              c.movement.chooser == "owner", c.movement.wrap_around, c.movement.skip_occupied,
              c.movement.freeze_when_full, c.movement.before_scoring, c.scoring.threshold_inclusive,
              c.scoring.full_tie == "stay", c.scoring.ship_points, c.end.points_to_win,
              c.end.tie_result == "tiebreak", c.end.max_turns, L.REUSES.index(c.octopus.reuse),
              c.octopus.draw, c.octopus.as_placement, c.octopus.check_origin, c.rum.defense_bonus,
              c.rum.uses_per_player, c.rum.timing == "either", c.rum.max_per_ship,
              c.rum.on_scored == "returned", c.variant.enabled, c.variant.mark_assignment == "chooser",
              c.variant.personal_decks, c.crew.max_per_ship, len(T.crew_kind)]
    assert len(values) == L.PHASE
    return np.array(values, dtype=np.int64)


def tables(config: ShipsideConfig) -> dict[int, list[int]]:
    """The static tables of g: each card's strength, symbol, kind and mark; ship defenses; crew
    points (rules.build_tables)."""
    T = rules.tables(config)
    kinds = {k: i for i, k in enumerate(dict.fromkeys(T.kind))}
    return {L.O_VALUE: list(T.value), L.O_SYM: [int(s) for s in T.sym], L.O_KIND: [kinds[k] for k in T.kind],
            L.O_MARK: list(T.mark), L.O_DEF: list(T.defense), L.O_CREW_PTS: list(T.crew_points)}


def crew_plan(config: ShipsideConfig) -> list[tuple[int, int, int]]:
    """S11 (crewstart.place) as (token, mode, ref) in placing order: mode 0 puts the token on ship
    id `ref`, mode 1 on the ship at row position `ref` (0-based), whatever the row turns out."""
    defenses = tuple(config.ships.defenses)
    tokens = crewstart.tokens_for(len(defenses))
    layout = crewstart.parse(config.setup.crew_start, defenses, tokens, config.crew.max_per_ship)
    if layout.empty is not None:
        if any(kind == "pos" for kind, _ in layout.empty):
            empty = {k - 1 for _, k in layout.empty}
            order = [r for r in range(len(defenses)) if r not in empty]
            return [(t, 1, r) for t, r in enumerate(order[:len(tokens)])]
        gone = {defenses.index(d) for _, d in layout.empty}
        ships = sorted((s for s in range(len(defenses)) if s not in gone), key=lambda s: -defenses[s])
        return [(t, 0, s) for t, s in enumerate(ships[:len(tokens)])]
    plan = []
    free = list(range(len(tokens)))
    for (kind, ref), token_kind in layout.tokens or ():
        token = next(t for t in free if tokens[t] == token_kind)
        free.remove(token)
        plan.append((token, 1, ref - 1) if kind == "pos" else (token, 0, defenses.index(ref)))
    return plan


def config_array(config: ShipsideConfig, *, seating: str = "fixed", duplicate: bool = False,
                 step_cap: int = 0) -> np.ndarray:
    """The run's settings beyond g's header as the kernel's `cfg` (kernel_layout.C_*)."""
    cfg = np.zeros(L.CFG_SIZE, dtype=np.int64)
    cfg[L.C_SEATING], cfg[L.C_DUPLICATE], cfg[L.C_STEP_CAP] = L.SEATINGS.index(seating), duplicate, step_cap
    cfg[L.C_RANDOM_ORDER] = config.setup.ship_order == "random"
    cfg[L.C_RANDOM_FIRST] = config.setup.first_player == "random"
    cfg[L.C_FIRST] = 0 if config.setup.first_player == "random" else int(config.setup.first_player)
    cfg[L.C_MARK_RANDOM] = config.variant.mark_assignment == "random"
    plan = crew_plan(config)
    cfg[L.C_NPLAN] = len(plan)
    for k, entry in enumerate(plan):
        cfg[L.C_PLAN + 3 * k:L.C_PLAN + 3 * k + 3] = entry
    defense = config.ships.defenses
    ids = sorted(range(len(defense)), key=lambda i: defense[i])
    cfg[L.C_SORTED:L.C_SORTED + len(ids)] = ids
    return cfg


class _Lineup(KernelLineup):
    """The compiled bots and parameters of a run's lineup slots (padded to MAX_SLOTS)."""

    def __init__(self, strategies: tuple[StrategySpec, ...] | list[StrategySpec], config: ShipsideConfig):
        from simkit.games.shipside.kernel_play import MAX_SLOTS
        super().__init__(strategies, config, 2, MAX_SLOTS)


def step_cap(config: ShipsideConfig) -> int:
    """The scalar engine's hard step cap (Game.max_steps): a game still running there has no result."""
    from simkit.games.shipside import GAME
    return GAME.max_steps(config, 2)


class _Run:
    """A run's arrays for the kernel: its state, settings, bots and the games' streams."""

    def __init__(self, spec: RunSpec, start: int, stop: int):
        from simkit.games.shipside.kernel_play import ROW_WORDS, new_layout

        check_run(kernel_supported(spec))
        config: ShipsideConfig = spec.config      # type: ignore[assignment]
        self.cap = step_cap(config)
        with loop_aside(spec):
            self.lineup = _Lineup(spec.strategies, config)
        self.cfg = config_array(config, seating=spec.seating, duplicate=spec.duplicate, step_cap=self.cap)
        self.g = new_layout(settings(config), tables(config))
        self.gens = np.zeros((4, ROW_WORDS), dtype=np.uint64)
        self.run_at = np.zeros(1, dtype=np.int64)        # where the next running score goes
        self.streams = game_streams(spec, start, stop, 4)
        self.index, self.deal = self.streams.index, self.streams.deal

    def play(self, part: slice, outputs: tuple, run_flat: np.ndarray, trace: np.ndarray) -> tuple[int, int]:
        """`outputs` per game (sliced to `part`); `run_flat` the running score's values of the
        whole chunk, filled on from `self.run_at` (kernel_running.copy_out)."""
        from simkit.games.shipside.kernel_play import play_games
        with quiet_numba():
            run = self.streams
            return play_games(self.g, self.gens, self.cfg, run.index[part], run.words[part],
                              run.chance[part], run.incs, self.lineup.fns, self.lineup.params,
                              *(out[part] for out in outputs), run_flat, self.run_at, trace)


_NO_TRACE = np.zeros(0, dtype=np.int64)


def play_range_kernel(spec: RunSpec, start: int, stop: int) -> Chunk:
    """Play games start..stop-1 of `spec` in the kernel; the same columns as `play_range`.

    Raises ValueError with `kernel_supported`'s reason for a run it cannot play.
    """
    run = _Run(spec, start, stop)
    size = stop - start
    slots = np.zeros((size, 2), dtype=np.int64)
    rotation = np.zeros(size, dtype=np.int64)
    scores = np.zeros((size, 2), dtype=np.int64)
    ranks = np.zeros((size, 2), dtype=np.int64)
    wins = np.zeros((size, 2), dtype=np.float64)
    extras = np.zeros((size, len(EXTRAS)), dtype=np.int64)
    steps = np.zeros(size, dtype=np.int64)
    failed = np.zeros(size, dtype=bool)
    run_len = np.zeros(size, dtype=np.int64)
    outputs = (slots, rotation, scores, ranks, wins, extras, steps, failed, run_len)
    run_flat = np.zeros(size * CAP * 2, dtype=np.float64)
    at = 0
    while at < size:
        end = min(size, at + BLOCK)
        done, bad = run.play(slice(at, end), outputs, run_flat, _NO_TRACE)
        if bad >= 0:
            raise bad_answer(spec, slots[at + done], bad, start + at + done)
        at = end
    columns: dict[str, np.ndarray] = {name: extras[:, k] for k, name in enumerate(EXTRAS)}
    columns["end_reason"] = np.array(L.REASONS, dtype=object)[extras[:, 2]]
    results = ArrayResults(run.index, run.deal, rotation, slots, steps, scores.astype(np.float64), ranks,
                           wins, failed, f"the game did not end within {run.cap} steps (its hard step "
                           "cap, Game.max_steps)", columns, running=seat_lists(run_len, run_flat, 2))
    return array_chunk(start, stop, [s.text for s in spec.strategies], results)


def traced_game(spec: RunSpec, index: int) -> list[int]:
    """Every answer of the bots of game `index` of `spec` played in the kernel, in order:
    positions in the scalar engine's legal lists (`simkit.engine.kernels.replay_answers` plays
    them through the scalar engine)."""
    run = _Run(spec, index, index + 1)
    trace = np.zeros(1 + 4 * run.cap, dtype=np.int64)
    ints = np.int64
    outputs = (np.zeros((1, 2), dtype=ints), np.zeros(1, dtype=ints), np.zeros((1, 2), dtype=ints),
               np.zeros((1, 2), dtype=ints), np.zeros((1, 2)), np.zeros((1, len(EXTRAS)), dtype=ints),
               np.zeros(1, dtype=ints), np.zeros(1, dtype=bool), np.zeros(1, dtype=ints))
    run.play(slice(0, 1), outputs, np.zeros(CAP * 2), trace)
    return trace[1:1 + trace[0]].tolist()
