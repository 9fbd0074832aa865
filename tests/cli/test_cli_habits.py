"""CLI habits: the drawn seed in the resume hint, -p and -s the same in run and sweep, -q/-v/
--json, SIMKIT_* environment defaults, and plain progress lines when stderr is not a terminal."""

import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner

import simkit.engine.runner as runner_mod
from simkit.cli import main


@pytest.fixture
def cli():
    return CliRunner()


def _interrupt_on_third_chunk(monkeypatch):
    real = runner_mod.write_chunk
    calls = {"n": 0}

    def write(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner_mod, "write_chunk", write)
    return real


def test_a_drawn_seed_is_printed_recorded_and_in_the_resume_hint(cli, tmp_path, monkeypatch):
    real = _interrupt_on_third_chunk(monkeypatch)
    args = ["run", "sixnimmt", "-n", "50", "--chunk-size", "10", "-j", "1", "--out", str(tmp_path / "r")]
    out = cli.invoke(main, args)
    assert out.exit_code == 130
    seed = json.loads((tmp_path / "r" / "manifest.json").read_text())["seed"]
    assert f"seed {seed} (drawn; --seed {seed} repeats it)" in out.stderr
    hint = re.search(r"finish with the same command plus (.*)$", out.stderr, re.M).group(1)
    assert hint == f"--resume --out {tmp_path / 'r'} --seed {seed}"
    monkeypatch.setattr(runner_mod, "write_chunk", real)
    again = cli.invoke(main, args[:-2] + hint.split())      # the command as typed, plus the hint
    assert again.exit_code == 0, again.output
    games = pd.read_parquet(tmp_path / "r" / "games.parquet")
    assert len(games) == 50
    # the same games as a run started with that seed from the start
    fresh = cli.invoke(main, args[:-2] + ["--out", str(tmp_path / "f"), "--seed", str(seed)])
    assert fresh.exit_code == 0
    pd.testing.assert_frame_equal(games, pd.read_parquet(tmp_path / "f" / "games.parquet"))


def test_resume_without_the_seed_takes_the_recorded_one(cli, tmp_path, monkeypatch):
    real = _interrupt_on_third_chunk(monkeypatch)
    args = ["run", "sixnimmt", "-n", "50", "--chunk-size", "10", "-j", "1", "--out", str(tmp_path / "r")]
    assert cli.invoke(main, args).exit_code == 130
    monkeypatch.setattr(runner_mod, "write_chunk", real)
    again = cli.invoke(main, args + ["--resume"])
    assert again.exit_code == 0, again.output
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["status"] == "complete"


def test_two_strategies_for_four_seats_mean_the_same_in_run_and_sweep(cli, tmp_path):
    common = ["-p", "4", "-s", "heuristic", "-s", "random", "-n", "8", "--seed", "2", "-j", "1"]
    out = cli.invoke(main, ["run", "sixnimmt", *common, "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    assert "lineup: heuristic, random, random, random" in out.stderr
    sw = cli.invoke(main, ["sweep", "sixnimmt", *common, "--out", str(tmp_path / "s")])
    assert sw.exit_code == 0, sw.output
    run_m = json.loads((tmp_path / "r" / "manifest.json").read_text())
    cell_m = json.loads((tmp_path / "s" / "p4" / "manifest.json").read_text())
    assert run_m["strategies"] == cell_m["strategies"] == ["heuristic", "random", "random", "random"]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "r" / "seats.parquet"),
                                  pd.read_parquet(tmp_path / "s" / "p4" / "seats.parquet"))


@pytest.mark.parametrize("command", ["run", "sweep"])
def test_too_many_strategies_are_refused_the_same_way(cli, tmp_path, command):
    out = cli.invoke(main, [command, "sixnimmt", "-p", "3", *["-s", "random"] * 4,
                            "--out", str(tmp_path / "x")])
    assert out.exit_code == 1
    assert "4 strategies for 3 players: give at most 3" in out.output
    assert "Traceback" not in out.output and not (tmp_path / "x").exists()


@pytest.mark.parametrize("command, code", [("run", 1), ("sweep", 0)])
def test_players_are_read_the_same_way(cli, tmp_path, command, code):
    out = cli.invoke(main, [command, "sixnimmt", "-p", "3,4", "-n", "3", "--seed", "1", "-j", "1",
                            "--out", str(tmp_path / "x")])
    assert out.exit_code == code, out.output
    if command == "run":
        assert out.output == ("Error: --players 3,4 is several player counts: `simkit run` plays one "
                              "(e.g. -p 3); `simkit sweep -p 3,4` plays each\n")
    bad = cli.invoke(main, [command, "sixnimmt", "-p", "four"])
    assert bad.exit_code != 0 and "'four' is not a comma-separated list of whole numbers" in bad.output


def test_quiet_prints_only_the_summary(cli, tmp_path):
    out = cli.invoke(main, ["run", "sixnimmt", "-n", "6", "--seed", "1", "-j", "1", "-q",
                            "--out", str(tmp_path / "r")])
    assert out.exit_code == 0
    assert out.stderr == "" and "win share" in out.stdout


