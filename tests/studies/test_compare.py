"""A compare as a library call: its plan, its stop rule and compare.json."""

import json

import pandas as pd
import pytest

from simkit.engine.errors import ConfigError
from simkit.stats.elo import SPRT
from simkit.stats.synthetic import synth
from simkit.studies.compare import COMPARE_FILE, json_safe, plan_compare, run_compare, write_compare


def strict_json(text: str):
    """json.loads that refuses Infinity, -Infinity and NaN, which are not JSON."""
    def refuse(name):
        raise ValueError(f"{name} is not valid JSON")
    return json.loads(text, parse_constant=refuse)


def test_plan_alternates_the_sides_on_duplicate_deals_in_whole_deal_chunks():
    plan = plan_compare("sixnimmt", "heuristic", "random", 3, 100, SPRT(0, 10), batch=10, seed=5,
                        overrides={"max_rounds": "1"})
    assert [s.text for s in plan.spec.strategies] == ["heuristic", "random", "heuristic"]
    assert plan.sides == ([0, 2], [1])
    assert plan.spec.duplicate and plan.spec.seating == "rotate" and plan.spec.seed == 5
    assert plan.spec.n_games == 102 and plan.chunk_size == 12
    assert plan.spec.config.max_rounds == 1


def test_plan_refuses_a_single_player():
    with pytest.raises(ConfigError, match="compare needs at least 2 players"):
        plan_compare("sixnimmt", "heuristic", "random", 1, 100, SPRT(0, 10))


def test_record_names_the_sides_then_the_summary():
    plan = plan_compare("sixnimmt", "heuristic", "random", 2, 600, SPRT(0, 10), seed=1)
    _, seats = synth(600, strengths=(0.9, 0.2), seed=31, duplicate=True)
    summary = plan.summarize(seats)
    record = plan.record(summary)
    assert list(record)[:4] == ["a", "b", "a_slots", "b_slots"]
    assert record["a"] == "heuristic" and record["a_slots"] == [0] and record["b_slots"] == [1]
    assert record["decision"] == "H1" == summary.decision
    assert record["penta"] == summary.penta and record["bounds"] == [SPRT(0, 10).lower, SPRT(0, 10).upper]
    assert plan.decided(None, seats)
    assert not plan.decided(None, seats.iloc[:4])


def test_run_compare_writes_the_summary_of_the_games_played(tmp_path):
    plan = plan_compare("sixnimmt", "random", "random", 2, 60, SPRT(0, 10), batch=20, seed=4,
                        overrides={"max_rounds": "1"})
    result, summary = run_compare(plan, tmp_path / "c", jobs=1, progress=False)
    record = strict_json((tmp_path / "c" / COMPARE_FILE).read_text())
    assert record == json.loads(json.dumps(plan.record(summary)))
    assert record["games"] == len(result.games) == 60 and record["decision"] is None
    pd.testing.assert_frame_equal(result.seats, pd.read_parquet(tmp_path / "c" / "seats.parquet"))


def test_a_perfect_score_is_written_as_valid_json_with_null_for_what_is_not_finite(tmp_path):
    plan = plan_compare("sixnimmt", "heuristic", "random", 2, 600, SPRT(0, 10), seed=1)
    _, seats = synth(40, strengths=(9.0, 0.0), spread=0.1, seed=1, duplicate=True)
    summary = plan.summarize(seats)
    assert summary.wins == summary.games          # every game won: +inf bound, undefined nElo
    assert summary.estimate.elo_high == float("inf") and summary.estimate.nelo != summary.estimate.nelo
    with pytest.raises(ValueError):               # the strict parser does refuse Infinity
        strict_json(json.dumps(summary.to_dict()))
    record = strict_json((write_compare(tmp_path, plan.record(summary))).read_text())
    assert record["estimate"]["elo_high"] is None and record["estimate"]["nelo"] is None
    assert record["estimate"]["elo_low"] == pytest.approx(summary.estimate.elo_low)
    assert record["wins"] == summary.wins


def test_json_safe_recurses_and_converts_numpy_scalars():
    import numpy as np

    value = {"a": [np.float64("nan"), (1, np.int64(2))], "b": {"c": -float("inf"), "d": "x"}}
    assert json_safe(value) == {"a": [None, [1, 2]], "b": {"c": None, "d": "x"}}
    assert type(json_safe(np.int64(2))) is int


def test_compare_json_of_a_perfect_score_is_strict_json(tmp_path):
    """Four games all won: before null was written, `--json` failed on the infinite bound."""
    from click.testing import CliRunner

    from simkit.cli import main

    out = CliRunner().invoke(main, ["compare", "sixnimmt", "heuristic", "random", "--seed", "1",
                                    "--max-games", "4", "--jobs", "1", "--json", "--no-progress",
                                    "--out", str(tmp_path / "c")])
    assert out.exit_code == 0, out.output
    match = strict_json(out.stdout)["match"]
    assert match["wins"] == match["games"] == 4 and match["estimate"]["elo_high"] is None
    assert strict_json((tmp_path / "c" / COMPARE_FILE).read_text())["estimate"]["nelo"] is None
