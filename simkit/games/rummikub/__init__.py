"""Rummikub (rules: docs/rummikub-rules.md): 106 tiles, table rearrangement, jokers, an exact solver."""

from simkit.engine.game import Action, Game
from simkit.engine.text_forms import text_forms
from simkit.games.rummikub import actions, evaluate, position, render
from simkit.games.rummikub.actions import LATE
from simkit.games.rummikub.candidates import candidate_actions
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.state import new_state

RULES_VERSION = "rummikub-2"


def _max_steps(config: RummikubConfig, n: int) -> int:
    # per hand: at most 106 draws, 106 plays and n passes, plus penalty turns
    return config.hands_per_match * (4 * 106 + 4 * n)


def _decision_budget(config: RummikubConfig) -> tuple[float, Action] | None:
    """R18's optional per-decision budget: a late seat's turn is a failed rearrangement."""
    return (config.time_budget_s, LATE) if config.time_budget_s > 0 else None


GAME = Game(
    name="rummikub", title="Rummikub", min_players=2, max_players=4, rules_version=RULES_VERSION,
    config_cls=RummikubConfig, new_state=new_state, **text_forms(actions, position, render),
    candidate_actions=candidate_actions,
    decision_budget=_decision_budget,
    has_rounds=True,
    strongest_bot="greedy_tiles",
    description="tile rummy with table rearrangement and jokers; plays are whole new tables",
    max_steps=_max_steps,
    evaluate=evaluate.evaluate,
)
