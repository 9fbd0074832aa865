"""Search beats uniform random play clearly in 2-player games (seats rotated).

"Clearly": the 95 % Wilson interval of the searcher's win share lies above 1/2. Short rule
variants keep a game cheap (6 nimmt! single rounds, Shipside to 2 points); the quick check uses
a small budget, the few-hundred-iteration checks are marked slow.
"""

import pytest

from tests.search.helpers import FLAT_PATH, ISMCTS_PATH, clearly_above_half, wins_of_first

ONE_ROUND = {"max_rounds": "1"}
TWO_POINTS = {"end.points_to_win": "2"}


def _assert_beats_random(game, searcher, n_games, overrides):
    wins, n = wins_of_first(game, [searcher, "random"], n_games, seed=2024, overrides=overrides)
    assert clearly_above_half(wins, n), f"{searcher}: {wins} wins of {n} against random in {game}"


def test_ismcts_beats_random_at_sixnimmt_quickly():
    _assert_beats_random("sixnimmt", f"{ISMCTS_PATH}:iterations=100", 24, ONE_ROUND)


@pytest.mark.slow
@pytest.mark.parametrize("game, searcher, n_games, overrides", [
    ("sixnimmt", f"{ISMCTS_PATH}:iterations=300", 40, ONE_ROUND),
    ("shipside", f"{ISMCTS_PATH}:iterations=200", 16, TWO_POINTS),
    ("sixnimmt", f"{FLAT_PATH}:samples=50", 40, ONE_ROUND),
    ("shipside", f"{FLAT_PATH}:samples=5", 16, TWO_POINTS),
], ids=["ismcts-sixnimmt", "ismcts-shipside", "flat-sixnimmt", "flat-shipside"])
def test_search_beats_random(game, searcher, n_games, overrides):
    _assert_beats_random(game, searcher, n_games, overrides)
