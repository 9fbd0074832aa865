"""Search rollouts of Shipside in the kernel (issue 21 item 4; the kernel rollout contract).

`KernelRollout(info, rollout).play(state, rngs, left, round_cut)` plays a `ShipsideState` on in
the kernel (kernel_play.py) with the rollout strategy's kernel form in both seats, exactly as
`simkit.search.simulator.Simulator._play` does with the Python bots: the state is
converted to the kernel's array (every zone, the phase, a direction choice waiting inside a
placement S25, the variant's marks and picks S56-S58), played on, and written back into the same
state; the generators continue where the kernel left them.

The kernel counts what the scalar state lists: ships captured, removed, and the cards and crew
that left the game (S35-S38). So the kernel stops after each step that scores a ship
(`play_to_scoring`, a handful per game) and the scoring is read from the arrays before and
after that step with the scalar engine's own rules (`rules.ship_result`), in the scalar
engine's order (the placement's ship, then the octopus's origin, S45).

Bots already asked in the search's tree continue in the kernel (`carries_bots`, `play(...,
bots=...)`): `random` keeps a buffer of 32 draws (strategies/shipside/baseline.py), carried into
the kernel's generator row (the scratch columns `kernel_rng.buffered_double` reads) and back;
`greedy` and `octopus` keep nothing between decisions (strategies/shipside/heuristic.py clears
its memos at each decision). Shipside has no rounds
(`Game.round_of` is None), so `round_cut` cuts nothing, as in the Python path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simkit.engine.game import State
from simkit.engine.strategy import GameInfo, Strategy, StrategySpec
from simkit.games.shipside import kernel_layout as L
from simkit.games.shipside import rules
from simkit.games.shipside.config import MARKS, ShipsideConfig
from simkit.games.shipside.phases import ALONE, BOTH

_PHASE = {name: i for i, name in enumerate(rules.PHASES)}
_DIRS = ((), ("L",), ("R",), ("L", "R"))        # kernel direction bits -> moves.dirs
_NO_TRACE = np.zeros(0, dtype=np.int64)
_SHIPS2 = 2 * L.MAX_SHIPS
#: the built-in bots' compiled forms (strategies/shipside/kernels.py), by name (games sit below
#: bots): `random` buffers 32 draws (kernel_bots.random_bot), greedy and octopus keep nothing
_BOTS = "strategies.shipside.kernel_bots:"
_RANDOM, _STATELESS = _BOTS + "random_bot", frozenset({_BOTS + "greedy_bot"})
_BUFFER = 32


class KernelRollout:
    """Plays Shipside rollouts with one strategy's kernel form in both seats."""

    #: `play` takes `bots=`: Python rollout bots already asked since their setup continue in the
    #: kernel; set per rollout strategy in __init__ (the built-in bots' forms only)
    carries_bots = False

    def __init__(self, info: GameInfo, rollout: StrategySpec) -> None:
        from simkit.engine.kernels import rollout_form

        form = rollout_form(info, rollout, ShipsideConfig, "Shipside")
        config: ShipsideConfig = info.config
        from simkit.engine.kernel_positions import bot_handles, buffer_fits, entry_point, generator_rows
        from simkit.games.shipside.kernel import _Lineup, settings, tables
        from simkit.games.shipside.kernel_play import BOT_SIG, ROW_WORDS, new_layout, play_to_scoring

        buffer_fits(ROW_WORDS, _BUFFER)
        function = form.function
        #: `random`'s buffer goes in and out; a plug-in's form plays only freshly set-up bots
        self.buffered = function == _RANDOM
        self.carries_bots = self.buffered or function in _STATELESS

        self.config = config
        self.text = rollout.text
        self.T = rules.tables(config)
        self.lineup = _Lineup([rollout], config)
        self.fns = bot_handles(self.lineup.fns, BOT_SIG)
        self.blank = new_layout(settings(config), tables(config))
        self.slots = np.zeros(2, dtype=np.int64)
        self.before = np.zeros(L.O_OCTO_ON, dtype=np.int64)
        self._play = entry_point(play_to_scoring, self.blank, generator_rows([], ROW_WORDS), self.slots,
                                 self.fns, self.lineup.params, 0, _NO_TRACE, self.before)

    def play(self, state: State, rngs: list[np.random.Generator], left: int, round_cut: bool,
             bots: Sequence[Strategy] | None = None) -> None:
        """Play `state` on in place (at most `left` steps or to the end); see the module doc.
        `bots`: the Python rollout bots as the search left them (None: set up afresh); random's
        draw buffer goes into the kernel and back."""
        from simkit.engine.kernel_positions import answered_outside, rows_in, rows_out
        from simkit.engine.kernels import quiet_numba
        from simkit.games.shipside.kernel_play import ROW_WORDS

        if left <= 0 or state.is_over():
            return
        s: Any = state
        g = self.to_kernel(s)
        buffer = _BUFFER if self.buffered else 0
        generators, gens = rows_in(s.rng, rngs[:2], ROW_WORDS, bots, buffer)
        lineup, before = self.lineup, self.before
        with quiet_numba():
            while left > 0:
                done, bad, scored = self._play(g, gens, self.slots, self.fns, lineup.params, left, _NO_TRACE,
                                               before)
                if bad >= 0:
                    raise answered_outside(self.text, bad)
                left -= done
                if not scored:
                    break
                self._scored(s, before, g)
        self.from_kernel(g, s)
        rows_out(generators, gens, bots, buffer)

    # ---- scalar -> kernel ---------------------------------------------------------------------
    def to_kernel(self, s: Any) -> np.ndarray:
        """The state as the kernel's array (kernel_layout)."""
        from simkit.engine.kernel_positions import put

        g = self.blank.copy()
        g[L.PHASE], g[L.CUR], g[L.FIRST], g[L.TURN] = _PHASE[s.phase], s.cur, s.first, s.turn
        g[L.PASSES], g[L.REASON] = s.passes, L.REASONS.index(s.reason or "running")
        g[L.N_OCTO], g[L.N_RUM], g[L.RUM_TURN] = s.n_octo, s.n_rum, s.rum_turn
        row = s.row
        g[L.ROW_LEN] = len(row)
        put(g, L.O_ROW, row)
        g[L.STARSEAT] = -1 if s.marks is None else s.marks.index(MARKS[0])
        g[L.SHIPS_OUT] = len(s.ships_out)
        g[L.NPILES] = len(s.piles)
        for p in (0, 1):
            g[L.SCORE + p], g[L.RUM_LEFT + p] = s.score[p], s.rum_left[p]
            g[L.OCTO_AT + p], g[L.OCTO_SPENT + p] = s.octo_at[p], s.octo_spent[p]
            g[L.CAPTURED + p] = len(s.captured[p])
            hand = s.hands[p]
            g[L.HAND_LEN + p] = len(hand)
            put(g, L.O_HANDS + p * L.MAX_CARDS, hand)
        for k, pile in enumerate(s.piles):
            g[L.PILE_LEN + k] = len(pile)
            put(g, L.O_PILES + k * L.MAX_CARDS, pile)
        if s.own is not None:
            for p, own in enumerate(s.own):
                g[L.OWN_LEN + p] = len(own)
                put(g, L.O_OWN + p * L.MAX_CARDS, own)
        if s.pending is not None:
            chooser, dirs, (p, ship, side, card, origin, is_play, _, stage) = s.pending
            g[L.PEND_CHOOSER], g[L.PEND_DIRS] = chooser, ("L" in dirs) + 2 * ("R" in dirs)
            g[L.PEND_P], g[L.PEND_S], g[L.PEND_SIDE], g[L.PEND_CARD] = p, ship, side, card
            g[L.PEND_ORIGIN], g[L.PEND_PLAY], g[L.PEND_STAGE] = origin, is_play, stage
        for ship, (a, b) in enumerate(s.sides):
            g[L.O_SIDE_LEN + 2 * ship], g[L.O_SIDE_LEN + 2 * ship + 1] = len(a), len(b)
            put(g, L.O_SIDES + 2 * ship * L.MAX_SIDE, a)
            put(g, L.O_SIDES + (2 * ship + 1) * L.MAX_SIDE, b)
        put(g, L.O_TOT, [t for pair in s.tot for t in pair])
        for ship, mugs in enumerate(s.mugs):
            g[L.O_MUG_LEN + ship] = len(mugs)
            put(g, L.O_MUGS + ship * L.MAX_MUGS, mugs)
        for ship, crew in enumerate(s.crew):
            g[L.O_CREW_LEN + ship] = len(crew)
            put(g, L.O_CREW + ship * L.MAX_CREW, crew)
        g[L.O_OCTO_ON:L.O_OCTO_ON + len(s.octo_on)] = s.octo_on
        from simkit.engine import kernel_running

        kernel_running.put_record(g, L.O_RUNNING, s.running, 2)
        return g

    # ---- the ships a step scored ----------------------------------------------------------------
    def _scored(self, s: Any, before: np.ndarray, g: np.ndarray) -> None:
        """Append what `ShipsideState._check_ship` lists (cards out, ships captured or removed,
        crew won or out) for the ships the step from `before` to `g` scored."""
        b, T, cfg = before.tolist(), self.T, self.config
        p, ship, side, card, origin = (int(g[k]) for k in (L.PEND_P, L.PEND_S, L.PEND_SIDE, L.PEND_CARD,
                                                             L.PEND_ORIGIN))
        sides = {}
        for x in dict.fromkeys((ship, origin)):
            if x >= 0:
                sides[x] = [b[L.O_SIDES + k * L.MAX_SIDE:][:b[L.O_SIDE_LEN + k]] for k in (2 * x, 2 * x + 1)]
        if b[L.PHASE] != L.DIR:                             # the step placed `card` (S19, S42)
            if g[L.N_OCTO] > b[L.N_OCTO]:
                next(cards for cards in sides[origin] if card in cards).remove(card)
            sides[ship][side].append(card)
        row_before = b[L.O_ROW:L.O_ROW + b[L.ROW_LEN]]
        row_after = set(g[L.O_ROW:L.O_ROW + g[L.ROW_LEN]].tolist())
        on_board = [t for x in row_after
                    for t in g[L.O_CREW + x * L.MAX_CREW:][:g[L.O_CREW_LEN + x]].tolist()]
        vanished = {t for x in row_before for t in b[L.O_CREW + x * L.MAX_CREW:][:b[L.O_CREW_LEN + x]]} - \
            set(on_board)
        for x, (a_cards, b_cards) in sides.items():
            if x not in row_before:
                continue
            gone = x not in row_after
            left_on = g[L.O_SIDE_LEN + 2 * x] or g[L.O_SIDE_LEN + 2 * x + 1]
            if not gone and (left_on or not (a_cards or b_cards)):
                continue                                    # not scored
            s.out.extend(a_cards)
            s.out.extend(b_cards)
            if not gone:                                    # S34 alternative: a tie stays
                continue
            thr = rules.threshold(T.defense[x], b[L.O_MUG_LEN + x], cfg.rum.defense_bonus)
            result = rules.ship_result(sum(T.value[c] for c in a_cards), sum(T.value[c] for c in b_cards),
                                       len(a_cards), len(b_cards), thr, cfg.rules.max_cards_per_side,
                                       cfg.scoring.threshold_inclusive, p)
            winner = -1 if result is None else result[0]
            crew = []
            for t in g[L.O_CREW + x * L.MAX_CREW:L.O_CREW + (x + 1) * L.MAX_CREW].tolist():
                if t not in vanished:
                    break
                crew.append(t)
                vanished.discard(t)
            if winner < 0:                                  # S34
                s.ships_out.append(x)
                s.crew_out.extend(crew)
            else:                                           # S32, S33, S35
                s.captured[winner].append(x)
                s.crew_won[winner].extend(crew)

    # ---- kernel -> scalar -------------------------------------------------------------------------
    def from_kernel(self, g: np.ndarray, s: Any) -> None:
        """Write the kernel's array back into the state (every field but the event log and the
        lists `_scored` keeps)."""
        h = g[:L.HEADER].tolist()
        phase = s.phase = rules.PHASES[h[L.PHASE]]
        cur = s.cur = h[L.CUR]
        s.turn, s.passes, s.n_octo, s.n_rum = h[L.TURN], h[L.PASSES], h[L.N_OCTO], h[L.N_RUM]
        s.reason = "" if h[L.REASON] == L.R_RUNNING else L.REASONS[h[L.REASON]]
        s.rum_turn = h[L.RUM_TURN] != 0
        s.score = h[L.SCORE:L.SCORE + 2]
        from simkit.engine import kernel_running

        s.running = kernel_running.take_record(g, L.O_RUNNING, 2, 2)
        s.rum_left = h[L.RUM_LEFT:L.RUM_LEFT + 2]
        s.octo_at = h[L.OCTO_AT:L.OCTO_AT + 2]
        s.octo_spent = [x != 0 for x in h[L.OCTO_SPENT:L.OCTO_SPENT + 2]]
        body = g[L.O_ROW:L.O_OCTO_ON].tolist()
        at = L.O_ROW
        s.row = body[:h[L.ROW_LEN]]
        n_ships = len(s.sides)
        lens = body[L.O_SIDE_LEN - at:L.O_SIDE_LEN - at + _SHIPS2]
        side = L.O_SIDES - at
        s.sides = [[body[side + k * L.MAX_SIDE:][:lens[k]] for k in (2 * x, 2 * x + 1)]
                   for x in range(n_ships)]
        tot = body[L.O_TOT - at:]
        s.tot = [[tot[2 * x], tot[2 * x + 1]] for x in range(n_ships)]
        mug_len, mugs = body[L.O_MUG_LEN - at:], L.O_MUGS - at
        s.mugs = [body[mugs + x * L.MAX_MUGS:][:mug_len[x]] for x in range(n_ships)]
        crew_len, crew = body[L.O_CREW_LEN - at:], L.O_CREW - at
        s.crew = [body[crew + x * L.MAX_CREW:][:crew_len[x]] for x in range(n_ships)]
        s.octo_on = g[L.O_OCTO_ON:L.O_OCTO_ON + len(s.octo_on)].tolist()
        s.hands = [g[L.O_HANDS + p * L.MAX_CARDS:][:h[L.HAND_LEN + p]].tolist() for p in (0, 1)]
        s.piles = [g[L.O_PILES + k * L.MAX_CARDS:][:h[L.PILE_LEN + k]].tolist() for k in range(len(s.piles))]
        starseat = h[L.STARSEAT]
        if starseat >= 0:
            s.marks = (MARKS[0], MARKS[1]) if starseat == 0 else (MARKS[1], MARKS[0])
            s.own = [g[L.O_OWN + p * L.MAX_CARDS:][:h[L.OWN_LEN + p]].tolist() for p in (0, 1)]
        s.pending = None
        if phase == rules.DIR:
            chooser = h[L.PEND_CHOOSER]
            s.pending = (chooser, _DIRS[h[L.PEND_DIRS]],
                         [h[L.PEND_P], h[L.PEND_S], h[L.PEND_SIDE], h[L.PEND_CARD], h[L.PEND_ORIGIN],
                          h[L.PEND_PLAY] != 0, None, h[L.PEND_STAGE]])
            s.acting = ALONE[chooser]
        elif phase == rules.OVER:
            s.acting = ()
        elif phase == rules.PICK:
            s.acting = BOTH
        else:
            s.acting = ALONE[s.first if phase == rules.MARK else cur]
        s._forget_board(crew=True)
