"""Ladders: pairings, one run folder each, ratings, skill depth, resume."""

import json

import pytest

from simkit.engine.errors import ConfigError, RunFolderError, UnknownNameError
from simkit.search.defaults import defaults_for
from simkit.studies.ladder import (
    analyse_ladder,
    default_agents,
    default_games,
    pairings,
    plan_ladder,
    run_ladder,
    search_budget,
)
from simkit.studies.ladder_defaults import seat_cost

SINGLE_ROUND = {"max_rounds": "1"}


def _plan(agents=("random", "lowest", "heuristic"), **kw):
    args = dict(games_per_pair=60, seed=3, overrides=SINGLE_ROUND, decision_timeout=None)
    args.update(kw)
    return plan_ladder("sixnimmt", 2, list(agents), **args)


@pytest.mark.parametrize("game,heuristics", [
    ("sixnimmt", ["lowest", "highest", "heuristic"]), ("trains", ["greedy", "rival"]),
    ("shipside", ["greedy", "octopus"]),
])
def test_default_ladders_are_random_the_heuristics_and_search_at_the_games_defaults(game, heuristics):
    # ismcts without an iteration override: the ladder follows simkit/search/defaults.py
    assert default_agents(game) == ["random", *heuristics, "ismcts"]
    assert search_budget("ismcts", game) == defaults_for(game).iterations
    plan = plan_ladder(game, 2, seed=1)
    assert list(plan.agents) == default_agents(game) and plan.games_per_pair == default_games(game)
    assert all(seat_cost(game, agent) is not None for agent in plan.agents)


def test_rummikub_ladders_its_bots_only_and_a_game_without_a_ladder_gets_the_generic_one(monkeypatch):
    from simkit.studies import ladder_defaults

    rummikub = ["random", "simple", "greedy_tiles", "greedy_value", "patient"]
    assert default_agents("rummikub") == rummikub      # a search decision costs seconds there
    monkeypatch.delitem(ladder_defaults.PER_GAME, "rummikub")
    assert default_agents("rummikub") == [*rummikub, "ismcts"]
    assert default_games("rummikub") == 100 and seat_cost("rummikub", "ismcts") is None


def test_search_budgets():
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


def test_the_estimate_adds_each_pairings_seats_from_the_cost_table():
    from simkit.studies.ladder_defaults import estimate

    cost = {a: seat_cost("shipside", a) for a in ("random", "octopus", "ismcts")}
    est = estimate("shipside", [("random", "octopus"), ("octopus", "ismcts")], 2, 10, 2)
    cpu = 10 * (cost["random"] + 2 * cost["octopus"] + cost["ismcts"])
    assert est.cpu_seconds == pytest.approx(cpu) and est.wall_seconds == pytest.approx(cpu / 2)
    four = estimate("shipside", [("random", "octopus")], 4, 10, 1)       # 2 seats each in 4 players
    assert four.cpu_seconds == pytest.approx(20 * (cost["random"] + cost["octopus"]))
    assert est.text().startswith("estimate: about ") and "on 2 quiet cores" in est.text()


def test_a_search_budget_scales_the_cost_and_other_changes_make_it_unknown():
    from simkit.studies.ladder_defaults import estimate

    base = defaults_for("trains").iterations
    doubled = seat_cost("trains", f"ismcts:iterations={2 * base}")
    assert doubled == pytest.approx(2 * seat_cost("trains", "ismcts"))
    assert seat_cost("trains", "ismcts:c=2") is None and seat_cost("trains", "mc") is None
    est = estimate("trains", [("random", "mc"), ("random", "ismcts:c=2")], 4, 100, 2)
    assert est.unknown == ("ismcts:c=2", "mc")
    assert est.text() == ("no time estimate: no measured cost for ismcts:c=2, mc "
                          "(scripts/ladder_timing.py measures a ladder's pairings)")


@pytest.mark.parametrize("game", ["sixnimmt", "trains", "shipside", "rummikub"])
def test_each_default_ladder_is_planned_to_fit_30_minutes_on_2_cores(game):
    from simkit.engine.lineup import default_players
    from simkit.engine.registry import get_game
    from simkit.studies.ladder_defaults import estimate

    n = default_players(get_game(game))
    plan = plan_ladder(game, n, seed=1)
    est = estimate(game, [(p.a, p.b) for p in plan.pairs], n, plan.games_per_pair, 2)
    assert not est.unknown and 0 < est.wall_seconds <= 30 * 60


def test_the_ladder_command_prints_an_estimate_and_a_pairing_line_with_the_time_left(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import main

    args = ["ladder", "sixnimmt", "-p", "2", "-s", "random", "-s", "lowest", "-s", "heuristic", "-n", "4",
            "--seed", "2", "--set", "max_rounds=1", "-j", "1", "--no-progress"]
    out = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "l")])
    assert out.exit_code == 0, out.output
    assert "estimate: about " in out.output and "on 1 quiet core " in out.output
    assert "[pairing 1/3] random vs lowest (about " in out.output
    with_mc = [*args[:6], "-s", "mc:samples=2", *args[8:], "--out", str(tmp_path / "m")]
    unknown = CliRunner().invoke(main, with_mc)
    assert unknown.exit_code == 0, unknown.output
    assert "no time estimate: no measured cost for mc:samples=2" in unknown.output
    assert "[pairing 1/3] random vs mc:samples=2\n" in unknown.output


