"""ISMCTS on the protocol: fresh determinizations only, legal and reproducible play, parameters."""

import numpy as np
import pytest

from simkit.engine.config import with_overrides
from simkit.engine.errors import ConfigError
from simkit.engine.play import play_game, play_out
from simkit.engine.registry import get_game
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.search.base import NoCandidateActions
from simkit.search.ismcts import DEFAULT_ITERATIONS, ISMCTS
from tests import highcard
from tests.search.guarded import Guarded, highcard_from_view
from tests.search.helpers import HIGHCARD_RANDOM, ISMCTS_PATH, decide, first_real_choice

#: game, players, rule overrides (short games), ISMCTS parameters, opponent
CASES = [
    ("highcard", 3, {}, f"rollout={HIGHCARD_RANDOM}", HIGHCARD_RANDOM),
    ("sixnimmt", 3, {"max_rounds": "1"}, "", "heuristic"),
    ("trains", 2, {}, "rollout=greedy,horizon=0", "rival"),
    ("shipside", 2, {"end.points_to_win": "2"}, "horizon=0", "octopus"),
]


def _config(game_name, overrides):
    return with_overrides(get_game(game_name).config_cls(), overrides)


@pytest.mark.parametrize("game_name, n, overrides, params, _", CASES, ids=[c[0] for c in CASES])
def test_each_iteration_searches_a_new_determinization_of_the_seat_view(game_name, n, overrides, params, _):
    state, config = first_real_choice(game_name, n, seed=3, config=_config(game_name, overrides))
    guarded = Guarded(state)
    legal = state.legal_actions(state.to_act()[0])
    # the Python loop (kernel=false): a compiled search determinizes inside its kernel
    # (tests/search/test_compiled_search.py proves it searches the same)
    strategy = parse_strategy(f"{ISMCTS_PATH}:iterations=12,kernel=false" + (f",{params}" if params else ""),
                              game_name).build()
    action = decide(strategy, guarded, game_name, config, n)
    assert action in legal
    sampled = guarded.sampled
    assert len(sampled) == 12 and len({id(s) for s in sampled}) == 12
    assert all(s is not state for s in sampled)
    assert all(s.is_over() for s in sampled)       # each was played on to the end, uncapped


def test_decisions_depend_only_on_what_the_seat_sees():
    """Two true states that look the same to seat 0 (other hand and aside swapped) give the same
    decisions: with a determinizer that reads only the observation, any difference would be
    hidden information reaching the search another way."""
    config = highcard.HighCardConfig(deck_size=12, hand_size=4)
    hidden_a = "hand 0: 2 6 9 11\nhand 1: 1 3 4 5\naside: 7 8 10 12"
    hidden_b = "hand 0: 2 6 9 11\nhand 1: 7 8 10 12\naside: 1 3 4 5"
    for seed in range(6):
        chosen = []
        for text in (hidden_a, hidden_b):
            guarded = Guarded(highcard.parse_position(text, config), highcard_from_view)
            strategy = ISMCTS(iterations=60, rollout=HIGHCARD_RANDOM)
            chosen.append(decide(strategy, guarded, "highcard", config, 2, seed=seed, seat=0))
        assert chosen[0] == chosen[1]


def test_a_lone_legal_action_is_played_without_search():
    config = highcard.HighCardConfig(deck_size=6, hand_size=2)
    state = highcard.parse_position("hand 0: 5\nhand 1: 6\naside: 1 2\ntrick: 4 3", config)
    guarded = Guarded(state)
    assert decide(ISMCTS(rollout=HIGHCARD_RANDOM), guarded, "highcard", config, 2) == 5
    assert guarded.sampled == []


def test_a_time_budget_still_searches_and_plays_legally():
    state, config = first_real_choice("highcard", 2, seed=1)
    guarded = Guarded(state)
    action = decide(ISMCTS(time_ms=5, rollout=HIGHCARD_RANDOM), guarded, "highcard", config, 2)
    assert action in state.legal_actions(0) and len(guarded.sampled) >= 1


