"""6 nimmt! ISMCTS iterations compiled whole (`Game.kernel_search`; docs/search.md, "Compiled
search iterations"): `KernelSearch.run` plays `iterations` iterations of `ISMCTS._iterate` in one
numba call and returns the root as a `simkit.search.tree.Node`, with the same statistics, and
the search generator in the same state, as the Python loop, `infer` included.

Per iteration, as `ISMCTS._iterate` with a `Simulator` in Python: the determinization
(simkit/games/sixnimmt/kernel_search.py `determinize`), with `infer` redealt by the rollout
bot's opponent model (`redeal`; the model built in Python once per decision, as `_redeal`
builds it, from the seat's view), the rollout bots set up afresh (the
`random` bot's draw buffer emptied; the other built-in bots keep nothing), the descent (the
tree's `select` at each of the seat's decisions, the chosen action played by `chosen_bot`
while the other seats play the rollout bot; the root's actions those of the real decision;
depth cap; the step cap), the rollout (kernel_play `play_rollout`: horizon, round_cut), the
reward (`reward`: win, rank or margin, or the cut value of the game's `evaluate`) and
backpropagation. The bots' generators are drawn from the search generator as `Simulator` draws
them.

Importing this module imports numba: `KernelSearch` is loaded by name when a search builds one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simkit.engine import kernel_rng as kr
from simkit.engine.game import Action
from simkit.engine.kernel_positions import (
    answered_outside,
    bot_handles,
    buffer_fits,
    entry_point,
    generator_rows,
    restore_generators,
)
from simkit.engine.kernel_rng import compiled
from simkit.engine.kernels import rollout_form
from simkit.engine.strategy import Decision, GameInfo, StrategySpec
from simkit.games.sixnimmt import kernel_layout as L
from simkit.games.sixnimmt import kernel_search as ks
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.kernel import _Lineup, config_array, write_state
from simkit.games.sixnimmt.kernel_play import BOT_SIG, new_layout, play_rollout, step
from simkit.search import kernel_tree as kt
from simkit.search.rewards import REWARDS
from simkit.search.tree import Node

_NO_TRACE = np.zeros(0, dtype=np.int64)
#: the built-in bots whose Python setup the kernel repeats (random: an empty buffer; the others
#: keep nothing): a plug-in's kernel form may keep what its Python bot does not, so it searches
#: in Python
_BOTS = "strategies.sixnimmt.kernel_bots:"
_BUILT_IN = frozenset(_BOTS + name for name in ("random_bot", "lowest_bot", "highest_bot", "heuristic_bot"))
_BUFFER = 16
_LOG_ROUNDS = 16
#: what `search` returns when the tree was too small (a bug: sized for every iteration)
_FULL = -10


@compiled()
def _descend(t, g, cfg, gens, me, root, n_root, c, depth, max_steps, fns, prm, mine, slot_desc, codes,
             path, srow, trace):
    """The tree part of an iteration (ISMCTS._iterate's loop): (edges on the path, steps played,
    -1 or a bad seat or _FULL)."""
    node, length, steps = 0, 0, 0
    while steps < max_steps and g[L.PHASE] != L.OVER:
        if not ks.acts(g, me):
            bad = step(g, cfg, gens, slot_desc, fns, prm, trace)
            if bad >= 0:
                return length, steps, bad
            steps += 1
            continue
        if node == 0:
            e = kt.select(t, 0, root, n_root, c, srow)
        else:
            e = kt.select(t, node, codes, ks.offered(g, me, codes), c, srow)
        if e < 0:
            return length, steps, _FULL
        expanding = kt.edge_visits(t, e) == 0
        mine[0] = kt.edge_code(t, e)
        bad = step(g, cfg, gens, slot_desc, fns, prm, trace)
        if bad >= 0:
            return length, steps, bad
        steps += 1
        node, length = kt.follow(t, e, expanding, path, length, depth)
        if node == kt.STOP:
            break
        if node < 0:
            return length, steps, _FULL
    return length, steps, -1


@compiled()
def _roll_out(g, cfg, gens, left, round_cut, bot, params, slot_roll, seen, log, trace):
    """Simulator.rollout's play: at most `left` steps of the rollout bot; -1 or a bad seat."""
    seen[0] = 0
    played = 0
    while True:
        done, bad, _ = play_rollout(g, cfg, gens, slot_roll, bot, params, left - played, round_cut,
                                    seen, log, trace)
        played += done
        if bad != -2:
            return bad


