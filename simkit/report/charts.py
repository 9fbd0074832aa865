"""Matplotlib charts of a run (Agg backend): each function returns a Figure.

`save_figure` writes a figure as PNG and SVG (the report embeds the PNG). The report's figures
are CHART_WIDTH (4.4 in) wide with no text under MIN_FONT_PT (9 pt): shown 380 px wide on a
400 px phone screen, 9 pt becomes 9/72·380/4.4 ≈ 10.8 px, above the 10 px a phone needs
(`displayed_font_px` computes it; the report's tests check it in a browser). Seats are
numbered from 1 (the first player) on every axis.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.typing import RcKeyType  # noqa: E402

from simkit.stats.tables import (  # noqa: E402
    player_key,
    players,
    running_win_share,
    seat_effects,
    summary_table,
)

#: width and resolution of the run report's figures: narrow enough that 9 pt text stays above
#: 10 px on a phone, 150 dpi so they stay sharp at desktop width (660 px)
CHART_WIDTH = 4.4
DPI = 150
MIN_FONT_PT = 9.0
COLORS = matplotlib.color_sequences["tab10"]
P = ParamSpec("P")
R = TypeVar("R")
STYLE: dict[RcKeyType, float] = {"font.size": 9.5, "axes.titlesize": 10.5, "axes.labelsize": 9.5,
         "xtick.labelsize": 9.0, "ytick.labelsize": 9.0, "legend.fontsize": 9.0,
         "figure.titlesize": 10.5}


def styled(fn: Callable[P, R]) -> Callable[P, R]:
    """Run a chart function under the report's font sizes (none below MIN_FONT_PT)."""
    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with matplotlib.rc_context(STYLE):
            return fn(*args, **kwargs)
    return wrapper


def min_font_pt(fig: Figure) -> float:
    """The smallest font size (points) of any visible, non-empty text of `fig`."""
    sizes = [t.get_fontsize() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip()]
    return float(min(sizes)) if sizes else float("nan")


def displayed_font_px(font_pt: float, fig_width_in: float, shown_px: float) -> float:
    """CSS pixels of `font_pt` text in a figure `fig_width_in` wide shown `shown_px` wide."""
    return font_pt / 72.0 * shown_px / fig_width_in


#: the longest strategy label a chart shows whole; a longer one keeps its start and end
LABEL_CHARS = 36


def short(label) -> str:
    """A strategy label for a chart: whole up to LABEL_CHARS, else its start … its end (a long
    plug-in path with parameters would squeeze the plot to nothing)."""
    text = str(label)
    if len(text) <= LABEL_CHARS:
        return text
    return text[:LABEL_CHARS - 12] + "…" + text[-11:]


#: win shares and rates are shown in % on every axis, as in the tables
PERCENT = matplotlib.ticker.PercentFormatter(1.0, decimals=0)


def _better(higher_is_better: bool, sep: str = " ") -> str:
    return "" if higher_is_better else f"{sep}(lower is better)"


def color(i: int):
    """The i-th colour of the report's palette (tab10, cycling)."""
    return COLORS[i % len(COLORS)]


def _figure(height: float = 3.6) -> tuple[Figure, plt.Axes]:
    fig = Figure(figsize=(CHART_WIDTH, height), dpi=DPI, layout="constrained")
    ax = fig.add_subplot()
    ax.grid(True, axis="both", alpha=0.3)
    return fig, ax


