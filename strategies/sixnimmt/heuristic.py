"""Least immediate risk: play the card with the smallest expected penalty this turn."""

from __future__ import annotations

import functools

from simkit.engine.strategy import Decision, Strategy
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import BH, DRAFT
from strategies.sixnimmt.baseline import cheapest_row
from strategies.sixnimmt.turn_table import INF, SHED, turn_costs


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

    def opponent_model(self, state, seat: int, joint: bool = False):
        """What the other seats' past plays say about their hands if they play like this bot
        (a search's `infer` option; model.py), from a determinized state of `seat`; with `joint`
        (`ismcts:joint=true`), each dealt hand also checked as a whole (joint_model.py)."""
        if joint:
            from strategies.sixnimmt.joint_model import joint_model
            return joint_model(state, seat, self.caution)
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
        turn = turn_costs(obs.rows, seen, deck, unseen_total if unseen_total > 1 else 1,
                          obs.n_players - 1, config.row_capacity, self.caution)
        ends, targets, not_seen_below = turn.ends, turn.targets, turn.not_seen_below
        t, next_end = 0, ends[0]
        end_unseen, costs = 0, turn.low_card_costs    # below every row, by unseen cards below
        best_card, best_cost = legal[0], INF
        for own_below, card in enumerate(hand):
            while card > next_end:   # the row this card goes to (N8) is the next one up
                end_unseen, costs = targets[t]
                end_unseen -= own_below
                t += 1
                next_end = ends[t]
            # by the unseen cards between the row's end and this card
            cost = costs[not_seen_below[card] - own_below - end_unseen]
            cost -= SHED[card]   # shed costly cards on ties
            if cost < best_cost or (cost == best_cost and legal.index(card) < legal.index(best_card)):
                best_card, best_cost = card, cost
        return best_card


