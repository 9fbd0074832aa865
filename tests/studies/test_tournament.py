"""`simkit tournament`: round robin or gauntlet through the ladder library, with a crosstable."""

import json
import re

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main


def test_round_robin_crosstable(tmp_path):
    out = tmp_path / "t"
    res = CliRunner().invoke(main, ["tournament", "sixnimmt", "-p", "2", "-s", "heuristic", "-s", "lowest",
                                    "-s", "random", "-n", "30", "--seed", "3", "-j", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    table = pd.read_csv(out / "crosstable.csv", index_col="agent")
    agents = ["heuristic", "lowest", "random"]
    assert list(table.index) == agents
    plan = json.loads((out / "ladder.json").read_text())
    assert len(plan["pairs"]) == 3
    for pair in plan["pairs"]:
        a, b = pair["a"], pair["b"]
        assert table.loc[a, b] + table.loc[b, a] == pytest.approx(1.0)
        # 2 players: A's pairwise score is its share of the wins in that pairing's games
        seats = pd.read_parquet(out / "pairs" / pair["folder"] / "seats.parquet")
        assert table.loc[a, b] == pytest.approx(seats[seats.strategy == a].win.mean())
    others = table.loc["heuristic", ["lowest", "random"]]
    assert table.loc["heuristic", "mean"] == pytest.approx(others.mean())
    assert table.loc["heuristic", "rank"] == 1
    header, *rows = res.stdout.splitlines()
    assert header.split() == ["1", "2", "3", "mean", "rank"]
    assert rows[0].startswith("1. heuristic") and rows[0].split()[2] == "-"
    assert f"{100 * table.loc['heuristic', 'lowest']:.1f}%" in rows[0]
    # the report: the crosstable with every cell's 95% interval, in HTML and Markdown
    assert rows[-1] == f"report: {out / 'tournament.html'}"
    page = (out / "tournament.html").read_text()
    assert 'id="crosstable"' in page and (out / "tournament.md").exists()
    assert re.search(rf"{100 * table.loc['heuristic', 'lowest']:.1f}% \(\d+\.\d–\d+\.\d%\)", page)


def test_gauntlet_leaves_unplayed_pairs_empty(tmp_path):
    out = tmp_path / "g"
    res = CliRunner().invoke(main, ["tournament", "sixnimmt", "-p", "2", "-s", "heuristic", "-s", "lowest",
                                    "-s", "random", "-n", "10", "--seed", "3", "-j", "1",
                                    "--format", "gauntlet", "--out", str(out)])
    assert res.exit_code == 0, res.output
    table = pd.read_csv(out / "crosstable.csv", index_col="agent")
    assert pd.isna(table.loc["lowest", "random"]) and pd.notna(table.loc["heuristic", "random"])
    assert len(json.loads((out / "ladder.json").read_text())["pairs"]) == 2


@pytest.mark.parametrize("args, message", [
    (["-s", "heuristic"], "a tournament needs at least 2 strategies, got 1"),
    (["-s", "random", "-s", "random"], "agent 'random' is given twice"),
    (["-s", "random", "-s", "nope"], "unknown strategy 'nope' for sixnimmt"),
    (["-s", "random", "-s", "lowest", "--resume"], "--resume needs --out FOLDER"),
])
def test_tournament_mistakes_are_one_line(tmp_path, args, message):
    res = CliRunner().invoke(main, ["tournament", "sixnimmt", *args])
    assert res.exit_code == 1 and message in res.output and len(res.output.splitlines()) == 1
