"""6 nimmt! game state: simultaneous card play, the rule-4 row pick, rounds, the advanced draft."""

from __future__ import annotations

from bisect import bisect
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from simkit.engine.cloning import Cloning
from simkit.engine.errors import IllegalAction
from simkit.engine.game import Outcome, State
from simkit.engine.public_log import PublicLog
from simkit.engine.seeding import generator_from_state, generator_state
from simkit.games.sixnimmt import rules, views
from simkit.games.sixnimmt.actions import TAKE_ROW, TakeRow
from simkit.games.sixnimmt.config import DECK_SIZE, SixNimmtConfig
from simkit.games.sixnimmt.rules import DRAFT, OVER, PLAY, ROW_PICK, competition_ranks, row_points
from simkit.games.sixnimmt.views import PublicParts

_DECK = list(range(1, DECK_SIZE + 1))


def _deferred_generator(state: SixNimmtState) -> Callable[[], np.random.Generator] | None:
    """A clone's generator source: the original's stream from here on, built at its first draw."""
    rng = state._rng
    return partial(generator_from_state, generator_state(rng)) if rng is not None else state._rng_source


class SixNimmtState(State):
    __slots__ = ("config", "n", "_rng", "_rng_source", "rows", "low_ends", "low_rows", "hands",
                 "penalty", "points", "totals", "last_round", "round_log", "phase", "round", "turn",
                 "pending", "pending_at", "aside", "pool", "drafters", "draft_i", "round_one_drafter",
                 "seen", "events", "acting", "all_seats", "_outcome", "public_view", "public_log")
    cloning = Cloning(lists=("low_ends", "low_rows", "points", "totals", "last_round", "round_log",
                             "aside", "pool", "seen", "events"),
                      nested=("rows", "hands", "penalty"),
                      reset={"_rng": None, "public_log": None},
                      computed={"_rng_source": _deferred_generator})

    config: SixNimmtConfig
    n: int
    _rng: np.random.Generator | None
    #: makes the generator on first use (see `rng`); None once there is one
    _rng_source: Callable[[], np.random.Generator] | None
    rows: list[list[int]]
    low_ends: list[int]                 # the row ends, ascending
    low_rows: list[int]                 # the row of each of low_ends
    hands: list[list[int]]
    penalty: list[list[int]]            # this round's penalty pile per seat
    points: list[int]                   # bullheads in each penalty pile this round (N13)
    totals: list[int]
    last_round: list[int]
    round_log: list[tuple[float, ...]]  # each finished round's bullheads per seat
    phase: str
    round: int
    turn: int
    pending: tuple[tuple[int, int], ...]  # (card, seat) of this turn, ascending, while placing
    pending_at: int
    aside: list[int]
    pool: list[int]
    drafters: Sequence[int]             # seat of each draft pick in order (never changed)
    draft_i: int
    round_one_drafter: int
    seen: list[int]
    events: list[tuple]
    acting: tuple[int, ...]
    all_seats: tuple[int, ...]
    _outcome: Outcome | None
    public_view: tuple[int, PublicParts] | None   # views.observe's cache: (events logged, parts)
    public_log: PublicLog | None        # views.determinize's cache: the log in public form

    def __init__(self, config: SixNimmtConfig, n_players: int, rng: np.random.Generator):
        config.check_players(n_players)
        self._begin(config, n_players, rng)
        self._start_round()

    def _begin(self, config: SixNimmtConfig, n_players: int, rng: np.random.Generator) -> None:
        """The match-long fields, before the first round."""
        self.config = config
        self.n = n_players
        self.rng = rng
        self.totals = [0] * n_players
        self.last_round = [0] * n_players
        self.round_log = []
        self.round = 0
        self.round_one_drafter = -1
        self.events = []
        self._outcome = None
        self.public_view = None
        self.public_log = None
        self.all_seats = tuple(range(n_players))

    @classmethod
    def restore(cls, config: SixNimmtConfig, rng: np.random.Generator, *, round_no: int, turn: int,
                phase: str, rows: list[list[int]], hands: list[list[int]], piles: list[list[int]],
                totals: list[int], aside: list[int], pool: list[int], revealed: list[tuple[int, int]],
                round_one_drafter: int, round_log: list[tuple[float, ...]] | None = None) -> SixNimmtState:
        """A state from the parts of a position (position.py checks them first); the other fields
        are derived. `revealed`: (card, seat) of this turn in ascending order, during a row pick."""
        state = cls.__new__(cls)
        n = len(hands)
        state._begin(config, n, rng)
        state.round, state.turn, state.phase = round_no, turn, phase
        state.totals = list(totals)
        state.round_log = list(round_log or ())
        state.rows = [list(r) for r in rows]
        state._sort_ends()
        state.hands = [list(h) for h in hands]
        state.penalty = [list(p) for p in piles]
        state.points = [row_points(p) for p in piles]
        state.aside, state.pool = list(aside), list(pool)
        state.pending, state.pending_at = tuple(revealed), 0
        state.round_one_drafter = round_one_drafter
        state.seen = sorted([c for r in rows for c in r] + [c for p in piles for c in p]
                            + [c for c, _ in revealed])
        state.drafters, state.draft_i = (), 0
        state.acting = state.all_seats
        if phase == DRAFT:
            state.drafters = rules.draft_order(n, state._first_drafter(), n * config.hand_size)
            state.draft_i = sum(len(h) for h in hands)
            state.acting = (state.drafters[state.draft_i],)
        elif phase == ROW_PICK:
            state.acting = (revealed[0][1],)
        elif phase == OVER:
            state.acting = ()
            state.last_round = state.points
            state._outcome = state._final_outcome()
        state.events.append(("position", round_no, turn, tuple(map(tuple, rows))))
        return state

    # ---- round setup -------------------------------------------------------------------
    def _start_round(self) -> None:
        """N1-N4 (basic) or N18-N19 (advanced): a fresh deal from the full deck."""
        config, n = self.config, self.n
        self.round += 1
        self.turn = 0
        self.penalty = [[] for _ in range(n)]
        self.points = [0] * n           # bullheads in each penalty pile this round (N13)
        self.pending = ()
        self.pending_at = 0
        h = config.hand_size
        if config.advanced:
            self.pool = list(range(1, config.deck_cards(n) + 1))
            self.aside = []
            self.hands = [[] for _ in range(n)]
            self.rows = []
            self.low_ends = []
            self.low_rows = []
            self.seen = []
            if self.round_one_drafter < 0 and config.first_drafter == "random_then_rotate":
                self.round_one_drafter = int(self.rng.integers(n))
            first = self._first_drafter()
            self.drafters = rules.draft_order(n, first, n * h)
            self.draft_i = 0
            self.phase = DRAFT
            self.acting = (first,)
            self.events.append(("draft_start", self.round, first, tuple(self.pool)))
            return
        # shuffle of a list swaps exactly as permutation() of the array 1..104 (tested), with
        # no array made and converted back
        deck = _DECK.copy()
        self.rng.shuffle(deck)
        self.hands = [deck[k * h:(k + 1) * h] for k in range(n)]
        dealt = n * h
        self.seen = deck[dealt:dealt + config.rows]
        self.rows = [[c] for c in self.seen]
        self._sort_ends()
        self.aside = deck[dealt + config.rows:]
        self.pool = []
        self.drafters = ()
        self.draft_i = 0
        self.phase = PLAY
        self.acting = self.all_seats
        # hands are deck[k*h:(k+1)*h], then the row starts (the set-aside cards stay hidden)
        self.events.append(("deal", self.round, h, tuple(deck[:dealt + config.rows])))

    @property
    def rng(self) -> np.random.Generator:
        """The chance generator. Clones and determinized copies build theirs only when they
        first draw, from `_rng_source` (making a Generator costs ~15 µs, more than the rest
        of a clone, and most copies in a search never deal another round)."""
        rng = self._rng
        if rng is None:
            source = self._rng_source
            assert source is not None, "defer_rng gave a source"
            rng = self._rng = source()
        return rng

    @rng.setter
    def rng(self, rng: np.random.Generator) -> None:
        self._rng = rng
        self._rng_source = None

    def defer_rng(self, source: Callable[[], np.random.Generator]) -> None:
        """Let `source()` make the chance generator when it is first needed."""
        self._rng = None
        self._rng_source = source

    def _sort_ends(self) -> None:
        """The row ends (last cards, all N8 reads) in ascending order, and the row of each."""
        ends = [row[-1] for row in self.rows]
        self.low_rows = sorted(range(len(ends)), key=ends.__getitem__)
        self.low_ends = sorted(ends)

    def _first_drafter(self) -> int:
        return rules.first_drafter(self.config.first_drafter, self.totals, self.round, self.round_one_drafter)

    # ---- protocol ----------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return self.acting

    def legal_actions(self, seat: int):
        phase = self.phase
        if phase == PLAY:
            return tuple(self.hands[seat])
        if not self.acting or seat != self.acting[0]:
            return ()
        if phase == ROW_PICK:
            return TAKE_ROW[:len(self.rows)]
        if phase == DRAFT:
            return tuple(self.pool)
        return ()

    def is_legal(self, seat: int, action) -> bool:
        phase = self.phase
        if phase == PLAY:
            return type(action) is int and action in self.hands[seat]
        if not self.acting or seat != self.acting[0]:
            return False
        if phase == ROW_PICK:
            return type(action) is TakeRow and 0 <= action.row < len(self.rows)
        if phase == DRAFT:
            return type(action) is int and action in self.pool
        return False

    def is_over(self) -> bool:
        return self.phase == OVER

    def apply(self, actions) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(actions)
        elif phase == ROW_PICK:
            self._pick_row(actions)
        elif phase == DRAFT:
            self._draft(actions)
        else:
            raise IllegalAction("the game is over: no action is allowed")

    observe = views.observe
    determinize = views.determinize
    audit = views.audit

    # ---- N5-N12 ------------------------------------------------------------------------
    def _play(self, actions) -> None:
        """N5 simultaneous choice, N6 reveal in ascending order, then placement."""
        hands = self.hands
        if len(actions) != self.n:
            raise IllegalAction(f"expected one card per seat ({self.n}), got {len(actions)}", rule="N5")
        for hand, card in zip(hands, actions):
            if type(card) is not int or card not in hand:
                self._refuse_cards(actions)
        for hand, card in zip(hands, actions):
            hand.remove(card)
        plays = tuple(sorted(zip(actions, self.all_seats)))
        self.seen.extend(actions)
        self.events.append(("reveal", self.round, self.turn + 1, plays))
        self._resolve(plays, 0)

    def _refuse_cards(self, actions) -> None:
        for s, card in enumerate(actions):
            if type(card) is not int or card not in self.hands[s]:
                raise IllegalAction(f"seat {s} played {card!r}, which is not a card in its hand "
                                    f"{sorted(self.hands[s])}", seat=s, rule="N5")

    def _resolve(self, plays, i: int) -> None:
        """N7-N9 forced placement, pausing for the N10 row pick; then the turn ends.

        N8 bisects the ascending row ends (what rules.target_row computes): a card replaces the
        highest end below it, so they stay ascending and each keeps its row. Only the turn's
        lowest card can trigger N10: every card placed is an end below the later ones."""
        low = self.low_ends
        if not i and plays[0][0] < low[0]:
            self.pending = plays
            self.pending_at = 0
            self.phase = ROW_PICK
            self.acting = (plays[0][1],)
            return
        rows = self.rows
        low_rows = self.low_rows
        capacity = self.config.row_capacity
        events = self.events
        for card, s in plays[i:] if i else plays:
            k = bisect(low, card) - 1
            low[k] = card
            best = low_rows[k]
            row = rows[best]
            if len(row) < capacity:
                row.append(card)
                events.append(("place", s, card, best))
            else:
                self._take(s, best, card, "full")
        self.pending = ()
        self.turn += 1
        self.phase = PLAY
        self.acting = self.all_seats
        if not self.hands[0]:
            self._end_round()

    def _take(self, seat: int, r: int, card: int, cause: str) -> None:
        """N9/N10/N11: `seat` takes row `r` into its penalty pile; `card` starts the row."""
        taken = self.rows[r]
        self.penalty[seat].extend(taken)
        self.points[seat] += row_points(taken)
        self.events.append(("take", seat, r, tuple(taken), card, cause))
        self.rows[r] = [card]

    def _pick_row(self, actions) -> None:
        """N10 the player takes the row of their choice; their card starts it."""
        seat = self.acting[0]
        if len(actions) != 1:
            raise IllegalAction(f"expected one row choice from seat {seat}", seat=seat, rule="N10")
        action = actions[0]
        if type(action) is not TakeRow or not 0 <= action.row < len(self.rows):
            raise IllegalAction(f"seat {seat} must take a row: allowed are "
                                f"{', '.join(str(a) for a in TAKE_ROW[:len(self.rows)])}, got {action!r}",
                                seat=seat, rule="N10")
        row = action.row
        card = self.pending[self.pending_at][0]
        self._take(seat, row, card, "lowest")
        low_ends, low_rows = self.low_ends, self.low_rows
        k = low_rows.index(row)                   # the card is below every end: it goes first
        low_ends[1:k + 1] = low_ends[:k]
        low_rows[1:k + 1] = low_rows[:k]
        low_ends[0] = card
        low_rows[0] = row
        self.phase = PLAY
        self.acting = self.all_seats
        self._resolve(self.pending, self.pending_at + 1)

    def _end_round(self) -> None:
        """N13 round scoring, N15-N17 end of match."""
        points = self.points
        totals = self.totals
        for s in range(self.n):
            totals[s] += points[s]
        self.last_round = points
        self.round_log.append(tuple(map(float, points)))
        self.events.append(("round_end", self.round, tuple(points), tuple(totals)))
        if rules.match_over(totals, self.round, self.config):
            self.phase = OVER
            self.acting = ()
            self._outcome = out = self._final_outcome()
            winners = tuple([s for s, rank in enumerate(out.ranks) if rank == 1])    # Outcome.winners
            self.events.append(("end", winners, tuple(totals)))
        else:
            self._start_round()

    # ---- N19 ---------------------------------------------------------------------------
    def _draft(self, actions) -> None:
        seat = self.acting[0]
        card = actions[0] if len(actions) == 1 else None
        if type(card) is not int or card not in self.pool:
            raise IllegalAction(f"seat {seat} must draft a card from the pool, got {card!r}",
                                seat=seat, rule="N19")
        self.pool.remove(card)
        self.hands[seat].append(card)
        self.events.append(("draft", seat, card))
        self.draft_i += 1
        if self.draft_i < len(self.drafters):
            self.acting = (self.drafters[self.draft_i],)
            return
        self.rows = [[c] for c in sorted(self.pool)]
        self._sort_ends()
        self.seen = sorted(self.pool)
        self.pool = []
        self.phase = PLAY
        self.acting = self.all_seats
        self.events.append(("rows", self.round, tuple(self.seen)))

    # ---- results -----------------------------------------------------------------------
    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise IllegalAction("the game is not over yet")
        return self._outcome

    def _final_outcome(self) -> Outcome:
        """N17: fewest bullheads wins; ties by config.tie_break."""
        totals = self.totals
        ranks = competition_ranks(rules.standing_keys(totals, self.last_round, self.config.tie_break))
        k = ranks.count(1)          # rank 1: the winners of rules.winners
        share = 1.0 / k
        wins = tuple([share if r == 1 else 0.0 for r in ranks])
        return Outcome(tuple(map(float, totals)), ranks, wins, {"rounds": self.round},
                       self._round_scores())

    def _round_scores(self) -> tuple[tuple[float, ...], ...]:
        """Each round's bullheads per seat; () for a match restored from a position after its
        first round (its earlier rounds were not played here)."""
        rounds = self.round_log
        return tuple(rounds) if len(rounds) == self.round else ()


if TYPE_CHECKING:     # observe, determinize and audit are bound above: mypy checks what they read here
    _fields: type[views.SixNimmtFields] = SixNimmtState


def new_state(config: SixNimmtConfig, n_players: int, rng: np.random.Generator) -> SixNimmtState:
    """N1-N4 / N18-N19: a match at the start of its first round."""
    return SixNimmtState(config, n_players, rng)
