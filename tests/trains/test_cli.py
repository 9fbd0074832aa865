"""End to end through the CLI: a Trains run with a rule override, then `simkit replay`."""

import pandas as pd
from click.testing import CliRunner

from simkit.cli import main


def test_run_and_replay_a_trains_game(tmp_path):
    out = tmp_path / "run"
    runner = CliRunner()
    res = runner.invoke(main, ["run", "trains", "--players", "3", "-s", "greedy", "-s", "random",
                               "-s", "rival", "-n", "12", "--seed", "5", "--jobs", "1",
                               "--set", "max_turns=40", "--out", str(out)])
    assert res.exit_code == 0, res.output
    games = pd.read_parquet(out / "games.parquet")
    assert {"turns", "capped", "start_seat", "reshuffles"} <= set(games.columns)
    assert (games["turns"] <= 40).all()
    assert (games["capped"] == (games["draw"])).all()      # T15: only the cap gives a draw
    res = runner.invoke(main, ["replay", str(out), "--game", "3"])
    assert res.exit_code == 0, res.output
    assert "Game of Trains: 3 players" in res.output
    assert "Turn 1: P" in res.output and "Final trains:" in res.output


def test_bad_override_names_the_field(tmp_path):
    res = CliRunner().invoke(main, ["run", "trains", "--players", "2", "-s", "random", "-n", "2",
                                    "--set", "effect_table=weird", "--out", str(tmp_path / "x")])
    assert res.exit_code != 0 and "effect_table" in res.output
