"""The batch engine's columnar chunks (NumPy and Arrow arrays) give the same Parquet tables as
the scalar engine's lists: the same schema (int64, bool, double, string, list<double>) and values."""

from __future__ import annotations

import io
import math
import pickle

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from simkit.engine.play import play_range
from simkit.engine.records import _table
from simkit.engine.runner import run
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt import batch
from simkit.games.sixnimmt.batch import play_range_batch
from tests.sixnimmt.test_batch import as_lists


def _parquet(table: pa.Table) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def _assert_same_tables(a, b) -> None:
    """The chunk files write_chunk makes of chunks a and b are the same, byte for byte."""
    for x, y in ((a.games, b.games), (a.seats, b.seats)):
        left, right = _table(x), _table(y)
        assert left.schema == right.schema
        assert _parquet(left) == _parquet(right)


@pytest.mark.parametrize("n,strategies,overrides,options", [
    (4, ["lowest"], {"max_rounds": "1"}, {}),
    (4, ["lowest", "highest", "lowest", "highest"], {}, {}),
    (3, ["highest", "lowest", "lowest"], {"end_threshold": "30"}, {"duplicate": True}),
    (2, ["highest", "lowest"], {"max_rounds": "1"}, {"seating": "random", "deal_numbers": [(7, 110)]}),
])
def test_a_batch_chunk_makes_the_scalar_engines_tables(n, strategies, overrides, options):
    spec = RunSpec.create("sixnimmt", n, strategies, 100, seed=4, overrides=overrides, **options)
    _assert_same_tables(play_range(spec, 3, 70), play_range_batch(spec, 3, 70))


def test_a_chunk_of_several_blocks_makes_the_tables_of_one_block(monkeypatch):
    spec = RunSpec.create("sixnimmt", 4, ["random", "lowest"] * 2, 200, seed=6,
                          overrides={"end_threshold": "40"})
    whole = play_range_batch(spec, 0, 90)
    monkeypatch.setattr(batch, "BLOCK", 32)
    parts = play_range_batch(spec, 0, 90)
    assert isinstance(parts.seats["round_scores"], pa.ListArray)
    _assert_same_tables(whole, parts)


@pytest.mark.parametrize("block", [batch.BLOCK, 4])     # 4: blocks with and without such games
def test_a_game_over_the_step_cap_has_no_result_and_its_lists_form_the_same_tables(monkeypatch, block):
    spec = RunSpec.create("sixnimmt", 3, ["lowest", "highest", "random"], 100, seed=2)
    monkeypatch.setattr(batch, "max_decision_steps", lambda config, n: 88)
    monkeypatch.setattr(batch, "BLOCK", block)
    chunk = play_range_batch(spec, 0, 40)
    assert isinstance(chunk.games["rounds"], pa.Array) and isinstance(chunk.games["steps"], np.ndarray)
    games, seats = as_lists(chunk.games), as_lists(chunk.seats)
    failed = [k for k, error in enumerate(games["error"]) if error]
    assert 0 < len(failed) < 40 and "did not end within 88 steps" in games["error"][failed[0]]
    for k in range(40):
        rows = range(3 * k, 3 * k + 3)
        if k in failed:
            assert games["rounds"][k] is None and games["steps"][k] == 88
            assert all(math.isnan(seats["score"][r]) and seats["round_scores"][r] == [] for r in rows)
        else:
            assert all(len(seats["round_scores"][r]) == games["rounds"][k] for r in rows)
            assert all(sum(seats["round_scores"][r]) == seats["score"][r] for r in rows)
    listed = type(chunk)(chunk.start, chunk.stop, games, seats)
    _assert_same_tables(listed, chunk)


def test_a_chunk_survives_pickling_to_and_from_a_worker():
    spec = RunSpec.create("sixnimmt", 4, ["random"], 50, seed=9)
    chunk = play_range_batch(spec, 0, 50)
    _assert_same_tables(chunk, pickle.loads(pickle.dumps(chunk)))


def test_a_batch_run_writes_the_same_parquet_files_as_a_scalar_run(tmp_path):
    def played(engine):
        spec = RunSpec.create("sixnimmt", 4, ["lowest", "highest"] * 2, 60, seed=5, engine=engine)
        return run(spec, tmp_path / engine, jobs=1, progress=False, chunk_size=25)

    a, b = played("batch"), played("scalar")
    for name in ("games.parquet", "seats.parquet"):
        left, right = pq.read_table(tmp_path / "batch" / name), pq.read_table(tmp_path / "scalar" / name)
        assert left.schema == right.schema and left.equals(right)
        assert a.manifest["tables"][name]["sha256"] == b.manifest["tables"][name]["sha256"]
    assert pa.types.is_list(left.schema.field("round_scores").type)
