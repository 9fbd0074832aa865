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
from tests.golden import CASES as GOLDEN_CASES
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
    assert_same_tables(scalar, kernel)


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


@pytest.mark.parametrize("case", GOLDEN_CASES["sixnimmt"], ids=lambda case: case.name)
def test_the_golden_transcripts_play_through_the_kernel(case):
    """The kernel's answers in each golden game, replayed through the scalar engine, give the
    golden log and result; the kernel's own row has that result (added beside the goldens,
    which stay as they are)."""
    from simkit.engine.kernels import replay_answers
    from simkit.engine.registry import get_game
    from simkit.games.sixnimmt.kernel import traced_game
    from tests.golden import golden_path, header, spec_of

    spec = spec_of("sixnimmt", case)
    _, state = play_game(spec, case.index, max_steps=0)
    steps = replay_answers(state, traced_game(spec, case.index))
    out = state.outcome()
    lines = header("sixnimmt", case) + [
        "", "== log", *get_game("sixnimmt").render_log(state).splitlines(), "", "== result",
        f"steps: {steps}", "forfeit: -1", f"scores: {list(out.scores)}", f"ranks: {list(out.ranks)}",
        f"wins: {list(out.win_shares)}",
        "extras: " + ", ".join(f"{k}={v}" for k, v in sorted(out.extras.items()))]
    assert lines == golden_path("sixnimmt", case).read_text(encoding="utf-8").splitlines()
    row = play_range_kernel(spec, case.index, case.index + 1)
    assert row.seats["score"].tolist() == list(out.scores) and row.games["steps"].tolist() == [steps]


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


def test_a_kernel_run_is_recorded_and_replays_as_the_scalar_engines_log(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import main

    cli = CliRunner()
    args = ["run", "sixnimmt", "-p", "4", "-s", "heuristic", "-s", "random", "-n", "24", "-j", "1",
            "--seed", "3"]
    ran = {engine: cli.invoke(main, args + ["--engine", engine, "--out", str(tmp_path / engine)])
           for engine in ("kernel", "scalar", "auto")}
    assert all(r.exit_code == 0 for r in ran.values()), [r.output for r in ran.values()]
    assert "engine: kernel" in ran["auto"].output
    import json

    import pandas as pd
    manifests = {e: json.loads((tmp_path / e / "manifest.json").read_text()) for e in ran}
    assert [manifests[e]["engine"] for e in ran] == ["kernel", "scalar", "kernel"]
    for table in ("games.parquet", "seats.parquet"):
        kernel, scalar = (pd.read_parquet(tmp_path / e / table) for e in ("kernel", "scalar"))
        assert kernel.equals(scalar)
    logs = [cli.invoke(main, ["replay", str(tmp_path / e), "--game", "5"]) for e in ("kernel", "scalar")]
    texts = [log.output.replace(str(tmp_path / e), "RUN") for log, e in zip(logs, ("kernel", "scalar"))]
    assert logs[0].exit_code == 0 and "Turn 1" in texts[0] and texts[0] == texts[1]
    audited = cli.invoke(main, ["run", "sixnimmt", "-s", "random", "-n", "2", "-j", "1", "--seed", "3",
                                "--paranoid", "--engine", "auto", "--out", str(tmp_path / "p")])
    assert audited.exit_code == 0 and "engine: scalar (not the kernel engine: --paranoid" in audited.output


def test_a_plug_in_strategys_kernel_form_plays_its_games_and_a_wrong_answer_is_named():
    plugin = "tests.sixnimmt.kernel_plugin:FirstListed"
    spec = RunSpec.create("sixnimmt", 3, [plugin, "random", "heuristic"], 30, seed=4,
                          overrides={"end_threshold": "30"}, engine="auto")
    assert spec.engine == "kernel"
    assert_same_tables(play_range(spec, 0, 30), play_range_kernel(spec, 0, 30))
    broken = RunSpec.create("sixnimmt", 2, ["random", "tests.sixnimmt.kernel_plugin:OutOfRange"], 5, seed=4)
    with pytest.raises(ValueError, match="kernel form of 'tests.sixnimmt.kernel_plugin:OutOfRange' "
                                         r"\(seat \d, game 0\) answered outside its legal list"):
        play_range_kernel(broken, 0, 5)


def test_a_kernel_run_is_replayed_by_the_scalar_engine_where_numba_is_missing(monkeypatch):
    import simkit.engine.kernels as kernel_module

    manifest = RunSpec.create("sixnimmt", 4, ["random"], 10, seed=1, engine="kernel").manifest_fields()
    assert RunSpec.from_manifest(manifest).engine == "kernel"
    monkeypatch.setattr(kernel_module, "numba_missing", lambda: "numba is not installed")
    assert RunSpec.from_manifest(manifest).engine == "scalar"       # the same games
    with pytest.raises(ConfigError, match="numba is not installed"):
        RunSpec.create("sixnimmt", 4, ["random"], 10, seed=1, engine="kernel")
