"""`--deals FILE`: two studies play the same deals (a deals file, or a run folder)."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.core.deals import Deals, read_deals
from simkit.core.errors import ConfigError
from simkit.core.runner import replay_game


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
