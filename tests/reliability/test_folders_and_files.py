"""Disk full, file modes, output paths, report --force, escaping in summary.md, replay against the
recorded row, and damaged manifests: each a clear line, never a traceback, nothing finished lost."""

import errno
import json
import os
import stat

import pandas as pd
import pytest
from click.testing import CliRunner

import simkit.engine.runner as runner_mod
from simkit.cli import main
from simkit.engine.errors import RunFolderError
from simkit.engine.runner import replay_game, run

from .helpers import small_spec

RUN = ["run", "sixnimmt", "-p", "3", "-s", "random", "-n", "30", "--seed", "4", "-j", "1",
       "--chunk-size", "10", "--set", "max_rounds=1", "--no-progress"]


@pytest.fixture
def cli():
    return CliRunner()


def _one_line_error(out, *expected):
    """Exit 1 (simkit's refusal) or 2 (Click's usage error) with one `Error:` line, no traceback."""
    assert out.exit_code in (1, 2), out.output
    assert "Traceback" not in out.output and isinstance(out.exception, SystemExit)
    lines = [line for line in out.output.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, out.output
    for text in expected:
        assert text in lines[0], lines[0]


def _assert_interrupted_with(out_dir, games_done: int) -> None:
    manifest = json.loads((out_dir / "manifest.json").read_text())
    assert manifest["status"] == "interrupted" and manifest["games_done"] == games_done


def _disk_full(*args, **kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_disk_full_while_merging_says_how_many_games_are_saved(cli, tmp_path, monkeypatch):
    out_dir = tmp_path / "r"
    monkeypatch.setattr(runner_mod, "write_tables", _disk_full)
    _one_line_error(cli.invoke(main, [*RUN, "--out", str(out_dir)]),
                    "No space left on device", "30 finished games are saved in chunks", "--resume")
    assert json.loads((out_dir / "manifest.json").read_text())["status"] == "interrupted"
    monkeypatch.undo()
    assert cli.invoke(main, [*RUN, "--out", str(out_dir), "--resume"]).exit_code == 0
    whole = run(small_spec(30, players=3, seed=4), tmp_path / "whole", jobs=1, progress=False)
    pd.testing.assert_frame_equal(pd.read_parquet(out_dir / "seats.parquet"), whole.seats)


def test_disk_full_while_writing_a_chunk_keeps_the_earlier_chunks(tmp_path, monkeypatch):
    real = runner_mod.write_chunk
    calls = {"n": 0}

    def third_fails(*args, **kwargs):
        calls["n"] += 1
        return _disk_full() if calls["n"] == 3 else real(*args, **kwargs)

    monkeypatch.setattr(runner_mod, "write_chunk", third_fails)
    with pytest.raises(RunFolderError, match="20 finished games are saved in chunks"):
        run(small_spec(50), tmp_path / "r", jobs=1, chunk_size=10, progress=False)
    assert json.loads((tmp_path / "r" / "manifest.json").read_text())["games_done"] == 20


def test_disk_full_in_a_worker_writing_its_chunk_is_explained_the_same_way(tmp_path, monkeypatch):
    from simkit.engine import chunk_task

    monkeypatch.setattr(chunk_task, "write_chunk", _disk_full)
    with pytest.raises(RunFolderError, match="No space left on device.*0 finished games are saved"):
        run(small_spec(50), tmp_path / "r", jobs=2, backend="threading", chunk_size=10, progress=False)


def test_workers_write_their_own_chunks_unless_a_stop_rule_reads_them(tmp_path, monkeypatch):
    from simkit.engine import chunk_task

    writers = []      # (who, folder): a thread left over from another test may still write
    for module, name in ((chunk_task, "worker"), (runner_mod, "parent")):
        monkeypatch.setattr(module, "write_chunk", lambda folder, *a, real=module.write_chunk, who=name:
                            writers.append((who, folder)) or real(folder, *a))
    plain = run(small_spec(50), tmp_path / "a", jobs=2, backend="threading", chunk_size=10, progress=False)
    ruled = run(small_spec(50), tmp_path / "b", jobs=2, backend="threading", chunk_size=10, progress=False,
                stop=lambda games, seats: False)
    assert [who for who, folder in writers if folder == tmp_path / "a"] == ["worker"] * 5
    assert [who for who, folder in writers if folder == tmp_path / "b"] == ["parent"] * 5
    pd.testing.assert_frame_equal(plain.seats, ruled.seats)


def test_an_interrupt_counts_the_chunks_workers_wrote_but_had_not_yet_handed_back(tmp_path, monkeypatch):
    """Workers write their own chunks: at Ctrl-C, games_done counts every complete chunk on disk,
    also those whose worker finished after the last one the parent received."""
    from simkit.engine.chunk_task import play_chunk

    def three_written_one_received(spec, todo, jobs, backend, scheduler, out_dir=None):
        done = [play_chunk(spec, *task, os.getpid(), out_dir) for task in list(todo)[:3]]
        yield done[0]
        raise KeyboardInterrupt

    monkeypatch.setattr(runner_mod, "_parallel_chunks", three_written_one_received)
    with pytest.raises(KeyboardInterrupt):
        run(small_spec(50), tmp_path / "r", jobs=2, chunk_size=10, progress=False)
    _assert_interrupted_with(tmp_path / "r", games_done=30)
    monkeypatch.undo()
    resumed = run(small_spec(50), tmp_path / "r", jobs=1, chunk_size=10, progress=False, resume=True)
    whole = run(small_spec(50), tmp_path / "whole", jobs=1, chunk_size=10, progress=False)
    pd.testing.assert_frame_equal(resumed.seats, whole.seats)


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_run_files_follow_the_umask(tmp_path, monkeypatch, umask, mode):
    real = runner_mod.write_chunk
    calls = {"n": 0}

    def stop_at_second(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    old = os.umask(umask)
    try:
        run(small_spec(20), tmp_path / "whole", jobs=1, progress=False)
        monkeypatch.setattr(runner_mod, "write_chunk", stop_at_second)
        with pytest.raises(KeyboardInterrupt):
            run(small_spec(30), tmp_path / "part", jobs=1, chunk_size=10, progress=False)
    finally:
        os.umask(old)
    files = [tmp_path / "whole" / n for n in ("manifest.json", "games.parquet", "seats.parquet")]
    files += list((tmp_path / "part" / "chunks").iterdir())
    assert len(files) == 6
    assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {mode}


@pytest.mark.parametrize("out, message", [("/dev/null", "is not a folder"),
                                          ("/proc/simkit-cannot-be-here", "cannot create the output folder")])
def test_out_that_cannot_be_a_run_folder(cli, out, message):
    _one_line_error(cli.invoke(main, [*RUN, "--out", out]), message)


def test_out_naming_a_file_for_compare_and_sweep(cli, tmp_path):
    afile = tmp_path / "file.txt"
    afile.write_text("x")
    _one_line_error(cli.invoke(main, ["compare", "sixnimmt", "random", "random", "--max-games", "8",
                                      "-j", "1", "--out", str(afile)]))
    _one_line_error(cli.invoke(main, ["sweep", "sixnimmt", "-p", "3", "-n", "6", "-j", "1",
                                      "--out", "/dev/null"]), "is not a folder")


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    out_dir = tmp_path_factory.mktemp("done") / "r"
    run(small_spec(24), out_dir, jobs=1, chunk_size=10, progress=False)
    return out_dir


@pytest.mark.slow
def test_report_out_with_a_report_needs_force(cli, finished_run, tmp_path):
    target = tmp_path / "rep"
    assert cli.invoke(main, ["report", str(finished_run), "--out", str(target)]).exit_code == 0
    before = (target / "summary.md").stat().st_mtime_ns
    _one_line_error(cli.invoke(main, ["report", str(finished_run), "--out", str(target)]),
                    "already holds a report", "--force")
    assert (target / "summary.md").stat().st_mtime_ns == before
    assert cli.invoke(main, ["report", str(finished_run), "--out", str(target), "--force"]).exit_code == 0


@pytest.mark.parametrize("out, message", [("/dev/null", "is not a folder"),
                                          ("/proc/simkit-report", "cannot create the report folder")])
def test_report_out_that_cannot_be_written(cli, finished_run, out, message):
    _one_line_error(cli.invoke(main, ["report", str(finished_run), "--out", out]), message)


@pytest.mark.filterwarnings("error:constrained_layout not applied")   # a long label squeezed a chart
def test_summary_md_escapes_markup_from_parameters_and_command(cli, tmp_path, monkeypatch):
    label = "<script>alert(1)</script>[x](http://evil)**b**"
    args = ["run", "sixnimmt", "-p", "2", "-s", f"tests.reliability.plugins:Labelled:label={label}",
            "-s", "random", "-n", "6", "--seed", "1", "-j", "1", "--set", "max_rounds=1",
            "--out", str(tmp_path / "r"), "--no-progress"]
    monkeypatch.setattr("sys.argv", ["simkit", *args, "--", "<b>|pipe|</b>"])
    assert cli.invoke(main, args).exit_code == 0
    assert cli.invoke(main, ["report", str(tmp_path / "r")]).exit_code == 0
    summary = (tmp_path / "r" / "report" / "summary.md").read_text()
    for raw in ("<script>", "</script>", "[x](", "**b**", "<b>", "|pipe|"):
        assert raw not in summary
    assert r"\<script\>alert(1)\</script\>\[x\](http://evil)\*\*b\*\*" in summary
    html = (tmp_path / "r" / "report" / "report.html").read_text()
    assert "<script>alert" not in html


def test_replay_refuses_a_game_that_differs_from_its_row(cli, tmp_path):
    out_dir = tmp_path / "r"
    run(small_spec(12), out_dir, jobs=1, progress=False)
    state, record, _ = replay_game(out_dir, 5)                       # agrees: no complaint
    manifest = json.loads((out_dir / "manifest.json").read_text())
    manifest["config"]["max_rounds"] = 2                             # as if the rules had changed
    (out_dir / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RunFolderError, match="game 5 replays differently from its recorded row"):
        replay_game(out_dir, 5)
    _one_line_error(cli.invoke(main, ["replay", str(out_dir), "--game", "5"]),
                    "replays differently", "steps")


@pytest.mark.parametrize("content, message", [
    ("[1, 2, 3]", "expected a JSON object, found a list"),
    ("{broken", "is not valid JSON"),
    ('{"game": "sixnimmt"}', "lacks n_players"),
])
def test_damaged_manifest_is_one_line_for_replay_and_report(cli, finished_run, tmp_path, content, message):
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("games.parquet", "seats.parquet"):
        (bad / name).write_bytes((finished_run / name).read_bytes())
    (bad / "manifest.json").write_text(content)
    _one_line_error(cli.invoke(main, ["replay", str(bad), "--game", "1"]), message)
    _one_line_error(cli.invoke(main, ["report", str(bad)]), message)


@pytest.mark.parametrize("drop", ["config", "seed"])
def test_manifest_without_config_or_seed(cli, finished_run, tmp_path, drop):
    bad = tmp_path / "bad"
    bad.mkdir()
    manifest = json.loads((finished_run / "manifest.json").read_text())
    del manifest[drop]
    (bad / "manifest.json").write_text(json.dumps(manifest))
    _one_line_error(cli.invoke(main, ["replay", str(bad), "--game", "1"]), f"lacks {drop}")
    _one_line_error(cli.invoke(main, ["report", str(bad)]), f"lacks {drop}")


def test_manifest_with_a_field_of_the_wrong_kind(cli, finished_run, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    manifest = json.loads((finished_run / "manifest.json").read_text())
    manifest["config"] = "rows=4"
    (bad / "manifest.json").write_text(json.dumps(manifest))
    _one_line_error(cli.invoke(main, ["replay", str(bad), "--game", "1"]), "manifest.json")


def test_a_stop_while_merging_leaves_an_interrupted_run_with_every_chunk(tmp_path, monkeypatch):
    def interrupted_merge(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner_mod, "write_tables", interrupted_merge)
    with pytest.raises(KeyboardInterrupt):
        run(small_spec(30), tmp_path / "r", jobs=1, chunk_size=10, progress=False)
    _assert_interrupted_with(tmp_path / "r", games_done=30)
    monkeypatch.undo()
    resumed = run(small_spec(30), tmp_path / "r", jobs=1, progress=False, resume=True)
    assert resumed.manifest["status"] == "complete" and len(resumed.games) == 30
