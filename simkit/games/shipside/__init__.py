"""Shipside: 2 players play cards beside 5 ships to capture ships and crew (rules:
docs/shipside-rules.md, reconstructed from a garbled rulebook; every open question is a
config field)."""

from simkit.engine.game import Game
from simkit.engine.text_forms import text_forms
from simkit.games.shipside import actions, evaluate, position, render
from simkit.games.shipside.actions import (
    Direction,
    EndTurn,
    Mark,
    Octopus,
    Pass,
    Pick,
    Play,
    Rum,
    format_action,
    parse_action,
)
from simkit.games.shipside.config import ShipsideConfig
from simkit.games.shipside.position import format_position, parse_position
from simkit.games.shipside.state import Observation, ShipsideState, ShipView, new_state


def _max_steps(config: ShipsideConfig, n: int) -> int:
    # per turn: rum before + action + owner's direction + rum after; plus the variant's picks
    return config.end.max_turns * 4 + config.setup.hand_size + 2


GAME = Game(
    name="shipside", title="Shipside", min_players=2, max_players=2, rules_version="shipside-1",
    config_cls=ShipsideConfig, new_state=new_state, **text_forms(actions, position, render),
    description="Play cards beside 5 ships (either side) to reach their defense; capture ships "
                "and crew, first to 4 points wins. Octopus and rum mug.",
    max_steps=_max_steps,
    strongest_bot="octopus",
    running_unit=("point", "points"),
    evaluate=evaluate.evaluate,
    kernel_engine="simkit.games.shipside.kernel",
    kernel_rollout="simkit.games.shipside.kernel_rollout:KernelRollout",
    kernel_search="strategies.shipside.kernel_search:KernelSearch",
)

__all__ = ["GAME", "ShipsideConfig", "ShipsideState", "new_state", "Observation", "ShipView", "Play",
           "Octopus", "Rum", "Direction", "EndTurn", "Pass", "Pick", "Mark", "format_action", "parse_action",
           "format_position", "parse_position"]
