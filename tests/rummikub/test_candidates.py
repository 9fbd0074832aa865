"""Game.candidate_actions for search: a few good legal moves where moves cannot be listed."""

import numpy as np
import pytest

from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.rummikub import GAME
from simkit.games.rummikub.actions import DRAW, InitialMeld, Play
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.solver import solve_observation


def _states(n_games=6, steps=12):
    """States met while `simple` bots play (some before, some after the initial meld)."""
    config = RummikubConfig()
    found = []
    for seed in range(n_games):
        state = GAME.new_state(config, 2, np.random.default_rng(seed))
        bots = [parse_strategy("simple", "rummikub")] * 2
        rngs = [np.random.default_rng(seed + 100 + s) for s in range(2)]
        play_out(state, bots, GameInfo("rummikub", config, 2), rngs, max_steps=steps * (seed + 1))
        if not state.is_over():
            found.append(state)
    return found


def test_candidates_are_legal_distinct_and_include_drawing_and_the_solver_play():
    for state in _states():
        seat = state.to_act()[0]
        candidates = GAME.candidate_actions(state, seat)
        assert candidates[0] == DRAW and len(set(candidates)) == len(candidates)
        assert all(state.is_legal(seat, a) for a in candidates)
        best = solve_observation(state.observe(seat), state.config, "tiles")
        if best is not None:
            assert best.action in candidates


def test_after_the_initial_meld_simple_plays_are_offered_too():
    opened = [s for s in _states() if s.observe(s.to_act()[0]).opened[s.to_act()[0]]]
    assert opened, "no opened seat in the sample: enlarge it"
    offered = [GAME.candidate_actions(s, s.to_act()[0]) for s in opened]
    assert any(sum(isinstance(a, Play) for a in actions) > 1 for actions in offered)
    assert not any(isinstance(a, InitialMeld) for actions in offered for a in actions)


@pytest.mark.slow
def test_ismcts_plays_whole_rummikub_games_from_the_candidates():
    config = RummikubConfig()
    state = GAME.new_state(config, 2, np.random.default_rng(3))
    lineup = [parse_strategy("ismcts:iterations=8,rollout=simple,max_rollout_steps=40", "rummikub"),
              parse_strategy("simple", "rummikub")]
    played = play_out(state, lineup, GameInfo("rummikub", config, 2),
                      [np.random.default_rng(s) for s in (7, 8)], forfeit_on_error=False)
    assert state.is_over() and played.steps > 10 and state.audit() == []
