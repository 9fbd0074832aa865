"""What a new user tripped over (issue 24): joblib's warning after an early SPRT stop, no
"did you mean" for a mistyped name, progress without a rate, and deals reused across player counts."""

import io
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.deals import Deals, read_deals
from simkit.engine.runner import Progress, bar_text


@pytest.fixture
def cli():
    return CliRunner()


def test_an_early_sprt_stop_prints_no_joblib_warning(tmp_path):
    # a subprocess: its stderr is what the user sees, outside pytest's own capture of warnings
    proc = subprocess.run([sys.executable, "-m", "simkit", "compare", "sixnimmt", "heuristic", "random",
                           "-p", "4", "--seed", "3", "--jobs", "2", "--sprt", "0,300,0.2,0.2", "--batch", "8",
                           "--out", str(tmp_path / "c")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "stopped early" in proc.stdout
    assert "tasks" not in proc.stderr and "Warning" not in proc.stderr


@pytest.mark.parametrize("args, message", [
    (["run", "sixnimt"], "unknown game 'sixnimt': allowed are "),
    (["run", "sixnimmt", "-s", "heuristc"], "unknown strategy 'heuristc' for sixnimmt: allowed are "),
    (["run", "sixnimmt", "--set", "advnced=true"], "unknown config field 'advnced': allowed are "),
    (["run", "sixnimmt", "-s", "heuristic:cautin=1"], "unknown parameter 'cautin'; allowed are "),
])
def test_a_mistyped_name_gets_a_suggestion(cli, tmp_path, args, message):
    out = cli.invoke(main, [*args, "-n", "2", "--out", str(tmp_path / "r")])
    assert out.exit_code == 1
    line, = out.output.splitlines()
    assert line.startswith("Error: ") and message in line
    suggestion = {"sixnimt": "sixnimmt", "heuristc": "heuristic", "advnced": "advanced", "cautin": "caution"}
    typo = next(word for word in suggestion if word in line)
    assert line.endswith(f"; did you mean {suggestion[typo]!r}?")


@pytest.mark.parametrize("args", [["run", "chess"], ["run", "sixnimmt", "-s", "alphazero"]])
def test_a_far_off_name_gets_the_list_but_no_suggestion(cli, args):
    out = cli.invoke(main, args)
    assert out.exit_code == 1 and "allowed are" in out.output
    assert "did you mean" not in out.output


def test_the_bar_text_has_the_rate_and_the_status():
    assert bar_text(340.4, None) == "340 games/s"
    assert bar_text(1234.4, "LLR 1.20") == "LLR 1.20 | 1,234 games/s"
    assert bar_text(None, None) == "" and bar_text(None, "LLR 0.00") == "LLR 0.00"


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_bar_on_a_terminal_shows_games_per_second(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    display = Progress(10, 0, None, label="games")
    display.update(4)
    display.update(6)
    display.close()
    assert display.bar is not None
    assert re.search(r"10/10 .* [\d,]+ games/s", terminal.getvalue())


def test_replay_all_shows_progress_unless_turned_off(cli, tmp_path, monkeypatch):
    run = ["run", "sixnimmt", "-n", "6", "--seed", "1", "-j", "1", "-q", "--out", str(tmp_path / "r")]
    assert cli.invoke(main, run).exit_code == 0
    monkeypatch.setattr(Progress, "INTERVAL", 0.0)      # off a terminal: a plain line per game
    out = cli.invoke(main, ["replay", str(tmp_path / "r"), "--all", "--to", str(tmp_path / "a.txt")])
    assert out.exit_code == 0, out.output
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("replay: ")]
    assert lines[0].startswith("replay: 1/6 games (16.7%), ") and "games/s" in lines[0]
    assert lines[-1].startswith("replay: 6/6 games (100.0%)")
    quiet = cli.invoke(main, ["replay", str(tmp_path / "r"), "--all", "--no-progress",
                              "--to", str(tmp_path / "b.txt")])
    assert quiet.exit_code == 0 and "replay: " not in quiet.stderr
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "b.txt").read_text()


def test_deals_of_a_5_player_run_are_refused_for_4_players(cli, tmp_path):
    first = cli.invoke(main, ["run", "sixnimmt", "-p", "5", "-n", "4", "--seed", "2", "-j", "1", "-q",
                              "--out", str(tmp_path / "p5")])
    assert first.exit_code == 0
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "4", "--deals", str(tmp_path / "p5"), "-j", "1",
                            "--out", str(tmp_path / "p4")])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert out.output == ("Error: --players 4 differs from the deals' 5 players: the same deals give other "
                          "cards to another player count (give -p 5)\n")
    assert not (tmp_path / "p4").exists()
    same = cli.invoke(main, ["run", "sixnimmt", "-p", "5", "--deals", str(tmp_path / "p5"), "-j", "1", "-q",
                             "--out", str(tmp_path / "again")])
    assert same.exit_code == 0, same.output


def test_a_deals_file_may_name_its_player_count(cli, tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text(Deals(seed=5, count=3, players=5).text())
    assert read_deals(deals).players == 5
    out = cli.invoke(main, ["sweep", "sixnimmt", "-p", "4,5", "--deals", str(deals), "-j", "1",
                            "--out", str(tmp_path / "s")])
    assert out.exit_code == 1 and "--players 4 differs from the deals' 5 players" in out.output
    deals.write_text("seed 5\ndeals 3\nplayers 0\n")
    bad = cli.invoke(main, ["run", "sixnimmt", "--deals", str(deals)])
    assert bad.exit_code == 1 and "line 3: players 0 is not allowed: at least 1" in bad.output


@pytest.mark.parametrize("args, tipped", [
    ([], True),                           # the default engine, a kernel form for every seat
    (["--engine", "scalar"], False),      # the user chose the scalar engine
    (["-s", "random", "-s", "mc"], False),  # a search seat: no kernel form
    (["-n", "19"], False),                # under the threshold
])
def test_a_large_run_on_the_default_engine_suggests_the_kernel(cli, tmp_path, monkeypatch, args, tipped):
    """A 200,000-game study left on the default scalar engine took minutes where `--engine
    kernel` plays the same games in seconds: the header says so when the kernel can play it."""
    import simkit.cli as cli_module
    monkeypatch.setattr(cli_module, "KERNEL_TIP_GAMES", 20)
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "2", "-n", "20", "--seed", "1", "--jobs", "1",
                            "--set", "max_rounds=1", *args, "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    assert ("tip: --engine kernel plays these same games" in out.output) is tipped


@pytest.mark.parametrize("compiles", [True, False])
def test_a_kernel_run_that_compiles_first_says_so(cli, tmp_path, monkeypatch, compiles):
    """A first kernel run waits up to half a minute for numba before its first game (its rate
    and ETA meanwhile look wrong): the header says why, and only when it compiles."""
    from simkit.engine import compile_aside
    monkeypatch.setattr(compile_aside, "compiles_first", lambda spec: compiles)
    out = cli.invoke(main, ["run", "shipside", "-s", "random", "-n", "4", "--seed", "1", "--jobs", "1",
                            "--engine", "kernel", "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    assert ("compiling the Shipside kernel first" in out.output) is compiles
