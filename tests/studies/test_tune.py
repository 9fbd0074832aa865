"""Rule tuning (`simkit tune`): targets, successive halving, the study folder and its resume."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.errors import ConfigError
from simkit.studies.tune import Setting, expand_values, successive_halving
from simkit.studies.tune_targets import Estimate, Target, parse_target


@pytest.mark.parametrize("text, target", [
    ("seat_fairness", Target("seat_fairness")),
    ("length=40±5", Target("length", 40.0, 5.0)),
    ("length = 40 +- 5", Target("length", 40.0, 5.0)),
    ("draws=0.1", Target("draws", 0.1, 0.0)),
    ("win:heuristic=0.4+/-0.02", Target("win:heuristic", 0.4, 0.02)),
])
def test_targets_are_read_as_written(text, target):
    assert parse_target(text) == target


@pytest.mark.parametrize("text, message", [
    ("lenght=40±5", "unknown figure 'lenght'.*did you mean 'length'"),
    ("length=forty", "malformed"),
    ("length±5", "malformed"),
])
def test_bad_targets_are_explained(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_target(text)


def test_a_target_loss_counts_only_the_distance_beyond_the_tolerance():
    t = Target("length", 40.0, 5.0)
    assert t.loss(np.array([42.0, 47.0, 30.0])).tolist() == [0.0, 0.4, 1.0]
    assert Target("seat_fairness").loss(np.array([0.03])).tolist() == [0.03]


def test_ranges_expand_and_repeated_values_are_refused():
    assert expand_values("rows", ["3..6"]) == ["3", "4", "5", "6"]
    assert expand_values("advanced", ["false", "true"]) == ["false", "true"]
    with pytest.raises(ConfigError, match="listed twice"):
        expand_values("rows", ["3..5", "4"])
    with pytest.raises(ConfigError, match="two whole numbers"):
        expand_values("rows", ["3..x"])


def test_halving_finds_a_planted_best_within_its_budget():
    """16 settings whose true loss is |i - 11| / 10; each estimate's noise shrinks with its games."""
    rng = np.random.default_rng(0)
    settings = [Setting((i,), (("x", str(i)),)) for i in range(16)]
    played: dict[int, int] = {}

    def evaluate(setting, round_no, games):
        i = setting.index[0]
        played[i] = played.get(i, 0) + games
        truth, se = abs(i - 11) / 10, 1.0 / np.sqrt(played[i])
        value = truth + rng.normal(0, se)
        return Estimate(played[i], value, value - 2 * se, value + 2 * se, {})

    history = successive_halving(settings, evaluate, budget=8000, unit=4)
    assert history[-1].kept == ["x=11"]
    assert sum(played.values()) <= 8000
    # the budget went where the answer was uncertain: the winner played far more than a loser
    assert played[11] > 5 * played[0]


SMALL = ["sixnimmt", "-p", "3", "--vary", "max_rounds=1..4", "--target", "rounds=2±0.05",
         "--budget", "240", "--confirm", "60", "--seed", "3", "-j", "1", "--no-progress"]


def test_tune_finds_the_planted_rule_value_and_resumes_without_playing(tmp_path):
    out = tmp_path / "tune"
    first = CliRunner().invoke(main, ["tune", *SMALL, "--out", str(out)])
    assert first.exit_code == 0, first.output
    data = json.loads((out / "tune.json").read_text())
    assert data["recommended"] == {"max_rounds": "2"}
    # within its budget: the search played at most --budget games over all its rounds
    spent = sum(r["games_each"] * len(r["estimates"]) for r in data["rounds"])
    assert 0 < spent <= 240
    assert data["confirm"]["games"] == 60 and data["confirm"]["loss"] == 0.0
    moved = {s["value"]: s["changes"]["rounds=2±0.05"][0] for s in data["sensitivity"]}
    assert set(moved) == {"1", "3"} and moved["1"] == -1.0 and moved["3"] > 0.5
    assert "Recommended: max_rounds=2" in first.output and (out / "tune.html").exists()
    runs = sorted(p.relative_to(out) for p in out.glob("cells/*/*/manifest.json"))
    again = CliRunner().invoke(main, ["tune", *SMALL, "--out", str(out), "--resume"])
    assert again.exit_code == 0, again.output
    assert json.loads((out / "tune.json").read_text()) == data
    assert sorted(p.relative_to(out) for p in out.glob("cells/*/*/manifest.json")) == runs
    # `simkit report` on a tune folder rebuilds its pages (not a run folder's report)
    page = (out / "tune.md").read_text()
    (out / "tune.md").unlink()
    rebuilt = CliRunner().invoke(main, ["report", str(out)])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "tune report written" in rebuilt.output and (out / "tune.md").read_text() == page


@pytest.mark.parametrize("args, message", [
    (["--target", "rounds=2"], "give --vary"),
    (["--vary", "max_rounds=1,2"], "no target"),
    (["--vary", "max_rounds=1,2", "--target", "nope"], "unknown figure"),
    (["--vary", "max_rounds=1,2", "--vary", "rows=3,4", "--target", "length", "--budget", "10"], "too small"),
    (["--vary", "rows=0,1", "--target", "length"], "tune setting rows=0"),
    (["--vary", "rowz=3,4", "--target", "length"], "unknown config field 'rowz'"),
    (["--vary", "rows=6..3", "--target", "length"], "a range runs upwards"),
    (["--vary", "rows=3..x", "--target", "length"], "a range is two whole numbers"),
    (["--vary", "rows=", "--target", "length"], "malformed"),
    (["--vary", "rows=3..3", "--target", "length"], "one setting (rows=3): nothing to choose between"),
    (["--vary", "rows=3,4", "--target", "win:heuristic"], "no seat plays 'heuristic'"),
    (["--vary", "rows=3,4", "--target", "draws=2±0.1"], "cannot be met: draws is between 0 and 1"),
    (["--vary", "rows=3,4", "--target", "seat_fairness=0.9"], "seat_fairness is between 0 and 0.667 at 3"),
    (["--vary", "rows=3,4", "--target", "length=-5±2"], "cannot be met: length is at least 0"),
    (["--vary", "rows=3,4", "--target", "length", "--target", "length"], "given twice"),
])
def test_bad_tunes_are_refused_before_playing(tmp_path, args, message):
    result = CliRunner().invoke(main, ["tune", "sixnimmt", "-p", "3", *args, "--out", str(tmp_path / "t")])
    assert result.exit_code != 0 and message in result.output
    assert "Traceback" not in result.output and not (tmp_path / "t").exists()
