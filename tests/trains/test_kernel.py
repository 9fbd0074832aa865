"""The Game of Trains kernel (simkit/games/trains/kernel.py) against the scalar engine: the same
games, game by game, every column of both tables, for `random`, `greedy` and `rival` (the kernel draws the
scalar engine's numbers in its order: the deal T2, the start player T4, every T13 reshuffle and
every draw of `random`), with 2, 3 and 4 players and every config field (T4-T24's choices).

The kernel compiles once per machine (numba's disk cache); the first test of a session pays
that (or loads it from the cache) and the rest reuse it.
"""

from __future__ import annotations

from collections import Counter

import pytest

from simkit.engine.errors import ConfigError
from simkit.engine.play import play_game, play_range
from simkit.engine.spec import RunSpec
from simkit.games.trains.kernel import kernel_supported, play_range_kernel, traced_game
from tests.golden import CASES as GOLDEN_CASES
from tests.kernel_tables import assert_same_tables

CASES = [
    # the benchmark lineup, defaults
    (4, ["random"], {}, {}, 200),
    # T5-T7 simultaneous setup, T13 eager reshuffle
    (2, ["random", "greedy"], {"setup_order": "simultaneous", "reshuffle": "eager"}, {}, 150),
    # T19/T20 swap, T21-T23 complete refills, T11 pair_keep=first; random seating
    (3, ["greedy", "random", "greedy"], {"move_semantics": "swap", "refill_stop": "complete",
                                         "pair_keep": "first"}, {"seating": "random"}, 120),
    # T10 used_card=before, T24 chosen voiding, T21-T23 no all-locked removal, §1.2 periodic, T4 fixed
    (4, ["greedy", "random"] * 2, {"used_card": "before", "lock_voiding": "chosen",
                                   "allow_all_locked_removal": "false", "effect_table": "periodic",
                                   "start_seat": "2"}, {"duplicate": True}, 80),
    # T10/T11 used_card_stays with pair_keep=first; greedy without its discard memory
    (4, ["greedy:memory=false", "greedy", "random", "greedy"],
     {"used_card_stays": "true", "pair_keep": "first", "setup_order": "simultaneous"}, {}, 60),
    # T24 double_lock, T15 a short turn cap (draws), §8 unseen_cards (observations only)
    (2, ["random"], {"double_lock": "true", "max_turns": "60", "unseen_cards": "true"}, {"seating": "fixed"},
     200),
    (3, ["greedy"], {}, {}, 60),
    # rival with every parameter, against greedy and random
    (4, ["rival", "greedy", "rival", "random"], {}, {}, 120),
    (2, ["rival:attack=40", "rival:lock_risk=0.5"], {"move_semantics": "swap", "setup_order": "simultaneous",
                                                    "used_card": "before"}, {}, 100),
    (3, ["rival", "rival:memory=false", "greedy"],
     {"used_card_stays": "true", "pair_keep": "first", "lock_voiding": "chosen", "double_lock": "true",
      "allow_all_locked_removal": "false", "reshuffle": "eager", "effect_table": "periodic"}, {}, 100),
]


@pytest.mark.parametrize("n,strategies,overrides,options,games", CASES)
def test_the_kernel_plays_the_scalar_engines_games(n, strategies, overrides, options, games):
    spec = RunSpec.create("trains", n, strategies, games + 7, seed=11, overrides=overrides, **options)
    kernel = play_range_kernel(spec, 7, 7 + games)
    assert_same_tables(play_range(spec, 7, 7 + games), kernel)
    wins = kernel.games["draw"]
    assert 0 < (~wins).sum()                     # T25: games are won (not all capped)


def test_the_cases_reach_the_turn_cap_and_reshuffles():
    """T15 and T13 happen in the games the equality test compares (it would miss them otherwise)."""
    spec = RunSpec.create("trains", 2, ["random"], 200, seed=11, overrides={"max_turns": "60"})
    chunk = play_range_kernel(spec, 0, 200)
    assert 0 < chunk.games["capped"].sum() < 200
    spec = RunSpec.create("trains", 4, ["random"], 200, seed=11)
    assert (play_range_kernel(spec, 0, 200).games["reshuffles"] > 0).any()


def test_replayed_kernel_games_use_every_effect_and_the_rules_around_them():
    """The kernel's answers replayed through the scalar engine give its games (same steps,
    same end), and those games use all 8 effects (T17-T24), void and protect locks, pair cards
    off (T11) and reshuffle (T13)."""
    from simkit.engine.kernels import replay_answers

    spec = RunSpec.create("trains", 4, ["random", "greedy", "random", "rival"], 12, seed=3)
    kinds: Counter = Counter()
    for index in range(12):
        played, state = play_game(spec, index)
        _, start = play_game(spec, index, max_steps=0)
        steps = replay_answers(start, traced_game(spec, index))
        assert steps == played.steps and start.is_over()
        assert start.events == state.events and start.outcome() == state.outcome()
        for event in state.events:
            kinds[event[0] if event[0] != "use" else f"use {event[2]}"] += 1
    rules = {"void", "protected", "pairs", "reshuffle", "win"}
    assert {f"use {e}" for e in range(1, 9)} | rules <= set(kinds)


