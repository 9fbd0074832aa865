"""`report.html`: one self-contained page (CSS inline, charts embedded as base64 PNG, every text
escaped), readable on a phone. The words come from `simkit.report.words`, the cells from
`simkit.report.tables`."""

from __future__ import annotations

import base64
import html
import math
import re
from collections.abc import Callable
from datetime import UTC, datetime

import pandas as pd

from simkit.report import charts
from simkit.report.figures import RunAnalysis, game_title
from simkit.report.tables import (
    Table,
    balance_rows,
    comparison_rows,
    comparison_strategy_rows,
    h2h_rows,
    match_rows,
    paired_rows,
    quantile_rows,
    rating_rows,
    seat_rows,
    strength_rows,
    summary_rows,
)
from simkit.report.words import (
    COMPARISON_CAPTION,
    COMPARISON_CHART_HTML,
    COMPARISON_NOTE,
    COMPARISON_TITLE,
    GLOSSARY,
    GLOSSARY_SOURCE,
    GLOSSARY_TITLE,
    NOTES,
    TITLES,
    chart_caption,
    chart_name,
    comparison_cells_note,
    generated_note,
    headline_answers,
    independence_text,
    lineup_text,
    match_title,
    rating_scale,
    ratings_note,
    report_title,
    run_facts,
    sweep_verdict,
)

