"""The report of one or several runs: `report.html`, `summary.md`, CSV tables and figures.

`build_report(run_dirs, out_dir)` reads each run folder (manifest.json, games.parquet,
seats.parquet, and compare.json when the run came from `simkit compare`), computes every table
of `simkit.stats` (`simkit.report.figures`), draws the charts of `simkit.report.charts`, and
writes

    out_dir/report.html         self-contained: images embedded as base64 PNG, all text escaped
    out_dir/summary.md          the headline, the key tables in Markdown, links to the charts
    out_dir/tables/<run>/*.csv  every table of every run (and comparison.csv for several runs);
                                the strategy column is `strategy`, as in seats.parquet
    out_dir/figures/<run>/*.png, *.svg

Every run starts with a headline (the game, the lineup and a verdict in words computed from the
tables, `simkit.report.words`), then the strength figures: win share against fair share first,
then one rating scale (pairwise Elo for two strategies, Plackett–Luce for more). Several runs (a
variant sweep, two player counts) get a comparison section first, normalised so cells with
different player counts compare. Seats are numbered from 1 (the first player) everywhere a
person reads them, including the CSV tables; only the run folder's Parquet tables count from 0.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from simkit.engine.errors import RunFolderError
from simkit.report import charts
from simkit.report.figures import RunAnalysis, analyze_run, comparison_table, run_names
from simkit.report.html import render_html
from simkit.report.markdown import render_markdown


def _flat(d: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flat(v, key + "."))
        else:
            out[key] = v
    return out


def _figure_table(figures: dict[str, Any]) -> pd.DataFrame:
    return pd.DataFrame({"figure": list(figures), "value": list(figures.values())})


def csv_frame(df: pd.DataFrame) -> pd.DataFrame:
    """A stats table as its CSV holds it: the strategy column named `strategy`, as in
    seats.parquet (the stats tables call it `player`)."""
    return df.rename(columns={"player": "strategy"})


def write_tables(a: RunAnalysis, folder: Path) -> list[Path]:
    """Every table of the run as CSV; seats are numbered from 1 as in the report."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []

    def put(df: pd.DataFrame, name: str, index: bool = False) -> None:
        p = folder / f"{name}.csv"
        csv_frame(df).to_csv(p, index=index, index_label="strategy" if index else None)
        paths.append(p)

    put(a.summary, "summary")
    put(a.quantiles, "score_quantiles")
    put(a.seat_table.assign(seat=a.seat_table["seat"] + 1), "seats")
    put(a.ratings, "ratings")
    put(a.h2h_score, "head_to_head", index=True)
    put(a.h2h_count, "head_to_head_counts", index=True)
    bal = _flat(a.balance)
    bal.update({f"seat_independence.{k}": v for k, v in a.independence.items()})
    put(_figure_table(bal), "balance")
    if a.paired is not None:
        put(a.paired, "paired")
    if a.round_curves is not None:
        put(a.round_curves, "round_scores")
    if a.arc is not None:
        put(a.arc.games, "arc_games")
        if a.arc.margins is not None:
            put(a.arc.margins, "lead_margins")
    if a.match is not None:
        m = _flat(a.match.to_dict())
        put(_figure_table({k: json.dumps(v) if isinstance(v, list) else v for k, v in m.items()}),
            "match")
    return paths


def _draw(r: RunAnalysis, out_dir: Path) -> None:
    """Draw and save the run's charts; keep each PNG and its smallest font for the page."""
    figs: dict[str, Figure] = {
        "win_share": charts.win_shares(r.summary),
        "scores": charts.score_distribution(r.seats, r.higher_is_better, unit=r.score_unit),
        "seats": charts.seat_chart(r.seats, r.higher_is_better, unit=r.score_unit),
        "length": charts.game_length(r.games),
        "convergence": charts.convergence(r.seats),
    }
    if r.round_curves is not None:
        figs["round_scores"] = charts.round_scores_chart(r.round_curves, r.higher_is_better,
                                                         r.round_word, r.score_unit)
    else:   # a run recorded before the round_scores column: final scores by game length
        rounds = charts.rounds_chart(r.games, r.seats, r.higher_is_better, unit=r.score_unit)
        if rounds is not None:
            figs["rounds"] = rounds
    if r.arc is not None and r.arc.margins is not None:
        figs["lead"] = charts.lead_margin_chart(r.arc.margins, r.arc.unit or r.score_unit, r.round_word)
    fig_dir = out_dir / "figures" / r.slug
    for key, fig in figs.items():
        charts.save_figure(fig, fig_dir / key)
        r.figures[key] = (fig_dir / f"{key}.png").read_bytes()
        r.figure_fonts[key] = charts.min_font_pt(fig)


def build_report(run_dirs: Iterable[Path | str], out_dir: Path | str) -> Path:
    """Write the report of `run_dirs` into `out_dir` (see module docstring); return the path
    of report.html."""
    dirs = [Path(p) for p in run_dirs]
    if not dirs:
        raise RunFolderError("no run folder given: name at least one folder written by `simkit run`")
    out_dir = Path(out_dir)
    runs = [analyze_run(p, n) for p, n in zip(dirs, run_names(dirs))]
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunFolderError(f"cannot create the report folder {out_dir} ({exc.strerror}): "
                             f"choose an --out you can write to") from None
    for r in runs:
        _draw(r, out_dir)
        write_tables(r, out_dir / "tables" / r.slug)
    comparison = comparison_png = comparison_font = None
    if len(runs) > 1:
        comparison = comparison_table(runs)
        (out_dir / "tables").mkdir(parents=True, exist_ok=True)
        comparison.to_csv(out_dir / "tables" / "comparison.csv", index=False)
        fig = charts.balance_grid([r.name for r in runs], [r.summary for r in runs])
        charts.save_figure(fig, out_dir / "figures" / "comparison")
        comparison_png = (out_dir / "figures" / "comparison.png").read_bytes()
        comparison_font = charts.min_font_pt(fig)
    (out_dir / "summary.md").write_text(render_markdown(runs, comparison), encoding="utf-8")
    path = out_dir / "report.html"
    path.write_text(render_html(runs, comparison, comparison_png, comparison_font),
                    encoding="utf-8")
    return path
