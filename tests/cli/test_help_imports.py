"""`simkit --help` starts quickly (issue 21: <= 0.5 s): the CLI modules import neither NumPy
nor numba until a command runs, and the choices they spell out agree with the engine's."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from simkit import cli_options
from simkit.cli import main
from simkit.engine import spec


def test_the_cli_imports_no_numpy_and_no_numba():
    code = ("import sys; import simkit.cli; "
            "heavy = [m for m in ('numpy', 'numba', 'pandas', 'pyarrow') if m in sys.modules]; "
            "assert not heavy, heavy")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_spelt_out_choices_are_the_engines():
    assert cli_options.SEATINGS == spec.SEATINGS
    assert cli_options.ENGINES == spec.ENGINES


def test_an_unknown_game_is_still_a_one_line_error():
    result = CliRunner().invoke(main, ["run", "nogame", "-n", "3"])
    assert result.exit_code != 0
    assert "unknown game 'nogame'" in result.output
    assert "Traceback" not in result.output