@compiled()
def search(t, real, g, cfg, gens, srow, unknown, count, me, root, n_root, iterations, c, depth,
           max_steps, horizon, round_cut, kind, bot, params, fixed, mine, slot_desc, slot_roll, seen,
           log, codes, path, ranks, wins, values, row_bh, pool, buf, allowed, order, n_order, hidden,
           taken, trace):
    """`iterations` iterations of ISMCTS._iterate on tree `t` (kernel_tree), from the position
    `real` with the unknown cards `unknown[:count]`; `srow` the search generator's row, `gens`
    the chance row (per determinization) then the rollout bots' rows; `allowed`, `order[:n_order]`
    the opponent model (`infer`; n_order 0: none). Returns -1, a bad seat (its bot answered
    outside its legal list), or _FULL."""
    fns = (bot, fixed, bot, bot, bot, bot, bot, bot, bot, bot)          # kernel_play.MAX_SLOTS
    prm = (params, mine, params, params, params, params, params, params, params, params)
    n = g[L.N]
    advanced = cfg[L.C_ADVANCED]
    for _ in range(iterations):
        ks.determinize(real, g, me, unknown, count, advanced, srow, gens[0], pool, buf)
        if not advanced:
            ks.redeal(g, me, buf, count, allowed, order, n_order, srow, hidden, taken)
        for s in range(n):                      # Simulator.start: random's buffer empty
            gens[1 + s, kr.SCRATCH] = 0
        length, steps, bad = _descend(t, g, cfg, gens, me, root, n_root, c, depth, max_steps, fns, prm,
                                      mine, slot_desc, codes, path, srow, trace)
        if bad != -1:
            return bad
        left = max_steps - steps
        if horizon > 0 and horizon < left:
            left = horizon
        if left > 0 and g[L.PHASE] != L.OVER:
            bad = _roll_out(g, cfg, gens, left, round_cut, bot, params, slot_roll, seen, log, trace)
            if bad >= 0:
                return bad
        kt.backprop(t, path, length, ks.reward(g, cfg, me, kind, ranks, wins, values, row_bh))
    return -1


