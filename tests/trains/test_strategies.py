"""Trains strategies: greedy beats random by far; rival runs; scoring helpers are right."""

import numpy as np
import pytest

from simkit.engine.play import play_range
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.trains import GAME, TrainsConfig
from simkit.games.trains.actions import DRAW, PLACE, USE_ONE
from strategies.trains.heuristic import WIN, DiscardMemory, best_place, expected_draw, gap_counts, sortedness

from .helpers import at_turn, play_random


def _win_share(chunk, label: str) -> float:
    seats = chunk.seats
    wins = [w for s, w in zip(seats["strategy"], seats["win"]) if s == label]
    return sum(wins) / (len(seats["game"]) / len(set(seats["seat"])))


def test_greedy_beats_random_two_players():
    """greedy vs random, 2 players, 300 games with seats rotated: greedy's win share is far
    above 1/2 (observed ~1.0; the bound 0.8 leaves a margin no seed can flake through)."""
    spec = RunSpec.create(game="trains", n_players=2, strategies=["greedy", "random"], n_games=300, seed=2024)
    chunk = play_range(spec, 0, 300)
    share = _win_share(chunk, "greedy")
    assert share > 0.8
    assert _win_share(chunk, "random") < 0.2
    assert max(chunk.games["turns"]) <= 1000
    assert set(chunk.games["capped"]) <= {True, False}


def test_rival_and_greedy_both_finish_games():
    """rival vs greedy, 2 players: both are legal throughout and games end with a winner."""
    spec = RunSpec.create(game="trains", n_players=2, strategies=["rival", "greedy"], n_games=40, seed=7)
    chunk = play_range(spec, 0, 40)
    assert all(f == -1 for f in chunk.games["forfeit_seat"])
    assert sum(chunk.games["capped"]) < 40


def test_random_is_uniform_over_parameters():
    """random picks every legal action, parameters included, about equally often."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15
        display: e1:4 e8:2
        draw pile (top first): ...
        discard pile (bottom first): -""")
    bot = parse_strategy("random", "trains").build()
    rng = np.random.default_rng(0)
    bot.setup(GameInfo("trains", s.config, 2), 0, rng)
    d = Decision(s, 0, rng)
    legal = list(s.legal_actions(0))
    assert len(legal) == 10
    counts = {a: 0 for a in legal}
    for _ in range(5000):
        counts[bot.act(d)] += 1
    assert min(counts.values()) > 380 and max(counts.values()) < 620


def _decide(name, state, seat=0):
    bot = parse_strategy(name, "trains").build()
    rng = np.random.default_rng(1)
    bot.setup(GameInfo("trains", state.config, state.n), seat, rng)
    return bot.act(Decision(state, seat, rng))


def test_sortedness_orders_by_lis_then_inversions():
    """sortedness: LIS first, then fewer inversions; ascending is WIN."""
    assert sortedness((1, 2, 3, 4, 5, 6, 7)) == WIN
    assert sortedness((2, 1, 3, 4, 5, 6, 7)) == 32 * 6 - 1
    assert sortedness((7, 6, 5, 4, 3, 2, 1)) == 32 * 1 - 21
    assert sortedness((1, 2, 3, 4, 5, 7, 6)) > sortedness((2, 3, 4, 5, 6, 7, 1))


def test_gap_counts_and_expected_draw_match_brute_force():
    """The 8 gaps around the train's cards hold every unseen card once; the pattern tables give
    the same expected draw value as placing every unseen card in every slot."""
    train = [30, 12, 55, 41, 70, 3, 64]
    unseen = [c for c in range(1, 85) if c not in train]
    counts = gap_counts(train, unseen)
    assert sum(counts) == 77 and len(counts) == 8
    brute = 0.0
    for c in unseen:
        brute += max(sortedness(train[:k] + [c] + train[k + 1:]) for k in range(7))
    assert abs(expected_draw(train, counts) - brute / 77) < 1e-9
    score, slot = best_place(train, 60)
    assert score == max(sortedness(train[:k] + [60] + train[k + 1:]) for k in range(7))
    assert score == sortedness(train[:slot - 1] + [60] + train[slot:])


@pytest.mark.parametrize("name", ["greedy", "rival"])
def test_heuristics_take_a_winning_effect(name):
    """T25: with e1(3) completing the train, both heuristics play it."""
    s = at_turn("""
        P0: 3 9 41 20 55 70 84
        P1: 80 66 51 40 22 13 5
        display: e1:12 e8:2
        draw pile (top first): ...
        discard pile (bottom first): -""")
    assert _decide(name, s) == USE_ONE[(1, 3)]


