"""The start every study command shares (simkit/cli_study.py `study_start`): --resume needs
--out, the recorded seed on resume, the seed words, and the Ctrl-C hint that finishes the study."""

import json
import re

import pytest
from click.testing import CliRunner

import simkit.engine.runner as runner_mod
from simkit.cli import main
from simkit.cli_study import study_start
from simkit.engine.errors import ConfigError


@pytest.mark.parametrize("command, kind", [
    (["compare", "sixnimmt", "random", "lowest"], "compare"),
    (["ladder", "sixnimmt", "-s", "random", "-s", "lowest"], "ladder"),
    (["luck", "sixnimmt", "-s", "random", "-s", "lowest"], "luck study"),
    (["tune", "sixnimmt", "--vary", "rows=3,4", "--target", "length"], "tune"),
    (["run", "sixnimmt", "-n", "3"], "run"),
    (["sweep", "sixnimmt", "-n", "2", "--players", "3,4"], "sweep"),
])
def test_every_study_refuses_resume_without_its_folder_alike(command, kind):
    result = CliRunner().invoke(main, [*command, "--resume"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert f"--resume needs --out FOLDER: the {kind} folder to finish" in result.output


def test_the_seed_is_the_given_one_or_on_resume_the_recorded_one(tmp_path):
    (tmp_path / "tune.json").write_text(json.dumps({"seed": 77}))
    assert study_start("tune", tmp_path, True, None, listing="tune.json").seed == 77
    assert study_start("tune", tmp_path, True, 5, listing="tune.json").seed == 5
    drawn = study_start("tune", None, False, None)
    assert drawn.seed is None and not drawn.seed_given
    assert drawn.seed_words(123) == "seed 123 (drawn; --seed 123 repeats it)"
    assert study_start("tune", tmp_path, True, None, listing="tune.json").seed_words(77) == "seed 77"
    with pytest.raises(ConfigError, match="the tune folder to finish"):
        study_start("tune", None, True, None)
    assert study_start("luck study", None, False, 3).seed_words(3) == "seed 3"


def test_quiet_says_nothing(capsys):
    study_start("luck study", None, False, 3, quiet=True).say("not shown")
    study_start("luck study", None, False, 3).say("shown")
    err = capsys.readouterr().err
    assert "shown" in err and "not shown" not in err


def test_an_interrupted_luck_study_says_how_to_finish_and_finishes_with_that(tmp_path, monkeypatch):
    real = runner_mod.write_chunk

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner_mod, "write_chunk", interrupted)
    args = ["luck", "sixnimmt", "-p", "3", "-s", "random", "-s", "lowest", "-n", "3", "--set", "max_rounds=1",
            "-j", "1", "--no-progress", "--out", str(tmp_path / "l")]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 130
    seed = json.loads((tmp_path / "l" / "manifest.json").read_text())["seed"]
    assert f"seed {seed} (drawn; --seed {seed} repeats it)" in out.stderr
    assert f"interrupted: the finished games are saved in {tmp_path / 'l'}; finish with" in out.stderr
    hint = re.search(r"finish with the same command plus (.*)$", out.stderr, re.M).group(1)
    assert hint == f"--resume --out {tmp_path / 'l'} --seed {seed}"
    monkeypatch.setattr(runner_mod, "write_chunk", real)
    again = CliRunner().invoke(main, args[:-2] + hint.split())
    assert again.exit_code == 0, again.output
    fresh = CliRunner().invoke(main, args[:-2] + ["--out", str(tmp_path / "f"), "--seed", str(seed)])
    assert fresh.exit_code == 0, fresh.output
    assert (tmp_path / "l" / "luck.json").read_text() == (tmp_path / "f" / "luck.json").read_text()
