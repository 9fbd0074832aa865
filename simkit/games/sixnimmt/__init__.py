"""6 nimmt! (Take 6): 2-10 players, basic and advanced (spec: shared/rules/sixnimmt.md)."""

from simkit.core.game import Game
from simkit.games.sixnimmt.actions import TakeRow, format_action, parse_action
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.position import format_position, parse_position
from simkit.games.sixnimmt.render import render_log
from simkit.games.sixnimmt.state import SixNimmtState, new_state


def _max_steps(config: SixNimmtConfig, n: int) -> int:
    # every round hands out >= 1 bullhead (N14), so rounds <= n * threshold + 1 (more with play_on ties)
    rounds = config.max_rounds or (n * (config.end_threshold + 1) + 1) * 4
    per_round = config.hand_size * 2 + (config.hand_size * n if config.advanced else 0)
    return rounds * per_round


GAME = Game(
    name="sixnimmt",
    title="6 nimmt!",
    min_players=2,
    max_players=10,
    config_cls=SixNimmtConfig,
    new_state=new_state,
    rules_version="sixnimmt-1",
    render_log=render_log,
    format_action=format_action,
    parse_action=parse_action,
    format_position=format_position,
    parse_position=parse_position,
    higher_is_better=False,
    description="Simultaneous card play into 4 rows; the 6th card takes the row. Fewest bullheads wins.",
    max_steps=_max_steps,
)

__all__ = ["GAME", "SixNimmtConfig", "SixNimmtState", "TakeRow"]
