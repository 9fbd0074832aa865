"""Least immediate risk: play the card with the smallest expected penalty this turn."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from math import comb

from simkit.core.strategy import Decision, Strategy
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.rules import BH, DRAFT, row_points, target_row
from strategies.sixnimmt.baseline import cheapest_row


def _tail(k: int, n: int, q: float) -> float:
    """P(X >= k) for X ~ Binomial(n, q)."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, j) * q ** j * (1 - q) ** (n - j) for j in range(k, n + 1))


class HeuristicStrategy(Strategy):
    name = "heuristic"
    description = ("Plays the card with the least expected penalty given the rows and the unseen "
                   "cards; takes the cheapest row; drafts low-bullhead cards.")

    def __init__(self, caution: float = 1.0):
        if caution < 0:
            raise ValueError(f"caution={caution} is not allowed: it must be >= 0")
        self.caution = caution

    def act(self, decision: Decision):
        obs = decision.observation
        legal = decision.legal_actions
        if type(legal[0]) is TakeRow:
            return cheapest_row(obs.rows)
        if obs.phase == DRAFT:
            return self._draft(obs, legal)
        return self._choose_card(obs, legal)

    def _draft(self, obs, pool) -> int:
        """N19 pick: the fewest bullheads, then the card nearest the middle of the deck in play.

        The advanced deck holds only 1..hand_size*n+rows (N18), so the middle is measured on it,
        not on the 104-card deck: ranking by distance from 52 drafted the top cards of a 44-card
        deck, and with them lost to random (9 % against a fair 25 % in 4 players).
        """
        middle = (self.info.config.deck_cards(obs.n_players) + 1) / 2
        return min(pool, key=lambda c: (BH[c], abs(c - middle), c))

    def _choose_card(self, obs, hand) -> int:
        cap = self.info.config.row_capacity
        opponents = obs.n_players - 1
        known = set(obs.hand) | set(obs.seen_cards)
        deck = self.info.config.deck_cards(obs.n_players)
        unseen = [c for c in range(1, deck + 1) if c not in known]   # ascending
        n_unseen = max(1, len(unseen))
        ends = [r[-1] for r in obs.rows]
        costs = [row_points(r) for r in obs.rows]
        cheapest = min(costs)
        best_card, best_cost = hand[0], float("inf")
        for card in hand:
            r = target_row(ends, card)
            if r < 0:
                # N10: we take a row unless someone else plays lower first
                lower = bisect_left(unseen, card)
                q = lower / n_unseen
                p_saved = 1 - (1 - q) ** opponents
                cost = cheapest * (1 - p_saved) + 0.5 * p_saved
            else:
                row = obs.rows[r]
                free = cap - len(row)
                gap = bisect_left(unseen, card) - bisect_right(unseen, ends[r])
                q = gap / n_unseen
                p_take = _tail(free, opponents, q) if free > 0 else 1.0
                cost = p_take * (costs[r] + 1.5) * self.caution + 0.002 * gap
            cost -= 0.001 * BH[card]   # shed costly cards on ties
            if cost < best_cost:
                best_card, best_cost = card, cost
        return best_card
