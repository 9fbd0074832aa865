"""Rewards in [0, 1] from an Outcome, and the neutral score of a rollout cut by the step cap."""

import numpy as np
import pytest

from simkit.engine.game import outcome_from_scores
from simkit.engine.registry import get_game
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.search.rewards import neutral_reward, rank_reward, win_reward
from simkit.search.simulator import Simulator


def test_win_reward_is_the_win_share():
    out = outcome_from_scores([3, 5, 5], higher_is_better=True)
    assert [win_reward(out, s) for s in range(3)] == [0.0, 0.5, 0.5]


def test_rank_reward_counts_seats_beaten_and_ties_as_half():
    out = outcome_from_scores([1, 4, 4, 9], higher_is_better=True)   # ranks 4, 2, 2, 1
    assert [rank_reward(out, s) for s in range(4)] == [0.0, 0.5, 0.5, 1.0]


def test_two_player_rank_and_win_agree():
    for scores in ([2, 7], [7, 2], [4, 4]):
        out = outcome_from_scores(scores, higher_is_better=False)
        assert [rank_reward(out, s) for s in (0, 1)] == [win_reward(out, s) for s in (0, 1)]


@pytest.mark.parametrize("reward, n, neutral", [("win", 2, 0.5), ("win", 4, 0.25), ("rank", 4, 0.5)])
def test_a_rollout_cut_by_the_cap_scores_neutral(reward, n, neutral):
    game = get_game("sixnimmt")
    config = game.config_cls(max_rounds=1)
    info = GameInfo("sixnimmt", config, n)
    rng = np.random.default_rng(0)
    sim = Simulator(game, info, parse_strategy("random", "sixnimmt"), rng, reward, max_steps=3,
                    evaluate=False)
    state = game.new_state(config, n, rng)
    assert neutral_reward(reward, n) == neutral
    sim.start()
    assert sim.rollout(state, 0, 1) == neutral and not state.is_over()
    uncapped = Simulator(game, info, parse_strategy("random", "sixnimmt"), rng, reward, max_steps=None)
    reward_of = win_reward if reward == "win" else rank_reward
    uncapped.start()
    assert uncapped.rollout(state, 0, 0) == reward_of(state.outcome(), 0) and state.is_over()
