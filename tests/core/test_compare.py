"""A compare as a library call: its plan, its stop rule and compare.json."""

import json

import pandas as pd
import pytest

from simkit.core.compare import COMPARE_FILE, plan_compare, run_compare
from simkit.core.errors import ConfigError
from simkit.stats.elo import SPRT
from simkit.stats.synthetic import synth


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
    record = json.loads((tmp_path / "c" / COMPARE_FILE).read_text())
    assert record == json.loads(json.dumps(plan.record(summary)))
    assert record["games"] == len(result.games) == 60 and record["decision"] is None
    pd.testing.assert_frame_equal(result.seats, pd.read_parquet(tmp_path / "c" / "seats.parquet"))
