"""Search rollouts of Game of Trains in the kernel (issue 21 item 4; the kernel rollout contract).

`KernelRollout(info, rollout).play(state, rngs, left, round_cut)` plays a `TrainsState` on in
the kernel (kernel_play.py) with the rollout strategy's kernel form in every seat, exactly as
`simkit.search.simulator.Simulator._play` does with the Python bots just set up: the state is
converted to the kernel's array (every zone, the phase and the seats to act, also inside a turn's
two steps T8-T9 and the setup T5-T7), played on, and written back into the same state; the
generators continue where the kernel left them.

Bots set up afresh know nothing of earlier rollouts: `random` starts with an empty draw buffer
(64 draws, strategies/trains/baseline.py), and `play(..., bots=...)` carries a used bot's
part-used buffer into the kernel's generator row (the scratch columns
`kernel_rng.buffered_double` reads) and back (`carries_bots`). `greedy`/`rival` read their
discard memory from the whole public log at their first turn (strategies/trains/heuristic.py,
`DiscardMemory`), which is what `KnownDiscards` computes for the kernel's KNOWN and PENDING: a
bot asked in the tree keeps a memory the kernel does not take over, so those forms play only
freshly set-up bots. Game of Trains has no rounds (`Game.round_of` is None), so
`round_cut` cuts nothing, as in the Python path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simkit.engine.game import State
from simkit.engine.strategy import GameInfo, Strategy, StrategySpec
from simkit.games.trains import kernel_layout as L
from simkit.games.trains.config import TrainsConfig
from simkit.games.trains.discards import read_discards
from simkit.games.trains.rules import PHASES

_PHASE = {name: i for i, name in enumerate(PHASES)}
_NO_TRACE = np.zeros(0, dtype=np.int64)
#: the `random` bot's draw buffer (strategies/trains/baseline.py; kernel_play.uniform_choice)
_BUFFER = 64


class KnownDiscards:
    """The cards known to be in the discard pile, and the pending used card (or 0), after reading
    a whole log, as a fresh `DiscardMemory` does (strategies/trains/heuristic.py): uses, pairs,
    voided and wasted locks go to the pile; a T13 reshuffle empties it but for a used card still
    pending (T10).

    A search rolls out many copies of one decision's log (`determinize` copies the public log,
    the tree appends its steps to the copy), so the reading of their common start is kept: a
    log holding the same event object at the end of that start continues from it (a log is only
    ever appended to, so the same object there means the same events before it)."""

    def __init__(self, used_after: bool) -> None:
        self.used_after = used_after
        self.at = 0                     # the kept reading: of events[:at], ending with `last`
        self.last: object = None
        self.kept: tuple[set[int], int] = (set(), 0)
        self.previous: list = []        # the last log read (to find the common start)

    def __call__(self, events: list) -> tuple[set[int], int]:
        at = self.at
        if not at or len(events) < at or events[at - 1] is not self.last:
            previous = self.previous
            at = 0
            for mine, theirs in zip(events, previous):
                if mine is not theirs:
                    break
                at += 1
            at = at or len(events)
            self.at, self.last = at, events[at - 1] if at else None
            self.kept = self._read(events[:at], set(), 0)
        self.previous = events
        cards, pending = self.kept
        return self._read(events[self.at:], set(cards), pending)

    def _read(self, events: list, cards: set[int], pending: int) -> tuple[set[int], int]:
        return cards, read_discards(events, cards, pending, self.used_after)

class KernelRollout:
    """Plays Game of Trains rollouts with one strategy's kernel form in every seat."""

    #: `play` takes `bots=`: Python rollout bots already asked since their setup continue in the
    #: kernel; set in __init__ (`random` only: greedy and rival keep a discard memory)
    carries_bots = False

    def __init__(self, info: GameInfo, rollout: StrategySpec) -> None:
        from simkit.engine.kernels import rollout_form

        form = rollout_form(info, rollout, TrainsConfig, "Game of Trains")
        from simkit.engine.kernel_positions import bot_handles, buffer_fits, entry_point, generator_rows
        from simkit.games.trains.kernel import _effects, _Lineup, config_array
        from simkit.games.trains.kernel_play import BOT_SIG, GEN_WORDS, UNIFORM, new_layout, play_on

        config: TrainsConfig = info.config
        n = info.n_players
        self.n = n
        self.text = rollout.text
        self.lineup = _Lineup([rollout], config, n)
        self.fns = bot_handles(self.lineup.fns, BOT_SIG)
        self.cfg = config_array(config, n)
        self.blank = new_layout(self.cfg, _effects(config))
        self.slots = np.zeros(n, dtype=np.int64)
        self.width = GEN_WORDS
        self.memory = form.function != UNIFORM        # only a bot that reads KNOWN needs it
        buffer_fits(GEN_WORDS, _BUFFER)
        #: the uniform form's Python bot keeps only its draw buffer, carried in and out
        self.carries_bots = form.function == UNIFORM
        self.known = KnownDiscards(config.used_card == "after")
        self._play_on = entry_point(play_on, self.blank, self.cfg, generator_rows([], GEN_WORDS), self.slots,
                                    self.fns, self.lineup.params, self.lineup.direct, 0, _NO_TRACE)

    def play(self, state: State, rngs: list[np.random.Generator], left: int, round_cut: bool,
             bots: Sequence[Strategy] | None = None) -> None:
        """Play `state` on in place (at most `left` steps or to the end); see the module doc.
        `bots`: the Python rollout bots as the search left them (None: set up afresh); random's
        draw buffer goes into the kernel and back."""
        from simkit.engine.kernel_positions import answered_outside, rows_in, rows_out
        from simkit.engine.kernels import quiet_numba

        if left <= 0 or state.is_over():
            return
        s: Any = state
        g = self.to_kernel(s)
        generators, gens = rows_in(s.rng, rngs[:self.n], self.width, bots, _BUFFER)
        lineup = self.lineup
        with quiet_numba():
            _, bad = self._play_on(g, self.cfg, gens, self.slots, self.fns, lineup.params, lineup.direct,
                                   left, _NO_TRACE)
        if bad >= 0:
            raise answered_outside(self.text, bad)
        self.from_kernel(g, s)
        rows_out(generators, gens, bots, _BUFFER)

    def to_kernel(self, s: Any) -> np.ndarray:
        """The state as the kernel's array (kernel_layout)."""
        from simkit.engine.kernel_positions import put

        g = self.blank.copy()
        n = s.n
        g[L.CUR], g[L.START], g[L.PHASE] = s.cur, s.start, _PHASE[s.phase]
        g[L.TURNS], g[L.WINNER], g[L.CAPPED], g[L.RESHUFFLES] = s.turns, s.winner, s.capped, s.reshuffles
        draw, discard = s.draw, s.discard
        g[L.DRAW_LEN], g[L.DISCARD_LEN], g[L.DRAWN] = len(draw), len(discard), s.drawn
        acting = s.acting
        g[L.N_ACTING] = len(acting)
        put(g, L.ACTING, acting)
        put(g, L.TRAINS, [c for t in s.trains for c in t])
        put(g, L.LOCKS, [c for lk in s.locks for c in lk])
        g[L.DISPLAY:L.DISPLAY + 9] = s.display
        put(g, L.DRAW, draw)
        put(g, L.DISCARD, discard)
        put(g, L.KEPT, s.kept)
        for p in range(n):
            hidden, hand = s.hidden[p], s.hands[p]
            g[L.HIDDEN_LEN + p], g[L.HAND_LEN + p] = len(hidden), len(hand)
            put(g, L.HIDDEN + 3 * p, hidden)
            put(g, L.HANDS + 4 * p, hand)
        from simkit.engine import kernel_running

        kernel_running.put_record(g, L.RUNNING, s.running, L.MAX_N)
        if self.memory:
            known, pending = self.known(s.events)
            g[L.PENDING] = pending
            if known:
                g[L.KNOWN + np.fromiter(known, dtype=np.int64, count=len(known))] = 1
        return g

    def from_kernel(self, g: np.ndarray, s: Any) -> None:
        """Write the kernel's array back into the state (every field but the event log)."""
        n = s.n
        header = g[:L.HEADER].tolist()
        s.cur, s.phase, s.turns, s.winner = header[L.CUR], PHASES[header[L.PHASE]], header[L.TURNS], \
            header[L.WINNER]
        s.capped, s.reshuffles, s.drawn = header[L.CAPPED] != 0, header[L.RESHUFFLES], header[L.DRAWN]
        s.acting = tuple(header[L.ACTING:L.ACTING + header[L.N_ACTING]])
        cards = g[L.TRAINS:L.DISPLAY].tolist()              # trains, then locks
        s.trains = [cards[7 * p:7 * p + 7] for p in range(n)]
        s.locks = [cards[7 * (L.MAX_N + p):7 * (L.MAX_N + p) + 7] for p in range(n)]
        display = s.display = g[L.DISPLAY:L.DISPLAY + 9].tolist()
        s._shown = sum(1 << e for e in range(1, 9) if display[e])
        s._turn = None
        s.draw = g[L.DRAW:L.DRAW + header[L.DRAW_LEN]].tolist()
        s.discard = g[L.DISCARD:L.DISCARD + header[L.DISCARD_LEN]].tolist()
        rest = g[L.HIDDEN_LEN:L.KNOWN].tolist()             # hidden, hands and kept, one copy
        at = L.HIDDEN_LEN
        s.hidden = [rest[L.HIDDEN + 3 * p - at:L.HIDDEN + 3 * p - at + rest[p]] for p in range(n)]
        s.hands = [rest[L.HANDS + 4 * p - at:L.HANDS + 4 * p - at + rest[L.HAND_LEN + p - at]]
                   for p in range(n)]
        s.kept = rest[L.KEPT - at:L.KEPT - at + n]
        from simkit.engine import kernel_running

        s.running = kernel_running.take_record(g, L.RUNNING, L.MAX_N, n)
