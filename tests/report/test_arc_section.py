"""The game's arc in the run report (issue 22): its section, table, chart and CSVs."""

import pandas as pd
from click.testing import CliRunner

from simkit.cli import main


def test_a_run_with_rounds_gets_the_arc_section_and_its_tables(tmp_path):
    run = tmp_path / "run"
    played = CliRunner().invoke(main, ["run", "sixnimmt", "-p", "3", "-s", "heuristic", "-s", "random",
                                       "-n", "60", "--seed", "8", "-j", "1", "--no-progress", "-q",
                                       "--out", str(run)])
    assert played.exit_code == 0, played.output
    made = CliRunner().invoke(main, ["report", str(run), "--out", str(tmp_path / "rep")])
    assert made.exit_code == 0, made.output
    rep = tmp_path / "rep"
    page = (rep / "report.html").read_text()
    assert "The game&#x27;s arc" in page or "The game's arc" in page
    assert 'alt="lead margin after each round chart"' in page
    md = (rep / "summary.md").read_text()
    assert "| lead changes |" in md and "| drama |" in md and "Decided at" in md   # row and glossary
    games = pd.read_parquet(run / "games.parquet")
    arc = pd.read_csv(rep / "tables" / "run" / "arc_games.csv")
    # one row per finished game, its length the rounds the game played
    assert arc["game"].tolist() == games["game"].tolist()
    assert arc["length"].tolist() == games["rounds"].tolist()
    margins = pd.read_csv(rep / "tables" / "run" / "lead_margins.csv")
    assert set(margins["strategy"]) == {"heuristic", "random"}
    assert (margins["low"] <= margins["mean"]).all() and (margins["mean"] <= margins["high"]).all()


def test_a_game_without_running_scores_has_no_arc_section(tmp_path):
    run = tmp_path / "ship"
    CliRunner().invoke(main, ["run", "shipside", "-s", "random", "-n", "20", "--seed", "1", "-j", "1",
                              "--no-progress", "-q", "--out", str(run)])
    made = CliRunner().invoke(main, ["report", str(run), "--out", str(tmp_path / "rep")])
    assert made.exit_code == 0, made.output
    assert "arc_games.csv" not in {p.name for p in (tmp_path / "rep" / "tables" / "ship").iterdir()}
    assert (tmp_path / "rep" / "tables" / "ship" / "summary.csv").exists()
