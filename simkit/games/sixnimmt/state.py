"""6 nimmt! game state: simultaneous card play, the rule-4 row pick, rounds, the advanced draft."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.core.game import Outcome, State, ranks_from_scores
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import BH, match_over

PLAY, ROW_PICK, DRAFT, OVER = "play", "row_pick", "draft", "over"


@dataclass(frozen=True, order=True)
class TakeRow:
    """N10 decision: take row `row` (0-based) when the card is below every row end."""

    row: int

    def __str__(self) -> str:
        return f"take row {self.row + 1}"


TAKE_ROW = tuple(TakeRow(r) for r in range(10))
_DECK = np.arange(1, 105)


class Observation(NamedTuple):
    """What one seat may see (§7). Hidden: other hands (basic game) and the set-aside cards.

    A NamedTuple: immutable, comparable, and cheap to build in the hot loop.
    """

    seat: int
    n_players: int
    phase: str
    round: int
    turn: int
    rows: tuple[tuple[int, ...], ...]
    hand: tuple[int, ...]
    totals: tuple[int, ...]                        # cumulative bullheads of finished rounds
    seen_cards: tuple[int, ...]                    # row starts and cards revealed this round
    revealed: tuple[tuple[int, int], ...]          # (card, seat) of this turn, during a row pick
    penalties: tuple[tuple[int, ...], ...] | None  # this round's penalty piles (public_penalties)
    round_points: tuple[int, ...] | None           # bullheads taken this round (public_penalties)
    hands: tuple[tuple[int, ...], ...] | None      # every hand: advanced game only (N19)
    pool: tuple[int, ...] | None                   # draft pool: advanced game only
    to_act: tuple[int, ...]


class SixNimmtState(State):
    __slots__ = ("config", "n", "rng", "rows", "hands", "penalty", "totals", "last_round",
                 "phase", "round", "turn", "pending", "pend_i", "aside", "pool", "drafters",
                 "draft_i", "first_drafter", "seen", "events", "_to_act", "_all", "_outcome", "points", "ends")

    def __init__(self, config: SixNimmtConfig, n_players: int, rng: np.random.Generator,
                 _empty: bool = False):
        if _empty:
            return
        config.check_players(n_players)
        self.config = config
        self.n = n_players
        self.rng = rng
        self.totals = [0] * n_players
        self.last_round = [0] * n_players
        self.round = 0
        self.first_drafter = -1
        self.events: list = []
        self._outcome = None
        self._all = tuple(range(n_players))
        self._start_round()

    # ---- round setup -------------------------------------------------------------------
    def _start_round(self) -> None:
        """N1-N4 (basic) or N18-N19 (advanced): a fresh deal from the full deck."""
        cfg, n = self.config, self.n
        self.round += 1
        self.turn = 0
        self.penalty = [[] for _ in range(n)]
        self.points = [0] * n           # bullheads in each penalty pile this round (N13)
        self.pending = ()
        self.pend_i = 0
        h = cfg.hand_size
        if cfg.advanced:
            self.pool = list(range(1, cfg.deck_cards(n) + 1))
            self.aside = []
            self.hands = [[] for _ in range(n)]
            self.rows = []
            self.ends = []
            self.seen = []
            first = self._choose_first_drafter()
            self.drafters = [(first + k) % n for k in range(n * h)]
            self.draft_i = 0
            self.phase = DRAFT
            self._to_act = (first,)
            self.events.append(("draft_start", self.round, first, tuple(self.pool)))
            return
        deck = self.rng.permutation(_DECK).tolist()
        self.hands = [deck[k * h:(k + 1) * h] for k in range(n)]
        dealt = n * h
        self.seen = deck[dealt:dealt + cfg.rows]
        self.rows = [[c] for c in self.seen]
        self.ends = list(self.seen)     # the last card of each row (the N8 search reads only these)
        self.aside = deck[dealt + cfg.rows:]
        self.pool = []
        self.phase = PLAY
        self._to_act = self._all
        # hands are deck[k*h:(k+1)*h], then the row starts (the set-aside cards stay hidden)
        self.events.append(("deal", self.round, h, tuple(deck[:dealt + cfg.rows])))

    def _choose_first_drafter(self) -> int:
        """N19 [CHOICE] first drafter."""
        rule = self.config.first_drafter
        if rule == "seat0":
            return 0
        if rule == "highest_total":
            top = max(self.totals)
            return self.totals.index(top)
        if self.first_drafter < 0:
            self.first_drafter = int(self.rng.integers(self.n))
        return (self.first_drafter + self.round - 1) % self.n

    # ---- protocol ----------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def legal_actions(self, seat: int):
        phase = self.phase
        if phase == PLAY:
            return tuple(self.hands[seat])
        if not self._to_act or seat != self._to_act[0]:
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
        if not self._to_act or seat != self._to_act[0]:
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

    # ---- N5-N12 ------------------------------------------------------------------------
    def _play(self, actions) -> None:
        """N5 simultaneous choice, N6 reveal in ascending order, then placement."""
        hands = self.hands
        if len(actions) != self.n:
            raise IllegalAction(f"expected one card per seat ({self.n}), got {len(actions)}", rule="N5")
        for s, card in enumerate(actions):
            if type(card) is not int or card not in hands[s]:
                raise IllegalAction(f"seat {s} played {card!r}, which is not a card in its hand "
                                    f"{sorted(hands[s])}", seat=s, rule="N5")
        for hand, card in zip(hands, actions):
            hand.remove(card)
        plays = tuple(sorted(zip(actions, self._all)))
        self.seen.extend(actions)
        self.events.append(("reveal", self.round, self.turn + 1, plays))
        self._resolve(plays, 0)

    def _resolve(self, plays, i: int) -> None:
        """N7-N9 forced placement, pausing for the N10 row pick."""
        rows = self.rows
        ends = self.ends
        cap = self.config.row_capacity
        events = self.events
        n_plays = len(plays)
        while i < n_plays:
            card, s = plays[i]
            best = -1
            best_end = r = 0
            for end in ends:
                if best_end < end < card:
                    best = r
                    best_end = end
                r += 1
            if best < 0:
                # N10; only the turn's lowest card can get here (every placed card is an end below later ones)
                assert i == 0, "N10 triggered by a card other than the turn's lowest"
                self.pending = plays
                self.pend_i = i
                self.phase = ROW_PICK
                self._to_act = (s,)
                return
            row = rows[best]
            if len(row) >= cap:
                self.penalty[s].extend(row)
                self.points[s] += sum([BH[c] for c in row])
                events.append(("take", s, best, tuple(row), card, "full"))
                rows[best] = [card]
            else:
                row.append(card)
                events.append(("place", s, card, best))
            ends[best] = card
            i += 1
        self.pending = ()
        self._end_turn()

    def _pick_row(self, actions) -> None:
        """N10 the player takes the row of their choice; their card starts it."""
        seat = self._to_act[0]
        if len(actions) != 1:
            raise IllegalAction(f"expected one row choice from seat {seat}", seat=seat, rule="N10")
        action = actions[0]
        if type(action) is not TakeRow or not 0 <= action.row < len(self.rows):
            raise IllegalAction(f"seat {seat} must take a row: allowed are "
                                f"{', '.join(str(a) for a in TAKE_ROW[:len(self.rows)])}, got {action!r}",
                                seat=seat, rule="N10")
        card = self.pending[self.pend_i][0]
        taken = self.rows[action.row]
        self.penalty[seat].extend(taken)
        self.points[seat] += sum([BH[c] for c in taken])
        self.events.append(("take", seat, action.row, tuple(taken), card, "lowest"))
        self.rows[action.row] = [card]
        self.ends[action.row] = card
        self.phase = PLAY
        self._to_act = self._all
        self._resolve(self.pending, self.pend_i + 1)

    def _end_turn(self) -> None:
        self.turn += 1
        self.phase = PLAY
        self._to_act = self._all
        if not self.hands[0]:
            self._end_round()

    def _end_round(self) -> None:
        """N13 round scoring, N15-N17 end of match."""
        cfg = self.config
        points = self.points
        totals = self.totals
        for s in range(self.n):
            totals[s] += points[s]
        self.last_round = points
        self.events.append(("round_end", self.round, tuple(points), tuple(totals)))
        over = match_over(totals, self.round, cfg.end_threshold, cfg.end_inclusive, cfg.max_rounds)
        if over and cfg.tie_break == "play_on" and totals.count(min(totals)) > 1:
            over = cfg.max_rounds is not None and self.round >= cfg.max_rounds
        if over:
            self.phase = OVER
            self._to_act = ()
            self._outcome = self._final_outcome()
            self.events.append(("end", self._outcome.winners, tuple(totals)))
        else:
            self._start_round()

    # ---- N19 ---------------------------------------------------------------------------
    def _draft(self, actions) -> None:
        seat = self._to_act[0]
        card = actions[0] if len(actions) == 1 else None
        if type(card) is not int or card not in self.pool:
            raise IllegalAction(f"seat {seat} must draft a card from the pool, got {card!r}",
                                seat=seat, rule="N19")
        self.pool.remove(card)
        self.hands[seat].append(card)
        self.events.append(("draft", seat, card))
        self.draft_i += 1
        if self.draft_i < len(self.drafters):
            self._to_act = (self.drafters[self.draft_i],)
            return
        self.rows = [[c] for c in sorted(self.pool)]
        self.ends = sorted(self.pool)
        self.seen = sorted(self.pool)
        self.pool = []
        self.phase = PLAY
        self._to_act = self._all
        self.events.append(("rows", self.round, tuple(self.seen)))

    # ---- views -------------------------------------------------------------------------
    def observe(self, seat: int) -> Observation:
        cfg = self.config
        public = cfg.public_penalties
        revealed = tuple(self.pending) if self.phase == ROW_PICK else ()
        advanced = cfg.advanced
        return Observation(
            seat, self.n, self.phase, self.round, self.turn,
            tuple(map(tuple, self.rows)), tuple(sorted(self.hands[seat])),
            tuple(self.totals), tuple(self.seen), revealed,
            tuple(map(tuple, self.penalty)) if public else None,
            tuple(self.points) if public else None,
            tuple(tuple(sorted(h)) for h in self.hands) if advanced else None,
            tuple(self.pool) if advanced else None,
            self._to_act)

    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise IllegalAction("the game is not over yet")
        return self._outcome

    def _final_outcome(self) -> Outcome:
        """N17: fewest bullheads wins; ties by config.tie_break."""
        totals = self.totals
        if self.config.tie_break == "last_round":
            keys = [t * 1000 + lr for t, lr in zip(totals, self.last_round)]
        else:
            keys = totals
        ranks = ranks_from_scores(keys, higher_is_better=False)
        k = ranks.count(1)
        wins = tuple(1.0 / k if r == 1 else 0.0 for r in ranks)
        return Outcome(tuple(float(t) for t in totals), ranks, wins, {"rounds": self.round})

    def clone(self) -> "SixNimmtState":
        other = SixNimmtState.__new__(SixNimmtState)
        other.config = self.config
        other.n = self.n
        other.rng = copy.deepcopy(self.rng)
        other.rows = [list(r) for r in self.rows]
        other.ends = list(self.ends)
        other.hands = [list(h) for h in self.hands]
        other.penalty = [list(p) for p in self.penalty]
        other.points = list(self.points)
        other.totals = list(self.totals)
        other.last_round = list(self.last_round)
        other.phase = self.phase
        other.round = self.round
        other.turn = self.turn
        other.pending = self.pending
        other.pend_i = self.pend_i
        other.aside = list(self.aside)
        other.pool = list(self.pool)
        other.drafters = self.drafters if self.config.advanced else []
        other.draft_i = getattr(self, "draft_i", 0)
        other.first_drafter = self.first_drafter
        other.seen = list(self.seen)
        other.events = list(self.events)
        other._to_act = self._to_act
        other._all = self._all
        other._outcome = self._outcome
        return other

    def determinize(self, seat: int, rng: np.random.Generator) -> "SixNimmtState":
        """Other hands and the set-aside cards reshuffled; future deals drawn from `rng`."""
        other = self.clone()
        other.rng = np.random.Generator(np.random.PCG64(int(rng.integers(1 << 63))))
        if self.config.advanced:
            return other
        unknown = [c for s, h in enumerate(self.hands) if s != seat for c in h] + list(self.aside)
        order = rng.permutation(len(unknown)).tolist()
        shuffled = [unknown[i] for i in order]
        k = 0
        for s in range(self.n):
            if s == seat:
                continue
            size = len(self.hands[s])
            other.hands[s] = shuffled[k:k + size]
            k += size
        other.aside = shuffled[k:]
        return other

    def audit(self) -> list[str]:
        """Conservation of cards and the shape of the rows."""
        problems = []
        cfg = self.config
        deck = cfg.deck_cards(self.n)
        cards = [c for h in self.hands for c in h] + [c for r in self.rows for c in r]
        cards += [c for p in self.penalty for c in p] + list(self.aside) + list(self.pool)
        if self.phase == ROW_PICK:
            cards.append(self.pending[self.pend_i][0])
            cards += [c for c, _ in self.pending[self.pend_i + 1:]]
        if sorted(cards) != list(range(1, deck + 1)):
            problems.append(f"cards not conserved: {len(cards)} accounted for, {deck} in the deck")
        for i, row in enumerate(self.rows):
            if not 1 <= len(row) <= cfg.row_capacity:
                problems.append(f"row {i + 1} has {len(row)} cards (1..{cfg.row_capacity} allowed)")
            if any(a >= b for a, b in zip(row, row[1:])):
                problems.append(f"row {i + 1} is not ascending: {row}")
        if self.ends != [r[-1] for r in self.rows]:
            problems.append(f"row ends {self.ends} disagree with the rows")
        if self.phase in (PLAY, ROW_PICK) and len(self.rows) != cfg.rows:
            problems.append(f"{len(self.rows)} rows on the table, {cfg.rows} expected")
        if self.points != [sum(BH[c] for c in p) for p in self.penalty]:
            problems.append(f"round points {self.points} disagree with the penalty piles")
        sizes = {len(h) for h in self.hands}
        if self.phase == PLAY and len(sizes) > 1:
            problems.append(f"hands of unequal size {sorted(sizes)} between turns")
        return problems
