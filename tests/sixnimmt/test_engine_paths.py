"""The 6 nimmt! engine's shortcuts against the plain rules they stand for (issue 12): N8 by
bisection against rules.target_row, the list-shuffle deal against permutation, the shared
observation parts against observations built afresh, the ranks against ranks_from_scores, and
a clone's deferred chance generator against a copied one."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest

from simkit.engine.game import ranks_from_scores
from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import competition_ranks, target_row
from simkit.games.sixnimmt.state import new_state
from strategies.sixnimmt.baseline import RandomStrategy

CONFIGS = [SixNimmtConfig(max_rounds=3), SixNimmtConfig(rows=2, row_capacity=3, max_rounds=2),
           SixNimmtConfig(advanced=True, max_rounds=2)]


def _play(config: SixNimmtConfig, n: int, seed: int, after=None):
    state = new_state(config, n, np.random.default_rng(seed))
    rngs = [np.random.default_rng([seed, s]) for s in range(n)]
    bots = [RandomStrategy(row="uniform" if s % 2 else "cheapest") for s in range(n)]
    play_out(state, bots, GameInfo("sixnimmt", config, n), rngs, after=after)
    return state


@pytest.mark.parametrize("config", CONFIGS)
def test_every_placement_goes_where_rules_target_row_puts_it(config):
    """Replays the log on plain lists: each placed card went to target_row's row, a full row
    was that row, and a row pick happened only where target_row finds none."""
    checked = 0
    for seed in range(20):
        rows: list[list[int]] = []
        for event in _play(config, 4, seed).events:
            kind = event[0]
            if kind == "deal":
                h, dealt = event[2], event[3]
                rows = [[c] for c in dealt[4 * h:]]
            elif kind == "rows":
                rows = [[c] for c in event[2]]
            elif kind == "place":
                _, _, card, r = event
                assert target_row([row[-1] for row in rows], card) == r
                rows[r].append(card)
                checked += 1
            elif kind == "take":
                _, _, r, taken, card, cause = event
                expected = target_row([row[-1] for row in rows], card)
                assert expected == (r if cause == "full" else -1) and tuple(rows[r]) == taken
                rows[r] = [card]
    assert checked > 500


def test_the_deal_shuffles_as_permutation_of_the_deck_array():
    deck = np.arange(1, 105)
    for seed in range(200):
        state = new_state(SixNimmtConfig(), 4, np.random.default_rng(seed))
        dealt = state.events[0][3]
        assert list(dealt) == np.random.default_rng(seed).permutation(deck).tolist()[:len(dealt)]


@pytest.mark.parametrize("config", CONFIGS + [SixNimmtConfig(public_penalties=False, max_rounds=2)])
def test_observations_with_shared_parts_equal_observations_built_afresh(config):
    def after(state, step, seats, joint):
        cached = [state.observe(s) for s in range(state.n)]
        state.public_view = None
        assert [state.observe(s) for s in range(state.n)] == cached
        assert state.clone().observe(1) == cached[1]

    for seed in range(5):
        _play(config, 3, seed, after=after)


def test_competition_ranks_equal_ranks_from_scores():
    rnd = random.Random(4)
    for _ in range(500):
        n = rnd.randint(2, 10)
        totals = [rnd.randint(0, 6) for _ in range(n)]
        assert competition_ranks(totals) == ranks_from_scores(totals, higher_is_better=False)
        keys = list(zip(totals, [rnd.randint(0, 3) for _ in range(n)]))
        assert competition_ranks(keys) == ranks_from_scores(
            [t * 10 + lr for t, lr in keys], higher_is_better=False)


def test_a_clone_deals_its_next_round_as_the_original_and_independently():
    config = SixNimmtConfig(max_rounds=3)
    state = new_state(config, 3, np.random.default_rng(6))
    clone = state.clone()
    twin = copy.deepcopy(state.rng)
    clone_of_clone = clone.clone()
    assert clone.rng.random(3).tolist() == twin.random(3).tolist()
    assert clone_of_clone.rng.random(3).tolist() == state.rng.random(3).tolist()
    finished = [_finish(s) for s in (state.clone(), state.clone())]
    assert finished[0].events == finished[1].events and finished[0].round == 3


def _finish(state):
    rngs = [np.random.default_rng(s) for s in range(state.n)]
    info = GameInfo("sixnimmt", state.config, state.n)
    play_out(state, [RandomStrategy() for _ in range(state.n)], info, rngs)
    return state


def test_a_determinized_copy_draws_from_the_seed_it_took_and_consumes_the_same():
    state = new_state(SixNimmtConfig(max_rounds=2), 4, np.random.default_rng(2))
    ours, reference = np.random.default_rng(9), np.random.default_rng(9)
    sample = state.determinize(1, ours)
    seed = int(reference.integers(1 << 63))
    reference.permutation(30 + 60)                      # three other hands of 10, 60 set aside
    assert ours.random() == reference.random()
    assert sample.rng.random(4).tolist() == np.random.Generator(np.random.PCG64(seed)).random(4).tolist()
