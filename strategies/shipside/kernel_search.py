"""Shipside ISMCTS iterations compiled whole (`Game.kernel_search`; docs/search.md, "Compiled
search iterations"): `KernelSearch.run` plays `iterations` iterations of `ISMCTS._iterate` in one
numba call and returns the root as a `simkit.search.tree.Node`, with the same statistics, and
the search generator in the same state, as the Python loop.

Per iteration, as `ISMCTS._iterate` with a `Simulator` in Python: the determinization
(simkit/games/shipside/kernel_search.py `determinize`, from the real position), the rollout bots
set up afresh (the `random` bot's draw buffer emptied; `greedy` and `octopus` keep nothing), the
descent (the tree's `select` at each of the seat's decisions over the actions legal in this
determinization, the root's those of the real decision; the other seat and the other steps played
by the rollout bot, `kernel_play.step`; depth cap; step cap), the rollout (`kernel_play.play_on`:
`horizon` steps or to the end), the reward (`reward_of`: win, rank or margin, or the cut value of
`evaluate`) and backpropagation (simkit/search/kernel_tree.py). The determinized state draws its
chance (the variant's shuffle after the picks, S58) from the search generator, as
`views.determinize` hands it that generator.

Actions: the tree's codes 0..A-1 are given per search in the order the actions are first met
(`code_for`, a hash of the scalar action's key): the real decision's actions are 0..n-1. When a
search meets more distinct actions than the tree has codes, it is played again from the same
generator state with a tree twice as wide (the same draws, so the same result).

Importing this module imports numba: `KernelSearch` is loaded by name when a search builds one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simkit.engine import kernel_rng as kr
from simkit.engine.game import Action
from simkit.engine.kernel_positions import answered_outside, entry_point, generator_rows, restore_generators
from simkit.engine.kernel_rng import compiled
from simkit.engine.strategy import Decision, GameInfo, StrategySpec
from simkit.games.shipside import kernel_layout as L
from simkit.games.shipside import kernel_search as ks
from simkit.games.shipside.kernel_play import ROW_WORDS, _ask, _pick, a_card, apply, play_on, step
from simkit.search import kernel_tree as kt
from simkit.search.rewards import REWARDS
from simkit.search.tree import Node

_NO_TRACE = np.zeros(0, dtype=np.int64)
#: what `search` returns: done, or the tree (or its codes) too small: played again wider
_DONE, _FULL = -1, -10
#: distinct actions a search may meet at first (doubled when a search meets more)
_CODES = 512
#: most actions one decision lists (a bound of kernel_play.prepare's listing)
_MAX_LEGAL = 4 * L.MAX_CARDS * 2 * L.MAX_SHIPS


@compiled()
def code_for(table, keys_of, used, key):
    """The tree code of action `key`: its own since the search met it, else the next free one;
    -1 when every code is taken. `table`: open addressing (a power of two, more slots than
    codes), code + 1 per slot; `keys_of`: code -> key; used[0]: codes given."""
    mask = table.size - 1
    h = (key ^ (key >> 7) ^ (key >> 17)) * 40503 & mask
    while table[h] != 0:
        code = table[h] - 1
        if keys_of[code] == key:
            return code
        h = (h + 1) & mask
    code = used[0]
    if code >= keys_of.size:
        return -1
    used[0] = code + 1
    keys_of[code] = key
    table[h] = code + 1
    return code


@compiled()
def _choose(t, node, g, row, seat, c, root, root_acts, n_root, table, keys_of, used, keys, acts, codes,
            act_of):
    """The seat's choice at `node` (kernel_tree `select` over its actions now; the root's are the
    real decision's): (edge, encoded action); edge -1 when the tree or its codes are full."""
    if node == 0:
        e = kt.select(t, 0, root, n_root, c, row)
        return e, root_acts[kt.edge_code(t, e)] if e >= 0 else 0
    n = ks.listing(g, seat, keys, acts)
    for i in range(n):
        code = code_for(table, keys_of, used, keys[i])
        if code < 0:
            return -1, 0
        codes[i] = code
        act_of[code] = acts[i]
    e = kt.select(t, node, codes, n, c, row)
    return e, act_of[kt.edge_code(t, e)] if e >= 0 else 0


