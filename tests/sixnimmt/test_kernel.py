"""The 6 nimmt! kernel (simkit/games/sixnimmt/kernel.py) against the scalar engine: the same
games, game by game, every column of both tables, for every bot with a kernel form (random
ones too: the kernel draws the scalar engine's numbers in its order), in the basic and the
advanced game (N1-N19) and under every config field and seating.

The kernel compiles once per machine (numba's disk cache); the first test of a session pays
that (or loads it from the cache) and the rest reuse it.
"""

from __future__ import annotations

import pyarrow as pa
import pytest

from simkit.engine.errors import ConfigError
from simkit.engine.play import play_game, play_range
from simkit.engine.records import _table
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt.kernel import kernel_supported, play_range_kernel


def _same(a, b) -> bool:
    return a == b or (a != a and b != b)        # NaN (a game without a result) equals NaN


def _assert_same_tables(scalar, kernel) -> None:
    """Both chunks as the Parquet tables `write_chunk` writes: same schema, same values."""
    for name in ("games", "seats"):
        a: pa.Table = _table(getattr(scalar, name))
        b: pa.Table = _table(getattr(kernel, name))
        assert a.schema == b.schema, f"{name}: {a.schema} vs {b.schema}"
        for col in a.column_names:
            x, y = a.column(col).to_pylist(), b.column(col).to_pylist()
            bad = [i for i, (p, q) in enumerate(zip(x, y)) if not _same(p, q)]
            assert len(x) == len(y) and not bad, f"{name}.{col} differs at rows {bad[:5]}"


CASES = [
    # single rounds (N1-N14), the benchmark lineups
    (4, ["random"], {"max_rounds": "1"}, {}, 300),
    (4, ["heuristic", "random", "random", "random"], {"max_rounds": "1"}, {}, 200),
    # whole matches (N15-N17) with every tie break, threshold rule and seating
    (3, ["lowest", "highest", "random"], {}, {}, 60),
    (5, ["heuristic"], {"end_threshold": "40"}, {"seating": "random"}, 30),
    (4, ["random", "heuristic"] * 2, {"tie_break": "last_round", "end_threshold": "30"}, {"duplicate": True}, 40),
    (3, ["highest", "random:row=uniform", "lowest"],
     {"tie_break": "play_on", "end_threshold": "20", "end_inclusive": "false"}, {"seating": "fixed"}, 40),
    # sizes: 2 and 10 players, rows, capacity, hand size, public_penalties (observations only)
    (2, ["random"], {"rows": "3", "row_capacity": "3", "hand_size": "12", "max_rounds": "3"}, {}, 80),
    (10, ["random"] * 8 + ["heuristic", "lowest"], {"max_rounds": "1", "public_penalties": "false"}, {}, 60),
    (6, ["lowest", "random"] * 3, {"rows": "1", "row_capacity": "1", "max_rounds": "2"}, {}, 40),
    (4, ["heuristic:caution=0.3"], {"rows": "6", "row_capacity": "8", "hand_size": "15", "max_rounds": "1"}, {}, 40),
    # the advanced game (N18-N19): every first_drafter
    (4, ["random", "heuristic", "lowest", "random:row=uniform"], {"advanced": "true"}, {}, 40),
    (3, ["heuristic"], {"advanced": "true", "first_drafter": "highest_total"}, {}, 30),
    (5, ["highest", "random"] * 2 + ["lowest"], {"advanced": "true", "first_drafter": "seat0", "end_threshold": "25"}, {}, 30),
]


@pytest.mark.parametrize("n,strategies,overrides,options,games", CASES)
def test_the_kernel_plays_the_scalar_engines_games(n, strategies, overrides, options, games):
    spec = RunSpec.create("sixnimmt", n, strategies, games + 7, seed=11, overrides=overrides, **options)
    _assert_same_tables(play_range(spec, 7, 7 + games), play_range_kernel(spec, 7, 7 + games))


