"""Per-round scores of games with rounds: the seats table's `round_scores` column."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simkit.engine.game import ROUND_SCORES
from simkit.engine.play import play_range
from simkit.engine.records import chunk_paths, write_chunk
from simkit.engine.spec import RunSpec


@pytest.mark.parametrize("game, players, strategies, overrides, rounds_column", [
    ("sixnimmt", 4, ["heuristic", "random", "random", "random"], {}, "rounds"),
    ("rummikub", 2, ["simple"], {"hands_per_match": "3"}, "hands"),
])
def test_each_seats_rounds_add_up_to_its_score(game, players, strategies, overrides, rounds_column):
    spec = RunSpec.create(game, players, strategies, 20, seed=5, overrides=overrides)
    chunk = play_range(spec, 0, 6 if game == "rummikub" else 20)
    rounds = dict(zip(chunk.games["game"], chunk.games[rounds_column]))
    seen_rounds = set()
    for index, score, per_round in zip(chunk.seats["game"], chunk.seats["score"], chunk.seats[ROUND_SCORES]):
        assert len(per_round) == rounds[index]
        assert sum(per_round) == pytest.approx(score)
        seen_rounds.add(len(per_round))
    assert max(seen_rounds) > 1


def test_games_without_rounds_have_no_column():
    spec = RunSpec.create("trains", 2, ["greedy"], 4, seed=5)
    assert ROUND_SCORES not in play_range(spec, 0, 2).seats


def test_a_chunk_with_no_result_still_types_the_column(tmp_path):
    (tmp_path / "chunks").mkdir()
    games = {"game": [0], "error": ["engine error: x"]}
    seats = {"game": [0, 0], "score": [float("nan")] * 2, ROUND_SCORES: [[], []]}
    write_chunk(tmp_path, 0, games, seats)
    _, seats_path, _ = chunk_paths(tmp_path, 0)
    assert pq.read_table(seats_path).schema.field(ROUND_SCORES).type == pa.list_(pa.float64())
