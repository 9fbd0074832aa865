"""The exact joint check of the `heuristic` opponent model's hands (strategies/sixnimmt/
joint_model.py, `ismcts:joint=true`): with its whole hand of each earlier turn of the round, a
seat's revealed card (N5 choice, N6 reveal) must be one the heuristic would have played."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simkit.engine import seeded_play
from simkit.engine.errors import ConfigError
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.state import new_state
from simkit.search.compiled import unsupported
from simkit.search.defaults import GENERIC, PER_GAME, defaults_for
from simkit.search.ismcts import ISMCTS
from strategies.sixnimmt.heuristic import HeuristicStrategy
from strategies.sixnimmt.joint_model import JointModel, consistent, joint_model
from strategies.sixnimmt.model import HeuristicModel

N = 4
CONFIG = SixNimmtConfig(max_rounds=1)
INFO = GameInfo("sixnimmt", CONFIG, N)


def _positions(games: int, first_turn: int = 2):
    """(true state, seat) at every turn from `first_turn` of single rounds of four `heuristic`
    bots."""
    for g in range(games):
        start = new_state(CONFIG, N, np.random.default_rng(g))
        for state in seeded_play.positions(start, [HeuristicStrategy() for _ in range(N)], INFO, g):
            if state.phase == "play" and state.turn >= first_turn:
                yield state.clone(), g % N


def _sample_and_model(state, seat, rng_seed: int = 5):
    decision = Decision(state, seat, np.random.default_rng(rng_seed))
    sample = decision.sample_state()
    return decision, sample, joint_model(sample, seat)


def test_the_hands_the_heuristic_players_really_hold_always_pass():
    """The check is exact, not a tolerance: every real hand of a `heuristic` seat passes it."""
    checked = 0
    for state, seat in _positions(games=8):
        _, _, model = _sample_and_model(state, seat)
        for s in model.order:
            assert model.checks[s]
            assert consistent(state.hands[s], model.checks[s])
            checked += 1
    assert checked > 150


def test_many_hands_the_card_by_card_model_deals_fail_and_the_joint_deals_pass():
    """Control that the check says something: hands dealt by model.py alone often fail it (the
    costs of a turn depend on the seat's other hidden cards); after the joint redeal almost
    none do."""
    base_bad = joint_bad = seats = 0
    rng = np.random.default_rng(3)
    for state, seat in _positions(games=4, first_turn=3):
        decision, sample, model = _sample_and_model(state, seat)
        for _ in range(5):
            card_by_card, joint = decision.sample_state(), decision.sample_state()
            HeuristicModel.resample(model, card_by_card, rng)
            model.resample(joint, rng)
            for s in model.order:
                seats += 1
                base_bad += not consistent(card_by_card.hands[s], model.checks[s])
                joint_bad += not consistent(joint.hands[s], model.checks[s])
    assert seats > 300
    assert base_bad / seats > 0.2
    assert joint_bad / seats < 0.02


def test_the_joint_redeal_keeps_the_cards_and_the_seat_s_own_hand():
    rng = np.random.default_rng(9)
    for state, seat in _positions(games=2):
        _, sample, model = _sample_and_model(state, seat)
        own, sizes = list(sample.hands[seat]), [len(h) for h in sample.hands]
        hidden = sorted(sample.aside + [c for s, h in enumerate(sample.hands) if s != seat for c in h])
        model.resample(sample, rng)
        assert sample.audit() == []
        assert sample.hands[seat] == own and [len(h) for h in sample.hands] == sizes
        others = [c for s, h in enumerate(sample.hands) if s != seat for c in h]
        assert sorted(sample.aside + others) == hidden


def test_with_no_tries_it_deals_as_the_card_by_card_model():
    """The first deal is model.py's, draw for draw: with `tries=0` the hands are the same."""
    state, seat = next(_positions(games=1, first_turn=4))
    decision, sample, model = _sample_and_model(state, seat)
    lazy = JointModel(HeuristicModel(model.allowed), model.checks, tries=0)
    a = decision.sample_state()
    b = a.clone()
    lazy.resample(a, np.random.default_rng(4))
    HeuristicModel.resample(model, b, np.random.default_rng(4))
    assert a.hands == b.hands and a.aside == b.aside


def test_no_joint_model_in_the_advanced_game():
    """N19: the advanced game's hands are public; nothing to infer."""
    config = SixNimmtConfig(max_rounds=1, advanced=True)
    assert joint_model(new_state(config, N, np.random.default_rng(0)), 0) is None


# ---- the search option ----------------------------------------------------------------------

def _choices(text: str, decisions: int = 4) -> list:
    state = next(s for s, _ in _positions(games=1, first_turn=4))
    out = []
    for k in range(decisions):
        bot = parse_strategy(text, "sixnimmt").build()
        rng = np.random.default_rng(k)
        bot.setup(INFO, 0, rng)
        out.append(bot.act(Decision(state, 0, rng)))
    return out


def test_joint_is_off_by_default_everywhere_and_a_bad_value_is_refused():
    assert GENERIC.joint is False and ISMCTS().joint is False
    assert not any(d.joint for d in PER_GAME.values())
    assert defaults_for("sixnimmt", N, CONFIG).joint is False
    with pytest.raises(ConfigError, match="joint='always' is not a boolean"):
        parse_strategy("ismcts:joint=always", "sixnimmt").build()


def test_joint_builds_the_joint_model_once_per_decision_and_searches_in_python(monkeypatch):
    built = []
    real = HeuristicStrategy.opponent_model

    def build(self, state, seat, joint=False):
        built.append(joint)
        return real(self, state, seat, joint=joint) if joint else real(self, state, seat)
    monkeypatch.setattr(HeuristicStrategy, "opponent_model", build)
    state = next(s for s, _ in _positions(games=1, first_turn=4))
    bot = parse_strategy("ismcts:iterations=20,joint=true", "sixnimmt").build()
    bot.setup(INFO, 0, np.random.default_rng(0))
    bot.act(Decision(state, 0, np.random.default_rng(0)))
    assert built == [True]
    assert bot.compiled_reason is not None                  # the Python loop searched
    assert unsupported(replace(GENERIC, joint=True)) == "joint"      # compiled iterations lack it
    built.clear()
    _choices("ismcts:iterations=20,kernel=false", decisions=1)   # the default: card by card
    assert built == [False]


def test_joint_changes_what_the_search_plays_somewhere_and_false_changes_nothing():
    base = "ismcts:iterations=30,kernel=false"
    assert _choices(base + ",joint=false") == _choices(base)
    assert _choices(base + ",joint=true", 6) != _choices(base, 6)
