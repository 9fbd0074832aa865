"""Strategies: greedy beats random clearly; the octopus bot uses the octopus on purpose."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.play import play_out
from simkit.engine.seeding import game_streams
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.shipside import GAME, Octopus, Play, Rum

from .helpers import A, B, config, position


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


# ---------------------------------------------------------------- issue 10: one ply ahead

def _choice(name, st):
    bot = parse_strategy(name, "shipside").build()
    bot.setup(GameInfo("shipside", st.config, 2), st.to_act()[0], np.random.default_rng(0))
    return bot.act(Decision(st, st.to_act()[0], np.random.default_rng(0)))


def _captures_for_b(st, defense):
    """B's replies (every legal action of B's turn) after which B has captured ship `defense`."""
    won = []
    for reply in st.legal_actions(B):
        after = st.clone()
        after.apply([reply])
        if defense in after.observe(B).captured[B]:
            won.append(reply)
    return won


def _after(st, action):
    st = st.clone()
    st.apply([action])
    while not st.is_over() and st.to_act() == (A,):       # A's follow-ups (none here: no crew, no rum)
        st.apply([st.legal_actions(A)[0]])
    return st


@pytest.mark.parametrize("name", ["greedy", "octopus"])
def test_greedy_does_not_fill_the_opponents_fifth_slot_and_hand_over_the_ship(name):
    """Ship 34 (no crew): A's side 3 2 5 2 = 12 (4 cards), B's side 8 9 6 3 = 26 (4 cards).
    Dumping the jellyfish as B's fifth card ends B's threshold threat (B needs 8+) but hands B
    the ship by S33: any card of B's on A's last slot leaves 26 > 12 + card. The old greedy did
    exactly that; with its look at B's reply it plays elsewhere, where (with B's actual hand,
    which it cannot see) B has no capture at all."""
    st = position(config(), hands=((-4, 1, 2, 3), (0, 1, 4, 5)),
                  sides={34: ((3, 2, 5, 2), (8, 9, 6, 3))}, rum_left=(0, 0))
    dump = Play(-4, True, 34, B)
    assert dump in st.legal_actions(A)
    given_away = _after(st, dump)
    assert len(_captures_for_b(given_away, 34)) >= 4      # each card of B's on 34/A takes it

    choice = _choice(name, st)
    assert not (type(choice) is Play and choice.ship == 34 and choice.side == B), choice
    assert _captures_for_b(_after(st, choice), 34) == []


def test_a_reused_random_instance_plays_a_chunk_exactly_as_fresh_ones(monkeypatch):
    """`reusable`: one instance per lineup slot for a chunk plays the games fresh instances play
    (setup empties the buffer of draws a game leaves behind)."""
    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec
    from strategies.shipside.baseline import RandomStrategy

    spec = RunSpec.create(game="shipside", n_players=2, strategies=["random"], n_games=20, seed=4)
    reused = play_range(spec, 0, 20)
    monkeypatch.setattr(RandomStrategy, "reusable", False)
    fresh = play_range(spec, 0, 20)
    assert reused.games == fresh.games and reused.seats == fresh.seats
    assert len(set(reused.games["steps"])) > 1
