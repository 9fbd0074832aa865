"""The Game of Trains kernel (simkit/games/trains/kernel.py) against the scalar engine: the same
games, game by game, every column of both tables, for `random`, `greedy` and `rival` (the kernel draws the
scalar engine's numbers in its order: the deal T2, the start player T4, every T13 reshuffle and
every draw of `random`), with 2, 3 and 4 players and every config field (T4-T24's choices).

The kernel compiles once per machine (numba's disk cache); the first test of a session pays
that (or loads it from the cache) and the rest reuse it.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from simkit.engine.play import play_game, play_range
from simkit.engine.spec import RunSpec
from simkit.games.trains import kernel_layout as L
from simkit.games.trains.evaluate import standings
from simkit.games.trains.kernel import play_range_kernel, traced_game
from simkit.games.trains.kernel_play import in_order
from strategies.trains.heuristic import _pattern_score
from strategies.trains.kernel_bots import sortedness
from tests.kernel_tables import assert_same_tables

CASES = [
    # the benchmark lineup, defaults
    (4, ["random"], {}, {}, 200),
    # T5-T7 simultaneous setup, T13 eager reshuffle
    (2, ["random", "greedy"], {"setup_order": "simultaneous", "reshuffle": "eager"}, {}, 150),
    # T19/T20 swap, T21-T23 complete refills, T11 pair_keep=first; random seating
    (3, ["greedy", "random", "greedy"], {"move_semantics": "swap", "refill_stop": "complete",
                                         "pair_keep": "first"}, {"seating": "random"}, 120),
    # T10 used_card=before, T24 chosen voiding, T21-T23 no all-locked removal, §1.2 periodic, T4 fixed
    (4, ["greedy", "random"] * 2, {"used_card": "before", "lock_voiding": "chosen",
                                   "allow_all_locked_removal": "false", "effect_table": "periodic",
                                   "start_seat": "2"}, {"duplicate": True}, 80),
    # T10/T11 used_card_stays with pair_keep=first; greedy without its discard memory
    (4, ["greedy:memory=false", "greedy", "random", "greedy"],
     {"used_card_stays": "true", "pair_keep": "first", "setup_order": "simultaneous"}, {}, 60),
    # T24 double_lock, T15 a short turn cap (draws), §8 unseen_cards (observations only)
    (2, ["random"], {"double_lock": "true", "max_turns": "60", "unseen_cards": "true"}, {"seating": "fixed"},
     200),
    (3, ["greedy"], {}, {}, 60),
    # rival with every parameter, against greedy and random
    (4, ["rival", "greedy", "rival", "random"], {}, {}, 120),
    (2, ["rival:attack=40", "rival:lock_risk=0.5"], {"move_semantics": "swap", "setup_order": "simultaneous",
                                                    "used_card": "before"}, {}, 100),
    (3, ["rival", "rival:memory=false", "greedy"],
     {"used_card_stays": "true", "pair_keep": "first", "lock_voiding": "chosen", "double_lock": "true",
      "allow_all_locked_removal": "false", "reshuffle": "eager", "effect_table": "periodic"}, {}, 100),
]


@pytest.mark.parametrize("n,strategies,overrides,options,games", CASES)
def test_the_kernel_plays_the_scalar_engines_games(n, strategies, overrides, options, games):
    spec = RunSpec.create("trains", n, strategies, games + 7, seed=11, overrides=overrides, **options)
    kernel = play_range_kernel(spec, 7, 7 + games)
    assert_same_tables(play_range(spec, 7, 7 + games), kernel)
    wins = kernel.games["draw"]
    assert 0 < (~wins).sum()                     # T25: games are won (not all capped)


def test_the_cases_reach_the_turn_cap_and_reshuffles():
    """T15 and T13 happen in the games the equality test compares (it would miss them otherwise)."""
    spec = RunSpec.create("trains", 2, ["random"], 200, seed=11, overrides={"max_turns": "60"})
    chunk = play_range_kernel(spec, 0, 200)
    assert 0 < chunk.games["capped"].sum() < 200
    spec = RunSpec.create("trains", 4, ["random"], 200, seed=11)
    assert (play_range_kernel(spec, 0, 200).games["reshuffles"] > 0).any()


def test_replayed_kernel_games_use_every_effect_and_the_rules_around_them():
    """The kernel's answers replayed through the scalar engine give its games (same steps,
    same end), and those games use all 8 effects (T17-T24), void and protect locks, pair cards
    off (T11) and reshuffle (T13)."""
    from simkit.engine.kernels import replay_answers

    spec = RunSpec.create("trains", 4, ["random", "greedy", "random", "rival"], 12, seed=3)
    kinds: Counter = Counter()
    for index in range(12):
        played, state = play_game(spec, index)
        _, start = play_game(spec, index, max_steps=0)
        steps = replay_answers(start, traced_game(spec, index))
        assert steps == played.steps and start.is_over()
        assert start.events == state.events and start.outcome() == state.outcome()
        for event in state.events:
            kinds[event[0] if event[0] != "use" else f"use {event[2]}"] += 1
    rules = {"void", "protected", "pairs", "reshuffle", "win"}
    assert {f"use {e}" for e in range(1, 9)} | rules <= set(kinds)


def test_listed_deals_and_a_chunk_anywhere_in_the_run_give_the_same_games():
    spec = RunSpec.create("trains", 3, ["random", "greedy", "random"], 30, seed=5, duplicate=True,
                          deal_numbers=[(900, 905), (70_000, 70_010)])
    assert_same_tables(play_range(spec, 4, 25), play_range_kernel(spec, 4, 25))
    whole, part = play_range_kernel(spec, 0, 30), play_range_kernel(spec, 4, 25)
    assert whole.seats["score"][4 * 3:25 * 3].tolist() == part.seats["score"].tolist()


def test_the_compiled_sortedness_table_scores_every_order_ties_included():
    """The bots' `sortedness` looks a train's order up by its Lehmer code: every one of the
    5,040 orders, and 3,000 random trains with repeated values (the bots score rank patterns
    with a card's gap; an empty slot is a 0), match heuristic.py's recurrence (a tie counts as
    an inversion)."""
    rng = np.random.default_rng(5)
    trains = [list(p) for p in itertools.permutations(range(1, 8))]
    trains += rng.integers(0, 5, size=(3000, 7)).tolist()
    g = np.zeros(7, dtype=np.int64)
    for train in trains:
        g[:] = train
        assert sortedness(g, 0) == _pattern_score(train), train


def test_the_compiled_standings_count_the_longest_ascending_run_without_empty_slots():
    """`in_order` (the running score's standing of a seat) is evaluate.standings': the longest
    strictly ascending subsequence of the train's cards, an empty slot (0) left out."""
    rng = np.random.default_rng(6)
    g = np.zeros(L.SIZE, dtype=np.int64)
    for _ in range(3000):
        cards = rng.choice(np.arange(1, 85), size=7, replace=False)
        cards[rng.random(7) < 0.15] = 0
        g[L.TRAINS + 7:L.TRAINS + 14] = cards
        assert in_order(g, 1) == standings([cards.tolist()])[0], cards
