"""simkit sweep: a grid of player counts and variants, one run folder per cell."""

import json
import re
from datetime import datetime

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.errors import ConfigError
from simkit.studies.sweep import cells, default_sweep_dir, parse_vary, plan, run_sweep, sweep_run_dirs


def test_grid_is_the_product_of_players_and_values():
    grid = cells([3, 4], parse_vary(["rows=3,4,5", "advanced=false,true"]))
    assert len(grid) == 12
    assert grid[0].label == "p3-rows=3-advanced=false" and grid[-1].label == "p4-rows=5-advanced=true"


def test_each_cell_fills_its_seats_with_the_last_strategy():
    planned = plan("sixnimmt", [2, 4], ["heuristic", "random"], 10, 1, {}, {})
    assert [[s.text for s in spec.strategies] for _, spec in planned] == \
        [["heuristic", "random"], ["heuristic", "random", "random", "random"]]
    with pytest.raises(ConfigError, match="sweep cell p2: 3 strategies for 2 players"):
        plan("sixnimmt", [2], ["a", "b", "c"], 10, 1, {}, {})


def test_default_sweep_folder_is_new_and_named_after_game_time_and_seed(tmp_path, monkeypatch):
    import simkit.engine.runner as runner_mod

    class FrozenClock(datetime):
        @classmethod
        def now(cls, tz=None):
            return cls(2026, 12, 1, 10, 15, 0)

    monkeypatch.setattr(runner_mod, "datetime", FrozenClock)
    first = default_sweep_dir("sixnimmt", 7, root=tmp_path)
    assert first == tmp_path / "sixnimmt-sweep-20261201-101500-s7"
    first.mkdir()
    assert default_sweep_dir("sixnimmt", 7, root=tmp_path) == tmp_path / f"{first.name}-2"


def test_bad_cell_fails_before_anything_runs(tmp_path):
    with pytest.raises(ConfigError, match="sweep cell p10-hand_size=11: 10 players x hand_size 11"):
        plan("sixnimmt", [4, 10], ["random"], 10, 1, parse_vary(["hand_size=9,11"]), {})
    with pytest.raises(ConfigError, match="both --set and --vary"):
        plan("sixnimmt", [4], ["random"], 10, 1, parse_vary(["rows=3,4"]), {"rows": "5"})


def test_cells_share_the_seed_and_resume_skips_finished_cells(tmp_path):
    planned = plan("sixnimmt", [3, 4], ["heuristic", "random"], 30, 7,
                   parse_vary(["rows=3,4"]), {"max_rounds": "1"})
    results = run_sweep(planned, tmp_path / "s", jobs=1, progress=False)
    assert [len(r.games) for _, r in results] == [30] * 4
    assert {r.manifest["seed"] for _, r in results} == {7}
    assert results[1][1].manifest["config"]["rows"] == 4
    dirs = sweep_run_dirs(tmp_path / "s")
    assert [d.name for d in dirs] == ["p3-rows=3", "p3-rows=4", "p4-rows=3", "p4-rows=4"]
    before = pd.read_parquet(dirs[2] / "seats.parquet")
    again = run_sweep(planned, tmp_path / "s", jobs=1, progress=False, resume=True)
    pd.testing.assert_frame_equal(again[2][1].seats, before)


def test_sweep_command(tmp_path):
    out = CliRunner().invoke(main, ["sweep", "sixnimmt", "-p", "2,3", "-s", "heuristic", "-s", "random",
                                    "-n", "20", "--seed", "1", "-j", "1", "--set", "max_rounds=1",
                                    "--out", str(tmp_path / "s")])
    assert out.exit_code == 0, out.output
    assert "[p2] 20 games" in out.output and "[p3] 20 games" in out.output
    assert json.loads((tmp_path / "s" / "sweep.json").read_text())["seed"] == 1
    bad = CliRunner().invoke(main, ["sweep", "sixnimmt", "-p", "3,x"])
    assert bad.exit_code != 0 and "not a comma-separated list" in bad.output


