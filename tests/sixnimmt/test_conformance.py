"""check_game over 2,000+ random full matches: 2-10 players, basic and advanced (N1-N19)."""

import pytest

from simkit.engine.registry import get_game
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import ROW_PICK
from simkit.studies.conformance import check_game

GAME = get_game("sixnimmt")
STRATEGIES = ("random:row=uniform", "random", "heuristic")


def _n10_only_lowest(state):
    """N10 invariant: a row pick is only ever asked for the turn's lowest card."""
    if state.phase == ROW_PICK:
        assert state.pending_at == 0 and state.pending[0][1] == state.to_act()[0]


@pytest.mark.slow
def test_conformance_basic_2_to_10_players():
    report = check_game(GAME, games=150, players=range(2, 11), seed=11, strategies=STRATEGIES,
                        deep_every=25, extra_check=_n10_only_lowest)
    assert report.games == 1350 and set(report.by_players) == set(range(2, 11))


@pytest.mark.slow
def test_conformance_advanced_2_to_10_players():
    report = check_game(GAME, games=75, players=range(2, 11), seed=12,
                        configs=[SixNimmtConfig(advanced=True)], strategies=STRATEGIES,
                        deep_every=25, extra_check=_n10_only_lowest)
    assert report.games == 675


@pytest.mark.slow
def test_conformance_variant_knobs():
    configs = [SixNimmtConfig(rows=3, row_capacity=4, hand_size=8, end_threshold=40),
               SixNimmtConfig(tie_break="play_on", end_threshold=30, public_penalties=False),
               SixNimmtConfig(tie_break="last_round", end_inclusive=False, max_rounds=2)]
    report = check_game(GAME, games=20, players=(2, 5, 8), seed=13, configs=configs,
                        strategies=STRATEGIES, deep_every=10)
    assert report.games == 180


def test_conformance_quick_every_player_count_basic_and_advanced():
    """The fast suite's share of the runs above: deeply checked single rounds per player count."""
    for config in (SixNimmtConfig(max_rounds=1), SixNimmtConfig(advanced=True, max_rounds=1)):
        report = check_game(GAME, games=2, players=range(2, 11), seed=14, configs=[config],
                            strategies=STRATEGIES, deep_every=2, extra_check=_n10_only_lowest)
        assert report.games == 18 and set(report.by_players) == set(range(2, 11))