def test_a_game_at_the_step_cap_has_no_result_as_in_the_scalar_engine(monkeypatch):
    """The scalar engine's hard step cap (Game.max_steps): the game stops there, its error says
    so, its scores are NaN and its extras null; the kernel reads the same cap."""
    import dataclasses

    import simkit.engine.play as play_module
    import simkit.games.trains.kernel as kernel_module
    from simkit.engine.registry import get_game

    capped = dataclasses.replace(get_game("trains"), max_steps=lambda config, n: 900)
    monkeypatch.setattr(play_module, "get_game", lambda name: capped)
    monkeypatch.setattr(kernel_module, "max_steps", lambda config, n: 900)
    spec = RunSpec.create("trains", 3, ["random"], 40, seed=2)
    scalar, kernel = play_range(spec, 0, 40), play_range_kernel(spec, 0, 40)
    failed = [e for e in kernel.games["error"].tolist() if e]
    assert 0 < len(failed) < 40 and "did not end within 900 steps" in failed[0]
    assert_same_tables(scalar, kernel)


def test_listed_deals_and_a_chunk_anywhere_in_the_run_give_the_same_games():
    spec = RunSpec.create("trains", 3, ["random", "greedy", "random"], 30, seed=5, duplicate=True,
                          deal_numbers=[(900, 905), (70_000, 70_010)])
    assert_same_tables(play_range(spec, 4, 25), play_range_kernel(spec, 4, 25))
    whole, part = play_range_kernel(spec, 0, 30), play_range_kernel(spec, 4, 25)
    assert whole.seats["score"][4 * 3:25 * 3].tolist() == part.seats["score"].tolist()


def test_auto_takes_the_kernel_and_says_why_it_falls_back():
    def create(strategies, engine="auto", **kw):
        return RunSpec.create("trains", 4, strategies, 10, seed=1, engine=engine, **kw)

    assert create(["greedy", "random", "rival", "random"]).engine == "kernel"
    fallback = create(["ismcts", "random", "random", "random"])
    assert fallback.engine == "scalar"
    assert "has no kernel form" in fallback.engine_note and "ismcts" in fallback.engine_note
    paranoid = create(["random"], paranoid=True)
    assert paranoid.engine == "scalar" and "--paranoid" in paranoid.engine_note
    with pytest.raises(ConfigError, match="--engine kernel cannot play this run: .*ismcts"):
        create(["ismcts", "random", "random", "random"], engine="kernel")
    assert kernel_supported(RunSpec.create("sixnimmt", 4, ["random"], 1, seed=1)) is not None


@pytest.mark.parametrize("case", GOLDEN_CASES["trains"], ids=lambda case: case.name)
def test_the_golden_transcripts_play_through_the_kernel(case):
    """The kernel's answers in each golden game, replayed through
    the scalar engine, give the golden log and result; the kernel's own row has that result."""
    from simkit.engine.kernels import replay_answers
    from simkit.engine.registry import get_game
    from tests.golden import golden_path, header, spec_of

    spec = spec_of("trains", case)
    _, state = play_game(spec, case.index, max_steps=0)
    steps = replay_answers(state, traced_game(spec, case.index))
    out = state.outcome()
    lines = header("trains", case) + [
        "", "== log", *get_game("trains").render_log(state).splitlines(), "", "== result",
        f"steps: {steps}", "forfeit: -1", f"scores: {list(out.scores)}", f"ranks: {list(out.ranks)}",
        f"wins: {list(out.win_shares)}",
        "extras: " + ", ".join(f"{k}={v}" for k, v in sorted(out.extras.items()))]
    assert lines == golden_path("trains", case).read_text(encoding="utf-8").splitlines()
    row = play_range_kernel(spec, case.index, case.index + 1)
    assert row.seats["score"].tolist() == list(out.scores) and row.games["steps"].tolist() == [steps]


def test_a_kernel_run_is_recorded_and_replays_as_the_scalar_engines_log(tmp_path):
    import json

    import pandas as pd
    from click.testing import CliRunner

    from simkit.cli import main

    cli = CliRunner()
    args = ["run", "trains", "-p", "3", "-s", "greedy", "-s", "random", "-n", "20", "-j", "1", "--seed", "3"]
    ran = {engine: cli.invoke(main, args + ["--engine", engine, "--out", str(tmp_path / engine)])
           for engine in ("kernel", "scalar", "auto")}
    assert all(r.exit_code == 0 for r in ran.values()), [r.output for r in ran.values()]
    assert "engine: kernel" in ran["auto"].output
    manifests = {e: json.loads((tmp_path / e / "manifest.json").read_text()) for e in ran}
    assert [manifests[e]["engine"] for e in ran] == ["kernel", "scalar", "kernel"]
    for table in ("games.parquet", "seats.parquet"):
        kernel, scalar = (pd.read_parquet(tmp_path / e / table) for e in ("kernel", "scalar"))
        assert kernel.equals(scalar)
    logs = [cli.invoke(main, ["replay", str(tmp_path / e), "--game", "5"]) for e in ("kernel", "scalar")]
    texts = [log.output.replace(str(tmp_path / e), "RUN") for log, e in zip(logs, ("kernel", "scalar"))]
    assert logs[0].exit_code == 0 and "win" in texts[0].lower() and texts[0] == texts[1]


def test_a_plug_in_strategys_kernel_form_plays_its_games_and_a_wrong_answer_is_named():
    plugin = "tests.trains.kernel_plugin:LastListed"
    spec = RunSpec.create("trains", 3, [plugin, "random", "greedy"], 30, seed=4,
                          overrides={"max_turns": "150"}, engine="auto")
    assert spec.engine == "kernel"
    assert_same_tables(play_range(spec, 0, 30), play_range_kernel(spec, 0, 30))
    broken = RunSpec.create("trains", 2, ["random", "tests.trains.kernel_plugin:OutOfRange"], 5, seed=4)
    with pytest.raises(ValueError, match="kernel form of 'tests.trains.kernel_plugin:OutOfRange' "
                                         r"\(seat \d, game 0\) answered outside its legal list"):
        play_range_kernel(broken, 0, 5)
