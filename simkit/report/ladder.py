"""The ladder report: ratings with intervals, the search-budget chart, the skill-depth figure.

`write_ladder_report(folder)` writes `ladder.md`, `ladder.html` (chart embedded), `ladder.png`
and `ladder.svg` and the CSV tables into the ladder folder; `ladder_text` is the terminal text.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.figure import Figure

from simkit.engine.records import write_text_file
from simkit.report.charts import WIDTH, _color, save_figure
from simkit.report.figures import RatingFigures, typed_rows
from simkit.report.writer import csv_frame
from simkit.studies.ladder import LadderResult, analyse_ladder

EXPLAIN_RATING = ("Plackett-Luce rating on the Elo scale over every game of every pairing (mean 0; "
                  "+191 means 3:1 odds of finishing ahead in a two-seat pairing), with its 95 % interval.")
EXPLAIN_SCORE = ("pairwise score: how often a seat of A finished ahead of a seat of B in the same game "
                 "(ties half); 50 % is fair.")


def budget_chart(result: LadderResult) -> Figure:
    """ISMCTS rating against its iteration budget (log axis), other agents as reference lines."""
    fig = Figure(figsize=(WIDTH, 3.8), dpi=110, layout="constrained")
    ax = fig.add_subplot()
    ax.grid(True, alpha=0.3)
    rows = result.ratings.set_index("player")
    budgets = result.budgets()
    searched = sorted(((b, a) for a, b in budgets.items() if a in rows.index))
    if searched:
        x = np.array([b for b, _ in searched], dtype=float)
        y = np.array([rows.loc[a, "rating"] for _, a in searched])
        lo = y - np.array([rows.loc[a, "low"] for _, a in searched])
        hi = np.array([rows.loc[a, "high"] for _, a in searched]) - y
        ax.errorbar(x, y, yerr=[lo, hi], marker="o", color=_color(0), capsize=4, label="ismcts")
        ax.set_xscale("log")
        ax.set_xticks(x, [f"{int(b)}" for b in x])
        ax.minorticks_off()
        ax.set_xlabel("ISMCTS iterations per decision (log scale)")
    else:
        ax.set_xlabel("(no ISMCTS agent in this ladder)")
    others = [a for a in rows.index if a not in budgets]
    for k, agent in enumerate(others, start=1):
        ax.axhline(rows.loc[agent, "rating"], color=_color(k), linestyle="--", linewidth=1.2, label=agent)
    ax.set_ylabel("rating (Elo scale)")
    ax.set_title(f"{result.plan['game']}, {result.plan['n_players']} players: strength against search budget",
                 fontsize=10)
    ax.legend(fontsize=8, loc="best")
    return fig


def _ratings_lines(result: LadderResult) -> list[tuple[str, str, str, str]]:
    return [(str(r.player), f"{r.rating:+.0f}", f"{r.low:+.0f} to {r.high:+.0f}", str(int(r.games)))
            for r in typed_rows(result.ratings, RatingFigures, RatingFigures._fields)]


def _pair_lines(result: LadderResult) -> list[tuple[str, str, str, str]]:
    return [(f"{p.a} vs {p.b}", f"{100 * p.score:.1f} %", f"{100 * p.low:.1f} to {100 * p.high:.1f} %",
             str(p.units)) for p in result.pairs]


def depth_sentence(result: LadderResult) -> str:
    depth = result.depth
    if depth.length < 2:
        return (f"Skill depth 1: no agent beats another significantly ({depth.correction}); "
                f"play more games per pairing to tell them apart.")
    chain = " < ".join(depth.chain)
    return (f"Skill depth {depth.length}: the longest chain of agents each beating the one before it "
            f"significantly ({depth.correction}) is {chain}.")


def ladder_text(result: LadderResult) -> str:
    """The terminal summary: ratings, pairings, depth."""
    lines = [f"Ladder of {result.plan['game']} ({result.plan['n_players']} players, "
             f"{result.plan['games_per_pair']} games per pairing, seed {result.plan['seed']})", "",
             f"{'agent':<28} {'rating':>7}  {'95 % interval':<16} games"]
    lines += [f"{a:<28} {r:>7}  {i:<16} {g}" for a, r, i, g in _ratings_lines(result)]
    lines += ["", f"{'pairing':<44} {'A pairwise':>10}  {'95 % interval':<18} units"]
    lines += [f"{p:<44} {s:>10}  {i:<18} {u}" for p, s, i, u in _pair_lines(result)]
    lines += ["", depth_sentence(result)]
    return "\n".join(lines)


def _md_table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    def cell(text: str) -> str:
        return text.replace("|", "\\|")
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(cell(c) for c in row) + " |" for row in rows)]


def _html_table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


RATING_HEADER = ("agent", "rating", "95 % interval", "games")
PAIR_HEADER = ("pairing (A vs B)", "A pairwise score", "95 % interval", "units")


def write_ladder_report(folder: Path | str, result: LadderResult | None = None) -> Path:
    """Write the ladder's report files into `folder`; return the HTML page. `result` is the
    folder's analysis when the caller has it already (it is read from the folder otherwise)."""
    folder = Path(folder)
    result = result if result is not None else analyse_ladder(folder)
    png, _ = save_figure(budget_chart(result), folder / "ladder")
    csv_frame(result.ratings).to_csv(folder / "ladder_ratings.csv", index=False)
    title = f"Ladder: {result.plan['game']}, {result.plan['n_players']} players"
    md = [f"# {title}", "", depth_sentence(result), "", "![ratings against search budget](ladder.png)", "",
          "## Ratings", "", EXPLAIN_RATING, "", *_md_table(RATING_HEADER, _ratings_lines(result)), "",
          "## Pairings", "", EXPLAIN_SCORE, "", *_md_table(PAIR_HEADER, _pair_lines(result)), ""]
    write_text_file(folder / "ladder.md", "\n".join(md))
    image = base64.b64encode(png.read_bytes()).decode("ascii")
    page = f"""<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;max-width:60rem;margin:auto;padding:0 1rem;line-height:1.4}}
img{{max-width:100%;height:auto}} .scroll{{overflow-x:auto}} table{{border-collapse:collapse}}
td,th{{border-bottom:1px solid #ddd;padding:.25rem .5rem;text-align:left}}</style></head><body>
<h1>{html.escape(title)}</h1><p><strong>{html.escape(depth_sentence(result))}</strong></p>
<img alt="ratings against search budget" src="data:image/png;base64,{image}">
<h2>Ratings</h2><p>{html.escape(EXPLAIN_RATING)}</p>{_html_table(RATING_HEADER, _ratings_lines(result))}
<h2>Pairings</h2><p>{html.escape(EXPLAIN_SCORE)}</p>{_html_table(PAIR_HEADER, _pair_lines(result))}
</body></html>
"""
    out = folder / "ladder.html"
    write_text_file(out, page)
    return out