def _legality_checks(seen):
    legal: dict[int, object] = {}

    def before(state, step, seats):
        legal.clear()
        legal.update({s: state.legal_actions(s) for s in seats})

    def after(state, step, seats, joint):
        for seat, action in zip(seats, joint):
            assert action in legal[seat], f"seat {seat} played {action!r}, not legal"
        seen.append(step)

    return before, after


@pytest.mark.parametrize("game_name, n, overrides, params, opponent", CASES, ids=[c[0] for c in CASES])
def test_whole_games_are_played_legally(game_name, n, overrides, params, opponent):
    game = get_game(game_name)
    config = _config(game_name, overrides)
    searcher = parse_strategy(f"{ISMCTS_PATH}:iterations=8" + (f",{params}" if params else ""), game_name)
    lineup = [searcher] + [parse_strategy(opponent, game_name)] * (n - 1)
    rngs = [np.random.default_rng(100 + s) for s in range(n)]
    state = game.new_state(config, n, np.random.default_rng(5))
    steps: list[int] = []
    before, after = _legality_checks(steps)
    play_out(state, lineup, GameInfo(game_name, config, n), rngs, forfeit_on_error=False,
             before=before, after=after)
    assert state.is_over() and steps


REAL_GAMES = CASES[1:]


@pytest.mark.parametrize("game_name, n, overrides, params, opponent", REAL_GAMES,
                         ids=[c[0] for c in REAL_GAMES])
def test_same_seed_same_game(game_name, n, overrides, params, opponent):
    searcher = f"{ISMCTS_PATH}:iterations=6" + (f",{params}" if params else "")
    spec = RunSpec.create(game=game_name, n_players=n, strategies=[searcher] + [opponent] * (n - 1),
                          n_games=2, seed=11, overrides=overrides)
    logs = []
    for _ in range(2):
        record, state = play_game(spec, 1)
        assert record.forfeit < 0, record.error
        logs.append(get_game(game_name).render_log(state))
    assert logs[0] == logs[1]


def test_parameters_from_the_strategy_text():
    spec = parse_strategy(f"{ISMCTS_PATH}:iterations=500,rollout=greedy,c=0.5,reward=rank,"
                          "max_rollout_steps=300", "trains")
    bot = spec.build()
    assert (bot.iterations, bot.time_ms, bot.rollout, bot.c, bot.reward, bot.max_rollout_steps) == (
        500, None, "greedy", 0.5, "rank", 300)
    timed = parse_strategy(f"{ISMCTS_PATH}:time_ms=50", "trains").build()
    assert timed.iterations is None and timed.time_ms == 50
    assert ISMCTS().iterations == DEFAULT_ITERATIONS


@pytest.mark.parametrize("params, message", [
    ("iterations=0", "iterations=0 is not allowed"),
    ("reward=score", "reward='score' is not allowed: one of win, rank"),
    ("c=-1", "c=-1.0 is not allowed"),
    ("time_ms=0", "time_ms=0.0 is not allowed"),
    ("max_rollout_steps=0", "max_rollout_steps=0 is not allowed: 1 or more"),
    ("joint=true,infer=false", "joint=true is not allowed with infer=false"),
])
def test_bad_parameters_are_refused_by_name(params, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        parse_strategy(f"{ISMCTS_PATH}:{params}", "sixnimmt")


def test_unlisted_moves_come_from_the_candidate_hook(unlisted_games):
    game = get_game("candidates")
    config = game.config_cls()
    lineup = [ISMCTS(iterations=10, rollout="tests.search.candidates:RandomFromHand"),
              parse_strategy("tests.search.candidates:RandomFromHand", "candidates")]
    state = game.new_state(config, 2, np.random.default_rng(2))
    play_out(state, lineup, GameInfo("candidates", config, 2),
             [np.random.default_rng(s) for s in range(2)], forfeit_on_error=False)
    assert state.is_over()


def test_a_game_without_listing_or_candidates_is_named_in_the_error(unlisted_games):
    state, config = first_real_choice("highcard", 2, seed=0)
    game = get_game("unlisted")
    unlisted = game.new_state(config, 2, np.random.default_rng(0))
    with pytest.raises(NoCandidateActions, match="unlisted cannot list its legal actions.*candidate_actions"):
        decide(ISMCTS(rollout=HIGHCARD_RANDOM), Guarded(unlisted), "unlisted", config, 2)