def test_verbose_adds_the_run_facts(cli, tmp_path):
    out = cli.invoke(main, ["run", "sixnimmt", "-n", "6", "--seed", "1", "-j", "1", "-v",
                            "--out", str(tmp_path / "r")])
    assert out.exit_code == 0
    for line in (f"out_dir: {tmp_path / 'r'}", "seed: 1", "status: complete", "jobs: 1", "chunk_size:"):
        assert line in out.stdout


def test_json_summary_is_the_table_and_the_run_facts(cli, tmp_path):
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "3", "-s", "heuristic", "-s", "random", "-n", "30",
                            "--seed", "4", "-j", "1", "--json", "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["run"]["seed"] == 4 and doc["run"]["games_played"] == 30
    assert doc["run"]["strategies"] == ["heuristic", "random", "random"]
    rows = {r["player"]: r for r in doc["summary"]}
    seats = pd.read_parquet(tmp_path / "r" / "seats.parquet")
    assert rows["heuristic"]["win_share"] == pytest.approx(seats[seats.strategy == "heuristic"].win.mean())
    assert rows["heuristic"]["win_low"] < rows["heuristic"]["win_share"] < rows["heuristic"]["win_high"]


def test_environment_defaults(cli, tmp_path):
    env = {"SIMKIT_RUN_GAMES": "7", "SIMKIT_JOBS": "1", "SIMKIT_RUN_SEED": "9", "SIMKIT_QUIET": "1"}
    out = cli.invoke(main, ["run", "sixnimmt", "--out", str(tmp_path / "r")], env=env)
    assert out.exit_code == 0, out.output
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["n_games"] == 7 and manifest["seed"] == 9 and manifest["timings"]["jobs"] == 1
    assert out.stderr == ""
    typed = cli.invoke(main, ["run", "sixnimmt", "-n", "3", "--out", str(tmp_path / "t")], env=env)
    assert json.loads((tmp_path / "t" / "manifest.json").read_text())["n_games"] == 3
    assert typed.exit_code == 0
    bad = cli.invoke(main, ["run", "sixnimmt", "--out", str(tmp_path / "b")], env={"SIMKIT_JOBS": "0"})
    assert bad.exit_code == 1 and "--jobs 0 is not allowed" in bad.output


def test_plain_progress_lines_when_not_a_terminal(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(runner_mod.Progress, "INTERVAL", 0.0)
    out = cli.invoke(main, ["run", "sixnimmt", "-n", "50", "--chunk-size", "10", "-j", "1",
                            "--seed", "1", "--out", str(tmp_path / "r")])
    assert out.exit_code == 0
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("games: ")]
    assert lines[0].startswith("games: 10/50 games (20.0%), ") and "games/s, ETA " in lines[0]
    assert lines[-1].startswith("games: 50/50 games (100.0%)") and "done in" in lines[-1]
    quiet = cli.invoke(main, ["run", "sixnimmt", "-n", "20", "--chunk-size", "10", "-j", "1",
                              "--seed", "1", "--no-progress", "--out", str(tmp_path / "q")])
    assert "games: " not in quiet.stderr


def test_sweep_progress_names_each_cell_and_the_overall_count(cli, tmp_path, monkeypatch):
    monkeypatch.setattr(runner_mod.Progress, "INTERVAL", 0.0)
    out = cli.invoke(main, ["sweep", "sixnimmt", "-p", "3,4", "-n", "20", "--seed", "1", "-j", "1",
                            "--out", str(tmp_path / "s")])
    assert out.exit_code == 0, out.output
    assert "cell 1/2 p3: 20/20 games (100.0%)" in out.stderr
    assert "cell 2/2 p4: 20/20 games" in out.stderr
    assert "[cell 2/2 done: p4]" in out.stderr


def test_sweep_json_and_quiet(cli, tmp_path):
    out = cli.invoke(main, ["sweep", "sixnimmt", "-p", "3,4", "-n", "6", "--seed", "8", "-j", "1", "-q",
                            "--json", "--out", str(tmp_path / "s")])
    assert out.exit_code == 0, out.output
    assert out.stderr == ""
    doc = json.loads(out.stdout)
    assert doc["sweep"]["seed"] == 8 and [c["label"] for c in doc["cells"]] == ["p3", "p4"]
    assert doc["cells"][1]["run"]["n_players"] == 4 and doc["cells"][1]["summary"][0]["games"] == 6


def test_sweep_resume_hint_has_the_drawn_seed(cli, tmp_path, monkeypatch):
    real = _interrupt_on_third_chunk(monkeypatch)
    args = ["sweep", "sixnimmt", "-p", "3,4", "-n", "20", "-j", "1", "--out", str(tmp_path / "s")]
    out = cli.invoke(main, args)
    assert out.exit_code == 130
    seed = json.loads((tmp_path / "s" / "sweep.json").read_text())["seed"]
    assert f"plus --resume --out {tmp_path / 's'} --seed {seed}" in out.stderr
    monkeypatch.setattr(runner_mod, "write_chunk", real)
    again = cli.invoke(main, args + ["--resume", "--seed", str(seed)])
    assert again.exit_code == 0, again.output
    assert len(pd.read_parquet(tmp_path / "s" / "p4" / "games.parquet")) == 20
