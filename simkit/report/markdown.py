"""`summary.md`: the headline, the key tables in Markdown and links to the charts. The words
come from `simkit.report.words`, the cells from `simkit.report.tables`."""

from __future__ import annotations

import pandas as pd

from simkit.report.figures import RunAnalysis, game_title
from simkit.report.tables import (
    Table,
    arc_rows,
    balance_rows,
    comparison_rows,
    comparison_strategy_rows,
    match_rows,
    paired_rows,
    rating_rows,
    seat_rows,
    strength_rows,
    summary_rows,
)
from simkit.report.words import (
    COMPARISON_CHART,
    COMPARISON_TITLE,
    GLOSSARY,
    GLOSSARY_TITLE,
    MD_TITLES,
    NOTES,
    chart_name,
    headline_answers,
    independence_text,
    match_title,
    ratings_note,
    round_caption,
    run_facts,
    sweep_verdict,
)

#: characters that Markdown (or HTML inside it) would read as markup in a table cell or list item
_MD_SPECIAL = set("\\`*_[]<>|~&")


def _md_cell(x: object) -> str:
    """Text shown as itself: every markup character backslash-escaped, one line."""
    text = " ".join(str(x).splitlines())
    return "".join("\\" + c if c in _MD_SPECIAL else c for c in text)


def _md_table(table: Table) -> str:
    head, rows = table
    lines = ["| " + " | ".join(_md_cell(h) for h in head) + " |",
             "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _md_img(alt: str, path: str) -> str:
    """An embedded chart; the path is relative to summary.md and made of safe characters."""
    return f"![{_md_cell(alt)}]({path})"


def _title(key: str) -> str:
    return f"### {MD_TITLES[key]}"


def _run_markdown(r: RunAnalysis) -> list[str]:
    """One run: the headline, the run details, then its tables and charts."""
    def chart(key: str) -> str:
        return _md_img(chart_name(key, r), f"figures/{r.slug}/{key}.png")

    out = [f"## {_md_cell(game_title(r.manifest))}: {_md_cell(r.name)}", ""]
    out += [f"- **{_md_cell(q if q.endswith('?') else q + ':')}** "
            + (f"{_md_cell(k)}. " if k else "") + _md_cell(t)
            for q, k, t in headline_answers(r)] + [""]
    out += ["Run details:", ""]
    out += [f"- **{_md_cell(k)}**: {_md_cell(v)}" for k, v in run_facts(r)] + [""]
    out += [_title("strength"), "", _md_table(strength_rows(r)), "", chart("win_share"), ""]
    if r.match is not None:
        out += [f"### {_md_cell(match_title(r.match.a, r.match.b))}", "",
                _md_table(match_rows(r.match, r.pl_difference())), ""]
    out += [_title("summary"), "", _md_table(summary_rows(r)), ""]
    if r.paired is not None:
        out += [_title("paired"), "", _md_table(paired_rows(r)), ""]
    out += [_title("scores"), "", chart("scores"), ""]
    if "round_scores" in r.figures:
        out += [chart("round_scores"), _md_cell(round_caption(r)), ""]
    if "rounds" in r.figures:
        out += [chart("rounds"), ""]
    if r.arc is not None:
        out += [_title("arc"), "", _md_table(arc_rows(r)), "", _md_cell(NOTES["arc"]), ""]
        if "lead" in r.figures:
            out += [chart("lead"), ""]
    elif r.arc_reason is not None:
        out += [_title("arc"), "", _md_cell(r.arc_reason), ""]
    out += [_title("ratings"), "", _md_table(rating_rows(r)), "", _md_cell(ratings_note(r)), ""]
    out += [_title("seats"), "", _md_table(seat_rows(r)), "",
            _md_cell(independence_text(r)), "", chart("seats"), ""]
    out += [_title("balance"), "", _md_table(balance_rows(r)), "",
            chart("length"), "", chart("convergence"), ""]
    return out


def render_markdown(runs: list[RunAnalysis], comparison: pd.DataFrame | None) -> str:
    """summary.md: the comparison of several runs first, then each run, then the glossary."""
    out = ["# simkit report", ""]
    if comparison is not None:
        out += [_md_cell(sweep_verdict(runs, comparison)), ""]
        out += [f"## {COMPARISON_TITLE}", "", _md_table(comparison_strategy_rows(runs)), "",
                _md_img(COMPARISON_CHART, "figures/comparison.png"), "",
                _md_table(comparison_rows(comparison)), ""]
    for r in runs:
        out += _run_markdown(r)
    out += [f"## {GLOSSARY_TITLE}", ""] + [f"- **{_md_cell(k)}**: {_md_cell(v)}"
                                          for k, v in GLOSSARY]
    return "\n".join(out) + "\n"