def save_figure(fig: Figure, stem: Path | str) -> tuple[Path, Path]:
    """Write `stem`.png and `stem`.svg; return both paths."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    fig.savefig(png, format="png")
    fig.savefig(svg, format="svg")
    return png, svg


def _bins(x: np.ndarray, target: int) -> np.ndarray:
    """About `target` bins; whole-number data gets whole-number bin widths centred on values."""
    lo, hi = float(x.min()), float(x.max())
    if np.all(np.equal(np.mod(x, 1), 0)):
        width = max(1, int(np.ceil((hi - lo + 1) / target)))
        return np.arange(lo - 0.5, hi + width + 0.5, width)
    return np.histogram_bin_edges(x, bins=target)


@styled
def score_distribution(seats: pd.DataFrame, higher_is_better: bool = True,
                       title: str = "Score distribution per strategy", unit: str = "score") -> Figure:
    """Step histograms of each strategy's per-seat score (forfeited seats left out), with the
    mean marked; integer scores get one bin per value when the range is small. `unit` names
    the axis in the game's own unit (bullheads, points)."""
    fig, ax = _figure(3.8)
    key = player_key(seats)
    scores = seats["score"].to_numpy(dtype=float)
    finite = scores[~np.isnan(scores)]
    if finite.size == 0:
        ax.text(0.5, 0.5, "no scores", ha="center", va="center", transform=ax.transAxes)
        return fig
    bins = _bins(finite, 40)
    for i, p in enumerate(players(seats)):
        x = seats.loc[key == p, "score"].to_numpy(dtype=float)
        x = x[~np.isnan(x)]
        if x.size == 0:
            continue
        ax.hist(x, bins=bins.tolist(), density=True, histtype="step", linewidth=1.6, color=color(i),
                label=f"{short(p)} (mean {x.mean():.1f})")
        ax.axvline(x.mean(), color=color(i), linestyle="--", linewidth=1)
    ax.set_xlabel(f"{unit} per game{_better(higher_is_better)}")
    ax.set_ylabel("share of games")
    ax.set_title(title, fontsize=10.5)
    fig.legend(fontsize=9, loc="outside lower center", ncols=2, frameon=False)
    return fig


@styled
def win_shares(table: pd.DataFrame, title: str = "Win share with 95 % Wilson interval") -> Figure:
    """Horizontal bars of each strategy's win share with its interval; the tick marks the fair
    share (its seats per game / players)."""
    n = len(table)
    fig, ax = _figure(max(1.6, 0.55 * n + 1.1))
    y = np.arange(n)[::-1]
    share = table["win_share"].to_numpy()
    err = np.vstack([share - table["win_low"].to_numpy(), table["win_high"].to_numpy() - share])
    ax.barh(y, share, color=[color(i) for i in range(n)], alpha=0.8)
    ax.errorbar(share, y, xerr=err, fmt="none", ecolor="black", capsize=4, linewidth=1.2)
    for yi, f in zip(y, table["fair_share"].to_numpy()):
        ax.plot([f, f], [yi - 0.4, yi + 0.4], color="black", linestyle=":", linewidth=1.5)
    labels = [ax.text(s, yi + 0.25, f" {100 * s:.1f}%", va="center", fontsize=9)
              for yi, s in zip(y, share)]
    spg = table["seats_per_game"].to_numpy() if "seats_per_game" in table else np.ones(n)
    ax.set_yticks(y, [f"{short(p)} ({k:g} seats)" if k > 1 else short(p)
                      for p, k in zip(table["player"], spg)])
    ax.set_xlim(0, min(1.0, max(float(table["win_high"].max()), 0.05) * 1.25))
    ax.xaxis.set_major_formatter(PERCENT)
    ax.set_xlabel("win share per game (dotted: fair share)")
    ax.set_title(title, fontsize=10.5)
    keep_inside(fig, ax, labels)
    return fig


def keep_inside(fig: Figure, ax: plt.Axes, labels: list[Text]) -> None:
    """Move each bar label that would run across the chart's right frame inside its bar's end
    (right-aligned, white on the bar), once the figure's layout is final."""
    fig.draw_without_rendering()
    frame = ax.get_window_extent()
    for label in labels:
        if label.get_window_extent().x1 > frame.x1 - 1:
            label.set_text(label.get_text().strip() + " ")
            label.set_horizontalalignment("right")
            label.set_color("white")
            label.set_fontweight("bold")


