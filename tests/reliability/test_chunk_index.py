"""Run folders are checked, not trusted: a truncated, stray, duplicated or mismatched chunk is
named, refused by report, set aside (moved, never deleted) and played again on resume."""

import json
import shutil

import pandas as pd
import pytest

from simkit.engine.errors import RunFolderError
from simkit.engine.runner import load_run, run

from .helpers import interrupt_after_chunks, small_spec

SPEC = small_spec(100)


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The same run played without a break: what every repaired run must equal."""
    return run(SPEC, tmp_path_factory.mktemp("whole") / "r", jobs=1, chunk_size=10, progress=False)


@pytest.fixture
def interrupted(tmp_path, monkeypatch):
    """A run stopped after 3 of its 10 chunks (chunks/ holds chunks 0, 1, 2)."""
    return interrupt_after_chunks(monkeypatch, SPEC, tmp_path / "r")


def _truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _stray_copy(run_dir):
    shutil.copy(run_dir / "chunks" / "games-000000.parquet", run_dir / "chunks" / "games-000000 (1).parquet")


def _duplicate_as_chunk_5(run_dir):
    for kind in ("games-{}.parquet", "seats-{}.parquet", "chunk-{}.json"):
        shutil.copy(run_dir / "chunks" / kind.format("000000"), run_dir / "chunks" / kind.format("000005"))


def _chunk_size_edited(run_dir):
    manifest = json.loads((run_dir / "manifest.json").read_text())
    manifest["chunk_size"] = 20
    (run_dir / "manifest.json").write_text(json.dumps(manifest))


def _leftover_temp_file(run_dir):
    (run_dir / "chunks" / ".games-000003.parquet.4242.abcd.tmp").write_bytes(b"PAR1 half written")


def _entry_of_the_wrong_kind(run_dir):
    path = run_dir / "chunks" / "chunk-000001.json"
    entry = json.loads(path.read_text())
    path.write_text(json.dumps({**entry, "start": "0", "stop": "x"}))


DAMAGE = {
    "truncated": (lambda d: _truncate(d / "chunks" / "games-000001.parquet"), "games-000001.parquet"),
    "seats truncated": (lambda d: _truncate(d / "chunks" / "seats-000002.parquet"), "seats-000002.parquet"),
    "stray copy": (_stray_copy, "games-000000 (1).parquet"),
    "duplicated chunk": (_duplicate_as_chunk_5, "games-000005.parquet"),
    "chunk_size edited": (_chunk_size_edited, "games-000000.parquet"),
    "entry of the wrong kind": (_entry_of_the_wrong_kind, "chunk-000001.json"),
}
#: what a writer killed mid-chunk leaves: no finished game, so report skips it
DEBRIS = {
    "index entry lost": (lambda d: (d / "chunks" / "chunk-000001.json").unlink(), "games-000001.parquet"),
    "leftover temp file": (_leftover_temp_file, ".games-000003.parquet.4242.abcd.tmp"),
}


@pytest.mark.parametrize("case", list(DAMAGE))
def test_report_refuses_a_damaged_folder_naming_the_file(interrupted, case):
    damage, named = DAMAGE[case]
    damage(interrupted)
    with pytest.raises(RunFolderError, match="cannot be trusted") as err:
        load_run(interrupted)
    assert named in str(err.value) and "--resume" in str(err.value)


def test_report_reads_only_finished_chunks_beside_a_stopped_writers_debris(interrupted):
    for damage, _ in DEBRIS.values():
        damage(interrupted)
    games = load_run(interrupted).games
    assert sorted(set(games.game // 10)) == [0, 2]          # chunk 1 lost its entry: not counted


@pytest.mark.parametrize("case", [*DAMAGE, *DEBRIS])
def test_resume_sets_bad_chunks_aside_and_plays_them_again(interrupted, whole, case):
    damage, named = {**DAMAGE, **DEBRIS}[case]
    damage(interrupted)
    notices = []
    resumed = run(SPEC, interrupted, jobs=2, progress=False, resume=True, notify=notices.append)
    assert resumed.manifest["status"] == "complete"
    pd.testing.assert_frame_equal(resumed.games, whole.games)
    pd.testing.assert_frame_equal(resumed.seats, whole.seats)
    assert len(notices) == 1 and named in notices[0] and "quarantine" in notices[0]
    assert (interrupted / "quarantine" / named).exists()          # set aside, never deleted
    assert any(e["file"] == named for e in resumed.manifest["set_aside"])
    assert load_run(interrupted).games.equals(resumed.games)


def test_an_undamaged_interrupted_folder_reads_its_finished_chunks(interrupted):
    result = load_run(interrupted)
    assert list(result.games.game) == list(range(30))
    assert result.manifest["games_done"] == 30


def test_merged_tables_are_checked_against_the_manifest(tmp_path):
    run(small_spec(30), tmp_path / "r", jobs=1, progress=False)
    recorded = json.loads((tmp_path / "r" / "manifest.json").read_text())["tables"]
    assert recorded["games.parquet"]["rows"] == 30 and recorded["seats.parquet"]["rows"] == 120
    _truncate(tmp_path / "r" / "seats.parquet")
    with pytest.raises(RunFolderError, match="seats.parquet does not match the checksum"):
        load_run(tmp_path / "r")


def test_report_cli_refuses_a_damaged_folder_in_one_line(interrupted):
    from click.testing import CliRunner

    from simkit.cli import main

    _truncate(interrupted / "chunks" / "games-000001.parquet")
    out = CliRunner().invoke(main, ["report", str(interrupted)])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "games-000001.parquet" in out.output and "cannot be trusted" in out.output