@compiled()
def _play_mine(g, gens, slot_of, fns, params, trace, seat, act):
    """The step with the seat's action `act` (`Simulator.step`): at the picks (S57) the other
    seat's bot picks at once. Returns -1, or the seat whose bot answered outside its list."""
    if g[L.PHASE] != L.PICK:
        apply(g, gens[0], seat, act)
        return -1
    other = _ask(g, gens, slot_of, fns, params, trace, L.ASK_PICK, 1 - seat)
    if other < 0:
        return 1 - seat
    if seat == 0:
        _pick(g, gens[0], a_card(act), a_card(other))
    else:
        _pick(g, gens[0], a_card(other), a_card(act))
    return -1


@compiled()
def search(t, real, g, gens, slot_of, fns, params, trace, seat, iterations, c, root, root_acts, n_root,
           max_steps, horizon, depth, reward, table, keys_of, used, keys, acts, codes, act_of, path,
           pool):
    """`iterations` iterations of ISMCTS._iterate on tree `t` (kernel_tree) from the real position
    `real`; gens: the search generator's row (also the determinizations' chance), then each seat's
    rollout bot row. The root offers codes root[:n_root], encoded root_acts. horizon, depth: 0 for
    none. Returns _DONE, a bad seat (its bot answered outside its legal list), or _FULL."""
    row = gens[0]
    for _ in range(iterations):
        ks.determinize(g, real, row, seat, pool)
        for s in range(2):                               # Simulator.start: random's buffer empty
            gens[1 + s, kr.SCRATCH] = 0
        node, length, steps = 0, 0, 0
        while steps < max_steps and g[L.PHASE] != L.OVER:
            if not ks.acts_now(g, seat):
                bad = step(g, gens, slot_of, fns, params, trace)
                if bad >= 0:
                    return bad
                steps += 1
                continue
            e, act = _choose(t, node, g, row, seat, c, root, root_acts, n_root, table, keys_of, used, keys,
                             acts, codes, act_of)
            if e < 0:
                return _FULL
            expanding = kt.edge_visits(t, e) == 0
            bad = _play_mine(g, gens, slot_of, fns, params, trace, seat, act)
            if bad >= 0:
                return bad
            steps += 1
            node, length = kt.follow(t, e, expanding, path, length, depth)
            if node == kt.STOP:
                break
            if node < 0:
                return _FULL
        left = max_steps - steps
        if horizon > 0 and horizon < left:
            left = horizon
        if left > 0 and g[L.PHASE] != L.OVER:
            _, bad = play_on(g, gens, slot_of, fns, params, left, trace)
            if bad >= 0:
                return bad
        kt.backprop(t, path, length, ks.reward_of(g, seat, reward))
    return _DONE