#: the sections of every run, by their id in the page
SECTIONS = ("headline", "strength", "summary", "scores", "ratings", "head-to-head", "seats",
            "balance", "convergence")

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:0 .8rem;
color:#1b1b1b;background:#fff;line-height:1.45;font-size:16px}
main{max-width:960px;margin:0 auto}
h1{font-size:1.5rem;margin:1rem 0 .3rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:1.6rem 0 .4rem;border-bottom:2px solid #ddd;padding-bottom:.2rem;
overflow-wrap:anywhere}h3{font-size:1.05rem;margin:1.1rem 0 .3rem;overflow-wrap:anywhere}
.tablewrap{margin:.4rem 0;max-width:100%}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}
.hint{display:none;font-size:.8rem;color:#555;margin:.1rem 0}
.tablewrap.overflowing .hint{display:block}
.tablewrap.overflowing .scroll{box-shadow:inset -10px 0 8px -8px rgba(0,0,0,.35)}
table{border-collapse:collapse;font-size:.85rem;min-width:100%}
th,td{padding:.25rem .5rem;border-bottom:1px solid #e5e5e5;text-align:right;white-space:nowrap}
th{white-space:normal;vertical-align:bottom;min-width:3.5rem}
th:first-child,td:first-child,th.t,td.t{text-align:left}th{background:#f5f5f5}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;font-size:.9rem}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere;min-width:0}
figure{margin:.6rem 0}figure img{max-width:min(100%,560px);height:auto;display:block;
border:1px solid #eee}
figcaption{font-size:.8rem;color:#555}.note{font-size:.9rem;color:#333}
nav{font-size:.9rem;overflow-wrap:anywhere}nav a{margin-right:.6rem}.verdict{font-weight:600}
.headline{font-size:1rem;background:#f6f8fa;border-left:4px solid #2a6;padding:.5rem .7rem;
margin:.5rem 0}
dl.headline{display:grid;grid-template-columns:max-content 1fr;gap:.35rem .9rem}
dl.headline dt{font-weight:600;color:#2a6b45}dl.headline dd{margin:0;min-width:0}
details{margin:.4rem 0}summary{cursor:pointer;font-weight:600}
dl.glossary dt{font-weight:600;margin-top:.4rem}dl.glossary dd{margin:0 0 0 .8rem}
table.wrap-last td:last-child,table.wrap-last th:last-child{white-space:normal;text-align:left;
min-width:11rem}table.wrap-last td:first-child{white-space:normal;min-width:6rem}
@media (max-width:600px){body{font-size:15px;padding:0 .5rem}table{font-size:.75rem}
th,td{padding:.2rem .3rem}h1{font-size:1.25rem}h2{font-size:1.1rem}
dl.facts,dl.headline{grid-template-columns:1fr}dl.facts dd{margin-bottom:.2rem}
dl.headline{gap:0 .9rem;font-size:.95rem}dl.headline dd{margin-bottom:.35rem}
table.wrap-last td:last-child,table.wrap-last th:last-child{min-width:7rem}
table.wrap-last td:first-child{min-width:5rem}}
"""

#: marks every table wider than its box, which shows the "scroll sideways" hint above it
SCRIPT = """
function simkitHints(){document.querySelectorAll('.tablewrap').forEach(function(w){
var s=w.querySelector('.scroll');w.classList.toggle('overflowing',s.scrollWidth>s.clientWidth+1);});}
window.addEventListener('load',simkitHints);window.addEventListener('resize',simkitHints);
"""


def _e(x: object) -> str:
    return html.escape(str(x), quote=True)


#: a cell that reads as a figure (right-aligned): a number, percentage, interval, n/a or dash
_FIGURE = re.compile(r"^([+\-−≥≤]\s?)?[\d.,∞]|^(n/a|—|-|yes|no)$")


def _align(cell: str) -> str:
    return "" if _FIGURE.match(str(cell)) else ' class="t"'


def _html_table(table: Table, wrap_last: bool = False) -> str:
    """A table in its scrolling box; words are left-aligned, figures right-aligned (headers
    follow their column's first row)."""
    head, rows = table
    first = rows[0] if rows else head
    th = "".join(f'<th scope="col"{_align(c)}>{_e(h)}</th>' for h, c in zip(head, first))
    body = "".join("<tr>" + "".join(f"<td{_align(c)}>{_e(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    cls = ' class="wrap-last"' if wrap_last else ""
    return (f'<div class="tablewrap"><p class="hint">◀ scroll sideways for more columns ▶</p>'
            f'<div class="scroll"><table{cls}><thead><tr>{th}</tr></thead>'
            f"<tbody>{body}</tbody></table></div></div>")


def _img(png: bytes, alt: str, caption: str, font_pt: float | None = None) -> str:
    data = base64.b64encode(png).decode("ascii")
    attrs = f' data-fig-width-in="{charts.CHART_WIDTH}"'
    if font_pt is not None and not math.isnan(font_pt):
        attrs += f' data-min-font-pt="{font_pt:g}"'
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{_e(alt)}"{attrs}>'
            f"<figcaption>{_e(caption)}</figcaption></figure>")


def _note(text: str) -> str:
    return f'<p class="note">{_e(text)}</p>'


def _headline_html(a: RunAnalysis) -> str:
    """The answers as a list a reader scans: the question, its short answer in bold, then the
    sentence with the figures behind it."""
    items = "".join(f"<dt>{_e(q)}</dt><dd>" + (f"<strong>{_e(k)}.</strong> " if k else "")
                    + f"{_e(s)}</dd>" for q, k, s in headline_answers(a))
    return f'<dl class="headline">{items}</dl>'


class _RunPage:
    """The sections of one run; in a page of several runs every id gets the run's prefix and
    the section titles are one level lower."""

    def __init__(self, a: RunAnalysis, idx: int, multi: bool) -> None:
        self.a, self.multi = a, multi
        self.pid = f"run{idx}-" if multi else ""
        self.h = "h3" if multi else "h2"

    def open(self, key: str, title: str) -> str:
        return f'<section id="{self.pid}{key}"><{self.h}>{_e(title)}</{self.h}>'

    def fig(self, key: str) -> str:
        a = self.a
        return _img(a.figures[key], f"{chart_name(key, a)} chart", chart_caption(key, a),
                    a.figure_fonts.get(key))

    def headline(self) -> str:
        a = self.a
        # a single run's h1 already names it: the verdict follows at once, within the first screen
        head = f"<h2>{_e(game_title(a.manifest))}: {_e(a.name)}</h2>" if self.multi else ""
        return "\n".join([
            f'<section id="{self.pid}headline">{head}',
            f'<p class="note">Rules {_e(a.manifest.get("rules_version", "?"))}; lineup '
            f"{_e(lineup_text(a))}; {_e(len(a.games))} games.</p>",
            _headline_html(a),
            '<details><summary>Run details and config</summary><dl class="facts">'
            + "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in run_facts(a))
            + "</dl></details></section>"])

    def strength(self) -> list[str]:
        scale, rest = rating_scale(self.a)
        return [self.open("strength", TITLES["strength"]), _html_table(strength_rows(self.a)),
                _note(NOTES["strength"]), self.fig("win_share"),
                f'<p class="note">Rating scale: <strong>{_e(scale)}</strong>{_e(rest)}</p>',
                "</section>"]

    def match(self) -> list[str]:
        m = self.a.match
        if m is None:
            return []
        out = [self.open("match", match_title(m.a, m.b)),
               _html_table(match_rows(m, self.a.pl_difference()), wrap_last=True),
               _note(NOTES["match"])]
        if m.sprt is not None:
            out.append(f'<p class="verdict">{_e(m.verdict())}</p>')
        return out + ["</section>"]

    def table(self, key: str, rows: Callable[[RunAnalysis], Table]) -> list[str]:
        """A section holding one table and its note."""
        return [self.open(key, TITLES[key]), _html_table(rows(self.a)), _note(NOTES[key]),
                "</section>"]

    def scores(self) -> list[str]:
        return ([self.open("scores", TITLES["scores"]), _html_table(quantile_rows(self.a)),
                 self.fig("scores")]
                + [self.fig(k) for k in ("round_scores", "rounds") if k in self.a.figures]
                + ["</section>"])

    def seats(self) -> list[str]:
        return [self.open("seats", TITLES["seats"]), _html_table(seat_rows(self.a)),
                _note(independence_text(self.a)), self.fig("seats"), "</section>"]

    def rest(self) -> list[str]:
        return [self.open("balance", TITLES["balance"]),
                _html_table(balance_rows(self.a), wrap_last=True), self.fig("length"),
                "</section>", self.open("convergence", TITLES["convergence"]),
                self.fig("convergence"), "</section></article>"]

    def render(self) -> str:
        out = [f'<article id="{self.pid}run">', self.headline()]
        out += self.strength() + self.match() + self.table("summary", summary_rows)
        if self.a.paired is not None:
            out += self.table("paired", paired_rows)
        out += self.scores() + [self.open("ratings", TITLES["ratings"]),
                                _html_table(rating_rows(self.a)), _note(ratings_note(self.a)),
                                "</section>"]
        out += self.table("head-to-head", h2h_rows) + self.seats() + self.rest()
        return "\n".join(out)


def _glossary_html() -> str:
    items = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in GLOSSARY)
    return (f'<section id="glossary"><h2>{GLOSSARY_TITLE}</h2><dl class="glossary">{items}</dl>'
            f'<p class="note">{_e(GLOSSARY_SOURCE)}</p></section>')


def _comparison_html(runs: list[RunAnalysis], comparison: pd.DataFrame,
                     comparison_png: bytes | None, comparison_font: float | None) -> list[str]:
    """The verdict across the cells, links to each run, and the tables of every cell."""
    parts = [f'<p class="headline">{_e(sweep_verdict(runs, comparison))}</p>',
             "<nav>" + "".join(f'<a href="#run{i}-run">{_e(r.name)}</a>'
                               for i, r in enumerate(runs)) + "</nav>",
             f'<section id="comparison"><h2>{COMPARISON_TITLE}</h2>',
             _html_table(comparison_strategy_rows(runs)), _note(COMPARISON_NOTE)]
    if comparison_png:
        parts.append(_img(comparison_png, f"{COMPARISON_CHART_HTML} chart", COMPARISON_CAPTION,
                          comparison_font))
    parts += [_html_table(comparison_rows(comparison)),
              _note(comparison_cells_note(comparison.attrs.get("correction", "Holm"))),
              "</section>"]
    return parts


def render_html(runs: list[RunAnalysis], comparison: pd.DataFrame | None,
                comparison_png: bytes | None, comparison_font: float | None = None) -> str:
    """The whole page: the comparison of several runs first, then each run, then the glossary."""
    multi = len(runs) > 1
    title = report_title(runs)
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)}</title><style>{CSS}</style><script>{SCRIPT}</script>"
             "</head><body><main>",
             f"<h1>{_e(title)}</h1>"]
    if multi and comparison is not None:
        parts += _comparison_html(runs, comparison, comparison_png, comparison_font)
    parts += [_RunPage(r, i, multi).render() for i, r in enumerate(runs)]
    parts.append(_glossary_html())
    parts.append(_note(generated_note(stamp, len(runs))))
    parts.append("</main></body></html>")
    return "\n".join(parts)