def test_listed_deals_and_a_chunk_anywhere_in_the_run_give_the_same_games():
    spec = RunSpec.create("sixnimmt", 4, ["random", "lowest"] * 2, 40, seed=5, duplicate=True,
                          deal_numbers=[(900, 905), (70_000, 70_010)], overrides={"max_rounds": "2"})
    _assert_same_tables(play_range(spec, 13, 37), play_range_kernel(spec, 13, 37))
    whole = play_range_kernel(spec, 0, 40)
    part = play_range_kernel(spec, 13, 37)
    assert whole.seats["score"][13 * 4:37 * 4].tolist() == part.seats["score"].tolist()


def test_a_game_at_the_step_cap_has_no_result_as_in_the_scalar_engine(monkeypatch):
    """The scalar engine's hard step cap (Game.max_steps): the game stops there, its error says
    so, its scores are NaN and its rounds null; the kernel reads the same cap."""
    import dataclasses

    import simkit.engine.play as play_module
    import simkit.games.sixnimmt.kernel as kernel_module
    from simkit.engine.registry import get_game

    capped = dataclasses.replace(get_game("sixnimmt"), max_steps=lambda config, n: 88)
    monkeypatch.setattr(play_module, "get_game", lambda name: capped)
    monkeypatch.setattr(kernel_module, "max_decision_steps", lambda config, n: 88)
    spec = RunSpec.create("sixnimmt", 3, ["lowest", "highest", "random"], 40, seed=2)
    scalar, kernel = play_range(spec, 0, 40), play_range_kernel(spec, 0, 40)
    failed = [e for e in kernel.games["error"].tolist() if e]
    assert 0 < len(failed) < 40 and "did not end within 88 steps" in failed[0]
    _assert_same_tables(scalar, kernel)


def test_auto_takes_the_kernel_and_says_why_it_falls_back():
    def create(strategies, engine="auto", **kw):
        return RunSpec.create("sixnimmt", 4, strategies, 10, seed=1, engine=engine, **kw)

    assert create(["heuristic", "random"] * 2).engine == "kernel"
    assert create(["lowest"], engine="kernel").engine == "kernel"
    fallback = create(["ismcts", "random", "random", "random"])
    assert fallback.engine == "scalar"
    assert "has no kernel form" in fallback.engine_note and "ismcts" in fallback.engine_note
    assert fallback.manifest_fields()["engine_note"] == fallback.engine_note
    paranoid = create(["random"], paranoid=True)
    assert paranoid.engine == "scalar" and "--paranoid" in paranoid.engine_note
    with pytest.raises(ConfigError, match="--engine kernel cannot play this run: .*ismcts"):
        create(["ismcts", "random", "random", "random"], engine="kernel")
    with pytest.raises(ConfigError, match="not allowed"):
        create(["random"], engine="fast")


def test_a_strategy_parameter_its_kernel_form_cannot_take_is_a_reason():
    spec = RunSpec.create("sixnimmt", 4, ["random"], 10, seed=1)
    bad = RunSpec(**{**spec.__dict__, "strategies": (spec.strategies[0].__class__(
        "random:row=sideways", spec.strategies[0].target, (("row", "sideways"),)),) * 4})
    reason = kernel_supported(bad)
    assert reason is not None and "row='sideways'" in reason


def test_replaying_a_kernel_games_answers_through_the_scalar_engine_gives_its_game():
    """The kernel records its bots' answers; the scalar engine replays them to the same end."""
    from simkit.engine.kernels import replay_answers
    from simkit.games.sixnimmt.kernel import traced_game

    spec = RunSpec.create("sixnimmt", 4, ["heuristic", "random:row=uniform", "lowest", "random"], 6,
                          seed=9, overrides={"advanced": "true", "end_threshold": "30"})
    for index in range(6):
        played, state = play_game(spec, index)
        _, start = play_game(spec, index, max_steps=0)
        steps = replay_answers(start, traced_game(spec, index))
        assert steps == played.steps and start.is_over()
        assert start.events == state.events and start.outcome() == state.outcome()
