"""Least immediate risk: play the card with the smallest expected penalty this turn."""

from __future__ import annotations

import functools
from itertools import accumulate
from math import comb
from operator import itemgetter
from typing import NamedTuple

from simkit.engine.strategy import Decision, Strategy
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import BH, DRAFT, row_points
from strategies.sixnimmt.baseline import cheapest_row

#: the tie-break terms of a card's cost, per bullhead count and per gap: the same floats as
#: computing 0.001 * BH[card] and 0.002 * gap in place
_SHED = tuple(0.001 * b for b in BH)
_GAP_COST = tuple(0.002 * gap for gap in range(105))
_INF = float("inf")
_ABOVE_EVERY_CARD = 1 << 30
_last_card = itemgetter(-1)


def _tail(k: int, n: int, q: float) -> float:
    """P(X >= k) for X ~ Binomial(n, q)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, j) * q ** j * (1 - q) ** (n - j) for j in range(k, n + 1))


@functools.cache
def _take_chances(free: int, opponents: int, n_unseen: int) -> tuple[float, ...]:
    """By gap (unseen cards between a row's end and our card): the chance that the opponents
    fill the row's `free` places first."""
    return tuple(_tail(free, opponents, gap / n_unseen) if free > 0 else 1.0
                 for gap in range(n_unseen + 1))


@functools.lru_cache(maxsize=4096)
def _row_costs(free: int, opponents: int, n_unseen: int, points: int, caution: float) -> tuple[float, ...]:
    """By gap: the cost of a card put on a row of `points` bullheads with `free` places."""
    stake = points + 1.5    # the row, and the card left in it
    return tuple(p_take * stake * caution + _GAP_COST[gap]
                 for gap, p_take in enumerate(_take_chances(free, opponents, n_unseen)))


@functools.lru_cache(maxsize=4096)
def _low_card_costs(opponents: int, n_unseen: int, cheapest: int) -> tuple[float, ...]:
    """By the unseen cards below ours: the cost of a card below every row (N10), which takes
    the cheapest row unless an opponent plays lower first."""
    saved = (1 - (1 - lower / n_unseen) ** opponents for lower in range(n_unseen + 1))
    return tuple(cheapest * (1 - p_saved) + 0.5 * p_saved for p_saved in saved)


@functools.cache
def _draft_rank(deck: int) -> list[int]:
    """By card: its place in the N19 draft order of a deck 1..deck (see _draft)."""
    middle = (deck + 1) / 2
    order = sorted(range(1, deck + 1), key=lambda c: (BH[c], abs(c - middle), c))
    rank = [0] * (deck + 1)
    for place, card in enumerate(order):
        rank[card] = place
    return rank


class HeuristicStrategy(Strategy[SixNimmtConfig]):
    name = "heuristic"
    kernel_form = "strategies.sixnimmt.kernels:HEURISTIC"
    description = ("Plays the card with the least expected penalty given the rows and the unseen "
                   "cards; takes the cheapest row; drafts low-bullhead cards.")

    reusable = True     # nothing is kept from a game: the turn memo is keyed by what it holds

    def __init__(self, caution: float = 1.0):
        if caution < 0:
            raise ValueError(f"caution={caution} is not allowed: it must be >= 0")
        self.caution = caution

    def act(self, decision: Decision):
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]             # the only choice, whatever its cost
        obs = decision.observation
        if type(legal[0]) is TakeRow:
            return cheapest_row(obs.rows)
        if obs.phase == DRAFT:
            return self._draft(obs, legal)
        return self._choose_card(obs, legal)

    def opponent_model(self, state, seat: int):
        """What the other seats' past plays say about their hands if they play like this bot
        (a search's `infer` option; model.py), from a determinized state of `seat`."""
        from strategies.sixnimmt.model import heuristic_model
        return heuristic_model(state, seat, self.caution)

    def _draft(self, obs, pool) -> int:
        """N19 pick: the fewest bullheads, then the card nearest the middle of the deck in play.

        The advanced deck holds only 1..hand_size*n+rows (N18), so the middle is measured on it,
        not on the 104-card deck: ranking by distance from 52 drafted the top cards of a 44-card
        deck, and with them lost to random (9 % against a fair 25 % in 4 players).
        """
        return min(pool, key=_draft_rank(self.info.config.deck_cards(obs.n_players)).__getitem__)

    def _choose_card(self, obs, legal) -> int:
        """The card of least expected cost; the first in `legal` order among equal costs.

        Walks the hand in ascending order (obs.hand is the sorted hand, the same cards as
        `legal`), so a card's rank in the hand counts the own cards below it, and the row it
        goes to (N8) only moves up.
        """
        config = self.info.config
        hand, seen = obs.hand, obs.seen_cards
        deck = config.deck_cards(obs.n_players)
        unseen_total = deck - len(seen) - len(hand)   # a card is in this hand or seen, never both
        turn = _turn(obs.rows, seen, deck, unseen_total if unseen_total > 1 else 1,
                     obs.n_players - 1, config.row_capacity, self.caution)
        ends, targets, not_seen_below = turn.ends, turn.targets, turn.not_seen_below
        t, next_end = 0, ends[0]
        end_unseen, costs = 0, turn.low_card_costs    # below every row, by unseen cards below
        best_card, best_cost = legal[0], _INF
        for own_below, card in enumerate(hand):
            while card > next_end:   # the row this card goes to (N8) is the next one up
                end_unseen, costs = targets[t]
                end_unseen -= own_below
                t += 1
                next_end = ends[t]
            # by the unseen cards between the row's end and this card
            cost = costs[not_seen_below[card] - own_below - end_unseen]
            cost -= _SHED[card]   # shed costly cards on ties
            if cost < best_cost or (cost == best_cost and legal.index(card) < legal.index(best_card)):
                best_card, best_cost = card, cost
        return best_card


class _Turn(NamedTuple):
    """What every seat's card choice reads from the public cards of a turn."""

    not_seen_below: list[int]   # by card value v: the cards 1..v-1 not seen (own cards included)
    ends: list[int]             # the row ends, ascending, then a sentinel above every card
    #: per row, in the order of `ends`: its not_seen_below and its _row_costs
    targets: list[tuple[int, tuple[float, ...]]]
    low_card_costs: tuple[float, ...]


_last_turn: tuple = ((), None)


def _turn(rows, seen, deck: int, n_unseen: int, opponents: int, capacity: int,
          caution: float) -> _Turn:
    """The table of a turn, memoised for the last key: the seats of a turn see the same public
    cards, so all but the first reuse its table (equal keys, equal tables)."""
    global _last_turn
    key = (rows, seen, deck, n_unseen, opponents, capacity, caution)
    last_key, turn = _last_turn
    if key != last_key:
        turn = _new_turn(rows, seen, deck, n_unseen, opponents, capacity, caution)
        _last_turn = (key, turn)
    return turn


def _new_turn(rows, seen, deck: int, n_unseen: int, opponents: int, capacity: int,
              caution: float) -> _Turn:
    not_seen = bytearray(b"\0" + b"\1" * deck)
    for card in seen:
        not_seen[card] = 0
    not_seen_below = list(accumulate(not_seen, initial=0))
    by_end = sorted(rows, key=_last_card)
    points = list(map(row_points, by_end))
    targets = [(not_seen_below[row[-1]], _row_costs(capacity - len(row), opponents, n_unseen, p, caution))
               for row, p in zip(by_end, points)]
    return _Turn(not_seen_below, [row[-1] for row in by_end] + [_ABOVE_EVERY_CARD], targets,
                 _low_card_costs(opponents, n_unseen, min(points)))
