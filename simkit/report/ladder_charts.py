"""The charts of a ladder or tournament folder: the field's ratings with their intervals, and
(when the field holds ISMCTS at two budgets or more) rating against search budget.

Both are CHART_WIDTH wide under the run report's font sizes (`charts.styled`), so their text
stays legible on a phone as the run report's does.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from simkit.report.charts import CHART_WIDTH, DPI, color, short, styled
from simkit.studies.ladder import LadderResult

#: the rating axis, named once for both charts
RATING_AXIS = "rating (Elo scale, field mean 0)"


def _rows(result: LadderResult) -> dict[str, tuple[float, float, float]]:
    """agent -> (rating, low, high)."""
    r = result.ratings
    return {str(p): (float(x), float(lo), float(hi))
            for p, x, lo, hi in zip(r["player"], r["rating"], r["low"], r["high"])}


@styled
def ratings_chart(result: LadderResult) -> Figure:
    """Each agent's rating as a dot with its 95 % interval, strongest at the top."""
    rows = sorted(_rows(result).items(), key=lambda kv: kv[1][0])
    n = len(rows)
    fig = Figure(figsize=(CHART_WIDTH, max(1.8, 0.42 * n + 1.2)), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    ax.grid(True, axis="x", alpha=0.3)
    y = np.arange(n)
    x = np.array([v[0] for _, v in rows])
    err = np.vstack([x - np.array([v[1] for _, v in rows]), np.array([v[2] for _, v in rows]) - x])
    ax.errorbar(x, y, xerr=err, fmt="o", color=color(0), ecolor="black", capsize=4, linewidth=1.2)
    ax.axvline(0.0, color="0.5", linestyle=":", linewidth=1)
    ax.set_yticks(y, [short(a) for a, _ in rows])
    ax.set_ylim(-0.6, n - 0.4)
    ax.set_xlabel(RATING_AXIS)
    ax.set_title("Ratings with 95 % intervals")
    return fig


@styled
def budget_chart(result: LadderResult) -> Figure | None:
    """ISMCTS rating against its iteration budget (log axis), the other agents as labelled
    reference lines; None when fewer than two budgets were played (nothing to draw a line
    through: the ratings chart says it all)."""
    rows = _rows(result)
    searched = sorted((b, a) for a, b in result.budgets().items() if a in rows)
    if len(searched) < 2:
        return None
    fig = Figure(figsize=(CHART_WIDTH, 3.6), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    ax.grid(True, alpha=0.3)
    x = np.array([b for b, _ in searched], dtype=float)
    y = np.array([rows[a][0] for _, a in searched])
    err = np.vstack([y - np.array([rows[a][1] for _, a in searched]),
                     np.array([rows[a][2] for _, a in searched]) - y])
    ax.errorbar(x, y, yerr=err, marker="o", color=color(0), capsize=4, label="ismcts")
    ax.set_xscale("log")
    ax.set_xticks(x, [f"{int(b)}" for b in x])
    ax.minorticks_off()
    others = [a for a in rows if a not in result.budgets()]
    for k, agent in enumerate(others, start=1):
        ax.axhline(rows[agent][0], color=color(k), linestyle="--", linewidth=1.2, label=short(agent))
    ax.set_xlabel("ISMCTS iterations per decision (log scale)")
    ax.set_ylabel(RATING_AXIS)
    ax.set_title("Strength against search budget")
    fig.legend(loc="outside lower center", ncols=min(3, len(others) + 1), frameon=False)
    return fig
