"""6 nimmt! strategies: each plays legally and the heuristic beats random clearly."""

import numpy as np
import pandas as pd
import pytest

from simkit.engine.play import play_range
from simkit.engine.runner import RunSpec
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.position import parse_position
from tests.sixnimmt.helpers import make_state


def _decision(state, seat):
    return Decision(state, seat, np.random.default_rng(0))


def test_lowest_and_highest_play_their_extreme_card():
    state = make_state([[10], [20], [30], [40]], [[15, 77, 33], [50, 60, 70]])
    assert parse_strategy("lowest", "sixnimmt").build().act(_decision(state, 0)) == 15
    assert parse_strategy("highest", "sixnimmt").build().act(_decision(state, 0)) == 77


def test_row_pick_takes_the_cheapest_row_for_baselines_and_heuristic():
    state = make_state([[10, 11], [20], [33], [55]], [[5, 90], [91, 92]])
    state.apply([5, 91])
    for name in ("random", "lowest", "highest", "heuristic"):
        bot = parse_strategy(name, "sixnimmt").build()
        bot.setup(GameInfo("sixnimmt", SixNimmtConfig(), 2), 0, np.random.default_rng(1))
        assert bot.act(_decision(state, 0)) == TakeRow(1), name   # [20] costs 3 < [10, 11] 8


def test_random_uniform_rows_draws_every_row():
    state = make_state([[10, 11], [20], [33], [55]], [[5, 90], [91, 92]])
    state.apply([5, 91])
    bot = parse_strategy("random:row=uniform", "sixnimmt").build()
    bot.setup(None, 0, np.random.default_rng(3))
    picks = {bot.act(_decision(state, 0)).row for _ in range(60)}
    assert picks == {0, 1, 2, 3}


def test_heuristic_avoids_the_sixth_card_when_it_can():
    # 41 would be the 6th card of a full row (5 bullheads at stake); 99 is safe on row 4
    state = make_state([[30, 33, 35, 37, 39], [60], [70], [80]], [[41, 99], [61, 62]])
    bot = parse_strategy("heuristic", "sixnimmt").build()
    bot.setup(GameInfo("sixnimmt", SixNimmtConfig(), 2), 0, np.random.default_rng(0))
    assert bot.act(_decision(state, 0)) == 99


@pytest.mark.slow
def test_heuristic_beats_random_clearly():
    """Issue 2: one heuristic against three random bots wins far more than its fair 25 %."""
    spec = RunSpec.create("sixnimmt", 4, ["heuristic", "random", "random", "random"], 400, seed=21)
    seats = pd.DataFrame(play_range(spec, 0, 400).seats)
    share = seats[seats.strategy == "heuristic"].win.mean()
    assert share > 0.5


def test_heuristic_drafts_from_the_middle_of_the_advanced_deck():
    """N18/N19: 2 players draft from 1..24, so the middle is 12.5, not 52 (issue 10): the old
    rank by distance from 52 took card 1, the end of the deck farthest from 52."""
    config = SixNimmtConfig(advanced=True, first_drafter="seat0")
    text = ("round: 1\nturns played: 0\nphase: draft\npool: " + " ".join(map(str, range(1, 25)))
            + "\nhand 0: -\nhand 1: -\npile 0: -\npile 1: -\ntotals: 0 0\n")
    state = parse_position(text, config)
    bot = parse_strategy("heuristic", "sixnimmt").build()
    bot.setup(GameInfo("sixnimmt", config, 2), 0, np.random.default_rng(0))
    assert bot.act(_decision(state, 0)) == 12     # 12 and 13 are nearest 12.5 with 1 bullhead


def test_heuristic_beats_random_under_the_advanced_rules():
    """Issue 10: one heuristic against three random bots, advanced rules (deck 1..44, open
    draft). Before the fix it won 9 % against a fair 25 %; measured now about 92 %."""
    spec = RunSpec.create("sixnimmt", 4, ["heuristic", "random", "random", "random"], 200, seed=21,
                          config=SixNimmtConfig(advanced=True))
    seats = pd.DataFrame(play_range(spec, 0, 200).seats)
    share = seats[seats.strategy == "heuristic"].win.mean()
    assert share > 0.5, share
