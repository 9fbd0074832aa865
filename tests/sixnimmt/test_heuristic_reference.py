"""The fast `heuristic` chooses exactly as the straightforward one it replaced (issue 12).

`ReferenceHeuristic` is the pre-issue-12 code, kept as the slow reference: per decision it lists
the unseen cards, finds each card's row and sums the binomial tail. The tests play thousands of
decisions (the heuristic's own and random moves mixed, so positions vary) under several rule sets
and compare every choice: card plays, N10 row picks and N19 drafts.
"""

from __future__ import annotations

import functools
from bisect import bisect_left, bisect_right
from math import comb

import numpy as np
import pytest

from simkit.engine.play import play_game, play_out, play_range
from simkit.engine.runner import RunSpec
from simkit.engine.strategy import Decision, GameInfo, Strategy
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import BH, DRAFT, row_points, target_row
from strategies.sixnimmt.heuristic import HeuristicStrategy
from tests.sixnimmt.helpers import make_state, new_game


def _tail(k: int, n: int, q: float) -> float:
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    return sum(comb(n, j) * q ** j * (1 - q) ** (n - j) for j in range(k, n + 1))


class ReferenceHeuristic(Strategy):
    """The heuristic as written before issue 12 (commit 1a758f7), unchanged in substance."""

    def __init__(self, caution: float = 1.0):
        self.caution = caution

    def act(self, decision):
        obs = decision.observation
        legal = decision.legal_actions
        if type(legal[0]) is TakeRow:
            costs = [row_points(r) for r in obs.rows]
            return TakeRow(costs.index(min(costs)))
        if obs.phase == DRAFT:
            middle = (self.info.config.deck_cards(obs.n_players) + 1) / 2
            return min(legal, key=lambda c: (BH[c], abs(c - middle), c))
        return self._choose_card(obs, legal)

    def _choose_card(self, obs, hand) -> int:
        cap = self.info.config.row_capacity
        opponents = obs.n_players - 1
        known = set(obs.hand) | set(obs.seen_cards)
        deck = self.info.config.deck_cards(obs.n_players)
        unseen = [c for c in range(1, deck + 1) if c not in known]
        n_unseen = max(1, len(unseen))
        ends = [r[-1] for r in obs.rows]
        costs = [row_points(r) for r in obs.rows]
        cheapest = min(costs)
        best_card, best_cost = hand[0], float("inf")
        for card in hand:
            r = target_row(ends, card)
            if r < 0:
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
            cost -= 0.001 * BH[card]
            if cost < best_cost:
                best_card, best_cost = card, cost
        return best_card


class _Checker(Strategy):
    """Asks both heuristics at every decision of its seat and records what each chose; plays the
    heuristic's choice or, with probability `wander`, a random legal action."""

    def __init__(self, caution: float, wander: float, seed: int, log: list):
        self.fast, self.reference = HeuristicStrategy(caution), ReferenceHeuristic(caution)
        self.wander, self.own_rng, self.log = wander, np.random.default_rng(seed), log

    def setup(self, info, seat, rng) -> None:
        super().setup(info, seat, rng)
        self.fast.setup(info, seat, rng)
        self.reference.setup(info, seat, rng)

    def act(self, decision):
        draws = decision.rng.bit_generator.state
        fast = self.fast.act(decision)
        untouched = decision.rng.bit_generator.state == draws
        expected = self.reference.act(decision)
        legal = decision.legal_actions
        kind = "row" if type(legal[0]) is TakeRow else decision.observation.phase
        self.log.append((kind, len(legal), fast, expected, untouched))
        if self.own_rng.random() < self.wander:
            return legal[int(self.own_rng.integers(len(legal)))]
        return fast


