"""The batch engine (simkit/games/sixnimmt/batch.py) against the scalar engine (play_range)."""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pytest

from simkit.engine.play import play_range
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt import batch, batch_deal
from simkit.games.sixnimmt.batch import batch_supported, play_range_batch


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


def as_lists(columns: dict) -> dict:
    """A chunk's columns as Python lists (the batch engine's are NumPy or Arrow arrays)."""
    return {name: value.to_pylist() if isinstance(value, pa.Array) else
            value.tolist() if isinstance(value, np.ndarray) else value for name, value in columns.items()}


def _assert_same_chunk(a, b) -> None:
    for name, x, y in (("games", as_lists(a.games), as_lists(b.games)),
                       ("seats", as_lists(a.seats), as_lists(b.seats))):
        assert list(x) == list(y), f"{name} columns differ"
        for col in x:
            assert len(x[col]) == len(y[col]), (name, col)
            bad = [i for i, (p, q) in enumerate(zip(x[col], y[col])) if not _same(p, q)]
            assert not bad, f"{name}.{col} differs at rows {bad[:5]}: {[x[col][i] for i in bad[:5]]} " \
                            f"vs {[y[col][i] for i in bad[:5]]}"


DETERMINISTIC = [
    (4, ["lowest"], {"max_rounds": "1"}, {}),
    (4, ["lowest", "highest", "lowest", "highest"], {}, {}),
    (4, ["highest", "lowest", "lowest", "lowest"], {}, {"duplicate": True}),
    (2, ["highest", "lowest"], {"rows": "3", "row_capacity": "3"}, {"seating": "random"}),
    (10, ["lowest"], {}, {"seating": "fixed"}),
    (5, ["highest"], {"hand_size": "7", "tie_break": "last_round", "end_threshold": "30"}, {}),
    (3, ["lowest", "highest", "highest"],
     {"tie_break": "play_on", "end_threshold": "20", "end_inclusive": "false"}, {}),
    (6, ["lowest", "highest"] * 3, {"rows": "1", "row_capacity": "1", "max_rounds": "3"}, {}),
]


@pytest.mark.parametrize("n,strategies,overrides,options", DETERMINISTIC)
def test_lowest_and_highest_give_the_scalar_engines_rows_game_by_game(n, strategies, overrides, options):
    spec = RunSpec.create("sixnimmt", n, strategies, 400, seed=11, overrides=overrides, **options)
    _assert_same_chunk(play_range(spec, 5, 65), play_range_batch(spec, 5, 65))


def test_the_official_state_setter_deals_the_same_as_the_fast_one(monkeypatch):
    spec = RunSpec.create("sixnimmt", 4, ["lowest", "highest"] * 2, 100, seed=3)
    fast = play_range_batch(spec, 0, 40)
    monkeypatch.setattr(batch_deal.PCG64Words, "usable", lambda self: False)
    assert batch_deal.Dealer().fast is None
    _assert_same_chunk(fast, play_range_batch(spec, 0, 40))
    _assert_same_chunk(play_range(spec, 0, 40), play_range_batch(spec, 0, 40))


def test_random_games_do_not_depend_on_the_chunking_or_the_block_size(monkeypatch):
    spec = RunSpec.create("sixnimmt", 4, ["random", "random:row=uniform", "lowest", "random"], 300,
                          seed=5, overrides={"end_threshold": "40"})
    whole = play_range_batch(spec, 0, 120)
    monkeypatch.setattr(batch, "BLOCK", 32)
    parts = [play_range_batch(spec, 0, 50), play_range_batch(spec, 50, 120)]
    for table in ("games", "seats"):
        first, second, all_ = (as_lists(getattr(chunk, table)) for chunk in (*parts, whole))
        for col in all_:
            assert first[col] + second[col] == all_[col], (table, col)


def test_random_seats_do_not_copy_each_other():
    spec = RunSpec.create("sixnimmt", 4, ["random"], 300, seed=8, overrides={"max_rounds": "1"})
    scores = np.array(play_range_batch(spec, 0, 300).seats["score"]).reshape(-1, 4)
    assert len({tuple(row) for row in scores}) > 250
    assert not np.array_equal(scores[:, 0], scores[:, 1])


