"""Search rollouts of 6 nimmt! in the kernel (issue 21 item 4; the kernel rollout contract in
docs/search.md, "Kernel rollouts").

`KernelRollout(info, rollout).play(state, rngs, left, round_cut)` plays a `SixNimmtState` on in
the kernel (kernel_play.py `play_rollout`) with the rollout strategy's kernel form in every seat,
exactly as `simkit.search.simulator.Simulator._play` does with the Python bots: the state is
written into the kernel's array (`kernel.write_state`), played on, and written back into the
same state (every field but the event log); the chance generator and the seats' generators
continue where the kernel left them. Basic and advanced game, every config the kernel engine
plays; `round_cut` stops after the step that ends a round (`Game.round_of`, N13).

The bots' kernel forms start mid-game here. `heuristic`, `lowest` and `highest` keep nothing
between decisions, so they answer from any position as a Python bot does. `random` keeps a
buffer of 16 draws (strategies/sixnimmt/baseline.py): a bot set up afresh starts with it empty,
and `play(..., bots=...)` carries a used bot's buffer into the kernel's generator row (the
scratch columns `kernel_rng.buffered_double` reads) and back, so a search whose tree steps
already asked the bots rolls out with the same draws as in Python.

Importing this module imports no numba: the kernel is loaded when a `KernelRollout` is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simkit.engine.game import State
from simkit.engine.strategy import GameInfo, Strategy, StrategySpec
from simkit.games.sixnimmt import kernel_layout as L
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import DRAFT, OVER, PLAY, ROW_PICK, draft_order

_PHASES = {L.PLAY: PLAY, L.ROW_PICK: ROW_PICK, L.DRAFT: DRAFT, L.OVER: OVER}
_NO_TRACE = np.zeros(0, dtype=np.int64)
#: rounds' points a kernel call logs before it returns to have them read (it then goes on)
_LOG_ROUNDS = 16
#: turns ahead from which a kernel rollout is faster than a Python one (`worth`): measured with
#: scripts/bench_search_kernel.py, 4 players, the conversion costing about 70 µs CPU, a turn of
#: four `random` (or lowest/highest) bots and its step about 15 µs, of four `heuristic` 50 µs
_MIN_TURNS = 5
_MIN_TURNS_HEURISTIC = 2
#: the built-in bots' compiled forms (strategies/sixnimmt/kernels.py), by name: no import of
#: strategies from here (games sit below bots)
_BOTS = "strategies.sixnimmt.kernel_bots:"
_RANDOM, _HEURISTIC = _BOTS + "random_bot", _BOTS + "heuristic_bot"
_STATELESS = frozenset({_BOTS + "lowest_bot", _BOTS + "highest_bot", _HEURISTIC})
#: the `random` bot's draw buffer (strategies/sixnimmt/baseline.py; kernel_rng.buffered_double)
_BUFFER = 16


class KernelRollout:
    """Plays 6 nimmt! rollouts with one strategy's kernel form in every seat."""

    #: `play` takes `bots=`: Python rollout bots already used since their setup continue in the
    #: kernel (the Simulator may then use the kernel after tree steps, not only on fresh bots);
    #: set per rollout strategy in __init__ (the built-in bots' forms only)
    carries_bots = False

    def __init__(self, info: GameInfo, rollout: StrategySpec) -> None:
        from simkit.engine.kernels import rollout_form

        form = rollout_form(info, rollout, SixNimmtConfig, "6 nimmt!")
        config: SixNimmtConfig = info.config
        n = info.n_players
        from simkit.engine import kernel_rng as kr
        from simkit.engine.kernel_positions import bot_handles, buffer_fits, entry_point
        from simkit.games.sixnimmt.kernel import _Lineup, config_array
        from simkit.games.sixnimmt.kernel_play import BOT_SIG, new_layout, play_rollout

        self.n = n
        self.config = config
        self.lineup = _Lineup([rollout], config, n)
        self.text = rollout.text
        self.cfg = config_array(config, n)
        self.g = new_layout(self.cfg)
        self.slots = np.zeros(n, dtype=np.int64)
        self.gens = np.zeros((n + 1, kr.ROW_WORDS), dtype=np.uint64)
        buffer_fits(kr.ROW_WORDS, _BUFFER)
        self.seen = np.zeros(1 + L.CARDS + n, dtype=np.int64)
        self.log = np.zeros(n * _LOG_ROUNDS, dtype=np.int64)
        function = form.function
        #: the built-in bots: `random` draws (from a buffer, carried in and out); the others
        #: never touch their generators and keep nothing between decisions. A plug-in's form
        #: may draw, and its Python bot may keep what the kernel form does not: its generators
        #: go in and out, and it plays only rollouts of freshly set-up bots
        self.draws = function not in _STATELESS
        self.carries_bots = function in _STATELESS or function == _RANDOM
        #: turns a rollout must have ahead for the kernel to be faster than Python (`worth`)
        self.min_turns = _MIN_TURNS_HEURISTIC if function == _HEURISTIC else _MIN_TURNS
        self.last_round = config.max_rounds or 0
        self.bot, self.params = bot_handles(self.lineup.fns[:1], BOT_SIG)[0], self.lineup.params[0]
        #: play_rollout's compiled code, called without numba's typing of every argument
        self._play = entry_point(play_rollout, self.g, self.cfg, self.gens, self.slots, self.bot,
                                 self.params, 0, False, self.seen, self.log, _NO_TRACE)
        self._offsets = {name: int(self.g[name]) for name in
                         (L.O_ROW_LEN, L.O_ROWS, L.O_HAND_LEN, L.O_HANDS, L.O_TOTALS, L.O_POINTS,
                          L.O_LAST, L.O_POOL, L.O_PENDING, L.O_PILE_LEN, L.O_PILES)}

    def worth(self, state: State, left: int, round_cut: bool) -> bool:
        """Whether this rollout is long enough for the kernel to be faster than Python: the
        conversion both ways costs about as much as a few turns of Python bots. (Either path
        gives the same result; this only picks the faster.)"""
        s: Any = state
        if s.phase == DRAFT:
            return True
        turns = len(s.hands[0]) if s.phase == PLAY else len(s.hands[0]) + 1
        if not round_cut and (not self.last_round or s.round < self.last_round):
            return True                                 # the match goes on past this round
        return min(left, turns) >= self.min_turns

    def play(self, state: State, rngs: list[np.random.Generator], left: int, round_cut: bool,
             bots: Sequence[Strategy] | None = None) -> None:
        """Play `state` on in place: at most `left` steps, to the end of the match or (round_cut)
        of the round. `bots`: the Python rollout bots as the search left them (None: set up
        afresh); their state (random's draw buffer) goes into the kernel and back."""
        from simkit.engine.kernel_positions import (
            answered_outside,
            buffers_in,
            buffers_out,
            generator_rows,
            restore_generators,
        )
        from simkit.games.sixnimmt.kernel import write_state

        s: Any = state
        if left <= 0 or s.phase == OVER:
            return
        g, gens, n = self.g, self.gens, self.n
        write_state(g, s)
        # chance is drawn only when a round starts: not from the last round of a capped match
        deals = not self.last_round or s.round < self.last_round
        if deals:
            gens[0:1] = generator_rows([s.rng], gens.shape[1])
        if self.draws:
            gens[1:] = generator_rows(rngs[:n], gens.shape[1])
            if bots is not None:
                buffers_in(gens[1:], bots, _BUFFER)
        seen = self.seen
        seen[0] = len(s.seen)
        if s.seen:
            seen[1:1 + len(s.seen)] = s.seen
        rounds: list[tuple[float, ...]] = []
        played = 0
        while True:
            steps, bad, logged = self._play(g, self.cfg, gens, self.slots, self.bot, self.params,
                                            left - played, bool(round_cut), seen, self.log, _NO_TRACE)
            played += steps
            points = self.log[:logged].tolist()
            rounds += [tuple(map(float, points[k:k + n])) for k in range(0, logged, n)]
            if bad != -2:
                break
        if bad >= 0:
            raise answered_outside(self.text, bad)
        if played:
            self._write_back(s, rounds)
        if deals:
            restore_generators([s.rng], gens[0:1])
        if self.draws:
            restore_generators(rngs[:n], gens[1:])
            if bots is not None:
                buffers_out(gens[1:], bots, _BUFFER)

    # ---- the kernel's array back into the scalar state ---------------------------------------
    def _write_back(self, s: Any, rounds: list[tuple[float, ...]]) -> None:
        """Every field of the state but the event log, from `g` (and the seen cards and the
        rounds' points the rollout kept beside it)."""
        g, n, o, config = self.g, self.n, self._offsets, self.config
        cap, hand_size = config.row_capacity, config.hand_size
        words = g[:o[L.O_LAST] + n].tolist()
        head = words
        new_round = head[L.ROUND] != s.round
        s.round, s.turn = head[L.ROUND], head[L.TURN]
        phase = s.phase = _PHASES[head[L.PHASE]]
        rows = words[o[L.O_ROWS]:o[L.O_ROWS] + config.rows * cap]
        lens = words[o[L.O_ROW_LEN]:o[L.O_ROW_LEN] + config.rows]
        if phase == DRAFT:
            s.rows, s.low_ends, s.low_rows = [], [], []
        else:
            s.rows = [rows[r * cap:r * cap + lens[r]] for r in range(config.rows)]
            s._sort_ends()
        at, lens = o[L.O_HANDS], words[o[L.O_HAND_LEN]:o[L.O_HAND_LEN] + n]
        s.hands = [words[at + k * hand_size:at + k * hand_size + lens[k]] for k in range(n)]
        at, lens = o[L.O_PILES], g[o[L.O_PILE_LEN]:o[L.O_PILE_LEN] + n].tolist()
        s.penalty = [g[at + k * L.CARDS:at + k * L.CARDS + lens[k]].tolist() if lens[k] else []
                     for k in range(n)]
        s.totals = words[o[L.O_TOTALS]:o[L.O_TOTALS] + n]
        s.points = words[o[L.O_POINTS]:o[L.O_POINTS] + n]
        s.last_round = words[o[L.O_LAST]:o[L.O_LAST] + n]
        s.round_log.extend(rounds)
        s.seen = self.seen[1:1 + self.seen[0]].tolist()
        s.pool = words[o[L.O_POOL]:o[L.O_POOL] + head[L.POOL_LEN]]
        s.round_one_drafter = head[L.FIRST_ONE]
        if new_round and not config.advanced:       # the deal's cards after the rows (N3)
            dealt = o[L.O_POOL] + n * hand_size + config.rows
            s.aside = words[dealt:o[L.O_POOL] + 104]
        if new_round:
            s.drafters = draft_order(n, head[L.FIRST], n * hand_size) if config.advanced else ()
        s.draft_i = head[L.DRAFT_I]
        if phase == ROW_PICK:
            at = o[L.O_PENDING]
            s.pending = tuple(zip(words[at:at + 2 * n:2], words[at + 1:at + 2 * n:2]))
            s.pending_at = head[L.PENDING_AT]
            s.acting = (head[L.ACTOR],)
        else:
            s.pending, s.pending_at = (), 0
            s.acting = (head[L.ACTOR],) if phase == DRAFT else s.all_seats if phase == PLAY else ()
        if phase == OVER:
            s._outcome = s._final_outcome()
        s.public_view = None                    # observe's cache is dated by the (unchanged) log