class KernelSearch:
    """Compiled ISMCTS iterations of 6 nimmt! for one rollout strategy (any config the kernel
    plays, basic and advanced); ValueError when they cannot run (see `rollout_form`)."""

    def __init__(self, info: GameInfo, rollout: StrategySpec) -> None:
        form = rollout_form(info, rollout, SixNimmtConfig, "6 nimmt!")
        if form.function not in _BUILT_IN:
            raise ValueError(f"{rollout.text!r} is not a built-in 6 nimmt! bot: its setup is not known "
                             "to the compiled search")
        config: SixNimmtConfig = info.config
        n = self.n = info.n_players
        buffer_fits(kr.ROW_WORDS, _BUFFER)
        self.text = rollout.text
        self.lineup = _Lineup([rollout], config, n)
        self.cfg = config_array(config, n)
        self.real = new_layout(self.cfg)
        self.g = self.real.copy()
        self.n_codes = ks.n_codes(config.rows)
        #: a bound on a node's edges: in a basic single round the seat's own cards and the row
        #: picks (N10); past a new deal or in a draft any card may be offered (None: every code)
        self.max_offered = (config.hand_size + config.rows
                            if not config.advanced and config.max_rounds == 1 else None)
        self.tree = kt.KernelTree.for_search(self.n_codes, 1, self.max_offered)
        self.gens = np.zeros((n + 1, kr.ROW_WORDS), dtype=np.uint64)
        self.srow = np.zeros(kr.ROW_WORDS, dtype=np.uint64)
        self.bot = bot_handles(self.lineup.fns[:1], BOT_SIG)[0]
        self.fixed = bot_handles([ks.chosen_bot.ready()], BOT_SIG)[0]
        self.params = self.lineup.params[0]
        self.mine = np.zeros(1, dtype=np.float64)
        self.slot_desc = np.zeros(n, dtype=np.int64)
        self.slot_roll = np.zeros(n, dtype=np.int64)
        self.seen = np.zeros(1 + L.CARDS + n, dtype=np.int64)
        self.log = np.zeros(n * _LOG_ROUNDS, dtype=np.int64)
        self.codes = np.zeros(self.n_codes, dtype=np.int64)
        self.root = np.zeros(self.n_codes, dtype=np.int64)
        self.unknown = np.zeros(L.CARDS, dtype=np.int64)
        self.buf = np.zeros(L.CARDS, dtype=np.int64)
        self.ranks = np.zeros(n, dtype=np.int64)
        self.wins = np.zeros(n, dtype=np.float64)
        self.values = np.zeros(n, dtype=np.float64)
        self.row_bh = np.zeros(config.rows, dtype=np.int64)
        self.pool = np.zeros(4, dtype=np.uint64)
        self.path = np.zeros(1, dtype=np.int64)
        self.allowed = np.zeros((n, L.CARDS + 1), dtype=np.uint8)
        self.order = np.zeros(n, dtype=np.int64)
        self.hidden = np.zeros(L.CARDS, dtype=np.int64)
        self.taken = np.zeros(L.CARDS + 1, dtype=np.uint8)
        #: a rollout bot, whose `opponent_model` (if any) `infer` asks, as ISMCTS._redeal asks
        #: its Simulator's first bot
        self.modeller = rollout.build()
        self._search = entry_point(search, *self._args(1, 0.5, 0, 1, 0, True, 0, 0, 0, 0))

    def _args(self, iterations: int, c: float, depth: int, max_steps: int, horizon: int,
              round_cut: bool, kind: int, me: int, count: int, n_order: int) -> tuple:
        return (self.tree.arrays, self.real, self.g, self.cfg, self.gens, self.srow, self.unknown,
                count, me, self.root, 0, iterations, float(c), depth, max_steps, horizon,
                bool(round_cut), kind, self.bot, self.params, self.fixed, self.mine, self.slot_desc,
                self.slot_roll, self.seen, self.log, self.codes, self.path, self.ranks, self.wins,
                self.values, self.row_bh, self.pool, self.buf, self.allowed, self.order, n_order,
                self.hidden, self.taken, _NO_TRACE)

    def run(self, decision: Decision, actions: Sequence[Action], prior: Action | None,
            prior_weight: float, iterations: int, c: float, depth: int | None, max_steps: int,
            horizon: int | None, round_cut: bool, reward: str, infer: bool = False) -> Node:
        """ISMCTS.act's search loop for `decision` (root `actions`, the prior's choice biased;
        `infer`: determinizations redealt by the rollout bot's opponent model): the root, as the
        Python loop leaves it; `decision.rng` drawn as the Python loop draws."""
        rng, me, n = decision.rng, decision.seat, self.n
        # Simulator: the rollout bots' generators, PCG64(seed) each (made in the kernel's rows)
        for seat, seed in enumerate(rng.integers(1 << 63, size=n).tolist()):
            row = self.gens[1 + seat]
            row[:] = 0
            kr.seed_row(np.uint64(seed), row, self.pool)   # the type the compiled caller passes: one compile
        saved = rng.bit_generator.state
        copy: Any = decision.sample_state()
        rng.bit_generator.state = saved
        unknown = ks.unknown_order(copy, me, saved)
        self.unknown[:len(unknown)] = unknown
        write_state(self.real, copy)
        build = getattr(self.modeller, "opponent_model", None) if infer else None
        model = build(copy, me) if build is not None else None
        n_order = ks.model_arrays(model, self.allowed, self.order)
        if self.tree.max_nodes < iterations + 1:
            self.tree = kt.KernelTree.for_search(self.n_codes, iterations, self.max_offered)
        if self.path.size < max_steps:
            self.path = np.zeros(max_steps, dtype=np.int64)
        t = self.tree.arrays
        kt.reset(t)
        if prior is not None:
            kt.set_bias(t, 0, ks.code_of(prior), prior_weight)
        self.root[:len(actions)] = [ks.code_of(a) for a in actions]
        self.slot_desc[:] = 0
        self.slot_desc[me] = 1
        self.srow[:] = generator_rows([rng], kr.ROW_WORDS)[0]
        args = list(self._args(iterations, c, depth or 0, max_steps, horizon or 0, round_cut,
                               REWARDS.index(reward), me, len(unknown), n_order))
        args[10] = len(actions)
        bad = self._search(*args)
        if bad == _FULL:
            raise RuntimeError("the compiled search tree was too small (a bug)")
        if bad >= 0:
            raise answered_outside(self.text, bad)
        restore_generators([rng], self.srow[None, :])
        return self.tree.root_node(ks.action_of)
