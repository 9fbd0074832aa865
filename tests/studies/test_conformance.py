"""check_game catches what it promises to catch, on a toy game with deliberate faults."""

import copy
from dataclasses import dataclass

import numpy as np
import pytest

from simkit.engine.config import GameConfig
from simkit.engine.game import Game, State, outcome_from_scores
from simkit.engine.strategy import Strategy
from simkit.studies.conformance import ConformanceError, check_game


@dataclass(frozen=True)
class ToyConfig(GameConfig):
    pass


class ToyState(State):
    """Each seat holds a hidden card and bets 0 or 1 on it, twice, simultaneously."""

    def __init__(self, config, n, rng):
        self.n, self.rng = n, rng
        deck = rng.permutation(10).tolist()
        self.cards = deck[:n]
        self.rest = deck[n:]
        self.bets = [[] for _ in range(n)]
        self.events = [("deal",)]

    def to_act(self):
        return () if self.is_over() else tuple(range(self.n))

    def legal_actions(self, seat):
        return (0, 1)

    def observe(self, seat):
        return (self.cards[seat], tuple(map(tuple, self.bets)))

    def apply(self, actions):
        for s, a in enumerate(actions):
            self.bets[s].append(a)
        self.events.append(("bets", tuple(actions)))

    def is_over(self):
        return len(self.bets[0]) >= 2

    def outcome(self):
        return outcome_from_scores([c * sum(b) for c, b in zip(self.cards, self.bets)], True)

    def clone(self):
        other = copy.copy(self)
        other.cards, other.rest = list(self.cards), list(self.rest)
        other.bets = [list(b) for b in self.bets]
        other.events = list(self.events)
        other.rng = copy.deepcopy(self.rng)
        return other

    def determinize(self, seat, rng):
        other = self.clone()
        hidden = [c for s, c in enumerate(self.cards) if s != seat] + self.rest
        hidden = [hidden[i] for i in rng.permutation(len(hidden))]
        for s in range(self.n):
            if s != seat:
                other.cards[s] = hidden.pop()
        other.rest = hidden
        return other

    def audit(self):
        return [] if sorted(self.cards + self.rest) == list(range(10)) else ["cards not conserved"]


class ToyRandom(Strategy):
    name = "random"
    description = "random bet"

    def act(self, decision):
        return int(decision.rng.integers(2))


class LeakyState(ToyState):
    def observe(self, seat):
        return (tuple(self.cards), tuple(map(tuple, self.bets)))


class SharedCloneState(ToyState):
    def clone(self):
        other = super().clone()
        other.bets = self.bets          # the fault: both states share the bet lists
        return other


class EndlessState(ToyState):
    def is_over(self):
        return False


class LosingCardsState(ToyState):
    def apply(self, actions):
        super().apply(actions)
        self.rest.pop()


class NoLegalActionState(ToyState):
    def legal_actions(self, seat):
        return ()


class GlobalRandomState(ToyState):
    """Draws from the process-wide generator instead of the game's own: not reproducible."""

    def apply(self, actions):
        super().apply(actions)
        self.events.append(("noise", float(np.random.random())))


def _game(state_cls, **kw):
    return Game(name="toy", title="Toy", min_players=2, max_players=3, config_cls=ToyConfig,
                new_state=state_cls, rules_version="toy-1", render_log=lambda s: "",
                max_steps=lambda c, n: 10, **kw)


@pytest.fixture(autouse=True)
def toy_strategy(monkeypatch):
    import simkit.engine.strategy as strategy_mod
    monkeypatch.setattr(strategy_mod, "available_strategies",
                        lambda game: {"random": "tests.studies.test_conformance:ToyRandom"})
    import simkit.studies.conformance as conf
    conf._spec.cache_clear()
    yield
    conf._spec.cache_clear()


def test_a_sound_game_passes():
    report = check_game(_game(ToyState), games=30, deep_every=1)
    assert report.games == 60 and report.steps == 120


@pytest.mark.parametrize("state_cls, message", [
    (LeakyState, "leaks hidden information"),
    (SharedCloneState, "playing on a clone changed the original state"),
    (EndlessState, "no end after 10 steps"),
    (LosingCardsState, "audit: cards not conserved"),
    (NoLegalActionState, "has no legal action"),
    (GlobalRandomState, "same seed and strategies gave a different transcript"),
])
def test_each_fault_is_caught(state_cls, message):
    with pytest.raises(ConformanceError, match=message):
        check_game(_game(state_cls), games=30, deep_every=1)
