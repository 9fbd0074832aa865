"""check_game over thousands of games, with Trains' own invariants checked after every step."""

import pytest

from simkit.games.trains import GAME, TrainsConfig
from simkit.games.trains.rules import OVER, is_ascending
from simkit.studies.conformance import check_game

# import paths skip the per-game entry-point scan of parse_strategy (slow in the core for now)
RANDOM = ("strategies.trains.baseline:RandomStrategy",)
GREEDY = "strategies.trains.heuristic:GreedyStrategy"
RIVAL = "strategies.trains.heuristic:RivalStrategy"

ALL_ALTERNATIVES = TrainsConfig(
    effect_table="periodic", start_seat=0, setup_order="simultaneous", used_card="before",
    pair_keep="first", reshuffle="eager", move_semantics="swap", refill_stop="complete",
    allow_all_locked_removal=False, lock_voiding="chosen", double_lock=True, unseen_cards=True,
    max_turns=150)


def trains_invariants(state) -> None:
    """84 cards always accounted for; at most one display card per effect (T11); no train is
    ascending after setup unless the game just ended with that player's win (T25)."""
    zones = state.card_zones()
    assert sum(zones.values()) == 84, zones
    shown = [c for c in state.display if c]
    effects = [state.eff[c] for c in shown]
    assert len(set(effects)) == len(effects), f"display {shown} holds two cards of one effect"
    for p, train in enumerate(state.trains):
        if 0 not in train and is_ascending(train):
            assert state.phase == OVER and state.winner >= 0, f"seat {p}'s train {train} is ascending"
            # only refill_stop='complete' can leave a second completed train behind the winner
            assert state.winner == p or state.config.refill_stop == "complete", (p, state.winner)
    if state.phase != OVER:
        assert 0 not in [c for t in state.trains for c in t], "an empty slot while the game goes on"


def test_conformance_quick_default_and_every_alternative():
    """check_game, fast suite: 5 random games per player count under the default choices and
    under every alternative at once (the slow tests below play thousands)."""
    report = check_game(GAME, games=5, players=(2, 3, 4),
                        configs=[TrainsConfig(max_turns=150), ALL_ALTERNATIVES], seed=21,
                        deep_every=5, strategies=RANDOM, extra_check=trains_invariants)
    assert report.games == 30 and report.steps > 30 * 10


@pytest.mark.slow
def test_conformance_2100_random_games_2_3_4_players():
    """check_game: 700 random games each with 2, 3 and 4 players (T15 cap 150 so games are short)."""
    report = check_game(GAME, games=700, players=(2, 3, 4), configs=[TrainsConfig(max_turns=150)],
                        seed=11, deep_every=40, strategies=RANDOM, extra_check=trains_invariants)
    assert report.games == 2100
    assert report.by_players == {2: 700, 3: 700, 4: 700}


@pytest.mark.slow
def test_conformance_default_config_long_games():
    """check_game with the default 1000-action cap: reshuffles happen, and the cap is reached.
    Every step of all 36 games is checked; the deep checks (observation leaks, clone independence,
    replayed transcript) run on the first game of each player count: over games this long they
    cost ten times the games themselves (a clone played 60 steps at 15 % of the steps)."""
    report = check_game(GAME, games=12, players=(2, 3, 4), seed=5, deep_every=12, strategies=RANDOM,
                        extra_check=trains_invariants)
    assert report.games == 36
    assert report.max_game_steps > 1000


def test_conformance_greedy_and_rival_against_random():
    """check_game with the heuristic strategies: their choices are legal; real wins happen."""
    report = check_game(GAME, games=25, players=(2, 3, 4), seed=3, deep_every=5,
                        strategies=(GREEDY, RANDOM[0], RIVAL), extra_check=trains_invariants)
    assert report.games == 75


@pytest.mark.slow
def test_conformance_every_alternative_choice():
    """check_game with every [CHOICE] alternative switched on at once."""
    report = check_game(GAME, games=60, players=(2, 3, 4), configs=[ALL_ALTERNATIVES], seed=9,
                        deep_every=6, strategies=RANDOM, extra_check=trains_invariants)
    assert report.games == 180
