"""What a person reads at `simkit play sixnimmt` (Game.describe_observation)."""

from simkit.games.sixnimmt import GAME
from simkit.games.sixnimmt.config import SixNimmtConfig

POSITION = """
round: 1
turns played: 0
phase: play
row 1: 10 11
row 2: 20
row 3: 30
row 4: 55
hand 0: 5 12 21 33 44 60 70 80 90 100
hand 1: 6 13 22 34 45 61 71 81 91 101
pile 0: -
pile 1: -
totals: 0 0
aside: rest
"""


def test_rows_are_labelled_with_their_bullheads_and_the_hand_shown():
    text = GAME.describe_observation(GAME.parse_position(POSITION, SixNimmtConfig()).observe(0))
    assert "row 1: 10** 11****" in text and text.splitlines()[1].endswith("8 bullheads")
    assert "your hand: 5* 12 21" in text and "costs" not in text


def test_N10_a_row_pick_shows_what_each_row_costs():
    state = GAME.parse_position(POSITION, SixNimmtConfig())
    state.apply([5, 6])                       # 5 is below every row end: seat 0 picks a row
    text = GAME.describe_observation(state.observe(0))
    assert "card 5 is lower than every row end: you take a whole row (N10)" in text
    assert "row 1 costs 8, row 2 costs 3, row 3 costs 3, row 4 costs 7" in text
    other = GAME.describe_observation(state.observe(1))
    assert "seat 1 takes a whole row" in other       # seat 0 of the state: people count from 1
    assert "totals: seat 1: " in other and "seat 0" not in other
