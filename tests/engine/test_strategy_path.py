"""`-s module:Class` finds a module in the current folder without PYTHONPATH (README example),
in the main process and in loky workers."""

import subprocess
import sys

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine import strategy as strategy_mod

README_BOT = '''
from simkit.engine.strategy import Strategy

class Cautious(Strategy):
    name = "cautious"
    description = "Plays its lowest card."

    def __init__(self, margin: int = 0):
        self.margin = margin

    def act(self, decision):
        return min(decision.legal_actions, key=lambda a: getattr(a, "row", a))
'''


@pytest.fixture
def bot_folder(tmp_path, monkeypatch):
    """A folder holding a uniquely named bot module, made the current folder; cleaned up after."""
    name = f"mybots_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(README_BOT)
    monkeypatch.chdir(tmp_path)
    before = list(sys.path)
    yield tmp_path, name
    sys.path[:] = before
    sys.modules.pop(name, None)
    strategy_mod._FOUND_IN.pop(name, None)
    for key in [k for k in strategy_mod._CLASS_CACHE if k.startswith(name)]:
        del strategy_mod._CLASS_CACHE[key]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_module_in_the_current_folder_is_found(bot_folder, jobs):
    folder, name = bot_folder
    assert str(folder) not in sys.path
    out = CliRunner().invoke(main, ["run", "sixnimmt", "-p", "4", "-s", f"{name}:Cautious:margin=2",
                                    "-s", "random", "-s", "random", "-s", "random", "-n", "40",
                                    "--seed", "5", "-j", jobs, "--out", str(folder / "r")])
    assert out.exit_code == 0, out.output
    seats = pd.read_parquet(folder / "r" / "seats.parquet")
    assert seats.strategy.str.startswith(name).sum() == 40
    assert (seats.forfeit == 0).all()          # the workers found the module too


def test_unknown_module_names_the_current_folder(bot_folder):
    out = CliRunner().invoke(main, ["run", "sixnimmt", "-s", "nosuchbots_xyz:Bot", "-n", "4"])
    assert out.exit_code == 1
    assert "cannot import strategy module 'nosuchbots_xyz'" in out.output
    assert "current folder" in out.output and "Traceback" not in out.output


@pytest.mark.slow
def test_readme_example_as_printed_in_a_fresh_process(tmp_path):
    (tmp_path / "mybots.py").write_text(README_BOT)
    # -P: the interpreter does not put the current folder on sys.path (as the simkit script)
    env_cmd = [sys.executable, "-P", "-c", "from simkit.cli import main; main()", "run", "sixnimmt",
               "-s", "mybots:Cautious", "-s", "random", "-s", "random", "-s", "random",
               "-n", "40", "-j", "2", "--seed", "1", "--out", "r", "--no-progress"]
    done = subprocess.run(env_cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"})
    assert done.returncode == 0, done.stderr
    assert "mybots:Cautious" in done.stdout
    assert (pd.read_parquet(tmp_path / "r" / "seats.parquet").forfeit == 0).all()