@styled
def seat_chart(seats: pd.DataFrame, higher_is_better: bool = True,
               title: str = "Seat (turn-order) effects", unit: str = "score") -> Figure:
    """Win rate per seat with intervals and the fair rate 1/n; mean score per seat beside it."""
    se = seat_effects(seats)
    fig = Figure(figsize=(CHART_WIDTH, 3.2), dpi=DPI, layout="constrained")
    a1, a2 = fig.subplots(1, 2)
    x = se["seat"].to_numpy()
    labels = [str(s + 1) for s in x]
    r = se["win_rate"].to_numpy()
    a1.bar(x, r, color=color(0), alpha=0.8)
    a1.errorbar(x, r, yerr=np.vstack([r - se["win_low"], se["win_high"] - r]), fmt="none",
                ecolor="black", capsize=4)
    a1.axhline(float(se["fair_rate"].iloc[0]), color="black", linestyle=":", label="fair 1/n")
    a1.set_xticks(x, labels)
    a1.set_xlabel("seat (1 = first player)")
    a1.set_ylabel("win rate")
    a1.yaxis.set_major_formatter(PERCENT)
    a1.grid(True, alpha=0.3)
    m = se["mean_score"].to_numpy()
    a2.bar(x, m, color=color(1), alpha=0.8)
    a2.errorbar(x, m, yerr=np.vstack([m - se["score_low"], se["score_high"] - m]), fmt="none",
                ecolor="black", capsize=4)
    a2.set_xticks(x, labels)
    a2.set_xlabel("seat")
    a2.set_ylabel(f"mean {unit}{_better(higher_is_better, chr(10))}")
    a2.grid(True, alpha=0.3)
    fig.suptitle(title, fontsize=10.5)
    fig.legend(fontsize=9, loc="outside lower center", frameon=False)   # not over the bars
    return fig


@styled
def game_length(games: pd.DataFrame, title: str = "Game length") -> Figure:
    """Histogram of decision steps per game, and of the first game-specific length column
    (rounds, turns) when there is one."""
    extra = [c for c in ("rounds", "turns") if c in games.columns]
    cols = ["steps"] + extra[:1]
    fig = Figure(figsize=(CHART_WIDTH, 3.0), dpi=DPI, layout="constrained")
    axes = fig.subplots(1, len(cols))
    axes = np.atleast_1d(axes)
    for i, (ax, col) in enumerate(zip(axes, cols)):
        x = games[col].to_numpy(dtype=float)
        x = x[~np.isnan(x)]         # a game without a result (a forfeit) has no rounds or turns
        if x.size == 0:
            continue
        ax.hist(x, bins=_bins(x, 25), color=color(i + 2), alpha=0.8)
        ax.axvline(x.mean(), color="black", linestyle="--", linewidth=1,
                   label=f"mean {x.mean():.1f}")
        ax.set_xlabel(col)
        ax.set_ylabel("games")
        ax.legend(fontsize=9)
        ax.grid(True, alpha=0.3)
    fig.suptitle(title, fontsize=10.5)
    return fig


@styled
def convergence(seats: pd.DataFrame, title: str = "Running win share with 95 % band") -> Figure:
    """Each strategy's cumulative win share after each game, with its Wilson band narrowing."""
    fig, ax = _figure(3.6)
    run = running_win_share(seats)
    if len(run) and run["games"].max() >= 50:
        run = run[run["games"] >= 10]          # the first few games only add noise
    fair = summary_table(seats).set_index("player")["fair_share"]
    for i, p in enumerate(players(seats)):
        sub = run[run["player"] == p]
        ax.plot(sub["games"], sub["win_share"], color=color(i), linewidth=1.4, label=short(p))
        ax.fill_between(sub["games"], sub["low"], sub["high"], color=color(i), alpha=0.12,
                        linewidth=0)
        ax.axhline(float(fair[p]), color=color(i), linestyle=":",
                   linewidth=0.8)
    if len(run) and run["games"].max() > 20:
        ax.set_xscale("log")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PERCENT)
    ax.set_xlabel("games played")
    ax.set_ylabel("win share so far")
    ax.set_title(title, fontsize=10.5)
    fig.legend(fontsize=9, loc="outside lower center", ncols=min(4, max(1, len(players(seats)))),
               frameon=False)
    return fig


def _strategy_names(tables: list[pd.DataFrame]) -> list[str]:
    """Every strategy of the tables, in order of first appearance."""
    names: list[str] = []
    for t in tables:
        names += [p for p in t["player"] if p not in names]
    return names


