"""Recorded playthroughs: random-vs-random games whose whole log is pinned by a hash.

A failure means the engine's behaviour changed: if that is intended, bump
`GAME.rules_version` and re-record the hashes (print them with `python -m
tests.shipside.test_golden`)."""

from __future__ import annotations

import hashlib

from simkit.core.play import play_out
from simkit.core.seeding import game_streams
from simkit.core.strategy import GameInfo, parse_strategy
from simkit.games.shipside import GAME

from .helpers import config

CASES = {
    "basic-1": ({}, 1),
    "basic-2": ({}, 2),
    "variant-owner-3": ({"variant__enabled": "true", "movement__chooser": "owner"}, 3),
    "free-octopus-stacked-rum-4": ({"octopus__reuse": "free", "rum__max_per_ship": "2",
                                    "rum__uses_per_player": "2"}, 4),
}
RECORDED = {
    "basic-1": "0eb681968fa865d90eb3",
    "basic-2": "fac22b9728f999228c21",
    "variant-owner-3": "b5a5e0ce5a140aa630be",
    "free-octopus-stacked-rum-4": "5c70972e2e2cce2318bb",
}


def transcript(overrides: dict, seed: int) -> str:
    cfg = config(setup__ship_order="random", setup__first_player="random", **overrides)
    streams = game_streams(seed, 0, 2)
    st = GAME.new_state(cfg, 2, streams.chance)
    actions = []

    def record(state, step, seats, joint):
        actions.append(" + ".join(GAME.format_action(a) for a in joint))

    play_out(st, [parse_strategy("random", "shipside")] * 2, GameInfo("shipside", cfg, 2), streams.seats,
             forfeit_on_error=False, after=record)
    return GAME.render_log(st) + "\n" + "\n".join(actions) + f"\n{st.outcome()}"


def digest(name: str) -> str:
    return hashlib.sha256(transcript(*CASES[name]).encode()).hexdigest()[:20]


def test_recorded_playthroughs_unchanged():
    assert GAME.rules_version == "shipside-1"
    for name in CASES:
        assert digest(name) == RECORDED[name], f"{name}: behaviour changed (see module docstring)"


if __name__ == "__main__":
    for name in CASES:
        print(f'    "{name}": "{digest(name)}",')
