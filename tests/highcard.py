"""High card: a fifth, toy game written only from docs/architecture.md, with no change to core.

Each player holds `hand_size` cards of a deck 1..`deck_size`; every trick all players show a
card at once and the single highest card scores a point (a tie for highest scores nothing).
Most points when the hands are empty wins. It is registered in-process by tests/test_games.py
and passes every generic test there (conformance, golden transcript, text positions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from simkit.engine.cloning import Cloning
from simkit.engine.config import GameConfig, setting
from simkit.engine.errors import ConfigError, IllegalAction, PositionError
from simkit.engine.game import Game, State, outcome_from_scores
from simkit.engine.position_text import Ledger, PositionText
from simkit.engine.seats import seat_label
from simkit.engine.strategy import RandomStrategy

PLAY, OVER = "play", "over"


@dataclass(frozen=True)
class HighCardConfig(GameConfig):
    deck_size: int = setting(20, "cards in the deck, numbered 1..deck_size", min=2, max=100)
    hand_size: int = setting(5, "cards dealt to each player", min=1, max=25)

    def check_players(self, n_players: int) -> None:
        if n_players * self.hand_size > self.deck_size:
            raise ConfigError(f"hand_size={self.hand_size} for {n_players} players needs "
                              f"{n_players * self.hand_size} cards: deck_size is {self.deck_size}")


class Observation(NamedTuple):
    seat: int
    hand: tuple[int, ...]
    tricks: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]


class HighCardState(State):
    cloning = Cloning(lists=("aside", "tricks", "points", "events"), nested=("hands",))

    def __init__(self, config: HighCardConfig, n_players: int, rng: np.random.Generator):
        config.check_players(n_players)
        self.config = config
        deck = (rng.permutation(config.deck_size) + 1).tolist()
        k = config.hand_size
        self.hands = [sorted(deck[s * k:(s + 1) * k]) for s in range(n_players)]
        self.aside = sorted(deck[n_players * k:])
        self.tricks: list[tuple[int, ...]] = []
        self.points = [0] * n_players
        self.events: list = [("deal", tuple(map(tuple, self.hands)))]
        self.acting = tuple(range(n_players))

    def to_act(self):
        return self.acting

    def legal_actions(self, seat):
        return tuple(self.hands[seat]) if seat in self.acting else ()

    def observe(self, seat):
        return Observation(seat, tuple(self.hands[seat]), tuple(self.tricks), tuple(self.points))

    def apply(self, actions):
        for seat, card in zip(self.acting, actions):
            if card not in self.hands[seat]:
                raise IllegalAction(f"seat {seat} does not hold {card!r}", seat=seat)
        for seat, card in zip(self.acting, actions):
            self.hands[seat].remove(card)
        trick = tuple(actions)
        best = max(trick)
        if trick.count(best) == 1:
            self.points[trick.index(best)] += 1
        self.tricks.append(trick)
        self.events.append(("trick", trick))
        if not self.hands[0]:
            self.acting = ()

    def is_over(self):
        return not self.acting

    def outcome(self):
        return outcome_from_scores([float(p) for p in self.points], higher_is_better=True,
                                   extras={"tricks": len(self.tricks)})

    def determinize(self, seat, rng):
        other = self.clone()
        others = [s for s in range(len(self.hands)) if s != seat]
        pool = self.aside + [c for s in others for c in self.hands[s]]
        pool = [pool[i] for i in rng.permutation(len(pool))]
        for s in others:
            k = len(self.hands[s])
            other.hands[s], pool = sorted(pool[:k]), pool[k:]
        other.aside = sorted(pool)
        return other

    def audit(self):
        cards = self.aside + [c for h in self.hands for c in h] + [c for t in self.tricks for c in t]
        if sorted(cards) != list(range(1, self.config.deck_size + 1)):
            return ["the cards are not exactly 1..deck_size"]
        return []


POSITION_KEYS = ("hand <seat>", "aside")


def format_position(state: HighCardState) -> str:
    return "\n".join([*(f"hand {s}: {' '.join(map(str, h))}" for s, h in enumerate(state.hands)),
                      f"aside: {' '.join(map(str, state.aside))}",
                      *(f"trick: {' '.join(map(str, t))}" for t in state.tricks)])


def parse_position(text: str, config: HighCardConfig) -> HighCardState:
    lines = PositionText(text, POSITION_KEYS, repeated=("trick",), example="hand 0: 3 7")
    cards = Ledger.numbered(1, config.deck_size)
    state = object.__new__(HighCardState)
    state.config = config
    state.hands = [cards.take_all(line) for _, _, line in lines.indexed("hand <seat>")]
    state.aside = cards.take_all(lines.line("aside"))
    state.tricks = [tuple(cards.take_all(line)) for line in lines.all("trick")]
    cards.check_all_listed("each card is in a hand, aside or in a trick")
    n = len(state.hands)
    if not 2 <= n <= 4 or len({len(h) for h in state.hands}) != 1:
        raise PositionError(f"{n} hands of sizes {[len(h) for h in state.hands]}: 2 to 4 hands of one size")
    state.points = [0] * n
    for line, trick in zip(lines.all("trick"), state.tricks):
        if len(trick) != n:
            raise line.error(f"{len(trick)} cards in a trick of {n} players")
        if trick.count(max(trick)) == 1:
            state.points[trick.index(max(trick))] += 1
    state.events = []
    state.acting = tuple(range(n)) if state.hands[0] else ()
    return state


def render_log(state: HighCardState) -> str:
    lines = []
    for event in state.events:
        if event[0] == "deal":
            lines += [f"{seat_label(s)} holds {' '.join(map(str, h))}" for s, h in enumerate(event[1])]
        else:
            lines.append(f"trick: {' '.join(map(str, event[1]))}")
    return "\n".join(lines + [f"points: {' '.join(map(str, state.points))}"])


#: the golden transcript names this strategy; the game needs none of its own
RandomPlay = RandomStrategy

GAME = Game(name="highcard", title="High card (toy)", min_players=2, max_players=4,
            config_cls=HighCardConfig, new_state=HighCardState, rules_version="highcard-1",
            render_log=render_log, format_action=str, format_position=format_position,
            parse_position=parse_position,
            max_steps=lambda config, n: config.hand_size)
