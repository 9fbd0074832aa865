"""A true state as a search strategy should see it: only through the protocol.

`Guarded` wraps a game's state for the game loop. Every determinization it hands out is logged,
and `clone` (a copy of the true state, hidden cards and all) raises: a search must get its
full states from `Decision.sample_state()` only.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from simkit.engine.game import State
from tests import highcard

Determinizer = Callable[[State, int, np.random.Generator], State]


class Guarded(State):
    def __init__(self, inner: State, determinizer: Determinizer | None = None):
        self.inner = inner
        self.determinizer = determinizer
        self.sampled: list[State] = []

    @property
    def events(self):  # type: ignore[override]
        return self.inner.events

    def to_act(self):
        return self.inner.to_act()

    def legal_actions(self, seat):
        return self.inner.legal_actions(seat)

    def is_legal(self, seat, action):
        return self.inner.is_legal(seat, action)

    def observe(self, seat):
        return self.inner.observe(seat)

    def apply(self, actions):
        self.inner.apply(actions)

    def is_over(self):
        return self.inner.is_over()

    def outcome(self):
        return self.inner.outcome()

    def clone(self):
        raise AssertionError("a strategy copied the true state")

    def determinize(self, seat, rng):
        if self.determinizer is None:
            state = self.inner.determinize(seat, rng)
        else:
            state = self.determinizer(self.inner, seat, rng)
        self.sampled.append(state)
        return state


def highcard_from_view(state: State, seat: int, rng: np.random.Generator) -> State:
    """A high-card determinization built from `seat`'s observation alone (unseen cards sorted,
    then shuffled), so two true states that look the same to `seat` give the same samples."""
    view = state.observe(seat)
    config = state.config  # type: ignore[attr-defined]
    n = len(view.points)
    played = {c for trick in view.tricks for c in trick}
    unseen = sorted(set(range(1, config.deck_size + 1)) - played - set(view.hand))
    unseen = [unseen[i] for i in rng.permutation(len(unseen))]
    hands, k = [], len(view.hand)
    for s in range(n):
        if s == seat:
            hands.append(list(view.hand))
        else:
            hands.append(unseen[:k])
            unseen = unseen[k:]
    lines = [f"hand {s}: {' '.join(map(str, sorted(h)))}" for s, h in enumerate(hands)]
    lines.append(f"aside: {' '.join(map(str, sorted(unseen)))}")
    lines += [f"trick: {' '.join(map(str, t))}" for t in view.tricks]
    return highcard.parse_position("\n".join(lines), config)
