"""The `heuristic` bot's opponent model (strategies/sixnimmt/model.py, ismcts `infer`): what the
other seats' past plays (N5 choice, N6 reveal) rule out of their hands, and the redeal by it."""

from __future__ import annotations

import numpy as np

from simkit.engine.strategy import Decision, GameInfo
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.state import new_state
from strategies.sixnimmt.baseline import RandomStrategy
from strategies.sixnimmt.heuristic import HeuristicStrategy
from strategies.sixnimmt.model import HeuristicModel, heuristic_model

N = 4


def _positions(bot_class, games: int = 12, advanced: bool = False):
    """(true state, seat) at every turn after the first of single rounds played by `bot_class`."""
    config = SixNimmtConfig(max_rounds=1, advanced=advanced)
    info = GameInfo("sixnimmt", config, N)
    for g in range(games):
        state = new_state(config, N, np.random.default_rng(g))
        rngs = [np.random.default_rng([g, s]) for s in range(N)]
        bots = [bot_class() for _ in range(N)]
        for s, bot in enumerate(bots):
            bot.setup(info, s, rngs[s])
        while not state.is_over():
            if state.phase == "play" and state.turn >= 1:
                yield state.clone(), g % N
            state.apply([bots[s].act(Decision(state, s, rngs[s])) for s in state.to_act()])


def _model(state, seat):
    sample = Decision(state, seat, np.random.default_rng(5)).sample_state()
    return sample, HeuristicStrategy().opponent_model(sample, seat)


def test_heuristic_players_hands_are_almost_never_ruled_out_and_the_model_says_something():
    """Against `heuristic` players the cards they hold pass the test (a few fail: the model leaves
    out their other unknown cards), and a third or more of the hidden cards are ruled out."""
    held = ruled_out_held = hidden = allowed = 0
    for state, seat in _positions(HeuristicStrategy):
        _, model = _model(state, seat)
        assert model is not None
        pool = len(state.aside) + sum(len(h) for s, h in enumerate(state.hands) if s != seat)
        for s in range(N):
            if s == seat:
                assert model.allowed[s] is None
                continue
            held += len(state.hands[s])
            ruled_out_held += sum(1 for c in state.hands[s] if c not in model.allowed[s])
            hidden += pool
            allowed += len(model.allowed[s])
    assert held > 500
    assert ruled_out_held / held < 0.01
    assert allowed / hidden < 0.75


def test_random_players_break_the_model_often():
    """Control: the same test on `random` players rules out many of the cards they hold (the
    model is about the heuristic's choices, not a property of any deal)."""
    held = ruled_out_held = 0
    for state, seat in _positions(RandomStrategy, games=4):
        _, model = _model(state, seat)
        for s in range(N):
            if s != seat:
                held += len(state.hands[s])
                ruled_out_held += sum(1 for c in state.hands[s] if c not in model.allowed[s])
    assert ruled_out_held / held > 0.05


def test_the_redeal_keeps_the_cards_and_deals_the_allowed_ones():
    """Every card conserved (audit), the seat's own hand and the hand sizes unchanged, each other
    seat's new hand inside its allowed cards where there are enough of them."""
    rng = np.random.default_rng(9)
    checked = 0
    for state, seat in _positions(HeuristicStrategy, games=3):
        sample, model = _model(state, seat)
        own, sizes = list(sample.hands[seat]), [len(h) for h in sample.hands]
        hidden = sorted(sample.aside + [c for s, h in enumerate(sample.hands) if s != seat for c in h])
        model.resample(sample, rng)
        assert sample.audit() == []
        assert sample.hands[seat] == own and [len(h) for h in sample.hands] == sizes
        others = [c for s, h in enumerate(sample.hands) if s != seat for c in h]
        assert sorted(sample.aside + others) == hidden
        for s in model.order:
            if len(model.allowed[s] & set(hidden)) >= 3 * sizes[s]:    # plenty to choose from
                assert set(sample.hands[s]) <= model.allowed[s]
                checked += 1
    assert checked > 20


def test_the_redeal_fills_a_seat_whose_allowed_cards_run_short():
    state = next(_positions(HeuristicStrategy, games=1))[0]
    sample = Decision(state, 0, np.random.default_rng(1)).sample_state()
    model = HeuristicModel([None, frozenset({sample.hands[1][0]}), None, None])
    model.resample(sample, np.random.default_rng(2))
    assert len(sample.hands[1]) == len(state.hands[1]) and sample.audit() == []


def test_no_model_in_the_advanced_game():
    """N19: the advanced game's hands are public; nothing to infer."""
    config = SixNimmtConfig(max_rounds=1, advanced=True)
    state = new_state(config, N, np.random.default_rng(0))
    assert heuristic_model(state, 0) is None
