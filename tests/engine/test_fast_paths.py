"""The runner's opt-in fast paths change no game: `Strategy.act_many` answers exactly as `act`
would, a `reusable` instance plays a chunk exactly as fresh ones, and pooled generators draw
exactly as fresh ones (issue 12)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simkit.engine.play import _together, play_out, play_range
from simkit.engine.registry import all_games, get_game
from simkit.engine.seeding import (
    GeneratorPool,
    PCG64Words,
    batch_stream_words,
    game_streams,
    generator_from_state,
    generator_state,
)
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import GameInfo, Strategy, available_strategies, load_class
from strategies.sixnimmt.baseline import RandomStrategy


def _act_many_classes() -> list[tuple[str, str]]:
    """(game, strategy name) of every built-in strategy that overrides act_many."""
    found = []
    for game in sorted(g.name for g in all_games()):
        for name, target in sorted(available_strategies(game).items()):
            cls = load_class(target)
            if getattr(cls.act_many, "__func__", None) is not getattr(Strategy.act_many, "__func__", None):
                found.append((game, name))
    return found


def _twin_tables(game_name: str, name: str, n: int, seed: int, overrides: dict[str, str]):
    """Two identical states and strategy lineups (same seeds), each with its own generators."""
    spec = RunSpec.create(game_name, n, [name], 1, seed=seed, overrides=overrides)
    game = get_game(game_name)
    info = GameInfo(game.name, spec.config, n)
    tables = []
    for _ in range(2):
        streams = game_streams(seed, 0, n)
        state = game.new_state(spec.config, n, streams.chance)
        bots = [entry.build() for entry in spec.strategies]
        for seat, bot in enumerate(bots):
            bot.setup(info, seat, streams.seats[seat])
        tables.append((state, bots))
    return tables


def test_the_random_bots_of_6_nimmt_offer_act_many():
    assert ("sixnimmt", "random") in _act_many_classes()


@pytest.mark.parametrize("game_name,name", _act_many_classes())
@pytest.mark.parametrize("n,overrides", [(4, {}), (3, {"advanced": "true"}), (10, {"max_rounds": "2"})])
def test_act_many_gives_exactly_the_actions_of_act(game_name, name, n, overrides):
    """Step by step on twin games: act_many on one, act seat by seat on the other, the same
    joint action every time (so the same draws in the same order), until both games end."""
    from simkit.engine.strategy import Decision

    if game_name != "sixnimmt":
        overrides = {}
        n = max(get_game(game_name).min_players, min(n, get_game(game_name).max_players))
    for seed in range(5):
        (many_state, many_bots), (one_state, one_bots) = _twin_tables(game_name, name, n, seed, overrides)
        many_decisions = [Decision(many_state, s, bot.rng) for s, bot in enumerate(many_bots)]
        one_decisions = [Decision(one_state, s, bot.rng) for s, bot in enumerate(one_bots)]
        steps = 0
        while not one_state.is_over():
            seats = one_state.to_act()
            expected = [one_bots[s].act(one_decisions[s]) for s in seats]
            if len(seats) == n:
                got = type(many_bots[0]).act_many(many_bots, many_decisions)
                steps += 1
            else:
                got = [many_bots[s].act(many_decisions[s]) for s in seats]
            assert got == expected and [type(a) for a in got] == [type(a) for a in expected]
            one_state.apply(expected)
            many_state.apply(got)
        assert many_state.outcome() == one_state.outcome() and steps > 0


class _CountsActMany(RandomStrategy):
    calls = 0

    @classmethod
    def act_many(cls, bots, decisions):
        _CountsActMany.calls += 1
        return super().act_many(bots, decisions)


class _FailsActMany(RandomStrategy):
    @classmethod
    def act_many(cls, bots, decisions):
        raise RuntimeError("no cards")


def _sixnimmt_table(seed: int = 3):
    game = get_game("sixnimmt")
    config = game.config_cls(max_rounds=1)
    streams = game_streams(seed, 0, 4)
    return game.new_state(config, 4, streams.chance), GameInfo("sixnimmt", config, 4), streams.seats


def test_the_loop_calls_act_many_for_a_step_of_every_seat_and_plays_the_same_game():
    plain_state, info, rngs = _sixnimmt_table()
    played = play_out(plain_state, [RandomStrategy() for _ in range(4)], info, rngs)
    _CountsActMany.calls = 0
    state, info, rngs = _sixnimmt_table()
    counted = play_out(state, [_CountsActMany() for _ in range(4)], info, rngs)
    assert _CountsActMany.calls == 10                   # the ten card choices of a round
    assert counted.steps == played.steps and state.events == plain_state.events


def test_act_many_needs_one_class_at_every_seat():
    assert _together([RandomStrategy(), RandomStrategy()]) is not None
    assert _together([RandomStrategy(), _CountsActMany()]) is None
    assert _together([Strategy(), Strategy()]) is None               # no override: act per seat


def test_a_failure_in_act_many_forfeits_seat_0():
    state, info, rngs = _sixnimmt_table()
    played = play_out(state, [_FailsActMany() for _ in range(4)], info, rngs)
    assert (played.forfeit, played.error, played.steps) == (0, "RuntimeError: no cards", 0)


@pytest.mark.parametrize("strategies,kw", [
    (["random"], {}),
    (["random", "random:row=uniform", "lowest"], {"seating": "random"}),
    (["random"], {"duplicate": True}),
])
def test_reused_instances_play_a_chunk_exactly_as_fresh_ones(monkeypatch, strategies, kw):
    spec = RunSpec.create("sixnimmt", 3, strategies, 30, seed=8, **kw)
    reused = play_range(spec, 0, 30)
    built = []
    real_init = RandomStrategy.__init__

    def counting_init(self, *args, **kwargs):
        built.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(RandomStrategy, "__init__", counting_init)
    again = play_range(spec, 0, 30)
    assert len(built) == sum(s.startswith("random") for s in spec_texts(spec))   # once per slot
    monkeypatch.setattr(RandomStrategy, "reusable", False)
    fresh = play_range(spec, 0, 30)
    assert reused.games == again.games == fresh.games and reused.seats == again.seats == fresh.seats
    assert len(built) > 30                                                          # now per game


def spec_texts(spec: RunSpec) -> list[str]:
    return [s.text for s in spec.strategies]


def _draws(streams) -> list:
    # a 32-bit draw leaves half a word buffered: the next game must not see it
    return [streams.chance.random(2).tolist(), streams.chance.integers(9, dtype=np.int32)] + \
        [g.random(2).tolist() + [int(g.integers(5, dtype=np.int32))] for g in streams.seats]


@pytest.mark.parametrize("fast", [True, False], ids=["state words", "state property"])
def test_pooled_generators_draw_as_fresh_ones_game_after_game(monkeypatch, fast):
    if not fast:
        monkeypatch.setattr(PCG64Words, "usable", lambda self: False)
    pool = GeneratorPool()
    words = batch_stream_words(21, 0, 6, 5)
    for index in range(6):
        pooled = game_streams(21, index, 3, pool=pool, words=words[index])
        assert _draws(pooled) == _draws(game_streams(21, index, 3))
        assert pooled.seating_rng(3).random() == game_streams(21, index, 3).seating_rng(3).random()


def test_the_state_words_are_where_numpy_keeps_them():
    assert PCG64Words(np.random.Generator(np.random.PCG64(0)).bit_generator).usable()


def test_a_generator_rebuilt_from_its_snapshot_draws_the_same_and_alone():
    gen = np.random.default_rng(5)
    gen.integers(3, dtype=np.int32)                     # half a word buffered
    copy = generator_from_state(generator_state(gen))
    assert copy.integers(1 << 30, size=4, dtype=np.int32).tolist() == \
        gen.integers(1 << 30, size=4, dtype=np.int32).tolist()
    copy.random(3)
    assert copy.random() != gen.random()


def test_the_paranoid_audit_passes_every_step_of_the_fast_paths():
    spec = RunSpec.create("sixnimmt", 4, ["random"], 20, seed=2, paranoid=True,
                          overrides={"max_rounds": "2"})
    chunk = play_range(spec, 0, 20)
    assert chunk.games["error"] == [""] * 20
    plain = play_range(dataclasses.replace(spec, paranoid=False), 0, 20)
    assert chunk.seats == plain.seats


def test_decisions_for_seats_are_the_decisions_of_each_seat():
    """`Decision.for_seats` (the loop's set-up) gives every seat what `Decision(state, seat, rng)` gives."""
    from simkit.engine.strategy import Decision

    spec = RunSpec.create("sixnimmt", 4, ["random"], 1, seed=3)
    state = get_game("sixnimmt").new_state(spec.config, 4, np.random.default_rng(3))
    rngs = [np.random.default_rng(s) for s in range(4)]
    plain_ones = [Decision(state, s, rngs[s]) for s in range(4)]
    for seat, (fast, plain) in enumerate(zip(Decision.for_seats(state, rngs), plain_ones)):
        assert type(fast) is Decision and fast.seat == plain.seat == seat and fast.rng is plain.rng
        assert fast.observation == plain.observation
        assert fast.legal_actions == plain.legal_actions
        assert fast.is_legal(plain.legal_actions[0]) and not fast.is_legal(105)
        assert fast.sample_state().observe(seat) == state.observe(seat)
