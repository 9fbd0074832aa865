"""What the `heuristic` bot's past plays say about its hidden hand: the opponent model of a
search whose rollouts play `heuristic` (`ismcts:infer=true`, docs/search.md).

The heuristic plays the card of least expected cost in its hand (heuristic.py). So at every
turn of this round where a seat revealed card X with more than one card in hand (N5, N6), every
card still in its hand then cost at least as much as X. A card c that the seat may hold now was
in its hand at every earlier turn of the round, so c is **ruled out** for that seat if at some
earlier turn it would have cost less than X (by more than `TOLERANCE`). The costs are the
heuristic's own tables (`turn_costs`), computed on the hand made of the seat's known cards of that
turn (X and its later plays) plus c: the seat's other unknown cards are left out, which is why
a tolerance is kept.

`HeuristicModel.resample(state, rng)` then redeals a determinized state's hidden cards (the
other hands and the set-aside cards, the same set) so that each other seat gets cards it is not
ruled out from, where there are enough (else it is filled with any): the most constrained seat
first, each from one shuffle of the hidden cards. Only the basic game (the advanced game's
hands are public, N19).

A seat that is seen not to play like the heuristic gets no constraint: if at some turn a card
it played later (so held then) would have cost less than the card it revealed, its hand is
dealt uniformly as without the model (against `random` players the model would otherwise rule
out the cards they hold and mislead the search).
"""

from __future__ import annotations

from bisect import bisect_left

import numpy as np

from simkit.games.sixnimmt.rules import PLAY, ROW_PICK
from strategies.sixnimmt.turn_table import SHED, Turn, turn_costs

#: cost by which a card must undercut the card played to be ruled out (the tables leave out
#: the seat's unknown cards, which shift both costs a little)
TOLERANCE = 0.01


def _cost(turn: Turn, card: int, own: list[int], extra: int) -> float:
    """The heuristic's cost of `card` with the sorted own cards `own` plus the card `extra`
    (what `HeuristicStrategy._choose_card` computes for one card of that hand)."""
    ends = turn.ends
    k = bisect_left(ends, card)
    below = bisect_left(own, card) + (extra < card)
    if k == 0:
        costs = turn.low_card_costs
        index = turn.not_seen_below[card] - below
    else:
        end = ends[k - 1]
        end_unseen, costs = turn.targets[k - 1]
        end_unseen -= bisect_left(own, end) + (extra < end)
        index = turn.not_seen_below[card] - below - end_unseen
    if index >= len(costs):
        index = len(costs) - 1
    return costs[index] - SHED[card]


def _costs_of_played(turn: Turn, x: int, own: list[int]) -> tuple[int, float, float, float]:
    """`_cost(turn, x, own, c)` for every extra card c other than x, which depends on c only by
    where c falls (below the end of the row x goes to, or below x): (that end, or x when x goes
    below every row; the cost for a c below it, for a c between it and x, for a c above x)."""
    k = bisect_left(turn.ends, x)
    end = turn.ends[k - 1] if k else x
    return end, _cost(turn, x, own, 0), _cost(turn, x, own, end), _cost(turn, x, own, x + 1)


def _turns_of_round(state) -> list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple]]:
    """(rows, seen cards, plays) before each reveal of the current round, from the public log."""
    rows: list[list[int]] = []
    seen: list[int] = []
    turns: list[tuple] = []
    current = state.round
    for event in state.events:
        kind = event[0]
        if kind == "rows" or kind == "position":
            if event[1] == current:
                rows = [[c] for c in event[2]] if kind == "rows" else [list(r) for r in event[3]]
                seen = [c for r in rows for c in r]
                turns = []
        elif kind == "reveal":
            if event[1] == current and rows:
                turns.append((tuple(map(tuple, rows)), tuple(seen), event[3]))
                seen.extend(c for c, _ in event[3])
        elif kind == "place":
            if rows:
                rows[event[3]].append(event[2])
        elif kind == "take":
            if rows:
                rows[event[2]] = [event[4]]
    return turns


