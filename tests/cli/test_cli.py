"""The CLI through Click's CliRunner: summaries, replay, and every bad-input case."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.registry import game_names


@pytest.fixture
def cli():
    return CliRunner()


def test_games_and_strategies_listing(cli):
    out = cli.invoke(main, ["games"])
    assert out.exit_code == 0 and "sixnimmt" in out.output and "2 to 10" in out.output
    out = cli.invoke(main, ["strategies", "sixnimmt"])
    assert out.exit_code == 0
    for name in ("random", "lowest", "highest", "heuristic", "end_threshold = 66", "max_rounds"):
        assert name in out.output


def test_run_writes_a_run_folder_and_prints_the_summary(cli, tmp_path):
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "4", "-s", "heuristic", "-s", "random",
                            "-s", "random", "-s", "random", "-n", "40", "--seed", "3", "-j", "1",
                            "--out", str(tmp_path / "r"), "--set", "max_rounds=1"])
    assert out.exit_code == 0, out.output
    assert "heuristic" in out.output and "win share" in out.output and "95% CI" in out.output
    seats = pd.read_parquet(tmp_path / "r" / "seats.parquet")
    assert {"game", "seat", "strategy", "score", "rank", "win", "forfeit"} <= set(seats.columns)
    assert len(seats) == 160


def test_identical_parquet_with_jobs_1_and_2(cli, tmp_path):
    for jobs in ("1", "2"):
        out = cli.invoke(main, ["run", "sixnimmt", "-p", "3", "-s", "heuristic", "-s", "random",
                                "-s", "lowest", "-n", "90", "--seed", "11", "-j", jobs,
                                "--out", str(tmp_path / jobs)])
        assert out.exit_code == 0, out.output
    for name in ("games.parquet", "seats.parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "1" / name),
                                      pd.read_parquet(tmp_path / "2" / name))


def test_plugin_strategy_as_module_class(cli, tmp_path):
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "2", "-s", "tests.plugins:FirstLegal",
                            "-s", "random", "-n", "10", "--seed", "1", "-j", "1",
                            "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    assert "tests.plugins:FirstLegal" in out.output


def test_forfeits_are_counted_in_the_summary(cli, tmp_path):
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "2", "-s", "tests.plugins:Crashes",
                            "-s", "random", "-n", "6", "--seed", "1", "-j", "1", "--seating", "fixed",
                            "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    assert "forfeited games: 6" in out.output


def test_strict_stops_with_the_traceback(cli, tmp_path):
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "2", "-s", "tests.plugins:Crashes",
                            "-s", "random", "-n", "6", "--seed", "1", "-j", "1", "--strict",
                            "--out", str(tmp_path / "r")])
    assert out.exit_code != 0
    assert "boom from a test strategy" in out.output and "Traceback" in out.output


@pytest.mark.parametrize("args, message", [
    (["run", "chess"], "unknown game 'chess': allowed are sixnimmt"),
    (["run", "sixnimmt", "-s", "nope"], "unknown strategy 'nope' for sixnimmt: allowed are"),
    (["run", "sixnimmt", "--set", "colour=red"], "unknown config field 'colour': allowed are advanced"),
    (["run", "sixnimmt", "-p", "11"], "--players 11 is not allowed for sixnimmt: allowed are 2 to 10"),
    (["run", "sixnimmt", "-p", "1"], "--players 1 is not allowed for sixnimmt: allowed are 2 to 10"),
    (["run", "sixnimmt", "--set", "rows=many"], "rows='many' is not a whole number"),
    (["run", "sixnimmt", "--set", "row_capacity=0"], "row_capacity=0 is out of range"),
    (["run", "sixnimmt", "--set", "tie_break=coin"], "tie_break='coin' is not allowed: allowed is one of"),
    (["run", "sixnimmt", "-p", "10", "--set", "hand_size=12"], "= 124 cards, but the deck has 104"),
    (["run", "sixnimmt", "-p", "3"] + ["-s", "random"] * 4, "4 strategies for 3 players: give at most 3"),
    (["run", "sixnimmt", "-p", "3,4"], "--players 3,4 is several player counts: `simkit run` plays one"),
    (["run", "sixnimmt", "-n", "0"], "--games 0 is not allowed"),
    (["run", "sixnimmt", "-s", "heuristic:depth=2"], "unknown parameter 'depth'"),
    (["run", "sixnimmt", "-n", "x"], "'x' is not a valid integer"),
])
def test_bad_input_gives_one_clear_line_and_nonzero_exit(cli, tmp_path, args, message):
    out = cli.invoke(main, args + ["--out", str(tmp_path / "never")])
    assert out.exit_code != 0
    assert message in out.output
    assert "Traceback" not in out.output
    assert not (tmp_path / "never" / "games.parquet").exists()


def test_existing_output_folder_is_refused(cli, tmp_path):
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "keep.txt").write_text("precious")
    out = cli.invoke(main, ["run", "sixnimmt", "-n", "5", "--out", str(tmp_path / "r")])
    assert out.exit_code != 0 and "already exists" in out.output
    assert (tmp_path / "r" / "keep.txt").read_text() == "precious"


def test_replay_prints_a_readable_log(cli, tmp_path):
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "3", "-n", "5", "--seed", "2", "-j", "1",
                            "--out", str(tmp_path / "r")])
    assert out.exit_code == 0
    out = cli.invoke(main, ["replay", str(tmp_path / "r"), "--game", "3"])
    assert out.exit_code == 0, out.output
    text = out.output
    for piece in ("Round 1", "seat 1 hand:", "Turn 1: reveal", "row 1:", "Round 1 bullheads", "Game over"):
        assert piece in text
    assert "seat 0" not in text and "seat 3 hand:" in text           # seats count from 1 in logs
    seats = pd.read_parquet(tmp_path / "r" / "seats.parquet")
    winners = seats[(seats.game == 3) & (seats.win > 0)].seat.tolist()   # 0-based, as Python
    names = " and ".join(f"seat {s + 1}" for s in winners)
    assert text.split("Game over:")[1].startswith(f" {names} ")
    bad = cli.invoke(main, ["replay", str(tmp_path / "r"), "--game", "99"])
    assert bad.exit_code != 0 and "--game 99 is out of range: the run has games 0 to 4" in bad.output


def test_replay_of_a_folder_without_manifest(cli, tmp_path):
    out = cli.invoke(main, ["replay", str(tmp_path), "--game", "0"])
    assert out.exit_code != 0 and "is not a run folder" in out.output


def test_duplicate_run_prints_the_paired_analysis(cli, tmp_path):
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "2", "-s", "heuristic", "-s", "random",
                            "-n", "40", "--duplicate", "--seed", "3", "-j", "1",
                            "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    assert "paired by deal" in out.output and "pentanomial" in out.output
    games = pd.read_parquet(tmp_path / "r" / "games.parquet")
    assert games.groupby("deal").size().eq(2).all()


def test_internal_error_keeps_finished_chunks_and_says_how_to_resume(cli, tmp_path, monkeypatch):
    import simkit.engine.runner as runner_mod
    real = runner_mod.write_chunk
    calls = {"n": 0}

    def failing(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("disk on fire")
        return real(*args, **kwargs)

    monkeypatch.setattr(runner_mod, "write_chunk", failing)
    out = cli.invoke(main, ["run", "sixnimmt", "-n", "50", "--chunk-size", "10", "-j", "1",
                            "--seed", "1", "--out", str(tmp_path / "r")])
    assert out.exit_code != 0 and isinstance(out.exception, RuntimeError)
    assert "20 finished games are saved" in out.output and "--resume" in out.output
    monkeypatch.setattr(runner_mod, "write_chunk", real)
    again = cli.invoke(main, ["run", "sixnimmt", "-n", "50", "--chunk-size", "10", "-j", "1",
                              "--seed", "1", "--out", str(tmp_path / "r"), "--resume"])
    assert again.exit_code == 0, again.output
    assert len(pd.read_parquet(tmp_path / "r" / "games.parquet")) == 50


@pytest.mark.parametrize("args", [["run", "chess"], ["sweep", "chess"], ["play", "chess"],
                                  ["strategies", "chess"], ["compare", "chess", "a", "b"]])
def test_unknown_game_is_one_line_and_exit_1_in_every_command(cli, args):
    out = cli.invoke(main, args)
    assert out.exit_code == 1
    # the generic tests register a toy game in-process: it is listed too when they are collected
    allowed = ", ".join(game_names())
    assert allowed.startswith("sixnimmt, trains, rummikub, shipside")
    assert out.output == f"Error: unknown game 'chess': allowed are {allowed}\n"


@pytest.mark.parametrize("command", [["run", "sixnimmt"], ["sweep", "sixnimmt"],
                                     ["compare", "sixnimmt", "random", "random"]])
def test_jobs_0_is_refused_before_anything_is_written(cli, tmp_path, command):
    out = cli.invoke(main, command + ["-n" if command[0] != "compare" else "--max-games", "4",
                                      "-j", "0", "--out", str(tmp_path / "never")])
    assert out.exit_code == 1
    assert "--jobs 0 is not allowed: use a positive count, or -1 for all cores" in out.output
    assert not (tmp_path / "never").exists()


@pytest.mark.parametrize("command", [["run", "sixnimmt"], ["sweep", "sixnimmt"],
                                     ["compare", "sixnimmt", "random", "random"],
                                     ["report", "."]])
def test_out_naming_a_file_is_a_clear_error(cli, tmp_path, command):
    afile = tmp_path / "notes.txt"
    afile.write_text("precious")
    out = cli.invoke(main, command + ["--out", str(afile)])
    assert out.exit_code == 2 and "Traceback" not in out.output
    assert f"Invalid value for '--out': Directory '{afile}' is a file" in out.output
    assert afile.read_text() == "precious"


def test_the_manifest_records_the_command_as_typed(cli, tmp_path, monkeypatch):
    args = ["run", "sixnimmt", "-n", "3", "--seed", "1", "-j", "1", "--set", "max_rounds=1",
            "--out", str(tmp_path / "my run")]
    monkeypatch.setattr("sys.argv", ["/usr/bin/simkit", *args])
    assert cli.invoke(main, args).exit_code == 0
    manifest = json.loads((tmp_path / "my run" / "manifest.json").read_text())
    assert manifest["command"] == (f"simkit run sixnimmt -n 3 --seed 1 -j 1 --set max_rounds=1 "
                                   f"--out '{tmp_path / 'my run'}'")


def test_run_without_players_uses_the_default_count(cli, tmp_path):
    out = cli.invoke(main, ["run", "shipside", "-n", "2", "--seed", "1", "-j", "1",
                            "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["n_players"] == 2


def test_interrupted_run_says_how_many_games_are_saved(cli, tmp_path, monkeypatch):
    import simkit.engine.runner as runner_mod
    real = runner_mod.write_chunk
    calls = {"n": 0}

    def interrupt_on_third_chunk(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(runner_mod, "write_chunk", interrupt_on_third_chunk)
    out = cli.invoke(main, ["run", "sixnimmt", "-n", "50", "--chunk-size", "10", "-j", "1",
                            "--seed", "1", "--out", str(tmp_path / "r")])
    assert out.exit_code == 130
    assert (f"interrupted: 20 finished games are saved in {tmp_path / 'r'}; finish with the same "
            f"command plus --resume --out {tmp_path / 'r'}") in out.output


def test_engine_batch_is_recorded_and_refused_where_it_cannot_play(cli, tmp_path):
    ok = cli.invoke(main, ["run", "sixnimmt", "-s", "lowest", "-n", "20", "-j", "1", "--seed", "1",
                           "--engine", "batch", "--set", "max_rounds=1", "--out", str(tmp_path / "b")])
    assert ok.exit_code == 0, ok.output
    assert json.loads((tmp_path / "b" / "manifest.json").read_text())["engine"] == "batch"
    bad = cli.invoke(main, ["run", "sixnimmt", "-s", "heuristic", "--engine", "batch",
                            "--out", str(tmp_path / "h")])
    assert bad.exit_code == 1 and "--engine batch cannot play this run" in bad.output


def test_a_reader_that_stops_early_gets_no_error_message():
    """`simkit strategies sixnimmt | head -1`: the broken pipe ends the command quietly."""
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "from simkit.cli import main; main()", "strategies",
                             "sixnimmt"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**__import__("os").environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout.readline().startswith(b"Strategies for sixnimmt")
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Error" not in err and "Traceback" not in err
