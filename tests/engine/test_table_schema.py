"""The run tables' schema 2 (issue 24, item 12; docs/tables.md): nulls for "none", a categorical
strategy, a manifest naming the run, its code and its schema; folders of schema 1 still read,
report, replay and resume."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.code_version import code_version, git_commit, source_sha256
from simkit.engine.errors import RunFolderError
from simkit.engine.records import read_manifest
from simkit.engine.replay_check import replay_game
from simkit.engine.runner import RunSpec, load_run, run
from simkit.engine.table_schema import (
    GAMES,
    ROUND_SCORES_TYPE,
    SCHEMA_VERSION,
    SEATS,
    STRATEGY_TYPE,
    to_current,
)
from tests.engine.schema_v1 import v1_run

ROOT = Path(__file__).resolve().parents[2]
FAILS = "tests.engine.schema_v1:SometimesFails"


def _spec(n_games: int = 60) -> RunSpec:
    return RunSpec.create("sixnimmt", 4, [FAILS, "random", FAILS, "random"], n_games, seed=5,
                          overrides={"max_rounds": "1"})


@pytest.fixture(scope="module")
def new_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("new") / "run"
    run(_spec(), out, jobs=1, chunk_size=10, progress=False)
    return out


@pytest.fixture(scope="module")
def old_run(tmp_path_factory) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        return v1_run(patch, _spec(), tmp_path_factory.mktemp("old") / "run")


def test_the_old_folder_really_has_sentinels_and_no_schema_version(old_run):
    games = pq.read_table(old_run / "games.parquet").to_pandas()
    seats = pq.read_table(old_run / "seats.parquet")
    assert (games["forfeit_seat"] == -1).any() and (games["error"] == "").any()
    assert not pa.types.is_dictionary(seats.schema.field("strategy").type)
    assert "schema_version" not in read_manifest(old_run)


def test_new_tables_have_the_documented_types_nulls_and_a_categorical_strategy(new_run):
    games, seats = (pq.read_table(new_run / name) for name in ("games.parquet", "seats.parquet"))
    for table, columns in ((games, GAMES), (seats, SEATS)):
        for column in columns:
            assert table.schema.field(column.name).type == column.type, column.name
    assert seats.schema.field("round_scores").type == ROUND_SCORES_TYPE
    g = games.to_pandas()
    forfeited = g["error"].notna()
    assert 0 < forfeited.sum() < len(g)                 # the plug-in fails in some games only
    assert g.loc[~forfeited, "forfeit_seat"].isna().all()
    assert g.loc[forfeited, "forfeit_seat"].between(0, 3).all()
    assert not (g["error"] == "").any() and not (g["forfeit_seat"] == -1).any()
    s = seats.to_pandas()
    assert isinstance(s["strategy"].dtype, pd.CategoricalDtype)
    assert set(s["strategy"].cat.categories) == {FAILS, "random"}
    # a forfeited game has no scores: nulls in the file, not NaN (DuckDB and Arrow see null)
    score = seats.column("score")
    assert score.null_count == 4 * int(forfeited.sum()) == 4 * int(s["forfeit"].sum())
    assert not pc.any(pc.is_nan(score.drop_null())).as_py()


def test_the_manifest_names_the_run_its_code_and_its_schema(new_run, tmp_path):
    manifest = read_manifest(new_run)
    assert manifest["schema_version"] == SCHEMA_VERSION == 2
    assert re.fullmatch(r"[0-9a-f]{32}", manifest["run_id"])
    assert manifest["code"] == code_version()
    assert manifest["code"]["source_sha256"] == source_sha256()
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    assert manifest["code"]["git_commit"] == (head or None)
    # the same command again: another run id, the same tables byte for byte
    again = tmp_path / "again"
    run(_spec(), again, jobs=1, chunk_size=10, progress=False)
    other = read_manifest(again)
    assert other["run_id"] != manifest["run_id"]
    assert other["tables"] == manifest["tables"]


def test_the_source_hash_follows_every_edit_and_a_copy_outside_git_has_no_commit(tmp_path):
    copy = tmp_path / "simkit"
    shutil.copytree(ROOT / "simkit", copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert source_sha256(copy) == source_sha256()
    assert git_commit(copy) is None
    (copy / "engine" / "records.py").write_text((copy / "engine" / "records.py").read_text() + "\n")
    assert source_sha256(copy) != source_sha256()


def test_merged_bytes_do_not_depend_on_the_chunk_size(new_run, tmp_path):
    other = run(_spec(), tmp_path / "c7", jobs=1, chunk_size=7, progress=False)
    assert other.manifest["tables"] == read_manifest(new_run)["tables"]


def test_an_old_folder_reads_as_the_same_tables_as_a_new_one(old_run, new_run):
    old, new = load_run(old_run), load_run(new_run)
    pd.testing.assert_frame_equal(old.games, new.games)
    pd.testing.assert_frame_equal(old.seats, new.seats)
    assert old.forfeits == new.forfeits > 0


def test_the_report_of_an_old_folder_is_the_report_of_a_new_one(old_run, new_run, tmp_path):
    runner = CliRunner()
    for name, folder in (("old", old_run), ("new", new_run)):
        res = runner.invoke(main, ["report", str(folder), "--out", str(tmp_path / name)])
        assert res.exit_code == 0, res.output
    tables = sorted(p.name for p in (tmp_path / "new" / "tables" / "run").glob("*.csv"))
    assert {"summary.csv", "balance.csv", "seats.csv", "ratings.csv"} <= set(tables)
    assert sorted(p.name for p in (tmp_path / "old" / "tables" / "run").glob("*.csv")) == tables
    for table in tables:
        old = (tmp_path / "old" / "tables" / "run" / table).read_text()
        assert old == (tmp_path / "new" / "tables" / "run" / table).read_text(), table
    summary = pd.read_csv(tmp_path / "new" / "tables" / "run" / "summary.csv")
    assert list(summary.columns)[0] == "strategy" and summary["forfeits"].sum() > 0
    balance = pd.read_csv(tmp_path / "new" / "tables" / "run" / "balance.csv").set_index("figure")
    games = pq.read_table(new_run / "games.parquet").to_pandas()
    # errors are counted from the nulls, not from every row ('None' is not an error)
    assert float(balance.loc["error.count", "value"]) == games["error"].notna().sum() < len(games)


def test_old_and_new_folders_replay_their_forfeited_and_finished_games(old_run, new_run):
    games = load_run(new_run).games
    forfeited = int(games.loc[games["error"].notna(), "game"].iloc[0])
    finished = int(games.loc[games["error"].isna(), "game"].iloc[0])
    for folder in (old_run, new_run):
        for index in (forfeited, finished):
            _, record, _ = replay_game(folder, index)     # raises if it differs from the row
            assert (record.forfeit >= 0) == (index == forfeited)


def test_resuming_an_old_folder_writes_the_current_schema(monkeypatch, new_run, tmp_path):
    part = v1_run(monkeypatch, _spec(), tmp_path / "part", stop_after=3)
    assert read_manifest(part)["status"] == "interrupted"
    assert len(load_run(part).games) == 30                   # an unfinished old folder reads too
    resumed = run(_spec(), part, jobs=1, resume=True, progress=False)
    manifest = read_manifest(part)
    assert manifest["status"] == "complete" and manifest["schema_version"] == SCHEMA_VERSION
    assert manifest["schema_version_before_resume"] == 1
    assert re.fullmatch(r"[0-9a-f]{32}", manifest["run_id"])
    assert [r["code"] for r in manifest["resumed"]] == [code_version()]
    # the old chunks went through the converter: the tables are those of a new run, byte for byte
    assert manifest["tables"] == read_manifest(new_run)["tables"]
    assert resumed.seats["strategy"].dtype == "category"


def test_the_converter_is_idempotent_and_leaves_other_columns_alone():
    old = pa.table({"forfeit_seat": [-1, 2], "error": ["", "boom"], "score": [1.5, float("nan")],
                    "strategy": ["a", "b"], "steps": [-1, 3]})
    new = to_current(old)
    assert new.column("forfeit_seat").to_pylist() == [None, 2]
    assert new.column("error").to_pylist() == [None, "boom"]
    assert new.column("score").to_pylist() == [1.5, None]
    assert new.schema.field("strategy").type == STRATEGY_TYPE
    assert new.column("steps").to_pylist() == [-1, 3]
    assert to_current(new).equals(new)


def test_docs_list_every_column_with_its_type_and_null_meaning():
    text = (ROOT / "docs" / "tables.md").read_text()
    assert f"Schema version: **{SCHEMA_VERSION}**" in text
    for column in (*GAMES, *SEATS):
        row = next((line for line in text.splitlines() if line.startswith(f"| `{column.name}` |")
                    and f"`{column.type_name}`" in line), None)
        assert row is not None, column.name
        if column.null is not None:
            assert column.null in row, column.name
    assert "`round_scores`" in text
    readme = (ROOT / "README.md").read_text()
    assert "docs/tables.md" in readme and "`round_scores`" in readme


@pytest.mark.parametrize("version, said", [(3, "written by a newer simkit (table schema 3)"),
                                           ("2", "schema_version '2' is not a table schema version")])
def test_a_folder_of_a_newer_or_unknown_schema_is_refused_in_one_line(new_run, tmp_path, version, said):
    folder = tmp_path / "newer"
    shutil.copytree(new_run, folder)
    path = folder / "manifest.json"
    manifest = read_manifest(folder)
    text = path.read_text().replace('"schema_version": 2', f'"schema_version": {json.dumps(version)}')
    path.write_text(text)
    assert read_manifest(folder)["schema_version"] == version != manifest["schema_version"]
    runner = CliRunner()
    for args in (["report", str(folder), "--out", str(tmp_path / "rep")],
                 ["replay", str(folder), "--game", "0"]):
        res = runner.invoke(main, args)
        assert res.exit_code != 0 and said in res.output and "Traceback" not in res.output, args
    with pytest.raises(RunFolderError, match="newer simkit|not a table schema"):
        run(_spec(), folder, jobs=1, resume=True, progress=False)