def test_random_play_has_the_scalar_engines_distribution():
    """Welch z-test per seat on the mean bullheads of a single 4-player round, 3,000 games per
    engine, each seat at alpha = 0.001 / 4 (two-sided, Bonferroni over the seats): a false alarm
    in fewer than 1 run in 1,000. The per-seat score has sd ~ 8.0 bullheads (measured), so the
    standard error of a difference is 8.0 * sqrt(2 / 3000) = 0.21; the test detects a shift of
    (3.48 + 1.28) * 0.21 = 0.98 bullheads (0.12 sd) in any one seat with power 0.90. The scalar
    and batch games use disjoint game indices, so the two samples are independent."""
    n_games = 3000
    spec = RunSpec.create("sixnimmt", 4, ["random"], 2 * n_games, seed=2024, overrides={"max_rounds": "1"})
    scalar = np.array(play_range(spec, 0, n_games).seats["score"]).reshape(-1, 4)
    vector = np.array(play_range_batch(spec, n_games, 2 * n_games).seats["score"]).reshape(-1, 4)
    z_crit = 3.48                               # two-sided 0.001 / 4
    for seat in range(4):
        a, b = scalar[:, seat], vector[:, seat]
        z = (a.mean() - b.mean()) / math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
        assert abs(z) < z_crit, f"seat {seat}: scalar mean {a.mean():.2f}, batch {b.mean():.2f}, z = {z:.2f}"
    # the shape too: the share of seat-rounds with no bullhead (about 4 %; 0.25 bounds its variance)
    za = (scalar == 0).mean() - (vector == 0).mean()
    se = math.sqrt(2 * 0.5 * 0.5 / scalar.size)
    assert abs(za) < 4 * se


def test_batch_supported_names_what_it_cannot_play():
    def spec(strategies=("random",), **kwargs):
        overrides = kwargs.pop("overrides", {})
        return RunSpec.create("sixnimmt", 4, list(strategies), 10, seed=1, overrides=overrides, **kwargs)

    assert batch_supported(spec()) is None
    assert batch_supported(spec(["random:row=uniform", "lowest", "highest", "random"])) is None
    assert "advanced" in batch_supported(spec(overrides={"advanced": "true"}))
    assert "heuristic" in batch_supported(spec(["heuristic", "random", "random", "random"]))
    assert "paranoid" in batch_supported(spec(paranoid=True))
    trains = RunSpec.create("trains", 2, ["random"], 10, seed=1)
    assert "6 nimmt" in batch_supported(trains)
    with pytest.raises(ValueError, match="heuristic"):
        play_range_batch(spec(["heuristic", "random", "random", "random"]), 0, 4)


def test_runspec_chooses_the_batch_engine_where_it_can_and_the_runner_uses_it(tmp_path):
    from simkit.engine.errors import ConfigError
    from simkit.engine.runner import run

    def create(strategies, engine, **kw):
        return RunSpec.create("sixnimmt", 4, strategies, 40, seed=5, engine=engine,
                              overrides={"max_rounds": "1"}, **kw)

    assert create(["random"], "auto").engine == "kernel"     # the fastest that plays every seat
    assert create(["heuristic", "random", "random", "random"], "auto").engine == "kernel"
    assert create(["random"], "auto", paranoid=True).engine == "scalar"
    with pytest.raises(ConfigError, match="--engine batch cannot play this run: .*heuristic"):
        create(["heuristic"], "batch")
    batch, scalar = create(["lowest", "highest"] * 2, "batch"), create(["lowest", "highest"] * 2, "scalar")
    a = run(batch, tmp_path / "a", jobs=1, progress=False)
    b = run(scalar, tmp_path / "b", jobs=1, progress=False)
    assert a.manifest["engine"] == "batch" and b.manifest["engine"] == "scalar"
    assert a.seats.equals(b.seats) and a.games.equals(b.games)
