"""The generic `random` strategy (simkit.engine.strategy.RandomStrategy): any game gets it when it
names no `random` of its own; it plays only legal actions and draws only from its own generator."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine import registry
from simkit.engine.errors import ConfigError
from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo, RandomStrategy, available_strategies, load_class, parse_strategy
from tests import highcard
from tests.search import candidates, unlisted

GENERIC = "simkit.engine.strategy:RandomStrategy"


@pytest.fixture(autouse=True)
def toy_games(monkeypatch):
    """High card and its unlisted variants known to get_game for one test only."""
    for game in (highcard.GAME, unlisted.GAME, candidates.GAME):
        monkeypatch.setitem(registry._LOADED, game.name, game)


def _play(game_name: str, seat_seeds: list[int], chance_seed: int = 3, legality: list | None = None):
    game = registry.get_game(game_name)
    config = highcard.HighCardConfig(deck_size=20, hand_size=5)
    n = len(seat_seeds)
    state = game.new_state(config, n, np.random.default_rng(chance_seed))

    def check(state, step, seats):
        if legality is not None:
            legality.append({s: tuple(state.hands[s]) for s in seats})

    played = play_out(state, [parse_strategy("random", game_name)] * n, GameInfo(game_name, config, n),
                      [np.random.default_rng(s) for s in seat_seeds], forfeit_on_error=False, before=check)
    return played, state


def test_a_game_without_its_own_random_gets_the_generic_one():
    assert available_strategies("highcard")["random"] == GENERIC
    assert highcard.RandomPlay is RandomStrategy
    assert load_class(available_strategies("sixnimmt")["random"]) is not RandomStrategy


@pytest.mark.parametrize("game_name", ["highcard", "candidates"])
def test_it_plays_only_legal_actions(game_name):
    hands: list = []
    _, state = _play(game_name, [1, 2, 3], legality=hands)
    played_cards = [trick for trick in state.tricks]
    assert len(played_cards) == len(hands) == 5 and state.is_over()
    for trick, held in zip(played_cards, hands):
        assert all(card in held[seat] for seat, card in enumerate(trick))


@pytest.mark.parametrize("game_name", ["highcard", "candidates"])
def test_same_seeds_same_game_and_only_its_own_generator(game_name):
    np.random.seed(0)
    before = np.random.get_state()[1].tolist()
    games = [_play(game_name, [1, 2, 3])[1].events for _ in range(2)]
    assert games[0] == games[1]
    assert np.random.get_state()[1].tolist() == before          # the process-wide generator untouched
    other_seats = {tuple(_play(game_name, [7 + k, 8, 9])[1].events) for k in range(4)}
    assert len(other_seats) > 1                                   # the seats' generators decide


def test_the_draws_are_one_integer_per_decision():
    """Seat generators seeded alike give the first seat's choices by `integers(len(legal))`."""
    _, state = _play("highcard", [5, 6, 7])
    rng = np.random.default_rng(5)
    dealt = state.events[0][1][0]
    hand = sorted(dealt)
    for trick in state.tricks:
        assert trick[0] == hand[int(rng.integers(len(hand)))]
        hand.remove(trick[0])


def test_a_game_with_neither_listing_nor_candidates_is_named():
    with pytest.raises(ConfigError, match="unlisted cannot list its legal actions"):
        _play("unlisted", [1, 2])
