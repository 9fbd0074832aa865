"""High card that cannot list its legal actions but offers `Game.candidate_actions`, the hook
search strategies use in such games."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from simkit.engine.game import Action, State
from simkit.engine.strategy import Decision, Strategy
from tests import highcard
from tests.search import unlisted


def candidate_actions(state: State, seat: int) -> Sequence[Action]:
    return tuple(state.hands[seat])  # type: ignore[attr-defined]


GAME = dataclasses.replace(highcard.GAME, name="candidates", new_state=unlisted.new_state,
                           candidate_actions=candidate_actions)


class RandomFromHand(Strategy):
    """A rollout policy for this game: a uniform card of the hand (the actions are not listed)."""

    def act(self, decision: Decision):
        hand = decision.observation.hand
        return hand[int(decision.rng.integers(len(hand)))]