@pytest.mark.parametrize("name", ["greedy", "rival"])
def test_heuristics_place_a_drawn_card_in_the_best_slot(name):
    """T9: the drawn 50 goes where it makes the train ascending."""
    s = at_turn("""
        P0: 3 9 20 41 77 70 84
        P1: 80 66 51 40 22 13 5
        display: -
        draw pile (top first): 50 ...
        discard pile (bottom first): -""")
    s.apply([DRAW])
    assert _decide(name, s) == PLACE[5]


def test_rival_denies_an_effect_the_next_opponent_would_win_with():
    """rival uses (and so removes) a display effect the next player could win with."""
    s = at_turn("""
        P0: 80 66 51 40 22 13 5
        P1: 3 9 41 20 55 70 84
        display: e1:12
        draw pile (top first): ...
        discard pile (bottom first): -""")            # e1(3) would win for P1
    assert _decide("rival", s)[:2] == ("use", 1)


@pytest.mark.parametrize("used_card", ["after", "before"])
def test_discard_memory_reconstructs_the_discard_pile_from_the_log(used_card):
    """§8 [CHOICE]: the public log tells a seat the discard pile's cards, except other players'
    setup discards; DiscardMemory rebuilds exactly that, through reshuffles."""
    cfg = TrainsConfig(max_turns=400, used_card=used_card)
    reshuffles = 0
    for game in range(6):
        s = GAME.new_state(cfg, 3, np.random.default_rng(game))
        mem = [DiscardMemory(used_after=used_card == "after") for _ in range(3)]

        def check(state, *_, mem=mem):
            for seat in range(3):
                known = mem[seat].update(state.observe(seat))
                others_hidden = {c for p in range(3) if p != seat for c in state.hidden[p]}
                assert known == set(state.discard) - others_hidden

        play_random(s, game, before=check)
        check(s)
        reshuffles += s.reshuffles
    assert reshuffles > 0


def test_a_reused_random_instance_plays_a_chunk_exactly_as_fresh_ones(monkeypatch):
    """`reusable`: one instance per lineup slot for a chunk plays the games fresh instances play
    (setup empties the buffer of draws a game leaves behind)."""
    from strategies.trains.baseline import RandomStrategy

    spec = RunSpec.create(game="trains", n_players=3, strategies=["random"], n_games=12, seed=4,
                          overrides={"max_turns": "60"})
    reused = play_range(spec, 0, 12)
    monkeypatch.setattr(RandomStrategy, "reusable", False)
    fresh = play_range(spec, 0, 12)
    assert reused.games == fresh.games and reused.seats == fresh.seats
    assert len(set(reused.games["steps"])) > 1


def _positions_seat0(seed: int, config: TrainsConfig) -> list:
    """Clones of every position of a `random` game where seat 0 acts, in order."""
    state = GAME.new_state(config, 2, np.random.default_rng(seed))
    seen = []
    play_random(state, seed, before=lambda s, *_: seen.append(s.clone()) if 0 in s.to_act() else None)
    return seen


@pytest.mark.parametrize("name", ["greedy", "rival"])
def test_a_bot_set_up_again_forgets_the_last_games_discards(name):
    """Set up for a new game (or a search's next rollout), `greedy`/`rival` read the new log from its
    start (§8 [CHOICE] discard memory): a bot that played game A answers every position of game B as
    a bot built fresh for B does."""
    config = TrainsConfig()
    info = GameInfo("trains", config, 2)
    game_a, game_b = _positions_seat0(11, config), _positions_seat0(12, config)
    reused, fresh = parse_strategy(name, "trains").build(), parse_strategy(name, "trains").build()
    reused.setup(info, 0, np.random.default_rng(0))
    for state in game_a:
        reused.act(Decision(state, 0, np.random.default_rng(1)))
    reused.setup(info, 0, np.random.default_rng(0))
    fresh.setup(info, 0, np.random.default_rng(0))
    answers = [(reused.act(Decision(s, 0, np.random.default_rng(2))),
                fresh.act(Decision(s, 0, np.random.default_rng(2)))) for s in game_b]
    assert len(answers) > 20
    assert all(a == b for a, b in answers)
