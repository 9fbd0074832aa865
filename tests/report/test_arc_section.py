"""The game's arc in the run report (issue 22): its section, table, chart and CSVs."""

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.chunk_index import file_sha256
from simkit.engine.records import read_manifest, write_manifest


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


def _ship_run(folder, n_games: int = 20, **options):
    from simkit.engine.runner import RunSpec, run

    spec = RunSpec.create("shipside", 2, ["greedy", "random"], n_games, seed=1)
    return run(spec, folder, jobs=1, progress=False, **options)


def test_a_shipside_run_gets_the_arc_of_its_points_round_by_round(tmp_path):
    """Shipside records its points after each round of turns (`running_score`): the arc's length
    is the rounds the game lasted, its drama in points."""
    _ship_run(tmp_path / "ship")
    made = CliRunner().invoke(main, ["report", str(tmp_path / "ship"), "--out", str(tmp_path / "rep")])
    assert made.exit_code == 0, made.output
    games = pd.read_parquet(tmp_path / "ship" / "games.parquet")
    arc = pd.read_csv(tmp_path / "rep" / "tables" / "ship" / "arc_games.csv")
    won = games[~games["draw"]]
    assert arc["game"].tolist() == won["game"].tolist()                 # a draw has no arc
    # `turns`: the turns begun and ended; a game that ends in a turn (S53) played one more
    played = won["turns"] + ~won["end_reason"].isin(["turn cap", "stuck"])
    assert arc["length"].tolist() == (-(-played // 2)).tolist()      # rounds, the last cut short
    md = (tmp_path / "rep" / "summary.md").read_text()
    assert "| drama |" in md and " points |" in md.split("| drama |")[1].split("\n")[0]


def _without_running_score(folder):
    """The folder as simkit wrote it before the running score: no such column."""
    seats = pq.read_table(folder / "seats.parquet").drop_columns(["running_score"])
    pq.write_table(seats, folder / "seats.parquet")
    manifest = read_manifest(folder)
    manifest["tables"]["seats.parquet"]["sha256"] = file_sha256(folder / "seats.parquet")
    write_manifest(folder, manifest)


def test_an_old_folder_reports_without_an_arc_and_says_why_in_one_line(tmp_path):
    _ship_run(tmp_path / "ship")
    _without_running_score(tmp_path / "ship")
    made = CliRunner().invoke(main, ["report", str(tmp_path / "ship"), "--out", str(tmp_path / "rep")])
    assert made.exit_code == 0, made.output
    assert "arc_games.csv" not in {p.name for p in (tmp_path / "rep" / "tables" / "ship").iterdir()}
    md = (tmp_path / "rep" / "summary.md").read_text()
    reason = [line for line in md.splitlines() if line.startswith("No arc:")]
    assert len(reason) == 1 and "before simkit kept the running score of Shipside" in reason[0]
    assert "No arc: this run was recorded before" in (tmp_path / "rep" / "report.html").read_text()


def test_an_old_folder_resumes_to_the_tables_it_would_have_had(monkeypatch, tmp_path):
    """Chunks written before the running score (no column) and chunks written after it merge
    into tables without it: byte for byte those of the old run played to the end."""
    import simkit.engine.records as records
    import simkit.engine.runner as runner_mod

    def old_write_chunk(run_dir, chunk_id, games, seats):
        seats = {k: v for k, v in seats.items() if k != "running_score"}
        return records.write_chunk(run_dir, chunk_id, games, seats)

    calls = {"n": 0}

    def interrupted(*args):
        calls["n"] += 1
        if calls["n"] > 2:
            raise KeyboardInterrupt
        return old_write_chunk(*args)

    with monkeypatch.context() as patch:
        patch.setattr(runner_mod, "write_chunk", old_write_chunk)
        _ship_run(tmp_path / "old", 40, chunk_size=10)
        patch.setattr(runner_mod, "write_chunk", interrupted)
        with pytest.raises(KeyboardInterrupt):
            _ship_run(tmp_path / "part", 40, chunk_size=10)
    assert read_manifest(tmp_path / "part")["status"] == "interrupted"
    _ship_run(tmp_path / "part", 40, chunk_size=10, resume=True)
    done, old = read_manifest(tmp_path / "part"), read_manifest(tmp_path / "old")
    assert done["status"] == "complete" and done["tables"] == old["tables"]
    assert "running_score" not in pq.read_schema(tmp_path / "part" / "seats.parquet").names