def _grouped_bars(ax: plt.Axes, labels: list[str], tables: list[pd.DataFrame], names: list[str],
                  scale: Callable[[pd.DataFrame], float]) -> None:
    """One group of horizontal bars per table (labelled), one bar per strategy: its win share
    with the Wilson interval, each divided by `scale(row)`."""
    h = 0.8 / max(1, len(names))
    y0 = np.arange(len(labels))[::-1]
    for j, name in enumerate(names):
        vals, lo, hi, ys = [], [], [], []
        for yi, t in zip(y0, tables):
            row = t[t["player"] == name]
            if row.empty:
                continue
            k = scale(row)
            vals.append(float(row["win_share"].iloc[0]) / k)
            lo.append(float(row["win_low"].iloc[0]) / k)
            hi.append(float(row["win_high"].iloc[0]) / k)
            ys.append(yi + 0.4 - h * (j + 0.5))
        if not vals:
            continue
        v = np.array(vals)
        ax.barh(ys, v, height=h * 0.9, color=color(j), alpha=0.85, label=short(name))
        ax.errorbar(v, ys, xerr=np.vstack([v - np.array(lo), np.array(hi) - v]), fmt="none",
                    ecolor="black", capsize=2, linewidth=0.8)
    ax.set_yticks(y0, [short(x) for x in labels], fontsize=9)


@styled
def runs_comparison(labels: list[str], tables: list[pd.DataFrame],
                    title: str = "Win share by run") -> Figure:
    """Grouped horizontal bars: the win share (with interval) of each strategy in each run."""
    names = _strategy_names(tables)
    fig, ax = _figure(max(2.0, 0.45 * len(labels) * max(1, len(names)) * 0.6 + 1.2))
    _grouped_bars(ax, labels, tables, names, lambda row: 1.0)
    top = max((float(t["win_high"].max()) for t in tables if len(t)), default=1.0)
    ax.set_xlim(0, min(1.0, top * 1.08 + 0.01))
    ax.xaxis.set_major_formatter(PERCENT)
    ax.set_xlabel("win share")
    ax.set_title(title, fontsize=10.5)
    fig.legend(fontsize=9, loc="outside lower center", ncols=min(4, max(1, len(names))),
               frameon=False)
    return fig


@styled
def rounds_chart(games: pd.DataFrame, seats: pd.DataFrame, higher_is_better: bool = True,
                 title: str = "Final score by rounds played", unit: str = "score") -> Figure | None:
    """For multi-round games (a `rounds` column with several values): each strategy's mean
    final score per seat against the number of rounds the game lasted, with 95 % intervals,
    and the share of games of each length. None when the game has no rounds or always one.

    For runs recorded before seats.parquet had a `round_scores` column; newer runs get
    `round_scores_chart`, the score after each round."""
    if "rounds" not in games.columns or games["rounds"].nunique() < 2:
        return None
    rounds = seats["game"].map(games.set_index("game")["rounds"])
    df = pd.DataFrame({"player": player_key(seats).to_numpy(), "rounds": rounds.to_numpy(),
                       "score": seats["score"].to_numpy(dtype=float)}).dropna()
    fig = Figure(figsize=(CHART_WIDTH, 4.2), dpi=DPI, layout="constrained")
    a1, a2 = fig.subplots(2, 1, height_ratios=[3, 1.2], sharex=True)
    for i, p in enumerate(players(seats)):
        g = df[df["player"] == p].groupby("rounds")["score"]
        m, sd, n = g.mean(), g.std(ddof=1), g.size()
        half = 1.96 * (sd / np.sqrt(n)).fillna(0.0)
        a1.errorbar(m.index + (i - 0.5) * 0.08, m.to_numpy(), yerr=half.to_numpy(), marker="o",
                    markersize=4, capsize=3, color=color(i), label=short(p), linewidth=1.3)
    a1.set_ylabel(f"mean final {unit}{_better(higher_is_better, chr(10))}")
    a1.grid(True, alpha=0.3)
    a1.legend(fontsize=9, loc="best")
    share = games["rounds"].value_counts(normalize=True).sort_index()
    a2.bar(share.index, share.to_numpy(), color="0.6")
    a2.set_ylabel("games")
    a2.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
    a2.set_xlabel("rounds the game lasted")
    a2.set_xticks(share.index)
    a2.grid(True, axis="y", alpha=0.3)
    fig.suptitle(title, fontsize=10.5)
    return fig


