"""The 6 nimmt! kernel (simkit/games/sixnimmt/kernel.py) against the scalar engine: the same
games, game by game, every column of both tables, for every bot with a kernel form (random
ones too: the kernel draws the scalar engine's numbers in its order), in the basic and the
advanced game (N1-N19) and under every config field and seating.

The kernel compiles once per machine (numba's disk cache); the first test of a session pays
that (or loads it from the cache) and the rest reuse it.
"""

from __future__ import annotations

import pytest

from simkit.engine.errors import ConfigError
from simkit.engine.play import play_game, play_range
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt.kernel import kernel_supported, play_range_kernel
from tests.kernel_tables import assert_same_tables

CASES = [
    # single rounds (N1-N14), the benchmark lineups
    (4, ["random"], {"max_rounds": "1"}, {}, 300),
    (4, ["heuristic", "random", "random", "random"], {"max_rounds": "1"}, {}, 200),
    # whole matches (N15-N17) with every tie break, threshold rule and seating
    (3, ["lowest", "highest", "random"], {}, {}, 60),
    (5, ["heuristic"], {"end_threshold": "40"}, {"seating": "random"}, 30),
    (4, ["random", "heuristic"] * 2, {"tie_break": "last_round", "end_threshold": "30"},
     {"duplicate": True}, 40),
    (3, ["highest", "random:row=uniform", "lowest"],
     {"tie_break": "play_on", "end_threshold": "20", "end_inclusive": "false"}, {"seating": "fixed"}, 40),
    # long matches: more rounds than the kernel's first round log holds (it grows)
    (2, ["random", "lowest"], {"end_threshold": "200"}, {}, 30),
    # sizes: 2 and 10 players, rows, capacity, hand size, public_penalties (observations only)
    (2, ["random"], {"rows": "3", "row_capacity": "3", "hand_size": "12", "max_rounds": "3"}, {}, 80),
    (10, ["random"] * 8 + ["heuristic", "lowest"], {"max_rounds": "1", "public_penalties": "false"}, {}, 60),
    (6, ["lowest", "random"] * 3, {"rows": "1", "row_capacity": "1", "max_rounds": "2"}, {}, 40),
    (4, ["heuristic:caution=0.3"], {"rows": "6", "row_capacity": "8", "hand_size": "15", "max_rounds": "1"},
     {}, 40),
    # the advanced game (N18-N19): every first_drafter
    (4, ["random", "heuristic", "lowest", "random:row=uniform"], {"advanced": "true"}, {}, 40),
    (3, ["heuristic"], {"advanced": "true", "first_drafter": "highest_total"}, {}, 30),
    (5, ["highest", "random"] * 2 + ["lowest"],
     {"advanced": "true", "first_drafter": "seat0", "end_threshold": "25"}, {}, 30),
]


@pytest.mark.parametrize("n,strategies,overrides,options,games", CASES)
def test_the_kernel_plays_the_scalar_engines_games(n, strategies, overrides, options, games):
    spec = RunSpec.create("sixnimmt", n, strategies, games + 7, seed=11, overrides=overrides, **options)
    assert_same_tables(play_range(spec, 7, 7 + games), play_range_kernel(spec, 7, 7 + games))


def test_listed_deals_and_a_chunk_anywhere_in_the_run_give_the_same_games():
    spec = RunSpec.create("sixnimmt", 4, ["random", "lowest"] * 2, 40, seed=5, duplicate=True,
                          deal_numbers=[(900, 905), (70_000, 70_010)], overrides={"max_rounds": "2"})
    assert_same_tables(play_range(spec, 13, 37), play_range_kernel(spec, 13, 37))
    whole = play_range_kernel(spec, 0, 40)
    part = play_range_kernel(spec, 13, 37)
    assert whole.seats["score"][13 * 4:37 * 4].tolist() == part.seats["score"].tolist()


def test_a_strategy_parameter_its_kernel_form_cannot_take_is_a_reason():
    spec = RunSpec.create("sixnimmt", 4, ["random"], 10, seed=1)
    bad = RunSpec(**{**spec.__dict__, "strategies": (spec.strategies[0].__class__(
        "random:row=sideways", spec.strategies[0].target, (("row", "sideways"),)),) * 4})
    reason = kernel_supported(bad)
    assert reason is not None and "row='sideways'" in reason


def _rollout_cases():
    mixed = RunSpec.create("sixnimmt", 4, ["lowest", "highest", "heuristic", "lowest"], 1, seed=4,
                           seating="fixed", overrides={"end_threshold": "40"})
    advanced = RunSpec.create("sixnimmt", 3, ["heuristic", "lowest", "highest"], 1, seed=6,
                              seating="fixed", overrides={"advanced": "true", "end_threshold": "30"})
    return [mixed, advanced]


@pytest.mark.parametrize("spec", _rollout_cases(), ids=["basic", "advanced"])
def test_a_rollout_from_any_scalar_position_ends_where_the_scalar_engine_does(spec):
    """`rollout` (for search): from the position before every step (a card step, an N10 row
    pick, an N19 draft pick), deterministic bots in the kernel end the match as the scalar
    engine does, its chance generator continuing the state's (the same later deals)."""
    import numpy as np

    from simkit.games.sixnimmt.kernel import rollout

    record, final = play_game(spec, 0)
    phases = set()
    for step in range(0, record.steps, 3):
        _, state = play_game(spec, 0, max_steps=step)
        phases.add(state.phase)
        before = state.totals.copy()
        totals = rollout(state, list(spec.strategies), np.random.default_rng(step))
        assert totals.tolist() == final.totals, f"from step {step} ({state.phase})"
        assert state.totals == before                   # the state itself is not played on
        _, later = play_game(spec, 0, max_steps=min(step + 25, record.steps))
        partial = rollout(state, list(spec.strategies), np.random.default_rng(step), max_steps=25)
        assert partial.tolist() == later.totals
    assert {"play", "row_pick"} <= phases and ("draft" in phases) == spec.config.advanced


def test_a_kernel_run_is_replayed_by_the_scalar_engine_where_numba_is_missing(monkeypatch):
    import simkit.engine.kernels as kernel_module

    manifest = RunSpec.create("sixnimmt", 4, ["random"], 10, seed=1, engine="kernel").manifest_fields()
    assert RunSpec.from_manifest(manifest).engine == "kernel"
    monkeypatch.setattr(kernel_module, "numba_missing", lambda: "numba is not installed")
    assert RunSpec.from_manifest(manifest).engine == "scalar"       # the same games
    with pytest.raises(ConfigError, match="numba is not installed"):
        RunSpec.create("sixnimmt", 4, ["random"], 10, seed=1, engine="kernel")