def _play(config: SixNimmtConfig, n: int, games: int, cautions: tuple[float, ...], seed: int) -> list:
    log: list = []
    for g in range(games):
        state = new_game(config, n, seed + g)
        lineup = [_Checker(cautions[s % len(cautions)], 0.3, seed * 1000 + g * n + s, log)
                  for s in range(n)]
        rngs = [np.random.default_rng([seed, g, s]) for s in range(n)]
        play_out(state, lineup, GameInfo("sixnimmt", config, n), rngs, forfeit_on_error=False)
        assert state.is_over()
    return log


CASES = {
    "basic 4p": (SixNimmtConfig(max_rounds=1), 4, (1.0,)),
    "basic 2p, cautions 0 and 2.5": (SixNimmtConfig(max_rounds=2), 2, (0.0, 2.5)),
    "basic 10p": (SixNimmtConfig(max_rounds=1), 10, (1.0, 0.5)),
    "basic 6p, 3 rows of 3, 7 cards": (SixNimmtConfig(max_rounds=1, rows=3, row_capacity=3, hand_size=7), 6,
                                       (1.0,)),
    "advanced 4p": (SixNimmtConfig(advanced=True, max_rounds=2), 4, (1.0, 3.0)),
    "advanced 3p, rows of 2": (SixNimmtConfig(advanced=True, max_rounds=1, row_capacity=2), 3, (1.0,)),
}


@functools.cache
def _log(case: str) -> list:
    config, n, cautions = CASES[case]
    return _play(config, n, 40, cautions, seed=sum(map(ord, case)))


@pytest.mark.parametrize("case", CASES)
def test_fast_heuristic_chooses_as_the_reference(case):
    config = CASES[case][0]
    log = _log(case)
    differ = [(kind, fast, expected) for kind, _, fast, expected, _ in log if fast != expected]
    assert not differ, f"{len(differ)} of {len(log)} decisions differ, e.g. {differ[:5]}"
    assert all(untouched for *_, untouched in log), "the heuristic drew from the seat's generator"
    kinds = {kind for kind, size, *_ in log if size > 1}
    assert {"play", "row"} <= kinds
    if config.advanced:
        assert DRAFT in kinds


def test_thousands_of_decisions_of_every_kind_are_compared():
    """Guards the test above against comparing too little: the cases together hold thousands of
    card choices among several cards, and many row picks and drafts."""
    log = [entry for case in CASES for entry in _log(case)]
    choices = [kind for kind, size, *_ in log if size > 1]
    assert choices.count("play") > 5000
    assert choices.count("row") > 300
    assert choices.count(DRAFT) > 1000


def test_equal_costs_go_to_the_first_card_in_legal_order():
    # 41 and 42 go on row 4 with the same gap and bullheads, so their costs are equal; the hand
    # lists 42 first, and the reference (a strict < over the legal actions) keeps it
    state = make_state([[10], [20], [30], [40]], [[42, 41], [60, 61]])
    decision = Decision(state, 0, np.random.default_rng(0))
    assert decision.legal_actions == (42, 41)
    for bot in (HeuristicStrategy(), ReferenceHeuristic()):
        bot.setup(GameInfo("sixnimmt", SixNimmtConfig(), 2), 0, np.random.default_rng(0))
        assert bot.act(decision) == 42, type(bot).__name__


def test_a_reused_heuristic_plays_each_game_as_a_fresh_one():
    """`reusable`: the runner keeps one instance for a chunk; every game's seats and scores equal
    those of the game played alone with new instances."""
    lineup = ["heuristic", "random", "heuristic:caution=2", "heuristic"]
    spec = RunSpec.create("sixnimmt", 4, lineup, 30, seed=4, config=SixNimmtConfig(max_rounds=1))
    assert HeuristicStrategy.reusable
    seats = play_range(spec, 0, 30).seats
    for index in range(30):
        record, _ = play_game(spec, index)
        rows = [k for k, game in enumerate(seats["game"]) if game == index]
        assert [seats["score"][k] for k in rows] == list(record.scores)
        assert [seats["strategy"][k] for k in rows] == [spec.strategies[s].text for s in record.slots]
