"""The tune study's words and pages: progress lines, terminal text, `tune.md` and `tune.html`,
all from the tune folder's `tune.json`."""

from __future__ import annotations

import json
from pathlib import Path

from simkit.engine.records import write_text_file
from simkit.report.page import esc, glossary_html, html_table, md_table, page_html
from simkit.studies.tune import TUNE_MANIFEST, RoundResult

GLOSSARY = [
    ("loss", "how far a rule setting is from the targets: the sum over targets of the figure itself "
             "(for a figure to make small) or of the distance beyond the tolerance, in tolerances; 0 "
             "means every target is met"),
    ("seat_fairness", "the largest gap between a seat's win share and the fair 1/n; 0 is fair"),
    ("length", "decision steps per game"),
    ("rounds", "rounds (hands) per game"),
    ("draws", "share of games without a single winner"),
    ("score", "mean final score of a seat"),
    ("win:NAME", "win share of the seats played by strategy NAME"),
    ("sensitivity", "each field moved one step from the recommendation, on the same deals: how much each "
                    "target's figure changes (with its 95 % interval)"),
]


def _num(x: float) -> str:
    text = f"{x:.4g}"
    return "0" if text in ("-0", "0") else text


def _with_interval(v: list[float] | tuple[float, ...]) -> str:
    return f"{_num(v[0])} [{_num(v[1])}, {_num(v[2])}]"


def round_line(r: RoundResult) -> str:
    """`round 2: 3 settings kept of 6 (400 games each); best rows=4 loss 0.012 [0, 0.03]`."""
    best = r.estimates[r.kept[0]]
    return (f"round {r.round_no + 1}: {len(r.kept)} kept of {len(r.estimates)} settings "
            f"({r.games_each} more games each); best {r.kept[0]}, loss {_num(best.loss)} "
            f"[{_num(best.low)}, {_num(best.high)}] over {best.games} games")


def read_tune(folder: Path | str) -> dict:
    return json.loads((Path(folder) / TUNE_MANIFEST).read_text())


def recommendation(data: dict) -> str:
    setting = ", ".join(f"{k}={v}" for k, v in data["recommended"].items())
    c = data["confirm"]
    return (f"Recommended: {setting} (loss {_num(c['loss'])} [{_num(c['low'])}, {_num(c['high'])}] over "
            f"{c['games']} confirmation games).")


def figure_rows(data: dict) -> list[tuple[str, str]]:
    return [(t, _with_interval(v)) for t, v in data["confirm"]["figures"].items()]


def sensitivity_rows(data: dict) -> list[tuple[str, ...]]:
    return [(f"{s['field']} → {s['value']}", *(_with_interval(s["changes"][t]) for t in data["targets"]))
            for s in data["sensitivity"]]


def round_rows(data: dict) -> list[tuple[str, str, str, str]]:
    rows = []
    for r in data["rounds"]:
        for label, e in sorted(r["estimates"].items(), key=lambda kv: kv[1]["loss"]):
            loss = f"{_num(e['loss'])} [{_num(e['low'])}, {_num(e['high'])}]"
            kept = " (kept)" if label in r["kept"] else ""
            rows.append((str(r["round"] + 1), label, loss, f"{e['games']}{kept}"))
    return rows


def tune_text(data: dict) -> str:
    lines = [recommendation(data), "", f"{'target':<28} figure [95 % interval]"]
    lines += [f"{t:<28} {v}" for t, v in figure_rows(data)]
    if data["sensitivity"]:
        lines += ["", "one step away (change of each target's figure):"]
        for row in sensitivity_rows(data):
            changes = "   ".join(f"{t}: {v}" for t, v in zip(data["targets"], row[1:]))
            lines.append(f"  {row[0]:<26} {changes}")
    return "\n".join(lines)


def write_tune_report(folder: Path | str, out_dir: Path | str | None = None) -> Path:
    """Write tune.md and tune.html of the tune in `folder` into it (or `out_dir`); return the page."""
    data = read_tune(folder)
    folder = Path(out_dir) if out_dir is not None else Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    title = f"Rule tuning: {data['game']}, {data['players']} players"
    targets = ", ".join(data["targets"])
    sens_header = ("field moved", *(f"change of {t}" for t in data["targets"]))
    round_header = ("round", "setting", "loss [95 % interval]", "games so far")
    md = [f"# {title}", "", f"Targets: {targets}.", "", f"**{recommendation(data)}**", "",
          *md_table(("target", "figure [95 % interval]"), figure_rows(data)), "",
          "## Sensitivity", "", *md_table(sens_header, sensitivity_rows(data)), "",
          "## The search", "", *md_table(round_header, round_rows(data)), "",
          "## What the figures mean", "", *(f"- **{n}**: {m}" for n, m in GLOSSARY), ""]
    write_text_file(folder / "tune.md", "\n".join(md))
    body = [f"<p>Targets: {esc(targets)}.</p><p><strong>{esc(recommendation(data))}</strong></p>",
            html_table((["target", "figure [95 % interval]"], [list(r) for r in figure_rows(data)])),
            "<h2>Sensitivity</h2>",
            html_table((list(sens_header), [list(r) for r in sensitivity_rows(data)])),
            "<h2>The search</h2>", html_table((list(round_header), [list(r) for r in round_rows(data)])),
            glossary_html(GLOSSARY, "What the figures mean")]
    path = folder / "tune.html"
    write_text_file(path, page_html(title, body))
    return path
