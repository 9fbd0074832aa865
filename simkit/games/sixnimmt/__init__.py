"""6 nimmt! (Take 6): 2-10 players, basic and advanced (spec: shared/rules/sixnimmt.md)."""

from simkit.engine.game import Game
from simkit.games.sixnimmt.actions import TakeRow, format_action, parse_action
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.position import format_position, parse_position
from simkit.games.sixnimmt.render import describe_observation, render_log
from simkit.games.sixnimmt.rules import max_decision_steps
from simkit.games.sixnimmt.state import SixNimmtState, new_state

GAME = Game(
    name="sixnimmt",
    title="6 nimmt!",
    min_players=2,
    max_players=10,
    config_cls=SixNimmtConfig,
    new_state=new_state,
    rules_version="sixnimmt-1",
    render_log=render_log,
    describe_observation=describe_observation,
    format_action=format_action,
    parse_action=parse_action,
    format_position=format_position,
    parse_position=parse_position,
    higher_is_better=False,
    has_rounds=True,
    description="Simultaneous card play into 4 rows; the 6th card takes the row. Fewest bullheads wins.",
    max_steps=max_decision_steps,
    batch_engine="simkit.games.sixnimmt.batch",
)

__all__ = ["GAME", "SixNimmtConfig", "SixNimmtState", "TakeRow"]
