"""`--deals FILE`: two studies play the same deals (a deals file, or a run folder)."""

import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.deals import Deals, read_deals
from simkit.engine.errors import ConfigError
from simkit.engine.runner import replay_game


@pytest.fixture
def cli():
    return CliRunner()


def _first_hands(run_dir, games):
    """The cards seat 0 held at the start of each game (the deal), from the replayed state."""
    out = []
    for g in games:
        state, _, _ = replay_game(run_dir, g, 0)
        out.append(tuple(sorted(state.observe(0).hand)))
    return out


def test_two_studies_with_one_deals_file_play_the_same_deals(cli, tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text(Deals(seed=4242, count=12).text())
    common = ["-p", "3", "-j", "1", "--deals", str(deals), "--seating", "fixed"]
    a = cli.invoke(main, ["run", "sixnimmt", "-s", "heuristic", *common, "--out", str(tmp_path / "a")])
    b = cli.invoke(main, ["run", "sixnimmt", "-s", "lowest", *common, "--out", str(tmp_path / "b")])
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    ma = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert ma["seed"] == 4242 and ma["n_games"] == 12
    assert _first_hands(tmp_path / "a", range(12)) == _first_hands(tmp_path / "b", range(12))
    assert _first_hands(tmp_path / "a", [0]) != _first_hands(tmp_path / "a", [1])
    # a duplicate study on the same deals: deal d is game d of the plain run, once per rotation
    d = cli.invoke(main, ["run", "sixnimmt", "-s", "random", "-p", "3", "-j", "1", "--deals", str(deals),
                          "--duplicate", "--out", str(tmp_path / "d")])
    assert d.exit_code == 0, d.output
    games = pd.read_parquet(tmp_path / "d" / "games.parquet")
    assert len(games) == 36 and games.deal.max() == 11
    assert _first_hands(tmp_path / "d", [0, 3, 33]) == _first_hands(tmp_path / "a", [0, 1, 11])
    # the run folder itself names the same deals
    assert read_deals(tmp_path / "a") == read_deals(deals) == read_deals(tmp_path / "d")


@pytest.mark.parametrize("text, message", [
    ("seed 1\n", "no 'deals N' line"),
    ("deals 5\n", "no 'seed N' line"),
    ("seed x\ndeals 5\n", "line 1: 'x' is not a whole number"),
    ("seed 1\ndeals 5\ncolour red\n", "line 3: 'colour red' is not allowed"),
    ("seed 1\ndeals 0\n", "deals 0 is not allowed: at least 1"),
    ("seed -1\ndeals 3\n", "--seed -1 is not allowed"),
])
def test_malformed_deals_files_are_one_line_errors(cli, tmp_path, text, message):
    deals = tmp_path / "deals.txt"
    deals.write_text(text)
    with pytest.raises(ConfigError, match=message):
        read_deals(deals)
    out = cli.invoke(main, ["run", "sixnimmt", "--deals", str(deals), "--out", str(tmp_path / "x")])
    assert out.exit_code == 1 and message in out.output and "Traceback" not in out.output
    assert not (tmp_path / "x").exists()


def test_deals_conflicts_are_refused(cli, tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text("seed 5\ndeals 10\n")
    out = cli.invoke(main, ["run", "sixnimmt", "--deals", str(deals), "--seed", "6"])
    assert out.exit_code == 1 and "--seed 6 differs from the deals' seed 5" in out.output
    out = cli.invoke(main, ["run", "sixnimmt", "--deals", str(deals), "-n", "11"])
    assert out.exit_code == 1 and "--games 11 needs 11 deals, the deals file has 10" in out.output
    out = cli.invoke(main, ["run", "sixnimmt", "--deals", str(tmp_path)])
    assert out.exit_code == 1 and "must be a run folder" in out.output
    fewer = cli.invoke(main, ["run", "sixnimmt", "--deals", str(deals), "-n", "4", "-j", "1",
                              "--out", str(tmp_path / "r")])
    assert fewer.exit_code == 0
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["n_games"] == 4


def test_sweep_on_a_deals_file(cli, tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text("seed 77\ndeals 6\n")
    out = cli.invoke(main, ["sweep", "sixnimmt", "-p", "3,4", "--deals", str(deals), "-j", "1",
                            "--out", str(tmp_path / "s")])
    assert out.exit_code == 0, out.output
    for cell in ("p3", "p4"):
        m = json.loads((tmp_path / "s" / cell / "manifest.json").read_text())
        assert m["seed"] == 77 and m["n_games"] == 6


@pytest.mark.parametrize("listed, ranges, count", [
    ("0-499, 1000-1499", ((0, 499), (1000, 1499)), 1000),
    ("12-20, 3, 7", ((3, 3), (7, 7), (12, 20)), 11),
    ("0-4, 5-9", None, 10),                          # adjacent ranges join: the first 10
    ("0-4, 6-9", ((0, 4), (6, 9)), 9),
    ("5-5", ((5, 5),), 1),
])
def test_a_deals_file_can_name_which_deals(tmp_path, listed, ranges, count):
    deals = tmp_path / "deals.txt"
    deals.write_text(f"seed 9\ndeals {listed}  # a comment\n")
    read = read_deals(deals)
    assert read.seed == 9 and read.count == count and read.ranges == ranges
    again = tmp_path / "again.txt"
    again.write_text(read.text())
    assert read_deals(again) == read                 # the written form reads back the same


def test_the_first_deals_named_as_a_range_are_the_first_deals(cli, tmp_path):
    by_count, by_range = tmp_path / "count.txt", tmp_path / "range.txt"
    by_count.write_text("seed 3\ndeals 6\n")
    by_range.write_text("seed 3\ndeals 0-2, 3-5\n")
    assert read_deals(by_range).first_only and read_deals(by_count).first_only
    assert read_deals(by_range).text() == read_deals(by_count).text()
    for name, path in (("a", by_count), ("b", by_range)):
        out = cli.invoke(main, ["run", "sixnimmt", "-p", "3", "-j", "1", "--deals", str(path),
                                "--out", str(tmp_path / name)])
        assert out.exit_code == 0, out.output
    assert _first_hands(tmp_path / "a", range(6)) == _first_hands(tmp_path / "b", range(6))


@pytest.mark.parametrize("value, message", [
    ("10-5", "line 2: '10-5' is not allowed: deal numbers start at 0 and a range runs upwards"),
    ("0-10, 5-7", "line 2: deal 5 is named twice (0-10 and 5-7 overlap)"),
    ("0-4, x", "line 2: 'x' is not a deal number or a range like 1000-1499"),
    ("-3", "line 2: '-3' is not a deal number or a range"),
    ("", "line 2: 'deals' needs a count or a list of deals"),
    ("1-2-3", "line 2: '1-2-3' is not a deal number or a range"),
    ("5-9223372036854775808", "line 2: '5-9223372036854775808' is not allowed: deal numbers go up to"),
])
def test_malformed_deal_lists_are_one_line_errors(cli, tmp_path, value, message):
    deals = tmp_path / "deals.txt"
    deals.write_text(f"seed 1\ndeals {value}\n")
    with pytest.raises(ConfigError, match=re.escape(message)):
        read_deals(deals)
    out = cli.invoke(main, ["run", "sixnimmt", "--deals", str(deals), "--out", str(tmp_path / "x")])
    assert out.exit_code == 1 and message in out.output and "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1


def test_a_chosen_subset_is_played_and_more_games_than_it_lists_are_refused(cli, tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text("seed 1\ndeals 0-4, 1000-1002\n")
    out = cli.invoke(main, ["run", "sixnimmt", "--deals", str(deals), "-n", "9",
                            "--out", str(tmp_path / "x")])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "--games 9 needs 9 deals, the deals file has 8" in out.output
    assert not (tmp_path / "x").exists()
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "3", "-j", "1", "--deals", str(deals),
                            "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["n_games"] == 8 and manifest["deal_numbers"] == [[0, 4], [1000, 1002]]
    games = pd.read_parquet(tmp_path / "r" / "games.parquet")
    assert games.deal.tolist() == [0, 1, 2, 3, 4, 1000, 1001, 1002]
