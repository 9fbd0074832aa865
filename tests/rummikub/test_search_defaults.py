"""Rummikub's `ismcts` defaults (issue 20): the tree stops at the root, so a decision asks the
candidate generator (the exact solver) once, at the root, and never below it."""

import numpy as np
import pytest

from simkit.engine.play import play_out
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.rummikub import GAME
from simkit.games.rummikub.config import RummikubConfig
from simkit.search import ismcts
from simkit.search.defaults import defaults_for


def _opened_position():
    """A 2-player position met in `simple` play where the seat to act has opened and has at
    least three candidates (so the tree has something to choose and to descend into)."""
    config = RummikubConfig()
    for seed in range(20):
        state = GAME.new_state(config, 2, np.random.default_rng(seed))
        bots = [parse_strategy("simple", "rummikub")] * 2
        play_out(state, bots, GameInfo("rummikub", config, 2),
                 [np.random.default_rng(seed + 100 + s) for s in range(2)], max_steps=24)
        if state.is_over():
            continue
        seat = state.to_act()[0]
        if state.observe(seat).opened[seat] and len(GAME.candidate_actions(state, seat)) >= 3:
            return state, seat
    raise AssertionError("no opened position with three candidates: enlarge the sample")


def _below_root_calls(monkeypatch, bot_text):
    """How often `bot_text` asks for the seat's actions below the root in one decision."""
    calls = []
    real = ismcts.searchable_actions

    def counted(game, state, seat):
        calls.append(seat)
        return real(game, state, seat)

    monkeypatch.setattr(ismcts, "searchable_actions", counted)
    state, seat = _opened_position()
    bot = parse_strategy(bot_text, "rummikub").build()
    rng = np.random.default_rng(0)
    bot.setup(GameInfo("rummikub", state.config, 2), seat, rng)
    action = bot.act(Decision(state, seat, rng))
    assert state.is_legal(seat, action)
    return len(calls)


def test_the_defaults_cap_the_tree_at_the_root():
    assert defaults_for("rummikub").depth == 1


@pytest.mark.parametrize("bot", ["ismcts:iterations=30", "ismcts"])
def test_no_candidates_are_computed_below_the_root(monkeypatch, bot):
    assert _below_root_calls(monkeypatch, bot) == 0


def test_control_without_the_cap_the_tree_asks_below_the_root(monkeypatch):
    assert _below_root_calls(monkeypatch, "ismcts:iterations=30,depth=0") > 0