@styled
def round_scores_chart(curves: pd.DataFrame, higher_is_better: bool = True,
                       unit: str = "round", score_unit: str = "score") -> Figure:
    """Each strategy's mean cumulative score after round 1, 2, ... (`round_score_curves`) with
    its 95 % band; below it the share of games still playing each round, when games differ in
    length (6 nimmt!), not when every game plays all its rounds (Rummikub's hands)."""
    running = curves.drop_duplicates("round")
    varies = bool((running["running"] < 1).any())
    fig = Figure(figsize=(CHART_WIDTH, 4.2 if varies else 3.4), dpi=DPI, layout="constrained")
    if varies:
        a1, a2 = fig.subplots(2, 1, height_ratios=[3, 1.2], sharex=True)
    else:
        a1 = a2 = fig.add_subplot()
    for i, p in enumerate(dict.fromkeys(curves["player"])):
        c = curves[curves["player"] == p]
        a1.plot(c["round"], c["mean"], marker="o", markersize=3.5, color=color(i), label=short(p),
                linewidth=1.4)
        a1.fill_between(c["round"], c["low"], c["high"], color=color(i), alpha=0.18, linewidth=0)
    a1.set_ylabel(f"mean {score_unit} so far{_better(higher_is_better, chr(10))}")
    a1.grid(True, alpha=0.3)
    a1.legend(fontsize=9, loc="best")
    if varies:
        a2.bar(running["round"], running["running"], color="0.6")
        a2.set_ylabel("still\nplaying")
        a2.set_ylim(0, 1)
        a2.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0, decimals=0))
        a2.grid(True, axis="y", alpha=0.3)
    a2.set_xlabel(f"after {unit}")
    a2.set_xticks(running["round"])
    fig.suptitle(f"Score after each {unit}", fontsize=10.5)
    return fig


@styled
def balance_grid(labels: list[str], tables: list[pd.DataFrame],
                 title: str = "Win share ÷ fair share, every cell") -> Figure:
    """One chart across the cells of a sweep: each strategy's win share divided by its fair
    share (1 = as good as an equal opponent, whatever the player count), with the Wilson
    interval divided the same way; the dotted line marks 1."""
    names = _strategy_names(tables)
    fig, ax = _figure(max(2.2, 0.32 * len(labels) * max(1, len(names)) + 1.3))
    _grouped_bars(ax, labels, tables, names, lambda row: float(row["fair_share"].iloc[0]))
    ax.axvline(1.0, color="black", linestyle=":", linewidth=1.3)
    ax.set_xlabel("win share ÷ fair share (dotted: 1 = fair)")
    ax.set_title(title, fontsize=10.5)
    fig.legend(fontsize=9, loc="outside lower center", ncols=min(3, max(1, len(names))),
               frameon=False)
    return fig


@styled
def lead_margin_chart(margins: pd.DataFrame, unit: str = "points", step: str = "round") -> Figure:
    """Each strategy's mean lead over the best other seat after each step (`lead_margins`),
    with its 95 % band; the dotted line is level with the leader."""
    fig, ax = _figure(3.4)
    for i, p in enumerate(dict.fromkeys(margins["player"])):
        c = margins[margins["player"] == p]
        ax.plot(c["step"], c["mean"], marker="o", markersize=3.5, color=color(i), label=short(p),
                linewidth=1.4)
        ax.fill_between(c["step"], c["low"], c["high"], color=color(i), alpha=0.18, linewidth=0)
    ax.axhline(0.0, color="black", linestyle=":", linewidth=1.1)
    ax.set_xticks(sorted(set(margins["step"])))
    ax.set_xlabel(f"after {step}")
    ax.set_ylabel(f"lead over the best other seat\n({unit}; below 0: behind)")
    ax.set_title(f"Lead margin after each {step}")
    ax.legend(loc="best")
    return fig
