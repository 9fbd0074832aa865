"""Game of Trains (2015): sort your 7 wagons into ascending order first. Spec: rules/trains.md."""

from simkit.engine.game import Game
from simkit.games.trains.actions import format_action, parse_action
from simkit.games.trains.config import TrainsConfig
from simkit.games.trains.position import format_position, parse_position
from simkit.games.trains.render import describe_observation, render_log
from simkit.games.trains.state import TrainsState, new_state

GAME = Game(
    name="trains",
    title="Game of Trains",
    min_players=2,
    max_players=4,
    config_cls=TrainsConfig,
    new_state=new_state,
    rules_version="trains-1",
    render_log=render_log,
    describe_observation=describe_observation,
    format_action=format_action,
    parse_action=parse_action,
    format_position=format_position,
    parse_position=parse_position,
    higher_is_better=True,
    description="Sort your 7 wagons into ascending order first; 8 card effects, locks, a display.",
    max_steps=lambda config, n: 2 * n + 2 * config.max_turns + 10,
)

__all__ = ["GAME", "TrainsConfig", "TrainsState", "new_state"]
