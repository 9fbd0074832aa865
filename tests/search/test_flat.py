"""Flat Monte Carlo: samples per action on fresh determinizations, legal and reproducible."""

import numpy as np
import pytest

from simkit.engine.errors import ConfigError
from simkit.engine.play import play_out
from simkit.engine.registry import get_game
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.search.flat import FlatMC
from simkit.search.simulator import Simulator
from tests import highcard
from tests.search.guarded import Guarded, highcard_from_view
from tests.search.helpers import FLAT_PATH, HIGHCARD_RANDOM, decide, first_real_choice


@pytest.mark.parametrize("game_name, params", [("highcard", f"rollout={HIGHCARD_RANDOM}"),
                                               ("sixnimmt", ""), ("shipside", "")])
def test_without_crn_every_action_gets_its_samples_each_on_a_new_determinization(game_name, params):
    state, config = first_real_choice(game_name, 2, seed=4)
    legal = state.legal_actions(state.to_act()[0])
    guarded = Guarded(state)
    bot = parse_strategy(f"{FLAT_PATH}:samples=3,crn=false" + (f",{params}" if params else ""),
                         game_name).build()
    assert decide(bot, guarded, game_name, config, 2) in legal
    assert len(guarded.sampled) == 3 * len(legal)
    assert len({id(s) for s in guarded.sampled}) == 3 * len(legal)


@pytest.mark.parametrize("game_name, params", [("highcard", f"rollout={HIGHCARD_RANDOM}"),
                                               ("sixnimmt", ""), ("shipside", "")])
def test_with_crn_the_actions_of_a_sample_share_its_determinization(game_name, params):
    state, config = first_real_choice(game_name, 2, seed=4)
    legal = state.legal_actions(state.to_act()[0])
    guarded = Guarded(state)
    bot = parse_strategy(f"{FLAT_PATH}:samples=3" + (f",{params}" if params else ""), game_name).build()
    assert decide(bot, guarded, game_name, config, 2) in legal
    assert len(guarded.sampled) == 3 and len(legal) > 1


def test_restored_rollout_generators_replay_the_same_rollout():
    """Common random numbers: the same determinization and the same bot seeds give the same
    rollout, so two actions of a sample differ only by the action."""
    game = get_game("sixnimmt")
    config = game.config_cls(max_rounds=1)
    info = GameInfo("sixnimmt", config, 3)
    sim = Simulator(game, info, parse_strategy("random", "sixnimmt"), np.random.default_rng(1), "rank", None)
    shared = game.new_state(config, 3, np.random.default_rng(2)).determinize(0, np.random.default_rng(3))
    seeds = sim.generator_states()
    logs = []
    for _ in range(3):
        state = shared.clone()
        sim.restore(seeds)
        sim.start()
        sim.rollout(state, 0, 0)
        logs.append(game.format_position(state))    # a kernel rollout leaves the event log as it was
    assert logs[0] == logs[1] == logs[2]
    state = shared.clone()          # without the restore the bots draw afresh
    sim.start()
    sim.rollout(state, 0, 0)
    assert game.format_position(state) != logs[0]


def test_decisions_depend_only_on_what_the_seat_sees():
    config = highcard.HighCardConfig(deck_size=12, hand_size=4)
    positions = ["hand 0: 2 6 9 11\nhand 1: 1 3 4 5\naside: 7 8 10 12",
                 "hand 0: 2 6 9 11\nhand 1: 7 8 10 12\naside: 1 3 4 5"]
    for seed in range(4):
        chosen = {decide(FlatMC(samples=10, rollout=HIGHCARD_RANDOM),
                         Guarded(highcard.parse_position(text, config), highcard_from_view),
                         "highcard", config, 2, seed=seed, seat=0) for text in positions}
        assert len(chosen) == 1


def test_whole_sixnimmt_round_is_played_legally_and_reproducibly():
    game = get_game("sixnimmt")
    config = game.config_cls(max_rounds=1)
    logs = []
    for _ in range(2):
        state = game.new_state(config, 3, np.random.default_rng(9))
        lineup = [FlatMC(samples=2), parse_strategy("random", "sixnimmt"),
                  parse_strategy("heuristic", "sixnimmt")]
        play_out(state, lineup, GameInfo("sixnimmt", config, 3),
                 [np.random.default_rng(20 + s) for s in range(3)], forfeit_on_error=False)
        assert state.is_over()
        logs.append(game.render_log(state))
    assert logs[0] == logs[1]


def test_bad_samples_are_refused():
    with pytest.raises(ConfigError, match="samples=0 is not allowed"):
        parse_strategy(f"{FLAT_PATH}:samples=0", "sixnimmt")
