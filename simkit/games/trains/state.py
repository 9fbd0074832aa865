"""Game of Trains state: zones, turn order, the rules applied step by step, the event log.

Zones (every one of the 84 cards is in exactly one): the trains (`trains[p][k]` = card in slot
k+1, 0 only for a slot left empty when a refill was cut short by a win), the locks
(`locks[p][k]` = lock card under slot k+1, or 0), the display (`display[e]` = the card of
effect e, or 0: T11 keeps at most one per effect), the draw pile (top = last element), the
discard pile, a player's undecided setup draw (`hands`), a kept setup card not yet placed
(`kept`), and a drawn card not yet placed (`drawn`). The used card of an effect is held in a
local variable while the effect resolves (T10), or with `used_card_stays` in the display during
effects 5-7; either way it is never visible between steps.
"""

from __future__ import annotations

import functools

import numpy as np

from simkit.engine.cloning import Cloning
from simkit.engine.errors import IllegalAction
from simkit.engine.game import Outcome, State
from simkit.engine.running import Running
from simkit.games.trains.actions import DRAW, KEEP, PLACE, USE, USE_ONE
from simkit.games.trains.config import TrainsConfig
from simkit.games.trains.evaluate import standings
from simkit.games.trains.rules import (
    KEEP_PHASE,
    N_CARDS,
    OVER,
    PARAMS,
    PLACE_PHASE,
    REMOVAL_SLOT,
    SETUP_PLACE,
    TURN,
    effect_table,
    initial_train,
    is_ascending,
    lock_params,
    moved_slots,
    removal_hits,
    resolve_pairs,
    seat_order,
    setup_draw_count,
)
from simkit.games.trains.views import Observation
from simkit.games.trains.views import audit as _audit
from simkit.games.trains.views import determinize as _determinize
from simkit.games.trains.views import observe as _observe

_PLACES = PLACE[1:]
_PLACE_SET = frozenset(_PLACES)
#: (allow_all_locked_removal, double_lock) -> {display key: the turn's legal actions}
_TURN_MEMO: dict[tuple[bool, bool], dict[int, tuple[tuple, frozenset]]] = {}
#: T17-T20: effect e moves the card of slot i to slot i + offset (or swaps those two)
_REORDER_OFFSET = (0, 1, 2, 2, -2)


@functools.cache
def _moved_slots_table(voiding: str, insertion: bool) -> tuple:
    """[effect][i] -> the 0-based slots whose card effect 1-4 with parameter i moves (T24)."""
    return tuple({i: tuple(s - 1 for s in moved_slots(e, i, voiding, insertion))
                  for i in PARAMS[e] if i is not None}     # effects 1-4 all have a parameter
                 if 1 <= e <= 4 else {} for e in range(5))


def public_event(event: tuple) -> tuple:
    """§8: an event as every seat sees it: a drawn card hidden, setup draws and discards counted
    (an event already in public form is returned as it is)."""
    kind = event[0]
    if kind == "draw":
        return event if event[2] is None else ("draw", event[1], None)
    if kind == "setup_draw" and type(event[2]) is tuple:
        return ("setup_draw", event[1], len(event[2]))
    if kind == "keep" and event[2] is not None:
        return ("keep", event[1], None, len(event[3]))
    return event


