"""The pieces every study page shares (luck, tune): Markdown and HTML tables, and the page
around a body, styled as the run report (its CSS), readable on a phone (tables scroll)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from simkit.report.html import CSS


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    def cell(text: str) -> str:
        return text.replace("|", "\\|")
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(cell(c) for c in row) + " |" for row in rows)]


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def glossary_html(terms: Sequence[tuple[str, str]]) -> str:
    items = "".join(f"<dt>{html.escape(n)}</dt><dd>{html.escape(m)}</dd>" for n, m in terms)
    return f"<h2>What the figures mean</h2><dl>{items}</dl>"


def page(title: str, body: str) -> str:
    """A whole self-contained page: `body` is HTML, `title` text."""
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body><main>"
            f"<h1>{html.escape(title)}</h1>{body}</main></body></html>")
