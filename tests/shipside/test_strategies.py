"""Strategies: greedy beats random clearly; the octopus bot uses the octopus on purpose."""

from __future__ import annotations

import pytest

from simkit.core.play import play_out
from simkit.core.seeding import game_streams
from simkit.core.strategy import GameInfo, parse_strategy
from simkit.games.shipside import GAME, Octopus, Rum

from .helpers import config


def play(names, n_games, cfg=None, seed=7):
    """Win share per strategy name (seats alternate) and how often each used octopus / rum."""
    cfg = cfg or config(setup__ship_order="random", setup__first_player="random")
    wins = {name: 0.0 for name in names}
    used = {name: {"octopus": 0, "rum": 0} for name in names}
    for i in range(n_games):
        streams = game_streams(seed, i, 2)
        st = GAME.new_state(cfg, 2, streams.chance)
        seated = [names[(s + i) % 2] for s in range(2)]

        def count(state, step, seats, joint, seated=seated):
            for s, a in zip(seats, joint):
                if type(a) is Octopus:
                    used[seated[s]]["octopus"] += 1
                elif type(a) is Rum:
                    used[seated[s]]["rum"] += 1

        play_out(st, [parse_strategy(name, "shipside") for name in seated], GameInfo("shipside", cfg, 2),
                 streams.seats, forfeit_on_error=False, after=count)
        for s, share in enumerate(st.outcome().win_shares):
            wins[seated[s]] += share
    return {k: v / n_games for k, v in wins.items()}, used


@pytest.mark.slow
def test_greedy_beats_random_clearly():
    rates, used = play(["greedy", "random"], 300)
    # observed ~99%; with 300 games even 80% is far outside chance
    assert rates["greedy"] > 0.8, rates
    assert used["greedy"]["rum"] > 0


def test_greedy_beats_random_in_the_variant():
    rates, _ = play(["greedy", "random"], 100, cfg=config(variant__enabled="true",
                                                          setup__ship_order="random"))
    assert rates["greedy"] > 0.75, rates


@pytest.mark.slow
def test_octopus_bot_uses_the_octopus_and_beats_greedy():
    rates, used = play(["octopus", "greedy"], 200, seed=3)
    assert used["octopus"]["octopus"] > 2 * used["greedy"]["octopus"]
    assert used["octopus"]["octopus"] >= 100          # about one move a game or more
    assert rates["octopus"] > 0.55, rates              # observed ~0.7


def test_builtin_names():
    from strategies.shipside import BUILTIN
    assert set(BUILTIN) == {"random", "greedy", "octopus"}
    for name in BUILTIN:
        cls = type(parse_strategy(name, "shipside").build())
        assert cls.name == name and cls.description
