"""High card that cannot list its legal actions but offers `candidate_actions` (the hook the
search strategies read; the Game field itself is added to the protocol later)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from simkit.core.game import Action, Game, State
from simkit.core.strategy import Decision, Strategy
from tests import highcard
from tests.search import unlisted


def candidate_actions(state: State, seat: int) -> Sequence[Action]:
    return tuple(state.hands[seat])  # type: ignore[attr-defined]


@dataclass(frozen=True)
class GameWithCandidates(Game):
    candidate_actions: Callable[[State, int], Sequence[Action]] | None = None


GAME = GameWithCandidates(**{**highcard.GAME.__dict__, "name": "candidates",
                             "new_state": unlisted.new_state, "candidate_actions": candidate_actions})


class RandomFromHand(Strategy):
    """A rollout policy for this game: a uniform card of the hand (the actions are not listed)."""

    def act(self, decision: Decision):
        hand = decision.observation.hand
        return hand[int(decision.rng.integers(len(hand)))]
