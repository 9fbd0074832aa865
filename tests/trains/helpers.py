"""Shared pieces of the Trains tests: positions from their text form, random play through play_out."""

from __future__ import annotations

import numpy as np

from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo, Strategy
from simkit.games.trains import TrainsConfig
from simkit.games.trains.position import parse_position
from strategies.trains.baseline import RandomStrategy

#: G3's train (docs/trains-rules.md, worked examples) and a second descending train without common cards
T = [80, 66, 51, 40, 22, 13, 5]
U = [70, 65, 50, 45, 35, 25, 15]

#: the first lines of a position where P0 started and is to act on the first turn
P0_TO_PLAY = "start: P0\nturn: 0\nphase: turn\ncurrent: P0"


def position(text: str, config: TrainsConfig | None = None, seed: int = 0):
    """The state of a position text (indentation is ignored); its chance events come from `seed`."""
    return parse_position(text, config or TrainsConfig(), np.random.default_rng(seed))


def play_random(state, seed: int, *, lineup=None, before=None, after=None, max_steps=None):
    """Play `state` on with `random` in every seat (or `lineup`); returns play_out's Played."""
    n = state.n
    bots = lineup or [RandomStrategy() for _ in range(n)]
    rngs = [np.random.default_rng([seed, seat]) for seat in range(n)]
    return play_out(state, bots, GameInfo("trains", state.config, n), rngs, forfeit_on_error=False,
                    before=before, after=after, max_steps=max_steps)


class FirstLegal(Strategy):
    """Always the first legal action: on a turn `draw`, then `place 1`; in setup the first card."""

    name = "first"

    def act(self, decision):
        return decision.legal_actions[0]


def at_turn(body: str, config: TrainsConfig | None = None, seed: int = 0):
    """A position on the first turn of P0 (who started): `body` holds the trains and the piles."""
    return position(f"{P0_TO_PLAY}\n{body}", config, seed)
