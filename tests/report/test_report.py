"""The HTML/Markdown report: sections, decodable images, escaping, CSV tables, several runs."""

import base64
import json
import re
import struct

import pandas as pd
import pytest

from simkit.core.errors import RunFolderError
from simkit.report import build_report
from simkit.report.build import SECTIONS
from simkit.stats.synthetic import synth

IMG = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _write_run(folder, games, seats, **manifest):
    folder.mkdir(parents=True)
    games.to_parquet(folder / "games.parquet", index=False)
    seats.to_parquet(folder / "seats.parquet", index=False)
    base = {"game": "synthetic", "rules_version": "synthetic-1", "n_players": 2,
            "strategies": sorted(set(seats["strategy"])), "seating": "rotate",
            "duplicate": False, "seed": 1, "n_games": len(games), "games_done": len(games),
            "config": {"hand_size": 10}, "command": "simkit run synthetic", "status": "complete",
            "higher_is_better": True}
    base.update(manifest)
    (folder / "manifest.json").write_text(json.dumps(base))
    return folder


@pytest.fixture(scope="module")
def sixnimmt_runs(tmp_path_factory):
    from simkit.core.runner import RunSpec, run

    root = tmp_path_factory.mktemp("runs")
    four = RunSpec.create(game="sixnimmt", n_players=4,
                          strategies=["heuristic", "random", "lowest", "highest"], n_games=120,
                          seed=3)
    run(four, root / "four", jobs=1, progress=False)
    small = RunSpec.create(game="sixnimmt", n_players=4,
                           strategies=["heuristic", "random", "lowest", "highest"], n_games=120,
                           seed=3, overrides={"hand_size": "8"})
    run(small, root / "four-hand8", jobs=1, progress=False)
    dup = RunSpec.create(game="sixnimmt", n_players=2, strategies=["heuristic", "random"],
                         n_games=80, seed=4, duplicate=True)
    run(dup, root / "dup", jobs=1, progress=False)
    return root


def test_report_of_a_real_sixnimmt_run_holds_every_section_and_decodable_images(sixnimmt_runs, tmp_path):
    out = tmp_path / "rep"
    path = build_report([sixnimmt_runs / "four"], out)
    text = path.read_text()
    for section in SECTIONS:
        assert f'id="{section}"' in text, section
    assert 'id="match"' not in text          # four strategies: no two-sided match
    images = IMG.findall(text)
    assert len(images) == 5
    for b64 in images:
        w, h = _png_size(base64.b64decode(b64))
        assert w >= 400 and h >= 150
    assert '<meta name="viewport"' in text
    assert "lower is better" in text         # 6 nimmt! counts bullheads
    for name in ("win_share", "scores", "seats", "length", "convergence"):
        png = out / "figures" / "four" / f"{name}.png"
        svg = out / "figures" / "four" / f"{name}.svg"
        _png_size(png.read_bytes())
        assert "<svg" in svg.read_text()[:2000]


def test_report_tables_and_markdown(sixnimmt_runs, tmp_path):
    out = tmp_path / "rep"
    build_report([sixnimmt_runs / "four"], out)
    summary = pd.read_csv(out / "tables" / "four" / "summary.csv")
    assert list(summary["player"]) == ["heuristic", "random", "lowest", "highest"]
    assert summary["games"].tolist() == [120] * 4
    assert summary["win_share"].sum() <= 1.0 + 1e-9
    for name in ("score_quantiles", "seats", "ratings", "head_to_head", "balance"):
        assert (out / "tables" / "four" / f"{name}.csv").exists(), name
    md = (out / "summary.md").read_text()
    assert "## Run four" in md and "| heuristic |" in md and "### Seat effects" in md


def test_duplicate_run_report_shows_match_and_paired_analysis(sixnimmt_runs, tmp_path):
    text = build_report([sixnimmt_runs / "dup"], tmp_path / "rep").read_text()
    assert 'id="match"' in text and 'id="paired"' in text
    assert "pentanomial" in text and "Elo" in text and "LOS" in text
    match = pd.read_csv(tmp_path / "rep" / "tables" / "dup" / "match.csv")
    assert "estimate.elo" in set(match["figure"])


def test_several_runs_are_compared_side_by_side(sixnimmt_runs, tmp_path):
    out = tmp_path / "rep"
    text = build_report([sixnimmt_runs / "four", sixnimmt_runs / "four-hand8"], out).read_text()
    assert 'id="comparison"' in text
    for i in range(2):
        for section in SECTIONS:
            assert f'id="run{i}-{section}"' in text
    comp = pd.read_csv(out / "tables" / "comparison.csv")
    assert comp["run"].tolist() == ["four", "four-hand8"]
    assert comp["variant"].tolist() == ["hand_size=10", "hand_size=8"]
    assert len(IMG.findall(text)) == 11


def test_all_text_is_escaped(tmp_path):
    games, seats = synth(200, labels=["<script>alert(1)</script>", "a&b \"q\""], seed=1)
    run = _write_run(tmp_path / "evil<run>", games, seats,
                     command="simkit run <b>bold</b>", config={"name": "<i>x</i>"})
    text = build_report([run], tmp_path / "rep").read_text()
    assert "<script>alert" not in text and "<b>bold" not in text and "<i>x" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "a&amp;b &quot;q&quot;" in text
    assert "&lt;b&gt;bold&lt;/b&gt;" in text


def test_markdown_cells_escape_pipes(tmp_path):
    games, seats = synth(100, labels=["x|y", "z"], seed=2)
    run = _write_run(tmp_path / "pipes", games, seats)
    build_report([run], tmp_path / "rep")
    md = (tmp_path / "rep" / "summary.md").read_text()
    assert "| x\\|y |" in md


def test_not_a_run_folder_is_a_clear_error(tmp_path):
    with pytest.raises(RunFolderError, match="no manifest.json"):
        build_report([tmp_path], tmp_path / "rep")
    with pytest.raises(RunFolderError, match="no run folder"):
        build_report([], tmp_path / "rep")
