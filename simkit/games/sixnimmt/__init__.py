"""6 nimmt! (Take 6): 2-10 players, basic and advanced (rules: docs/sixnimmt-rules.md)."""

from simkit.engine.game import Game
from simkit.engine.text_forms import text_forms
from simkit.games.sixnimmt import actions, evaluate, position, render
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import max_decision_steps
from simkit.games.sixnimmt.state import SixNimmtState, new_state

GAME = Game(
    name="sixnimmt", title="6 nimmt!", min_players=2, max_players=10, rules_version="sixnimmt-1",
    config_cls=SixNimmtConfig, new_state=new_state, **text_forms(actions, position, render),
    higher_is_better=False,
    strongest_bot="heuristic",
    score_unit=("bullhead", "bullheads"),
    has_rounds=True,
    description="Simultaneous card play into 4 rows; the 6th card takes the row. Fewest bullheads wins.",
    max_steps=max_decision_steps,
    batch_engine="simkit.games.sixnimmt.batch",
    kernel_engine="simkit.games.sixnimmt.kernel",
    kernel_rollout="simkit.games.sixnimmt.kernel_rollout:KernelRollout",
    kernel_search="strategies.sixnimmt.kernel_search:KernelSearch",
    evaluate=evaluate.evaluate, round_of=evaluate.round_of,
)

__all__ = ["GAME", "SixNimmtConfig", "SixNimmtState", "TakeRow"]
