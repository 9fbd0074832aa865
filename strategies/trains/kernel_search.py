"""Game of Trains ISMCTS iterations compiled whole (`Game.kernel_search`; docs/search.md,
"Compiled search iterations"): `KernelSearch.run` plays `iterations` iterations of
`ISMCTS._iterate` in one numba call and returns the root as a `simkit.search.tree.Node`, with the
same statistics, and the search generator in the same state, as the Python loop.

Per iteration, as `ISMCTS._iterate` with a `Simulator` in Python: the determinization
(simkit/games/trains/kernel_search.py `determinize`, from the real position; the determinized
state's chance, T13 reshuffles, draws from the search generator as `views.determinize` hands it
that generator), the rollout bots set up afresh (the `random` bot's draw buffer emptied;
`greedy`/`rival` forget their discard memory: the kernel's is the real log's, read once), the
descent (the tree's `select` at each of the seat's decisions over its legal actions in this
determinization, the root's those of the real decision; the other seats' steps by the rollout
bot with their own discard memories, `bot_step`; the seat's chosen action with the other acting
seats' answers, `seat_step`; kernel_tree `follow`: depth cap; the step cap), the rollout (the
rollout bot for every seat, `horizon` steps or to the end; Trains has no rounds), the reward
(`reward_of`: win, rank or margin, or the cut value of `evaluate`) and backpropagation
(simkit/search/kernel_tree.py).

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
from simkit.engine.kernels import rollout_form
from simkit.engine.strategy import Decision, GameInfo, StrategySpec
from simkit.games.trains import kernel_layout as L
from simkit.games.trains import kernel_search as ks
from simkit.games.trains.config import TrainsConfig
from simkit.games.trains.kernel_play import GEN_WORDS
from simkit.search import kernel_tree as kt
from simkit.search.rewards import REWARDS
from simkit.search.tree import Node
from strategies.trains.kernel_bots import P_MEMORY

_NO_TRACE = np.zeros(0, dtype=np.int64)
#: the forms that read the discard memory (when their `memory` parameter is on)
_READ_MEMORY = frozenset(f"strategies.trains.kernel_bots:{name}" for name in ("greedy_bot", "rival_bot"))
#: the built-in bots whose Python setup the kernel repeats (random: an empty buffer; greedy and
#: rival: an empty discard memory): a plug-in's kernel form may keep what its Python bot does
#: not, so it searches in Python
_BUILT_IN = _READ_MEMORY | {"simkit.games.trains.kernel_play:uniform_bot"}
#: what `search` returns when the tree was too small (a bug: sized for every iteration)
_FULL = -10


@compiled()
def _descend(t, g, cfg, gens, slot_of, fns, params, direct, trace, me, root, n_root, c, depth, max_steps,
             codes, path, memory, forgot):
    """The tree part of an iteration (ISMCTS._iterate's loop): (edges on the path, steps played,
    -1 or a bad seat or _FULL)."""
    row = gens[0]
    node, length, steps = 0, 0, 0
    while steps < max_steps and g[L.PHASE] != L.OVER:
        if not ks.acts(g, me):
            bad = ks.bot_step(g, cfg, gens, slot_of, fns, params, direct, trace, memory, forgot)
            if bad >= 0:
                return length, steps, bad
            steps += 1
            continue
        if node == 0:
            e = kt.select(t, 0, root, n_root, c, row)
        else:
            e = kt.select(t, node, codes, ks.offered(g, me, codes), c, row)
        if e < 0:
            return length, steps, _FULL
        expanding = kt.edge_visits(t, e) == 0
        answer = ks.position_of(g, me, kt.edge_code(t, e))
        bad = ks.seat_step(g, cfg, gens, slot_of, fns, params, direct, trace, me, answer, forgot)
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
def search(t, real, g, cfg, gens, slot_of, fns, params, direct, trace, me, root, n_root, iterations, c,
           depth, max_steps, horizon, kind, memory, forgot, codes, path, pool):
    """`iterations` iterations of ISMCTS._iterate on tree `t` (kernel_tree) from the real position
    `real`; gens: the search generator's row (also the determinizations' chance), then each seat's
    rollout bot row. The root offers codes root[:n_root]. horizon, depth: 0 for none. Returns -1,
    a bad seat (its bot answered outside its legal list), or _FULL."""
    n = g[L.N]
    for _ in range(iterations):
        ks.determinize(g, real, gens[0], me, pool)
        for s in range(n):                      # Simulator.start: random's buffer empty,
            gens[1 + s, kr.SCRATCH] = 0         # greedy/rival's memory the log's (real's)
            forgot[s] = 0
        length, steps, bad = _descend(t, g, cfg, gens, slot_of, fns, params, direct, trace, me, root, n_root,
                                      c, depth, max_steps, codes, path, memory, forgot)
        if bad != -1:
            return bad
        left = max_steps - steps
        if horizon > 0 and horizon < left:
            left = horizon
        while left > 0 and g[L.PHASE] != L.OVER:       # Simulator._play
            bad = ks.bot_step(g, cfg, gens, slot_of, fns, params, direct, trace, memory, forgot)
            if bad >= 0:
                return bad
            left -= 1
        kt.backprop(t, path, length, ks.reward_of(g, me, kind))
    return -1


class KernelSearch:
    """Compiled ISMCTS iterations of Game of Trains for one rollout strategy (a built-in bot's
    kernel form in every seat; any config the kernel plays); ValueError when they cannot run."""

    def __init__(self, info: GameInfo, rollout: StrategySpec) -> None:
        from simkit.games.trains.kernel_rollout import KernelRollout

        form = rollout_form(info, rollout, TrainsConfig, "Game of Trains")
        if form.function not in _BUILT_IN:
            raise ValueError(f"{rollout.text!r} is not a built-in Game of Trains bot: its setup is not "
                             "known to the compiled search")
        kernel = self.kernel = KernelRollout(info, rollout)
        n = self.n = info.n_players
        self.text = rollout.text
        self.memory = form.function in _READ_MEMORY and kernel.lineup.params[0][P_MEMORY] != 0.0
        self.slots = np.zeros(n, dtype=np.int64)
        self.g = kernel.blank.copy()
        self.gens = np.zeros((n + 1, GEN_WORDS), dtype=np.uint64)
        self.forgot = np.zeros(L.MAX_N + 1, dtype=np.int64)
        self.codes = np.zeros(ks.MAX_OFFERED, dtype=np.int64)
        self.root = np.zeros(ks.MAX_OFFERED, dtype=np.int64)
        self.pool = np.zeros(L.CARDS, dtype=np.int64)
        self.path = np.zeros(1, dtype=np.int64)
        self.tree = kt.KernelTree.for_search(ks.N_CODES, 1, ks.MAX_OFFERED)
        self._search = entry_point(search, *self._args(self.g, 0, 0, 1, 0.5, 0, 1, 0, 0))

    def _args(self, real: np.ndarray, me: int, n_root: int, iterations: int, c: float, depth: int,
              max_steps: int, horizon: int, kind: int) -> tuple:
        k = self.kernel
        return (self.tree.arrays, real, self.g, k.cfg, self.gens, self.slots, k.fns, k.lineup.params,
                k.lineup.direct, _NO_TRACE, me, self.root, n_root, iterations, float(c), depth, max_steps,
                horizon, kind, self.memory, self.forgot, self.codes, self.path, self.pool)

    def run(self, decision: Decision, actions: Sequence[Action], prior: Action | None,
            prior_weight: float, iterations: int, c: float, depth: int | None, max_steps: int,
            horizon: int | None, round_cut: bool, reward: str) -> Node | None:
        """ISMCTS.act's search loop for `decision` (root `actions`, the prior's choice biased):
        the root as the Python loop leaves it, `decision.rng` drawn as the Python loop draws; None
        (`decision.rng` untouched) where the real decision's actions are not the kernel's listing
        (a safeguard). Game of Trains has no rounds: `round_cut` cuts nothing, as in Python."""
        rng, me = decision.rng, decision.seat
        start = rng.bit_generator.state
        seeds = rng.integers(1 << 63, size=self.n)                 # Simulator: the rollout bots
        bots = generator_rows([np.random.Generator(np.random.PCG64(int(s))) for s in seeds], GEN_WORDS)
        before = rng.bit_generator.state
        sample: Any = decision.sample_state()
        real = ks.real_position(sample, me, rng, before, self.kernel.to_kernel)
        rng.bit_generator.state = before
        root = [ks.code_of(a) for a in actions]
        if len(root) > self.root.size or ks.offered(real, me, self.codes) != len(root) or \
                self.codes[:len(root)].tolist() != root:
            rng.bit_generator.state = start
            return None
        if self.path.size < max_steps:
            self.path = np.zeros(max_steps, dtype=np.int64)
        if self.tree.max_nodes < iterations + 1:
            self.tree = kt.KernelTree.for_search(ks.N_CODES, iterations, ks.MAX_OFFERED)
        self.root[:len(root)] = root
        t = self.tree.arrays
        kt.reset(t)
        if prior is not None:
            kt.set_bias(t, 0, ks.code_of(prior), prior_weight)
        self.slots[:] = 0
        self.forgot[:] = 0
        self.gens[0] = generator_rows([rng], GEN_WORDS)[0]
        self.gens[1:] = bots
        bad = self._search(*self._args(real, me, len(root), iterations, c, depth or 0, max_steps,
                                       horizon or 0, REWARDS.index(reward)))
        if bad == _FULL:
            raise RuntimeError("the compiled search tree was too small (a bug)")
        if bad >= 0:
            raise answered_outside(self.text, bad)
        restore_generators([rng], self.gens[:1])
        return self.tree.root_node(ks.action_of)

    @property
    def forgotten(self) -> int:
        """How many times the last search repeated a bot forgetting a pending used card (tests)."""
        return int(self.forgot[L.MAX_N])