def test_an_old_ladder_folder_resumes_with_its_own_plan_not_todays_defaults(tmp_path):
    """A folder planned with other agents, games and players (as the defaults before issue 20
    would be) finishes as planned when --resume gives none of -s, -n, -p."""
    import shutil

    from click.testing import CliRunner

    from simkit.cli import main

    out = tmp_path / "old"
    plan = _plan(agents=["random", "lowest", "highest"], games_per_pair=4, seed=5)
    run_ladder(plan, out, jobs=1, progress=False)
    before = (out / "ladder.json").read_text()
    shutil.rmtree(out / "pairs" / plan.pairs[2].folder)          # interrupted before the last pairing
    result = CliRunner().invoke(main, ["ladder", "sixnimmt", "--resume", "--out", str(out), "--set",
                                       "max_rounds=1", "-j", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "2 of 3 pairings already played" in result.output and "3 agents" in result.output
    assert (out / "ladder.json").read_text() == before
    assert len(analyse_ladder(out).pairs) == 3
    again = CliRunner().invoke(main, ["ladder", "sixnimmt", "--resume", "--out", str(out), "-n", "8",
                                      "--set", "max_rounds=1", "-j", "1"])
    assert again.exit_code == 1 and "holds another ladder" in again.output      # -n still overrides


def test_a_recorded_plan_keeps_only_fields_of_the_right_type(tmp_path):
    from simkit.studies.ladder import recorded_plan

    (tmp_path / "ladder.json").write_text(json.dumps({"agents": ["random", 3], "games_per_pair": "8",
                                                      "n_players": 2, "seed": 1}))
    assert recorded_plan(tmp_path) == {"n_players": 2}
    assert recorded_plan(tmp_path / "none") == {}


def test_the_budget_and_cost_of_ismcts_follow_the_defaults_at_the_ladders_player_count(monkeypatch):
    """defaults_for's per-player entries reach the ladder: a Trains entry at 2 players with
    iterations of its own changes the budget and, against the cost table (measured at the
    default 4 players), the cost of a seat."""
    from simkit.search import defaults
    from simkit.studies.ladder_defaults import estimate, ladder_defaults, measured_players

    monkeypatch.setitem(defaults.PER_PLAYERS, ("trains", 2), {"iterations": 30})
    measured = defaults_for("trains", measured_players("trains")).iterations
    assert measured_players("trains") == 4 and measured != 30
    assert search_budget("ismcts", "trains", 2) == 30 and search_budget("ismcts", "trains", 4) == measured
    assert search_budget("ismcts:iterations=90", "trains", 2) == 90          # a given budget wins
    table = ladder_defaults("trains").seat_seconds
    assert seat_cost("trains", "ismcts", 2) == pytest.approx(table["ismcts"] * 30 / measured)
    assert seat_cost("trains", "ismcts", 4) == seat_cost("trains", "ismcts") == pytest.approx(table["ismcts"])
    two = estimate("trains", [("random", "ismcts")], 2, 10, 1)
    assert two.cpu_seconds == pytest.approx(10 * (table["random"] + table["ismcts"] * 30 / measured))


def test_single_rounds_of_6_nimmt_give_ismcts_the_variants_budget_in_estimate_and_report(tmp_path):
    """PER_VARIANT reaches the ladder: in single rounds `ismcts` plays more iterations than in
    whole matches; the command's estimate scales its cost by them and the finished ladder
    reports that budget (from its run folders: ladder.json does not hold the rules)."""
    from click.testing import CliRunner

    from simkit.cli import main
    from simkit.studies.ladder_defaults import estimate, ladder_defaults, measured_players

    plan = _plan(agents=["random", "ismcts"], games_per_pair=2)
    single = defaults_for("sixnimmt", 2, plan.config).iterations
    matches = defaults_for("sixnimmt", measured_players("sixnimmt")).iterations
    assert single != defaults_for("sixnimmt", 2).iterations and single != matches
    assert search_budget("ismcts", "sixnimmt", 2, plan.config) == single
    table = ladder_defaults("sixnimmt").seat_seconds
    scaled = table["ismcts"] * single / matches
    assert seat_cost("sixnimmt", "ismcts", 2, plan.config) == pytest.approx(scaled)
    est = estimate("sixnimmt", [("random", "ismcts")], 2, 2, 1, plan.config)
    assert est.cpu_seconds == pytest.approx(2 * (table["random"] + scaled))

    out = CliRunner().invoke(main, ["ladder", "sixnimmt", "-p", "2", "-s", "random", "-s", "ismcts",
                                    "-n", "2", "--seed", "3", "--set", "max_rounds=1", "-j", "1",
                                    "--no-progress", "--out", str(tmp_path / "l")])
    assert out.exit_code == 0, out.output
    assert est.text() in out.output
    assert analyse_ladder(tmp_path / "l").budgets() == {"ismcts": single}