def test_interrupted_sweep_says_what_is_saved_and_how_to_resume(tmp_path, monkeypatch):
    import simkit.studies.sweep as sweep_mod

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(sweep_mod, "run_sweep", interrupted)
    out = CliRunner().invoke(main, ["sweep", "sixnimmt", "-p", "2", "-n", "4", "--seed", "1",
                                    "--out", str(tmp_path / "s")])
    assert out.exit_code == 130
    assert f"interrupted: finished cells and games are saved in {tmp_path / 's'}" in out.output
    assert f"--resume --out {tmp_path / 's'}" in out.output


@pytest.mark.slow
def test_report_accepts_a_sweep_folder(tmp_path):
    cli = CliRunner()
    out = cli.invoke(main, ["sweep", "sixnimmt", "-p", "2,3", "-s", "heuristic", "-s", "random",
                            "-n", "20", "--seed", "1", "-j", "1", "--set", "max_rounds=1",
                            "--out", str(tmp_path / "s")])
    assert out.exit_code == 0, out.output
    out = cli.invoke(main, ["report", str(tmp_path / "s")])
    assert out.exit_code == 0, out.output
    html = (tmp_path / "s" / "report" / "report.html").read_text()
    assert "p2" in html and "p3" in html


_SWEEP_LINE = re.compile(r"^sweep: (\d+)/(\d+) cells, ([\d,]+)/([\d,]+) games \(([\d.]+)%\), "
                         r"([\d,]+) games/s, (ETA .+|done in .+)$")


def test_off_a_terminal_the_sweep_prints_plain_lines_with_counts_rate_and_eta(tmp_path, capsys,
                                                                              monkeypatch):
    import simkit.engine.runner as runner_mod

    monkeypatch.setattr(runner_mod.Progress, "INTERVAL", 0.0)   # a line at every chunk
    planned = plan("sixnimmt", [2, 3], ["heuristic", "random"], 40, 3, {}, {"max_rounds": "1"})
    run_sweep(planned, tmp_path / "s", jobs=1, progress=None)
    err = capsys.readouterr().err.splitlines()
    lines = [_SWEEP_LINE.match(line) for line in err if line.startswith("sweep: ")]
    assert len(lines) == 2 and all(lines), err
    done = [int(m.group(3).replace(",", "")) for m in lines]
    assert done == [40, 80] and {m.group(4) for m in lines} == {"80"}
    assert [m.group(1) for m in lines] == ["1", "2"] and lines[0].group(7).startswith("ETA ")
    assert lines[1].group(5) == "100.0" and lines[1].group(7).startswith("done in ")
    assert int(lines[1].group(6).replace(",", "")) > 0
    # each cell's own lines carry the figure across all the cells
    inside = [line for line in err if line.startswith("cell 2/2 p3: ")]
    assert inside and all(" | sweep " in line and "/80 games" in line for line in inside)
    assert any("(80/80 games" in line for line in inside)


def test_sweep_progress_counts_saved_games_as_done_but_not_in_the_rate(tmp_path):
    from simkit.studies.sweep import SweepProgress

    planned = plan("sixnimmt", [2], ["heuristic", "random"], 30, 3, {}, {"max_rounds": "1"})
    run_sweep(planned, tmp_path / "s", jobs=1, progress=False)
    now = [100.0]
    overall = SweepProgress([30, 60], clock=lambda: now[0])
    overall.start_cell(tmp_path / "s" / "p2", 30)      # a finished cell found on --resume
    now[0] += 5
    assert overall.status() == "sweep 33.3%, ETA ? (30/90 games, 0 games/s)"
    overall.end_cell(30)
    overall.start_cell(tmp_path / "s" / "p3", 60)      # not started: nothing saved
    overall.end_cell(60)
    now[0] += 5                                        # 60 new games in 10 s
    assert overall.cell_line() == "sweep: 2/2 cells, 90/90 games (100.0%), 6 games/s, done in 10 s"
