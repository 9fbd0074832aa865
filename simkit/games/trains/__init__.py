"""Game of Trains (2015): sort your 7 wagons into ascending order first. Rules: docs/trains-rules.md."""

from simkit.engine.game import Game
from simkit.engine.text_forms import text_forms
from simkit.games.trains import actions, evaluate, position, render
from simkit.games.trains.config import TrainsConfig
from simkit.games.trains.state import TrainsState, new_state

GAME = Game(
    name="trains", title="Game of Trains", min_players=2, max_players=4, rules_version="trains-1",
    config_cls=TrainsConfig, new_state=new_state, **text_forms(actions, position, render),
    score_unit=("win", "wins"),
    running_unit=("card in order", "cards in order"),
    description="Sort your 7 wagons into ascending order first; 8 card effects, locks, a display.",
    max_steps=lambda config, n: 2 * n + 2 * config.max_turns + 10,
    strongest_bot="rival",
    evaluate=evaluate.evaluate,
    kernel_engine="simkit.games.trains.kernel",
    kernel_rollout="simkit.games.trains.kernel_rollout:KernelRollout",
    kernel_search="strategies.trains.kernel_search:KernelSearch",
)

__all__ = ["GAME", "TrainsConfig", "TrainsState", "new_state"]
