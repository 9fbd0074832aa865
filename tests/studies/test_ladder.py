"""Ladders: pairings, one run folder each, ratings, skill depth, resume."""

import json

import pytest

from simkit.engine.errors import ConfigError, RunFolderError, UnknownNameError
from simkit.search.defaults import defaults_for
from simkit.studies.ladder import (
    analyse_ladder,
    default_agents,
    pairings,
    plan_ladder,
    run_ladder,
    search_budget,
)

SINGLE_ROUND = {"max_rounds": "1"}


def _plan(agents=("random", "lowest", "heuristic"), **kw):
    args = dict(games_per_pair=60, seed=3, overrides=SINGLE_ROUND, decision_timeout=None)
    args.update(kw)
    return plan_ladder("sixnimmt", 2, list(agents), **args)


def test_default_agents_are_random_the_heuristics_and_three_search_budgets():
    assert default_agents("sixnimmt") == ["random", "lowest", "highest", "heuristic", "ismcts:iterations=10",
                                          "ismcts:iterations=100", "ismcts:iterations=1000"]
    assert [search_budget(a) for a in ("ismcts:iterations=100", "ismcts", "random")] == [100, 200, None]
    assert search_budget("ismcts", "sixnimmt") == defaults_for("sixnimmt").iterations != 200


def test_round_robin_and_gauntlet_pairings():
    assert pairings(["a", "b", "c"], "round-robin") == [("a", "b"), ("a", "c"), ("b", "c")]
    assert pairings(["a", "b", "c"], "gauntlet") == [("a", "b"), ("a", "c")]


@pytest.mark.parametrize("kw,message", [
    ({"agents": ["random"]}, "a ladder needs at least 2 agents"),
    ({"agents": ["random", "random"]}, "agent 'random' is given twice"),
    ({"agents": ["random", "nope"]}, "unknown strategy 'nope'"),
    ({"fmt": "swiss"}, "--format 'swiss' is not allowed: one of round-robin, gauntlet"),
])
def test_bad_ladders_are_refused_before_anything_runs(kw, message):
    agents = kw.pop("agents", ["random", "lowest"])
    with pytest.raises((ConfigError, UnknownNameError), match=message):
        plan_ladder("sixnimmt", 2, agents, games_per_pair=10, **kw)


def test_a_ladder_rates_the_field_and_finds_the_chain(tmp_path):
    plan = _plan()
    assert [p.spec.strategies[0].text for p in plan.pairs] == ["random", "random", "lowest"]
    assert all(p.spec.duplicate and p.spec.seed == plan.seed for p in plan.pairs)
    run_ladder(plan, tmp_path / "ladder", jobs=1, progress=False)
    result = analyse_ladder(tmp_path / "ladder")
    assert list(result.ratings["player"]) == ["random", "lowest", "heuristic"]
    rating = dict(zip(result.ratings["player"], result.ratings["rating"]))
    assert rating["heuristic"] > rating["random"]
    assert len(result.pairs) == 3 and all(p.units == 30 for p in result.pairs)   # deals of 2 games
    assert result.depth.chain[-1] == "heuristic" and result.depth.length >= 2


def test_a_ladder_resumes_and_refuses_another_plan_in_its_folder(tmp_path):
    plan = _plan(agents=["random", "heuristic"], games_per_pair=20)
    out = tmp_path / "ladder"
    run_ladder(plan, out, jobs=1, progress=False)
    with pytest.raises(RunFolderError, match="exists and is not empty"):
        run_ladder(plan, out, jobs=1, progress=False)
    again = run_ladder(plan, out, jobs=1, progress=False, resume=True)
    assert len(again[0].games) == 20
    other = _plan(agents=["random", "lowest"], games_per_pair=20)
    with pytest.raises(RunFolderError, match="holds another ladder"):
        run_ladder(other, out, jobs=1, progress=False, resume=True)
    assert json.loads((out / "ladder.json").read_text())["agents"] == ["random", "heuristic"]


def test_the_ladder_report_has_the_depth_the_chart_and_both_tables(tmp_path):
    from simkit.report.ladder import ladder_text, write_ladder_report

    plan = _plan(agents=["random", "heuristic", "ismcts:iterations=4,max_rollout_steps=30"], games_per_pair=6)
    run_ladder(plan, tmp_path / "l", jobs=1, progress=False)
    page = write_ladder_report(tmp_path / "l").read_text()
    # ratings, crosstable, pairings; one budget only: the ratings chart, no budget line
    assert "Skill depth" in page and page.count("data:image/png;base64,") == 1 and page.count("<table>") == 3
    assert 'id="glossary"' in page and "ISMCTS budget" in page
    md = (tmp_path / "l" / "ladder.md").read_text()
    assert "![ratings with 95% intervals](ladder.png)" in md and (tmp_path / "l" / "ladder.png").exists()
    assert not (tmp_path / "l" / "ladder-budget.png").exists()
    text = ladder_text(analyse_ladder(tmp_path / "l"))
    assert "random vs heuristic" in text and "ismcts:iterations=4,max_rollout_steps=30" in text


def test_the_ladder_command_prints_ratings_and_depth_and_writes_the_report(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import main

    out = CliRunner().invoke(main, ["ladder", "sixnimmt", "-p", "2", "-s", "random", "-s", "heuristic",
                                    "-n", "10", "--seed", "2", "--set", "max_rounds=1", "-j", "1",
                                    "--out", str(tmp_path / "l")])
    assert out.exit_code == 0, out.output
    assert "Skill depth" in out.output and "random vs heuristic" in out.output
    assert (tmp_path / "l" / "ladder.html").exists()
    manifest = json.loads((tmp_path / "l" / "pairs" / "01-random-vs-heuristic" / "manifest.json").read_text())
    assert manifest["decision_timeout"] == 60.0 and manifest["duplicate"] is True


def test_a_ladder_of_one_agent_is_one_line_and_exit_1(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import main

    out = CliRunner().invoke(main, ["ladder", "sixnimmt", "-s", "random", "--out", str(tmp_path / "l")])
    assert out.exit_code == 1
    assert out.output == "Error: a ladder needs at least 2 agents, got 1: give -s twice or more\n"
