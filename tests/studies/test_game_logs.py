"""`simkit replay RUN --all`: the log of every game, one file per game or one file."""

import pytest
from click.testing import CliRunner

from simkit.cli import main


@pytest.fixture
def run_dir(tmp_path):
    out = CliRunner().invoke(main, ["run", "sixnimmt", "-p", "3", "-s", "heuristic", "-s", "random",
                                    "-n", "6", "--seed", "2", "-j", "1", "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    return tmp_path / "r"


def test_all_logs_one_file_per_game_match_the_single_replays(run_dir):
    cli = CliRunner()
    out = cli.invoke(main, ["replay", str(run_dir), "--all"])
    assert out.exit_code == 0, out.output
    assert f"6 game logs written to {run_dir / 'logs'} (one file per game)" in out.output
    files = sorted((run_dir / "logs").iterdir())
    assert [f.name for f in files] == [f"game-{i:06d}.txt" for i in range(6)]
    for i in (0, 5):
        single = cli.invoke(main, ["replay", str(run_dir), "--game", str(i)])
        assert files[i].read_text() == single.stdout.rstrip("\n") + "\n"
    again = cli.invoke(main, ["replay", str(run_dir), "--all"])
    assert again.exit_code == 1 and "exists: give a new target" in again.output


def test_all_logs_in_one_file(run_dir, tmp_path):
    out = CliRunner().invoke(main, ["replay", str(run_dir), "--all", "--to", str(tmp_path / "all.txt")])
    assert out.exit_code == 0, out.output
    text = (tmp_path / "all.txt").read_text()
    assert text.count(f"Game 0 of {run_dir} (seat 1: ") == 1 and "(seat 0: " not in text
    assert sum(text.count(f"Game {i} of ") for i in range(6)) == 6 and text.count("Game over") == 6


def test_a_game_that_replays_differently_gets_no_log(run_dir, monkeypatch):
    import pandas as pd
    seats = pd.read_parquet(run_dir / "seats.parquet")
    import simkit.studies.game_logs as logs_mod
    real = logs_mod.read_tables

    def tampered(*args, **kwargs):
        games, s = real(*args, **kwargs)
        s = s.copy()
        s.loc[s.game == 4, "score"] += 1
        return games, s

    monkeypatch.setattr(logs_mod, "read_tables", tampered)
    out = CliRunner().invoke(main, ["replay", str(run_dir), "--all"])
    assert out.exit_code == 1 and "5 game logs written" in out.output
    assert "1 games replay differently from their recorded rows and have no log (game 4: scores" in out.output
    assert not (run_dir / "logs" / "game-000004.txt").exists() and len(seats) == 18


@pytest.mark.parametrize("args, message", [
    (["--all", "--game", "1"], "--all writes every game's log: leave out --game and --position"),
    ([], "give --game N (one game's log) or --all (every game's log)"),
    (["--game", "1", "--to", "x.txt"], "--to goes with --all (the log of one game is printed)"),
])
def test_replay_option_mistakes(run_dir, args, message):
    out = CliRunner().invoke(main, ["replay", str(run_dir), *args])
    assert out.exit_code == 1 and out.output == f"Error: {message}\n"


def test_a_forfeit_is_named_by_the_seat_number_people_read():
    from types import SimpleNamespace

    from simkit.studies.game_logs import forfeit_line

    assert forfeit_line(SimpleNamespace(forfeit=1, error="boom")) == "Seat 2 forfeited: boom"
    assert forfeit_line(SimpleNamespace(forfeit=0, error="x")) == "Seat 1 forfeited: x"
    assert forfeit_line(SimpleNamespace(forfeit=-1, error="")) is None
