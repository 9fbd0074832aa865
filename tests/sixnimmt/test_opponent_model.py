"""The `heuristic` bot's opponent model (strategies/sixnimmt/model.py, ismcts `infer`): what the
other seats' past plays (N5 choice, N6 reveal) rule out of their hands, and the redeal by it."""

from __future__ import annotations

import numpy as np

from simkit.engine import seeded_play
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
        start = new_state(config, N, np.random.default_rng(g))
        for state in seeded_play.positions(start, [bot_class() for _ in range(N)], info, g):
            if state.phase == "play" and state.turn >= 1:
                yield state.clone(), g % N


def _model(state, seat):
    sample = Decision(state, seat, np.random.default_rng(5)).sample_state()
    return sample, HeuristicStrategy().opponent_model(sample, seat)


def _tally(bot_class, games):
    """(seats seen not to play like the heuristic, seats, held cards ruled out, held cards,
    hidden cards left, hidden cards) over the other seats of every position."""
    dropped = seats = wrong = held = allowed = hidden = 0
    for state, seat in _positions(bot_class, games):
        _, model = _model(state, seat)
        assert model is not None and model.allowed[seat] is None
        pool = len(state.aside) + sum(len(h) for s, h in enumerate(state.hands) if s != seat)
        for s in range(N):
            if s == seat:
                continue
            seats += 1
            if model.allowed[s] is None:
                dropped += 1
                continue
            held += len(state.hands[s])
            wrong += sum(1 for c in state.hands[s] if c not in model.allowed[s])
            hidden += pool
            allowed += len(model.allowed[s])
    return dropped, seats, wrong, held, allowed, hidden


def test_heuristic_players_hands_are_almost_never_ruled_out_and_the_model_says_something():
    """Against `heuristic` players the cards they hold pass the test (a few fail: the model leaves
    out their other unknown cards), and a quarter or more of the hidden cards are ruled out."""
    dropped, seats, wrong, held, allowed, hidden = _tally(HeuristicStrategy, 12)
    assert held > 500
    assert dropped / seats < 0.02
    assert wrong / held < 0.01
    assert allowed / hidden < 0.8


def test_random_players_are_seen_not_to_play_like_the_heuristic():
    """Control: `random` players would break the model (the cards they hold ruled out), so most
    of them are recognised by the self-check and get no constraint."""
    dropped, seats, wrong, held, _, _ = _tally(RandomStrategy, 6)
    assert dropped / seats > 0.5
    assert wrong / held > 0.05          # the few not recognised yet: the model is wrong for them


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


def test_the_played_cards_costs_by_where_the_extra_card_falls_are_the_costs_themselves():
    """`_costs_of_played` (the cost of the played card x with one more card c, by where c falls)
    equals `_cost(table, x, own, c)` for every card c not in the seat's known cards (N5-N6)."""
    from strategies.sixnimmt.model import _cost, _costs_of_played, _turns_of_round
    from strategies.sixnimmt.turn_table import turn_costs

    checked = 0
    for state, seat in _positions(HeuristicStrategy, games=3):
        config = state.config
        deck = config.deck_cards(N)
        turns = _turns_of_round(_model(state, seat)[0])
        for t, (rows, seen, plays) in enumerate(turns):
            for x, s in plays:
                own = sorted([x] + [c for _, _, later in turns[t + 1:] for c, p in later if p == s])
                table = turn_costs(rows, seen, deck, max(1, deck - len(seen) - len(own) - 3), N - 1,
                                   config.row_capacity, 1.0)
                end, below, between, above = _costs_of_played(table, x, own)
                for c in range(1, deck + 1):
                    if c in own or c in seen:
                        continue
                    expected = below if c < end else between if c < x else above
                    assert _cost(table, x, own, c) == expected, (x, c)
                    checked += 1
    assert checked > 10_000
