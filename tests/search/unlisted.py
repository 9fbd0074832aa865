"""High card whose legal actions cannot be listed (like Rummikub's), without a candidate hook."""

from __future__ import annotations

import dataclasses

from tests import highcard


class UnlistedState(highcard.HighCardState):
    def legal_actions(self, seat):
        return None

    def is_legal(self, seat, action):
        return seat in self.acting and action in self.hands[seat]


def new_state(config, n_players, rng):
    return UnlistedState(config, n_players, rng)


GAME = dataclasses.replace(highcard.GAME, name="unlisted", new_state=new_state)
