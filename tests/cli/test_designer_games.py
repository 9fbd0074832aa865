"""`simkit luck` and `simkit tune` on every game from the command line, at the smallest size that
still checks the whole path: the run, luck.json / tune.json, and both pages (Markdown and HTML).
Two players, the random bot against a cheap heuristic (search agents are slow); Rummikub's first
solve may compile its kernel, so every case allows decisions a generous time."""

import json

import pytest
from click.testing import CliRunner

from simkit.cli import main

#: game -> (a cheap heuristic, a rule field and two values to tune)
GAMES = {
    "sixnimmt": ("heuristic", "rows=3,4"),
    "trains": ("greedy", "max_turns=20,40"),
    "shipside": ("greedy", "end.points_to_win=3,4"),
    "rummikub": ("simple", "initial_meld_points=20,30"),
}
COMMON = ["-p", "2", "--seed", "5", "-j", "1", "--no-progress", "--decision-timeout", "600"]


@pytest.mark.parametrize("game", list(GAMES))
def test_luck_runs_on_every_game_and_writes_both_pages(tmp_path, game):
    bot, _ = GAMES[game]
    out = tmp_path / "luck"
    result = CliRunner().invoke(main, ["luck", game, "-s", "random", "-s", bot, "-n", "2", *COMMON,
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "luck.json").read_text())
    assert data["agents"] == ["random", bot] and data["win"]["deals"] + data["deals_left_out"] == 2
    assert sum(s["value"] for s in data["win"]["shares"].values()) == pytest.approx(1.0)
    assert "is decided by the deal" in result.output
    for page in ("luck.md", "luck.html"):
        text = (out / page).read_text()
        assert "is decided by the deal" in text and "What the figures mean" in text


@pytest.mark.parametrize("game", list(GAMES))
def test_tune_runs_on_every_game_and_writes_both_pages(tmp_path, game):
    _, vary = GAMES[game]
    field, values = vary.split("=")
    out = tmp_path / "tune"
    result = CliRunner().invoke(main, ["tune", game, "-s", "random", "--vary", vary, "--target", "length",
                                       "--budget", "8", "--confirm", "4", *COMMON, "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "tune.json").read_text())
    assert data["recommended"][field] in values.split(",")
    assert [s["field"] for s in data["sensitivity"]] == [field]      # the other value, one step away
    assert data["confirm"]["games"] == 4
    for page in ("tune.md", "tune.html"):
        text = (out / page).read_text()
        assert f"Recommended: {field}=" in text and "What the figures mean" in text