class KernelSearch:
    """Compiled ISMCTS iterations of Shipside for one rollout strategy (a built-in bot's kernel
    form in both seats); ValueError when they cannot run (the kernel rollout's reasons)."""

    def __init__(self, info: GameInfo, rollout: StrategySpec) -> None:
        from simkit.games.shipside.kernel_rollout import KernelRollout

        kernel = self.kernel = KernelRollout(info, rollout)
        if not kernel.carries_bots:
            raise ValueError(f"{rollout.text!r} is not a built-in Shipside bot: its setup is not known "
                             "to the compiled search")
        self.text = rollout.text
        self.g = kernel.blank.copy()
        self.gens = np.zeros((3, ROW_WORDS), dtype=np.uint64)
        self.keys = np.zeros(_MAX_LEGAL, dtype=np.int64)
        self.acts = np.zeros(_MAX_LEGAL, dtype=np.int64)
        self.codes = np.zeros(_MAX_LEGAL, dtype=np.int64)
        self.pool = np.zeros(2 * L.MAX_CARDS, dtype=np.int64)
        self.used = np.zeros(1, dtype=np.int64)
        self.path = np.zeros(1, dtype=np.int64)
        self._width(_CODES, 1)
        self._listing = entry_point(ks.listing, self.g, 0, self.keys, self.acts)
        self._code = entry_point(code_for, self.table, self.keys_of, self.used, 0)
        self._search = entry_point(search, *self._args(self.g, 0, 1, 0.5, 0, 1, 0, 0, 0))

    def _width(self, n_codes: int, iterations: int) -> None:
        """Tree arrays for `iterations` with `n_codes` distinct actions."""
        self.n_codes = n_codes
        self.tree = kt.KernelTree.for_search(n_codes, iterations)
        self.table = np.zeros(1 << (4 * n_codes - 1).bit_length(), dtype=np.int64)   # a power of two
        self.keys_of = np.zeros(n_codes, dtype=np.int64)
        self.act_of = np.zeros(n_codes, dtype=np.int64)
        self.root = np.zeros(n_codes, dtype=np.int64)
        self.root_acts = np.zeros(n_codes, dtype=np.int64)

    def _args(self, real: np.ndarray, seat: int, iterations: int, c: float, n_root: int, max_steps: int,
              horizon: int, depth: int, kind: int) -> tuple:
        k = self.kernel
        return (self.tree.arrays, real, self.g, self.gens, k.slots, k.fns, k.lineup.params, _NO_TRACE, seat,
                iterations, float(c), self.root, self.root_acts, n_root, max_steps, horizon, depth, kind,
                self.table, self.keys_of, self.used, self.keys, self.acts, self.codes, self.act_of,
                self.path, self.pool)

    def run(self, decision: Decision, actions: Sequence[Action], prior: Action | None,
            prior_weight: float, iterations: int, c: float, depth: int | None, max_steps: int,
            horizon: int | None, round_cut: bool, reward: str) -> Node | None:
        """ISMCTS.act's search loop for `decision` (root `actions`, the prior's choice biased):
        the root as the Python loop leaves it, `decision.rng` drawn as the Python loop draws; None
        (`decision.rng` untouched) where the compiled search does not play the position: the
        variant's opening picks (real_position). Shipside has no rounds: `round_cut` cuts
        nothing, as in Python."""
        rng, seat = decision.rng, decision.seat
        start = rng.bit_generator.state
        seeds = rng.integers(1 << 63, size=2)                    # Simulator: the rollout bots
        bots = generator_rows([np.random.Generator(np.random.PCG64(int(s))) for s in seeds], ROW_WORDS)
        before = rng.bit_generator.state
        sample: Any = decision.sample_state()
        real = ks.real_position(sample, seat, rng, before, self.kernel.to_kernel)
        rng.bit_generator.state = before
        keys, acts = self.keys, self.acts
        n_root = -1 if real is None else int(self._listing(real, seat, keys, acts))
        if real is None or n_root != len(actions):
            rng.bit_generator.state = start
            return None
        if self.path.size < max_steps:
            self.path = np.zeros(max_steps, dtype=np.int64)
        if self.tree.max_nodes < iterations + 1 or self.n_codes < n_root:
            self._width(max(self.n_codes, n_root), iterations)
        root_keys = keys[:n_root].copy()
        root_acts = acts[:n_root].copy()
        while True:
            self.table[:] = 0
            self.used[0] = 0
            for i in range(n_root):
                code = self._code(self.table, self.keys_of, self.used, int(root_keys[i]))
                self.root[i] = code
                self.root_acts[code] = root_acts[i]
            t = self.tree.arrays
            kt.reset(t)
            if prior is not None and prior in actions:
                kt.set_bias(t, 0, int(self.root[actions.index(prior)]), prior_weight)
            self.gens[0] = generator_rows([rng], ROW_WORDS)[0]
            self.gens[1:] = bots
            answer = self._search(*self._args(real, seat, iterations, c, n_root, max_steps, horizon or 0,
                                              depth or 0, REWARDS.index(reward)))
            if answer != _FULL:
                break
            self._width(2 * self.n_codes, iterations)
        if answer >= 0:
            raise answered_outside(self.text, answer)
        restore_generators([rng], self.gens[:1])
        action_of = {int(self.root[i]): actions[i] for i in reversed(range(n_root))}
        return self.tree.root_node(action_of.__getitem__)