class HeuristicModel:
    """Per other seat, the hidden cards it may hold (None: anything)."""

    def __init__(self, allowed: list[frozenset[int] | None]):
        self.allowed = allowed
        #: the seats with a constraint, the most constrained first
        self.order = sorted((s for s, a in enumerate(allowed) if a is not None),
                            key=lambda s: len(allowed[s] or ()))

    def resample(self, state, rng: np.random.Generator) -> None:
        """Redeal `state`'s hidden cards (other hands, set-aside) by the model, in place."""
        if self.order:
            self.redeal(state, rng, self.order)

    def redeal(self, state, rng: np.random.Generator, seats: list[int]) -> None:
        """Redeal the hands of `seats` (in this order) and the set-aside cards: one shuffle of
        those cards, each seat taking the first cards it is not ruled out from (filled with any
        where there are too few), the set-aside the rest."""
        hands = state.hands
        hidden = [c for s in seats for c in hands[s]] + list(state.aside)
        shuffled = [hidden[i] for i in rng.permutation(len(hidden)).tolist()]
        taken: set[int] = set()
        for s in seats:
            allowed = self.allowed[s]
            need = len(hands[s])
            hand = [c for c in shuffled if c in allowed and c not in taken][:need]   # type: ignore[operator]
            if len(hand) < need:
                hand += [c for c in shuffled if c not in taken and c not in hand][:need - len(hand)]
            taken.update(hand)
            hands[s] = hand
        state.aside = [c for c in shuffled if c not in taken]


def plays_by_seat(turns: list, n: int) -> list[list[int]]:
    """Per seat, its cards of the round's `turns` in turn order."""
    played: list[list[int]] = [[] for _ in range(n)]
    for _, _, plays in turns:
        for card, s in plays:
            played[s].append(card)
    return played


def seat_turns(state, seat: int, turns: list, played: list[int], caution: float):
    """(the heuristic's cost table, the cards `seat` held then that are known now) for each turn
    of the round where it chose among 2 or more cards; `played`: its cards by turn."""
    config = state.config
    n = state.n
    deck = config.deck_cards(n)
    for t, (rows, seen, _) in enumerate(turns):
        known = played[t:]
        size = len(known) + len(state.hands[seat])
        if size < 2:
            continue
        unseen = deck - len(seen) - size
        yield turn_costs(rows, seen, deck, unseen if unseen > 1 else 1, n - 1,
                         config.row_capacity, caution), known


def heuristic_model(state, seat: int, caution: float = 1.0) -> HeuristicModel | None:
    """The model of the other seats as `heuristic:caution=...` players, from the public log of
    the determinized `state` (what `seat` sees); None where it says nothing (advanced game)."""
    config = state.config
    if config.advanced or state.phase not in (PLAY, ROW_PICK):
        return None
    n = state.n
    hidden = [c for s in range(n) if s != seat for c in state.hands[s]] + list(state.aside)
    turns = _turns_of_round(state)
    played = plays_by_seat(turns, n)
    allowed: list[frozenset[int] | None] = [None] * n
    for s in range(n):
        if s == seat or not played[s]:
            continue
        ok = set(hidden)
        like_heuristic = True
        for table, known in seat_turns(state, s, turns, played[s], caution):
            own = sorted(known)
            x = known[0]
            cost_x = _cost(table, x, own, x)
            if any(_cost(table, k, own, k) < cost_x - TOLERANCE for k in known[1:]):
                like_heuristic = False      # it held a card the heuristic prefers
                break
            end, below, between, above = _costs_of_played(table, x, own)
            for c in list(ok):
                cost_x = below if c < end else between if c < x else above
                if _cost(table, c, own, c) < cost_x - TOLERANCE:
                    ok.discard(c)
        allowed[s] = frozenset(ok) if like_heuristic else None
    return HeuristicModel(allowed)
