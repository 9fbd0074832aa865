"""What a new user tripped over (issue 24): joblib's warning after an early SPRT stop, no
"did you mean" for a mistyped name, progress without a rate, and deals reused across player counts."""

import subprocess
import sys

import pytest
from click.testing import CliRunner

from simkit.cli import main


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
