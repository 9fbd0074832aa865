"""ISMCTS `infer`: determinizations redealt by the rollout strategy's opponent model
(`opponent_model(state, seat)`, 6 nimmt! `heuristic`: strategies/sixnimmt/model.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.errors import ConfigError
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.state import new_state
from simkit.search.defaults import GENERIC, PER_GAME
from simkit.search.ismcts import ISMCTS
from strategies.sixnimmt.heuristic import HeuristicStrategy
from strategies.sixnimmt.model import HeuristicModel

N = 4
CONFIG = SixNimmtConfig(max_rounds=1)
INFO = GameInfo("sixnimmt", CONFIG, N)


def _mid_round(turns: int = 4, seed: int = 11):
    """A single round after `turns` turns of four `heuristic` players (N5-N12)."""
    state = new_state(CONFIG, N, np.random.default_rng(seed))
    rngs = [np.random.default_rng([seed, s]) for s in range(N)]
    bots = [HeuristicStrategy() for _ in range(N)]
    for s, bot in enumerate(bots):
        bot.setup(INFO, s, rngs[s])
    while state.turn < turns:
        state.apply([bots[s].act(Decision(state, s, rngs[s])) for s in state.to_act()])
    return state


def _choices(bot_text: str, decisions: int = 4) -> list:
    state = _mid_round()
    out = []
    for k in range(decisions):
        bot = parse_strategy(bot_text, "sixnimmt").build()
        rng = np.random.default_rng(k)
        bot.setup(INFO, 0, rng)
        out.append(bot.act(Decision(state, 0, rng)))
    return out


def test_infer_is_off_by_default_except_where_a_game_switches_it_on():
    assert GENERIC.infer is False
    assert ISMCTS().infer is False
    assert ISMCTS(infer=True).infer is True
    assert all(not d.infer for game, d in PER_GAME.items() if game != "sixnimmt")


def test_a_bad_infer_value_is_refused_by_name():
    with pytest.raises(ConfigError, match="infer='maybe' is not a boolean"):
        parse_strategy("ismcts:infer=maybe", "sixnimmt").build()


def test_without_an_opponent_model_infer_changes_nothing():
    """`random` rollouts have no opponent model: no draw is added, the same choices."""
    base = "ismcts:iterations=30,rollout=random,prior_weight=0"
    assert _choices(base + ",infer=true") == _choices(base + ",infer=false")


def test_the_model_is_built_once_per_decision_and_redeals_every_iteration(monkeypatch):
    built, redealt = [], []
    real_build, real_resample = HeuristicStrategy.opponent_model, HeuristicModel.resample

    def build(self, state, seat):
        built.append(seat)
        return real_build(self, state, seat)

    def resample(self, state, rng):
        redealt.append(state)
        return real_resample(self, state, rng)
    monkeypatch.setattr(HeuristicStrategy, "opponent_model", build)
    monkeypatch.setattr(HeuristicModel, "resample", resample)
    _choices("ismcts:iterations=25,infer=true", decisions=2)
    assert built == [0, 0]
    assert len(redealt) == 50 and len({id(s) for s in redealt}) == 50
    built.clear()
    _choices("ismcts:iterations=25,infer=false", decisions=1)
    assert built == []


def test_the_redeal_deals_no_ruled_out_card_to_a_seat_in_the_search(monkeypatch):
    """What the rollouts see: in every determinization of an inferring search, each other seat
    holds only cards its model allows (there are plenty of them at turn 4 of 10)."""
    seen = []
    real = HeuristicModel.resample

    def resample(self, state, rng):
        real(self, state, rng)
        hidden = len(state.aside) + sum(len(h) for h in state.hands[1:])
        seen.append((self.allowed, [list(h) for h in state.hands], hidden))
    monkeypatch.setattr(HeuristicModel, "resample", resample)
    _choices("ismcts:iterations=20,infer=true", decisions=1)
    assert len(seen) == 20
    for allowed, hands, hidden in seen:
        for s in (1, 2, 3):
            assert set(hands[s]) <= allowed[s]
            assert len(allowed[s]) < hidden              # something is ruled out for each


def test_inference_changes_what_the_search_plays_somewhere():
    """Control that the option reaches the search: over a few seeds and positions the choices
    with and without it are not all equal."""
    base = "ismcts:iterations=30"
    assert _choices(base + ",infer=true", 6) != _choices(base + ",infer=false", 6)
