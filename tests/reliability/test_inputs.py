"""Inputs are never silently reinterpreted, and huge counts are refused before any work:
each case is one clear line and a non-zero exit, printed before any header."""

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.chunks import MAX_GAMES, chunk_count, chunk_range, games_in_chunks, max_jobs
from simkit.engine.config import parse_set_options
from simkit.engine.errors import ConfigError

RUN = ["run", "sixnimmt", "-p", "3", "-s", "random", "-n", "6", "--seed", "1", "-j", "1", "--no-progress"]


@pytest.fixture
def cli():
    return CliRunner()


CASES = {
    "repeated --set": (["--set", "rows=3", "--set", "rows=5"], "--set rows is given twice"),
    "huge -n": (["-n", "10000000000000"], "at most 1,000,000,000"),
    "jobs beyond bound": (["-j", str(max_jobs() + 1)], f"at most {max_jobs()}"),
    "scheduler without dask": (["--scheduler", "tcp://127.0.0.1:8786"], "needs --backend dask"),
    "duplicate with fixed seating": (["--duplicate", "--seating", "fixed"], "cannot be combined"),
    "duplicate with random seating": (["--duplicate", "--seating", "random"], "cannot be combined"),
    "strategy of another game": (["-s", "strategies.trains.baseline:RandomStrategy"], "is a trains strategy"),
    "huge chunk size": (["--chunk-size", "10000000000"], "--chunk-size 10000000000 is not allowed"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_run_options_are_one_line_and_nothing_is_written(cli, tmp_path, case):
    extra, message = CASES[case]
    out_dir = tmp_path / "r"
    args = list(RUN)
    if extra[0] == "-s":
        args = [a for a in args if a not in ("-s", "random")]
    result = cli.invoke(main, [*args, *extra, "--out", str(out_dir)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and message in result.output
    assert "6 nimmt!:" not in result.output           # no header before the refusal
    assert not out_dir.exists()


def test_an_existing_folder_is_refused_before_the_header(cli, tmp_path):
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "x").write_text("mine")
    result = cli.invoke(main, [*RUN, "--out", str(tmp_path / "r")])
    assert result.exit_code == 1 and "already exists" in result.output
    assert "6 nimmt!:" not in result.output


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_nan_and_inf_are_refused_for_numbers(cli, tmp_path, value):
    from simkit.engine.config import parse_value
    with pytest.raises(ConfigError, match="finite number"):
        parse_value(value, float, "weight")
    result = cli.invoke(main, ["compare", "sixnimmt", "random", "random", "--sprt", f"0,{value},0.05,0.05",
                               "--out", str(tmp_path / "c")])
    assert result.exit_code == 2 and "finite number" in result.output


def test_nan_inside_a_json_value_is_refused(cli, tmp_path):
    result = cli.invoke(main, ["run", "shipside", "-n", "2", "-j", "1", "--out", str(tmp_path / "r"),
                               "--set", "ships.defenses=[28, NaN, 32, 34, 36]"])
    assert result.exit_code == 1 and "numbers must be finite" in result.output


def test_non_integer_dict_keys_are_one_line(cli, tmp_path):
    result = cli.invoke(main, ["run", "shipside", "-n", "2", "-j", "1", "--out", str(tmp_path / "r"),
                               "--set", 'deck.values={"a":1}'])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "deck.values: key 'a' is not allowed: the keys are whole numbers" in result.output


def test_repeated_set_key_in_the_library():
    assert parse_set_options(["rows=3", "advanced=true"]) == {"rows": "3", "advanced": "true"}
    with pytest.raises(ConfigError, match=r"--set rows is given twice \('3' and '5'\)"):
        parse_set_options(["rows=3", " rows = 5"])


def test_compare_with_a_huge_max_games_is_refused_at_once(cli, tmp_path):
    result = cli.invoke(main, ["compare", "sixnimmt", "random", "random", "--max-games",
                               "1000000000000", "--out", str(tmp_path / "c")])
    assert result.exit_code == 1 and "at most 1,000,000,000" in result.output
    assert not (tmp_path / "c").exists()


def test_chunks_are_planned_lazily_up_to_the_maximum():
    n_chunks = chunk_count(MAX_GAMES, 1)               # a billion chunks: computed, never listed
    assert n_chunks == MAX_GAMES
    assert chunk_range(n_chunks - 1, MAX_GAMES, 1) == (MAX_GAMES - 1, MAX_GAMES)
    assert chunk_range(3, 23, 5) == (15, 20) and chunk_range(4, 23, 5) == (20, 23)
    assert games_in_chunks([0, 4], 23, 5) == 8


def test_the_same_game_strategies_still_load_by_module_path(cli, tmp_path):
    args = [a for a in RUN if a not in ("-s", "random")]
    result = cli.invoke(main, [*args, "-s", "strategies.sixnimmt.baseline:RandomStrategy",
                               "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
