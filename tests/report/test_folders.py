"""Which run folders a report reads and where it is written by default."""

import json

from simkit.report.folders import default_report_dir, runs_to_report


def _sweep(path, labels):
    path.mkdir()
    (path / "sweep.json").write_text(json.dumps({"cells": [{"label": x} for x in labels]}))
    return path


def test_a_sweep_folder_stands_for_its_cells_in_order(tmp_path):
    sweep = _sweep(tmp_path / "s", ["p3", "p4"])
    run = tmp_path / "r"
    assert runs_to_report([run, sweep]) == [run, sweep / "p3", sweep / "p4"]


def test_one_run_or_sweep_keeps_its_report_inside(tmp_path):
    assert default_report_dir([tmp_path / "r"]) == tmp_path / "r" / "report"
    sweep = _sweep(tmp_path / "s", ["p3"])
    assert default_report_dir([sweep]) == sweep / "report"


def test_several_runs_get_a_timestamped_report_beside_the_first_run(tmp_path):
    sweep = _sweep(tmp_path / "s", ["p3", "p4"])
    out = default_report_dir([sweep, tmp_path / "r"])
    assert out.parent == sweep.resolve() and out.name.startswith("report-")
    out = default_report_dir([tmp_path / "a", tmp_path / "b"])
    assert out.parent == tmp_path.resolve() and out.name.startswith("report-")
