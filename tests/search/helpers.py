"""Driving one search decision on a guarded true state, and win rates of whole matches."""

from __future__ import annotations

import numpy as np

from simkit.engine.play import play_range
from simkit.engine.registry import get_game
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import Decision, GameInfo, Strategy
from simkit.stats.intervals import wilson
from tests.search.guarded import Guarded

ISMCTS_PATH = "simkit.search.ismcts:ISMCTS"
FLAT_PATH = "simkit.search.flat:FlatMC"
HIGHCARD_RANDOM = "tests.highcard:RandomPlay"


def first_real_choice(game_name: str, n_players: int, seed: int, config=None):
    """A new game played uniformly at random up to the first seat with 2+ legal actions."""
    game = get_game(game_name)
    config = config or game.config_cls()
    rng = np.random.default_rng(seed)
    state = game.new_state(config, n_players, rng)
    while len(state.legal_actions(state.to_act()[0])) < 2:
        state.apply([_uniform(state.legal_actions(s), rng) for s in state.to_act()])
    return state, config


def _uniform(actions, rng):
    return actions[int(rng.integers(len(actions)))]


def decide(strategy: Strategy, state: Guarded, game_name: str, config, n_players: int,
           seed: int = 0, seat: int | None = None):
    """What `strategy` plays for `seat` (the first seat to act) on the guarded state."""
    seat = state.to_act()[0] if seat is None else seat
    rng = np.random.default_rng(seed)
    strategy.setup(GameInfo(game_name, config, n_players), seat, rng)
    return strategy.act(Decision(state, seat, rng))


def wins_of_first(game: str, strategies: list[str], n_games: int, seed: int,
                  overrides: dict[str, str] | None = None) -> tuple[float, int]:
    """Win shares summed over the games for strategies[0] (seats rotated), and the game count."""
    spec = RunSpec.create(game=game, n_players=len(strategies), strategies=strategies,
                          n_games=n_games, seed=seed, overrides=overrides or {})
    chunk = play_range(spec, 0, n_games)
    assert all(f < 0 for f in chunk.games["forfeit_seat"]), chunk.games["error"]
    wins = [w for w, slot in zip(chunk.seats["win"], chunk.seats["slot"]) if slot == 0]
    return sum(wins), n_games


def clearly_above_half(wins: float, n: int) -> bool:
    """The 95 % Wilson interval of the win rate lies above 1/2 (2-player: better than an equal)."""
    return wilson(wins, n)[0] > 0.5