class TrainsState(State):
    cloning = Cloning(lists=("display", "draw", "discard", "kept", "events", "_log"),
                      nested=("trains", "locks", "hidden", "hands"), generators=("rng",),
                      reset={"_turn": None}, computed={"running": lambda s: s.running.copy()})

    def __init__(self, config: TrainsConfig, n_players: int, rng: np.random.Generator):
        self._configure(config, n_players, rng)
        deck = (rng.permutation(N_CARDS) + 1).tolist()                       # T2
        self.start = int(rng.integers(n_players)) if config.start_seat < 0 else config.start_seat  # T4
        self.order = seat_order(self.start, n_players)
        self.trains = [initial_train(deck[7 * p: 7 * p + 7]) for p in range(n_players)]  # T3
        self.draw = deck[7 * n_players:]
        self.locks = [[0] * 7 for _ in range(n_players)]
        self.cur = self.start
        self._emit(("start", n_players, self.start, tuple(map(tuple, self.trains)), config.effect_table))
        if config.setup_order == "sequential":
            self._begin_setup(0)
        else:
            for idx in range(n_players):
                self._setup_draw(idx)
            self.phase = KEEP_PHASE
            self.acting = tuple(p for p in self.order if len(self.hands[p]) > 1)

    def _configure(self, config: TrainsConfig, n_players: int, rng: np.random.Generator) -> None:
        """The config-derived fields and the empty zones (new_state deals, parse_position fills)."""
        config.check_players(n_players)
        self.config = config
        self.n = n_players
        self.rng = rng
        self.eff = effect_table(config.effect_table)
        self._insertion = config.move_semantics == "insert"
        self._eager = config.reshuffle == "eager"
        self._immediate = config.refill_stop == "immediate"
        self._after = config.used_card == "after"
        self._stays = config.used_card_stays
        self._last = config.pair_keep == "last"
        self._voiding = config.lock_voiding
        self._max_turns = config.max_turns
        self._alone = tuple((p,) for p in range(n_players))
        self._clockwise = tuple(seat_order(p, n_players) for p in range(n_players))
        self._moved = _moved_slots_table(self._voiding, self._insertion)
        self._turn_memo = _TURN_MEMO.setdefault(
            (config.allow_all_locked_removal, config.double_lock), {})
        self.discard: list[int] = []
        self.display = [0] * 9
        self._shown = 0             # bit 1 << e set while the display holds a card of effect e
        self.hidden: list[list[int]] = [[] for _ in range(n_players)]
        self.hands: list[list[int]] = [[] for _ in range(n_players)]
        self.kept = [0] * n_players
        self.drawn = 0
        self.turns = 0
        self.winner = -1
        self.capped = False
        self.reshuffles = 0
        self.running = Running()    # the arc: cards in order after each round of turns
        self.events: list = []
        self._log: list = []        # the public log, caught up with `events` when observed
        self._turn: tuple[tuple, frozenset] | None = None    # this turn's legal actions

    # ------------------------------------------------------------------ log and zones

    def _emit(self, event: tuple) -> None:
        self.events.append(event)

    def public_log(self) -> list:
        """§8: the event log with the hidden cards left out (see `public_event`)."""
        log = self._log
        events = self.events
        if len(log) < len(events):
            log.extend(map(public_event, events[len(log):]))
        return log

    def _reshuffle(self) -> None:
        """T13: the discard pile, shuffled face down, becomes the draw pile."""
        if not self.discard:
            raise RuntimeError("T13: draw and discard pile are both empty, which the components "
                               "make impossible; the engine's card accounting is broken")
        self.draw = self.rng.permutation(self.discard).tolist()
        self.discard = []
        for h in self.hidden:
            h.clear()
        self.reshuffles += 1
        self._emit(("reshuffle", len(self.draw)))

    def _draw_card(self) -> int:
        """T9/T13: the top card; a lazy reshuffle first if the draw pile is empty."""
        draw = self.draw
        if not draw:
            self._reshuffle()
            draw = self.draw
        card = draw.pop()
        if not draw and self._eager and self.discard:
            self._reshuffle()
        return card

    def _arrive(self, cards) -> None:
        """T11: cards enter the display one at a time; same-effect cards leave in pairs."""
        eff = self.eff
        display = self.display
        if self._last or len(cards) == 1:
            for c in cards:
                e = eff[c]
                old = display[e]
                if old:
                    display[e] = 0
                    pair = (old, c)
                    self.discard += pair
                    self.events.append(("pairs", e, pair))
                else:
                    display[e] = c
                self._shown ^= 1 << e
            return
        by_effect: dict[int, list[int]] = {}
        for c in cards:
            by_effect.setdefault(eff[c], []).append(c)
        for e, arrivals in by_effect.items():
            stay, gone = resolve_pairs(display[e], arrivals, "first")
            display[e] = stay
            self._shown = self._shown | 1 << e if stay else self._shown & ~(1 << e)
            if gone:
                self.discard.extend(gone)
                self._emit(("pairs", e, tuple(gone)))

    def _void(self, p: int, slot: int) -> None:
        """T24: the owner changed the card above a lock: the lock card is discarded face down."""
        card = self.locks[p][slot - 1]
        self.locks[p][slot - 1] = 0
        self.discard.append(card)
        self._emit(("void", p, slot, card))

    # ------------------------------------------------------------------ setup (T5-T7)

    def _setup_draw(self, idx: int) -> None:
        """T5: the idx-th player in order draws idx+1 cards; a single card is kept at once (T6)."""
        p = self.order[idx]
        k = setup_draw_count(idx)
        hand = [self._draw_card() for _ in range(k)]
        self._emit(("setup_draw", p, tuple(hand)))
        if k == 1:
            self.kept[p] = hand[0]
        else:
            self.hands[p] = hand

    def _begin_setup(self, idx: int) -> None:
        p = self.order[idx]
        self.cur = p
        self._setup_draw(idx)
        self.phase = SETUP_PLACE if self.kept[p] else KEEP_PHASE
        self.acting = (p,)

    def _keep(self, p: int, card: int) -> None:
        """T6: keep one drawn card, discard the others face down."""
        hand = self.hands[p]
        gone = tuple(c for c in hand if c != card)
        self.hands[p] = []
        self.kept[p] = card
        self.discard.extend(gone)
        self.hidden[p].extend(gone)
        self._emit(("keep", p, card, gone))

    def _setup_place(self, p: int, slot: int) -> None:
        """T7: the kept card replaces a slot; the replaced card enters the display (T11)."""
        card = self.kept[p]
        self.kept[p] = 0
        train = self.trains[p]
        old = train[slot - 1]
        train[slot - 1] = card
        self._emit(("place", p, slot, card, old))
        self._arrive((old,))

    def _start_turns(self) -> None:
        self.phase = TURN
        self.cur = self.start
        self.acting = (self.start,)

    # ------------------------------------------------------------------ protocol

    def to_act(self) -> tuple[int, ...]:
        return self.acting

    def legal_actions(self, seat: int):
        if seat == self.cur and self.phase == TURN:         # the hot path (acting is (cur,))
            turn = self._turn
            if turn is None:
                turn = self._turn = self._turn_actions()
            return turn[0]
        if seat not in self.acting:
            return ()
        phase = self.phase
        if phase == PLACE_PHASE or phase == SETUP_PLACE:
            return _PLACES
        if phase == KEEP_PHASE:
            return tuple(KEEP[c] for c in self.hands[seat])
        return ()

    def _turn_actions(self) -> tuple[tuple, frozenset]:
        """The turn's actions as a tuple and as a set (for a fast legality check), memoised by
        the effects shown and those of them that can be used (the listing depends on nothing else)."""
        key = self._shown
        if key & 256:                       # effect 8 shown: which slots it may lock
            lk = self.locks[self.cur]
            key |= (lk[0] and 512) | (lk[3] and 1024) | (lk[6] and 2048)
        if key & 224 and not self.config.allow_all_locked_removal:      # effects 5-7 shown
            key |= sum(4096 << e for e in (5, 6, 7) if not removal_hits(self.locks, e))
        turn = self._turn_memo.get(key)
        if turn is None:
            legal = self._list_turn_actions()
            turn = self._turn_memo[key] = (legal, frozenset(legal))
        return turn

    def _list_turn_actions(self) -> tuple:
        """T8/T14: Draw, plus Use(effect, param) for every effect in the display (§5, §7)."""
        d = self.display
        acts: list[tuple] = [DRAW]
        for e in (1, 2, 3, 4):
            if d[e]:
                acts.extend(USE[e])
        for e in (5, 6, 7):
            if d[e] and (self.config.allow_all_locked_removal or removal_hits(self.locks, e)):
                acts.append(USE[e][0])
        if d[8]:
            for s in lock_params(self.locks[self.cur], self.config.double_lock):
                acts.append(USE_ONE[(8, s)])
        return tuple(acts)

    def is_legal(self, seat: int, action) -> bool:
        return action in self.legal_actions(seat)

    def _why_illegal(self, seat: int, action) -> tuple[str, str]:
        phase = self.phase
        kind = action[0] if isinstance(action, tuple) and action else None
        if phase == KEEP_PHASE:
            return (f"seat {seat} must keep one of its drawn cards {self.hands[seat]}, "
                    f"not {action!r}", "T6")
        if phase in (SETUP_PLACE, PLACE_PHASE):
            rule = "T7" if phase == SETUP_PLACE else "T9"
            return f"seat {seat} must place its card into a slot 1..7, not {action!r}", rule
        if kind == "use" and len(action) == 3:
            e, p = action[1], action[2]
            if not isinstance(e, int) or not 1 <= e <= 8 or not self.display[e]:
                present = [x for x in range(1, 9) if self.display[x]]
                rule = "T14" if not present else "T10"
                return f"effect {e} is not in the display (present: {present})", rule
            rule = f"T{16 + e}"
            if e == 8:
                allowed = lock_params(self.locks[seat], self.config.double_lock)
                return f"effect 8 cannot lock slot {p}: allowed are {allowed}", rule
            if e in (5, 6, 7):
                if p is not None:
                    return f"effect {e} takes no parameter, got {p!r}", rule
                return f"effect {e} would remove nothing: every slot {REMOVAL_SLOT[e]} is locked", rule
            return f"effect {e} takes a position in {USE[e][0][2]}..{USE[e][-1][2]}, got {p!r}", rule
        return (f"{action!r} is not an action: on a turn the choices are Draw() or "
                f"Use(effect, param)"), "T8"

    def apply(self, actions) -> None:
        if len(actions) == 1:                   # the hot path: a turn's action or its placement
            action = actions[0]
            phase = self.phase
            if phase == TURN:
                turn = self._turn or self._turn_actions()
                if action not in turn[1]:
                    self._apply_checked(actions)
                    return
                self._turn = None
                if action is DRAW or action == DRAW:
                    self._draw_to_place()           # the action ends when the card is placed
                    return
                self._use(action[1], action[2])
            elif phase == PLACE_PHASE and action in _PLACE_SET:
                self._place_drawn(action[1])
            else:
                self._apply_checked(actions)
                return
            # T8/T15: one action done; the game ends on a win or at the turn cap (a draw)
            turns = self.turns = self.turns + 1
            if self.running.turn_end(turns % self.n == 0):
                self.running.push(standings(self.trains))
            if self.winner >= 0:
                self.phase = OVER
                self.acting = ()
            elif turns >= self._max_turns:
                self.phase = OVER
                self.capped = True
                self.acting = ()
                self._emit(("cap", turns))
            else:
                cur = self.cur + 1
                if cur == self.n:
                    cur = 0
                self.cur = cur
                self.phase = TURN
                self.acting = self._alone[cur]
            return
        self._apply_checked(actions)

    def _apply_checked(self, actions) -> None:
        """Every phase, with full validation and error messages; a legal turn action or
        placement then goes through `apply`'s hot path."""
        acting = self.acting
        if self.phase == OVER:
            raise IllegalAction("the game is over: no more actions", seat=None, rule="T25")
        if len(actions) != len(acting):
            raise IllegalAction(f"expected {len(acting)} action(s), one for each of seats {acting}, "
                                f"got {len(actions)}", seat=None, rule="T8")
        for seat, action in zip(acting, actions):
            if action not in self.legal_actions(seat):
                msg, rule = self._why_illegal(seat, action)
                raise IllegalAction(msg, seat=seat, rule=rule)
        phase = self.phase
        if phase == TURN or phase == PLACE_PHASE:
            self.apply(actions)
        elif phase == KEEP_PHASE:
            for seat, action in zip(acting, actions):
                self._keep(seat, action[1])
            self.phase = SETUP_PLACE
            if self.config.setup_order == "simultaneous":
                self.acting = self.order
        else:  # SETUP_PLACE
            for seat, action in zip(acting, actions):
                self._setup_place(seat, action[1])
            idx = (self.cur - self.start) % self.n      # the setup player's place in turn order
            if self.config.setup_order == "sequential" and idx + 1 < self.n:
                self._begin_setup(idx + 1)
            else:
                self._start_turns()

    # ------------------------------------------------------------------ actions

    def _draw_to_place(self) -> None:
        """T9: draw the top card; placing it is the next decision."""
        draw = self.draw
        card = self.drawn = draw.pop() if len(draw) > 1 else self._draw_card()   # no T13 reshuffle
        self.phase = PLACE_PHASE
        self.events.append(("draw", self.cur, card))

    def _place_drawn(self, slot: int) -> None:
        """T9: the drawn card replaces a slot (voiding a lock there, T24); the replaced card
        enters the display (T11); then T25."""
        p = self.cur
        card = self.drawn
        self.drawn = 0
        train = self.trains[p]
        k = slot - 1
        old = train[k]
        train[k] = card
        events = self.events
        events.append(("place", p, slot, card, old))
        if self.locks[p][k]:
            self._void(p, slot)
        # T11 for the one arriving card (as `_arrive`, inlined: every placement comes here)
        e = self.eff[old]
        display = self.display
        stay = display[e]
        if stay:
            display[e] = 0
            pair = (stay, old)
            self.discard += pair
            events.append(("pairs", e, pair))
        else:
            display[e] = old
        self._shown ^= 1 << e
        # T25; the new card between its neighbours is needed for that and cheaper to test first
        if (k == 0 or train[k - 1] < card) and (k == 6 or card < train[k + 1]) and is_ascending(train):
            self._win(p)

    def _use(self, e: int, param) -> None:
        """T10: the display card leaves at once, resolves, then is discarded (8: becomes a lock);
        with used_card_stays it waits in the display during effects 5-7 (T11 may pair it)."""
        p = self.cur
        display = self.display
        card = display[e]
        display[e] = 0
        self._shown &= ~(1 << e)
        self.events.append(("use", p, e, param, card))
        if e <= 4:
            self._reorder(p, e, param, card)
        elif e <= 7:
            if self._stays:
                self._remove_and_refill_staying(p, e, card)
                return
            if not self._after:
                self.discard.append(card)
            self._remove_and_refill(p, REMOVAL_SLOT[e])
            if self._after:
                self.discard.append(card)
        else:
            locks = self.locks[p]
            if locks[param - 1]:          # only with double_lock=True: a wasted lock
                self.discard.append(card)
                self._emit(("wasted_lock", p, param, card))
            else:
                locks[param - 1] = card
                self._emit(("lock", p, param, card))

    def _reorder(self, p: int, e: int, i: int, card: int) -> None:
        """T17-T20 on p's own train, in place (as rules.apply_order_effect); the locks of the
        moved cards are voided first (T24)."""
        if not self._after:
            self.discard.append(card)
        locks = self.locks[p]
        for k in self._moved[e][i]:
            if locks[k]:
                self._void(p, k + 1)
        train = self.trains[p]
        a = i - 1
        b = a + _REORDER_OFFSET[e]
        if e >= 3 and self._insertion:
            train.insert(b, train.pop(a))
        else:
            train[a], train[b] = train[b], train[a]
        self.events.append(("train", p, tuple(train)))
        if self._after:
            self.discard.append(card)
        if train[0] < train[1] < train[2] < train[3] < train[4] < train[5] < train[6]:   # T25
            self._win(p)

    def _remove_and_refill_staying(self, actor: int, e: int, card: int) -> None:
        """T10/T11 with used_card_stays: the used card waits in the display while effect e
        resolves, so a removed card of effect e pairs with it (both discarded at once, T11);
        if nothing paired with it, it is discarded after the refills."""
        self.display[e] = card
        self._shown |= 1 << e
        self._remove_and_refill(actor, REMOVAL_SLOT[e])
        if self.display[e] == card:           # nothing paired with it (else it left in a pair)
            self.display[e] = 0
            self._shown &= ~(1 << e)
            self.discard.append(card)

    def _remove_and_refill(self, actor: int, slot: int) -> None:
        """T21-T23: clockwise from the actor every unlocked slot loses its card to the display
        (T11 on the batch), then the holes are refilled clockwise from the actor; T25 after
        each refill (stop at once, or finish all refills with refill_stop='complete')."""
        k = slot - 1
        trains = self.trains
        locks = self.locks
        emit = self.events.append
        holes = []
        removed = []
        for q in self._clockwise[actor]:
            if locks[q][k]:
                emit(("protected", q, slot))
                continue
            train = trains[q]
            c = train[k]
            train[k] = 0
            removed.append(c)
            holes.append(q)
            emit(("remove", q, slot, c))
        if removed:
            self._arrive(removed)
        first = -1
        draw = self.draw
        draw_card = draw.pop if len(draw) > len(holes) else self._draw_card   # no T13 reshuffle
        for q in holes:
            c = draw_card()
            train = trains[q]
            train[k] = c
            emit(("refill", q, slot, c))
            if (first < 0 and (k == 0 or train[k - 1] < c) and (k == 6 or c < train[k + 1])
                    and is_ascending(train)):                   # T25, tested as in _place_drawn
                first = q
                if self._immediate:
                    break
        if first >= 0:
            self._win(first)

    def _win(self, p: int) -> None:
        """T25: an ascending train ends the game at once; that player wins."""
        self.winner = p
        self._emit(("win", p, self.turns + 1))

    # ------------------------------------------------------------------ results

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome:
        if self.phase != OVER:
            raise RuntimeError("outcome() of a game that is not over")
        n = self.n
        w = self.winner
        if w < 0:
            scores = (0.0,) * n
            ranks = (1,) * n
            shares = (0.0,) * n
        else:
            scores = tuple(1.0 if s == w else 0.0 for s in range(n))
            ranks = tuple(1 if s == w else 2 for s in range(n))
            shares = scores
        return Outcome(scores, ranks, shares, {
            "turns": self.turns, "capped": self.capped, "start_seat": self.start,
            "reshuffles": self.reshuffles}, running=self.running.close(standings(self.trains)))

    # ------------------------------------------------------------------ copies and views

    def observe(self, seat: int) -> Observation:
        """§8: see views.observe."""
        return _observe(self, seat)

    def determinize(self, seat: int, rng: np.random.Generator) -> TrainsState:
        """See views.determinize: exactly the hidden part is resampled."""
        return _determinize(self, seat, rng)

    def audit(self) -> list[str]:
        """See views.audit: 84 cards, zone rules, T11, T15, T25."""
        return _audit(self)

    def card_zones(self) -> dict[str, int]:
        """How many cards each zone holds (tests and analytics)."""
        return {
            "trains": 7 * self.n - sum(t.count(0) for t in self.trains),
            "locks": 7 * self.n - sum(lk.count(0) for lk in self.locks),
            "display": 9 - self.display.count(0),
            "draw": len(self.draw),
            "discard": len(self.discard),
            "pending": sum(map(len, self.hands)) + self.n - self.kept.count(0) + (1 if self.drawn else 0),
        }

def new_state(config: TrainsConfig, n_players: int, rng: np.random.Generator) -> TrainsState:
    return TrainsState(config, n_players, rng)

