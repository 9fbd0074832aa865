"""`report.html`: one self-contained page (CSS inline, charts embedded as base64 PNG, every text
escaped), readable on a phone. The words come from `simkit.report.words`, the cells from
`simkit.report.tables`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pandas as pd

from simkit.report.figures import RunAnalysis, game_title
from simkit.report.page import CSS, SCRIPT
from simkit.report.page import chart_img as _img
from simkit.report.page import esc as _e
from simkit.report.page import html_table as _html_table
from simkit.report.tables import (
    Table,
    arc_rows,
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

    def arc(self) -> list[str]:
        if self.a.arc is None:
            if self.a.arc_reason is None:
                return []
            return [self.open("arc", TITLES["arc"]), _note(self.a.arc_reason), "</section>"]
        return ([self.open("arc", TITLES["arc"]), _html_table(arc_rows(self.a), wrap_last=True),
                 _note(NOTES["arc"])] + ([self.fig("lead")] if "lead" in self.a.figures else [])
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
        out += self.scores() + self.arc() + [self.open("ratings", TITLES["ratings"]),
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
