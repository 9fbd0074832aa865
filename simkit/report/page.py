"""What every page of the report shares: the style sheet, the table-hint script, escaping, tables
in their scrolling boxes, embedded charts, the glossary list and the page frame. The run report
(`simkit.report.html`) and the ladder and tournament pages (`simkit.report.ladder`) are built from
these, so they look alike and pass the same browser test (tests/report/test_pages_chromium.py)."""

from __future__ import annotations

import base64
import html
import math
import re
from collections.abc import Iterable, Sequence

from simkit.report import charts

#: a table: its header and its rows, every cell a string
Table = tuple[list[str], list[list[str]]]

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


def esc(x: object) -> str:
    """`x` as HTML text, quotes escaped too."""
    return html.escape(str(x), quote=True)


#: a cell that reads as a figure (right-aligned): a number, percentage, interval, n/a or dash
FIGURE = re.compile(r"^([+\-−≥≤]\s?)?[\d.,∞]|^(n/a|—|-|yes|no)$")


def align(cell: str) -> str:
    return "" if FIGURE.match(str(cell)) else ' class="t"'


def html_table(table: Table, wrap_last: bool = False) -> str:
    """A table in its scrolling box; words are left-aligned, figures right-aligned (headers
    follow their column's first row)."""
    head, rows = table
    first = rows[0] if rows else head
    th = "".join(f'<th scope="col"{align(c)}>{esc(h)}</th>' for h, c in zip(head, first))
    body = "".join("<tr>" + "".join(f"<td{align(c)}>{esc(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    cls = ' class="wrap-last"' if wrap_last else ""
    return (f'<div class="tablewrap"><p class="hint">◀ scroll sideways for more columns ▶</p>'
            f'<div class="scroll"><table{cls}><thead><tr>{th}</tr></thead>'
            f"<tbody>{body}</tbody></table></div></div>")


def chart_img(png: bytes, alt: str, caption: str, font_pt: float | None = None,
              width_in: float = charts.CHART_WIDTH) -> str:
    """A chart as an embedded PNG with its caption; the data attributes let a browser test
    compute the chart's smallest text as shown (`charts.displayed_font_px`)."""
    data = base64.b64encode(png).decode("ascii")
    attrs = f' data-fig-width-in="{width_in:g}"'
    if font_pt is not None and not math.isnan(font_pt):
        attrs += f' data-min-font-pt="{font_pt:g}"'
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{esc(alt)}"{attrs}>'
            f"<figcaption>{esc(caption)}</figcaption></figure>")


def note(text: str) -> str:
    return f'<p class="note">{esc(text)}</p>'


def glossary_html(items: Iterable[tuple[str, str]], title: str = "Glossary", source: str = "") -> str:
    """The glossary section: each term in bold, its meaning below."""
    terms = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in items)
    more = note(source) if source else ""
    return f'<section id="glossary"><h2>{esc(title)}</h2><dl class="glossary">{terms}</dl>{more}</section>'


def page_html(title: str, body: Iterable[str]) -> str:
    """A whole self-contained page: the shared style and script, `title` as h1, then `body`."""
    return "\n".join(["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                      '<meta name="viewport" content="width=device-width, initial-scale=1">',
                      f"<title>{esc(title)}</title><style>{CSS}</style><script>{SCRIPT}</script>"
                      "</head><body><main>", f"<h1>{esc(title)}</h1>", *body,
                      "</main></body></html>", ""])


def md_table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A Markdown table's lines (pipes in cells escaped)."""
    def cell(text: str) -> str:
        return str(text).replace("|", "\\|")
    return ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(cell(c) for c in row) + " |" for row in rows)]
