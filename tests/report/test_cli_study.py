"""`simkit compare` and `simkit report` driven through Click's CliRunner."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.cli_study import compare_command, report_command


def test_compare_stops_early_with_the_heuristic_judged_better(tmp_path):
    out = tmp_path / "cmp"
    res = CliRunner().invoke(main, ["compare", "sixnimmt", "heuristic", "random", "--seed", "1",
                                    "--max-games", "4000", "--jobs", "1", "--out", str(out),
                                    "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "H1 accepted: heuristic is stronger than random" in res.output
    assert "stopped early" in res.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["games_done"] < 4000 and manifest["duplicate"] is True
    record = json.loads((out / "compare.json").read_text())
    assert record["decision"] == "H1" and record["llr"] >= record["bounds"][1]
    assert record["penta"] is not None and 2 * sum(record["penta"]) == record["games"]
    assert record["estimate"]["elo"] > 0 and record["estimate"]["los"] > 0.99
    for word in ("Elo", "nElo", "LOS", "LLR"):
        assert word in res.output


def test_compare_random_against_itself_runs_to_the_maximum_without_a_decision(tmp_path):
    out = tmp_path / "cmp"
    res = CliRunner().invoke(main, ["compare", "sixnimmt", "random", "random", "--seed", "2",
                                    "--max-games", "300", "--jobs", "1", "--out", str(out),
                                    "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "no decision" in res.output and "accepted" not in res.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["games_done"] == 300
    record = json.loads((out / "compare.json").read_text())
    assert record["decision"] is None
    assert record["bounds"][0] < record["llr"] < record["bounds"][1]


def test_compare_four_players_alternates_the_sides_and_pairs_games(tmp_path):
    out = tmp_path / "cmp4"
    res = CliRunner().invoke(main, ["compare", "sixnimmt", "heuristic", "random", "-p", "4",
                                    "--seed", "3", "--max-games", "96", "--batch", "48",
                                    "--jobs", "1", "--out", str(out), "--no-progress"])
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["strategies"] == ["heuristic", "random", "heuristic", "random"]
    record = json.loads((out / "compare.json").read_text())
    assert record["a_slots"] == [0, 2] and record["b_slots"] == [1, 3]
    assert record["penta"] is not None and 2 * sum(record["penta"]) == record["games"]


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """A small `simkit compare` run reported by `simkit report FOLDER` (no --out), once for the
    module: the tests below only read the folder."""
    out = tmp_path_factory.mktemp("compared") / "cmp"
    runner = CliRunner()
    done = runner.invoke(main, ["compare", "sixnimmt", "random", "random", "--seed", "4",
                                "--max-games", "60", "--jobs", "1", "--out", str(out), "--no-progress"])
    assert done.exit_code == 0, done.output
    res = runner.invoke(main, ["report", str(out)])
    assert res.exit_code == 0, res.output
    return out


@pytest.mark.slow
def test_compare_run_folder_is_accepted_by_report(compared):
    html = (compared / "report" / "report.html").read_text()
    assert 'id="match"' in html and "SPRT" in html and "no decision" in html
    summary = pd.read_csv(compared / "report" / "tables" / "cmp" / "summary.csv")
    assert list(summary["strategy"]) == ["random#1", "random#2"]


@pytest.mark.slow
def test_report_default_folder_is_inside_the_run(compared):
    assert (compared / "report" / "report.html").exists()
    assert (compared / "report" / "summary.md").exists()


def test_malformed_sprt_and_unknown_names_are_clear_errors(tmp_path):
    runner = CliRunner()
    res = runner.invoke(main, ["compare", "sixnimmt", "heuristic", "random", "--sprt", "0,10"])
    assert res.exit_code == 2 and "elo0,elo1,alpha,beta" in res.output
    res = runner.invoke(main, ["compare", "sixnimmt", "heuristic", "random", "--sprt", "0,x,1,1"])
    assert res.exit_code == 2 and "must be a number" in res.output
    res = runner.invoke(main, ["compare", "sixnimmt", "heuristic", "random", "--sprt",
                               "10,0,0.05,0.05"])
    assert res.exit_code == 2 and "elo0 must be less than elo1" in res.output
    res = runner.invoke(main, ["compare", "nogame", "a", "b", "--out", str(tmp_path / "x")])
    assert res.exit_code == 1 and "unknown game 'nogame'" in res.output
    res = runner.invoke(main, ["compare", "sixnimmt", "heuristic", "random", "-p", "1",
                               "--out", str(tmp_path / "x")])
    assert res.exit_code == 1
    assert res.output == "Error: --players 1 is not allowed: compare needs at least 2 players\n"
    assert not (tmp_path / "x").exists()
    res = runner.invoke(main, ["report", str(tmp_path)])
    assert res.exit_code == 1 and "no manifest.json" in res.output


def test_help_has_examples():
    for cmd in (compare_command, report_command):
        res = CliRunner().invoke(cmd, ["--help"])
        assert res.exit_code == 0 and "Example" in res.output
    assert "simkit compare sixnimmt heuristic random" in CliRunner().invoke(
        compare_command, ["--help"]).output


def test_compare_shows_interim_elo_and_llr_and_prints_the_verdict_once(tmp_path, monkeypatch):
    import simkit.engine.runner as runner_mod
    monkeypatch.setattr(runner_mod.Progress, "INTERVAL", 0.0)
    res = CliRunner().invoke(main, ["compare", "sixnimmt", "heuristic", "random", "--seed", "1",
                                    "--max-games", "4000", "--batch", "40", "--jobs", "1",
                                    "--out", str(tmp_path / "cmp")])
    assert res.exit_code == 0, res.output
    interim = [ln for ln in res.stderr.splitlines() if ln.startswith("games: ")]
    assert len(interim) >= 3
    first = interim[0].split(" | ")[1]
    assert interim[0].startswith("games: 40/")
    assert first.startswith("pairwise Elo ") and ", LLR " in first and "[-2.94, 2.94]" in first
    assert interim[-1].endswith("H1 accepted")          # the display stops at the decision
    assert res.output.count("H1 accepted: heuristic is stronger than random") == 1


def test_compare_resumes_after_an_interruption(tmp_path, monkeypatch):
    import simkit.engine.runner as runner_mod
    real = runner_mod.write_chunk
    calls = {"n": 0}

    def interrupt(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    out = tmp_path / "cmp"
    args = ["compare", "sixnimmt", "heuristic", "random", "--max-games", "4000", "--batch", "20",
            "--jobs", "1", "--out", str(out), "--no-progress"]
    monkeypatch.setattr(runner_mod, "write_chunk", interrupt)
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 130
    seed = json.loads((out / "manifest.json").read_text())["seed"]
    assert f"plus --resume --out {out} --seed {seed}" in res.stderr
    monkeypatch.setattr(runner_mod, "write_chunk", real)
    again = CliRunner().invoke(main, args + ["--resume"])
    assert again.exit_code == 0, again.output
    assert "H1 accepted" in again.output
    record = json.loads((out / "compare.json").read_text())
    fresh = CliRunner().invoke(main, args[:-3] + ["--out", str(tmp_path / "fresh"), "--seed", str(seed),
                                                  "--no-progress"])
    assert fresh.exit_code == 0
    assert json.loads((tmp_path / "fresh" / "compare.json").read_text()) == record
    done = CliRunner().invoke(main, args + ["--resume"])      # already decided: read back
    assert done.exit_code == 0 and "H1 accepted" in done.output
    other = CliRunner().invoke(main, ["compare", "sixnimmt", "lowest", "random", "--resume",
                                      "--out", str(out), "--seed", str(seed)])
    assert other.exit_code == 1 and "was started with different strategies" in other.output
    no_out = CliRunner().invoke(main, ["compare", "sixnimmt", "lowest", "random", "--resume"])
    assert no_out.exit_code == 1 and "--resume needs --out FOLDER" in no_out.output
