"""The report of a ladder or tournament folder: headline, ratings with intervals, the crosstable
and every pairing with its 95 % interval, the charts, the run details and a glossary.

`write_study_report(folder, kind)` writes `<kind>.html` (the run report's style,
`simkit.report.page`; charts embedded), `<kind>.md`, the charts as PNG and SVG, and CSV tables
(`<kind>_ratings.csv`, `pairings.csv`) into the folder (or `out_dir`); `write_ladder_report` and
`write_tournament_report` name the kind. `ladder_text` is the ladder's terminal text.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from simkit.engine.records import write_text_file
from simkit.report.charts import min_font_pt, save_figure
from simkit.report.figures import RatingFigures, game_title, typed_rows
from simkit.report.ladder_charts import budget_chart, ratings_chart
from simkit.report.page import Table, chart_img, esc, glossary_html, html_table, md_table, note, page_html
from simkit.report.writer import csv_frame
from simkit.stats.wording import pct, signed
from simkit.studies.ladder import LadderResult, analyse_ladder
from simkit.studies.tournament import crosstable, write_crosstable

KINDS = ("ladder", "tournament")

EXPLAIN_RATING = ("Plackett-Luce rating on the Elo scale over every game of every pairing (mean 0; "
                  "+191 means 3:1 odds of finishing ahead in a two-seat pairing), with its 95 % interval.")
EXPLAIN_SCORE = ("pairwise score: how often a seat of A finished ahead of a seat of B in the same game "
                 "(ties half); 50 % is fair.")
EXPLAIN_CROSSTABLE = ("Each cell: the row agent's pairwise score against the column agent, with its "
                      "95 % interval; mean: over the opponents it met; rank 1 is the best mean.")

GLOSSARY = [
    ("rating", "Plackett-Luce rating on the Elo scale, fitted to the finishing order of every game of "
     "every pairing; the field's mean is 0. A difference of 191 means 3:1 odds that the higher-rated "
     "agent's seat finishes ahead of the other's."),
    ("95 % interval", "the range that holds the true value in 95 of 100 such studies; two agents whose "
     "intervals overlap widely are not told apart."),
    ("pairwise score", "how often a seat of A finished ahead of a seat of B in the same game, ties "
     "counted half; 50 % is an even match, whatever the player count."),
    ("crosstable", "one row per agent, one column per opponent: the row agent's pairwise score against "
     "that opponent, as in a chess tournament table."),
    ("skill depth", "the longest chain of agents each beating the one before it significantly, after "
     "the correction for testing every pairing; a deeper chain means more room for skill."),
    ("units", "the independent pieces of evidence of a pairing: deals (the same cards played once per "
     "seat rotation), or games where deals are not repeated."),
    ("round robin / gauntlet", "every agent against every other, or the first agent against each of "
     "the others."),
    ("ISMCTS budget", "iterations of the information-set Monte Carlo tree search per decision; more "
     "iterations, more thinking time."),
]


def depth_sentence(result: LadderResult) -> str:
    depth = result.depth
    if depth.length < 2:
        return (f"Skill depth 1: no agent beats another significantly ({depth.correction}); "
                f"play more games per pairing to tell them apart.")
    chain = " < ".join(depth.chain)
    return (f"Skill depth {depth.length}: the longest chain of agents each beating the one before it "
            f"significantly ({depth.correction}) is {chain}.")


def _interval(low: float, high: float) -> str:
    return f"{100 * low:.1f}–{100 * high:.1f}%"


def rating_rows(result: LadderResult) -> Table:
    rows = [[str(r.player), signed(r.rating, 0), f"{signed(r.low, 0)} to {signed(r.high, 0)}",
             str(int(r.games))] for r in typed_rows(result.ratings, RatingFigures, RatingFigures._fields)]
    return ["agent", "rating", "95% interval", "games"], rows


def pair_rows(result: LadderResult) -> Table:
    rows = [[f"{p.a} vs {p.b}", pct(p.score), _interval(p.low, p.high), str(p.units)]
            for p in result.pairs]
    return ["pairing (A vs B)", "A's pairwise score", "95% interval", "units"], rows


def crosstable_rows(result: LadderResult) -> Table:
    """The crosstable with every cell's interval: `62.5% (55.1–69.3%)`."""
    table = crosstable(result)
    agents = [str(a) for a in result.plan["agents"]]
    cells: dict[tuple[str, str], str] = {}
    for p in result.pairs:
        cells[p.a, p.b] = f"{pct(p.score)} ({_interval(p.low, p.high)})"
        cells[p.b, p.a] = f"{pct(1 - p.score)} ({_interval(1 - p.high, 1 - p.low)})"
    means = dict(zip(agents, table["mean"].to_numpy(dtype=float)))
    ranks = dict(zip(agents, table["rank"].to_numpy(dtype=float)))
    rows = []
    for k, a in enumerate(agents):
        rows.append([f"{k + 1}. {a}", *("—" if a == b else cells.get((a, b), "") for b in agents),
                     "" if math.isnan(means[a]) else pct(means[a]),
                     "" if math.isnan(ranks[a]) else str(int(ranks[a]))])
    return ["agent", *(f"vs {k + 1}" for k in range(len(agents))), "mean", "rank"], rows


def ladder_text(result: LadderResult) -> str:
    """The terminal summary: ratings, pairings, depth."""
    lines = [f"Ladder of {result.plan['game']} ({result.plan['n_players']} players, "
             f"{result.plan['games_per_pair']} games per pairing, seed {result.plan['seed']})", "",
             f"{'agent':<28} {'rating':>7}  {'95 % interval':<16} games"]
    lines += [f"{a:<28} {r:>7}  {i:<16} {g}" for a, r, i, g in rating_rows(result)[1]]
    lines += ["", f"{'pairing':<44} {'A pairwise':>10}  {'95 % interval':<18} units"]
    lines += [f"{p:<44} {s:>10}  {i:<18} {u}" for p, s, i, u in pair_rows(result)[1]]
    lines += ["", depth_sentence(result)]
    return "\n".join(lines)


def strongest_sentence(result: LadderResult) -> str:
    """The top-rated agent, and whether the pairings tell it apart from every agent it met: an
    agent not beaten significantly by it is named as its equal so far."""
    r = result.ratings.sort_values("rating", ascending=False).iloc[0]
    top = str(r["player"])
    rating = f"{signed(r['rating'], 0)} (95% {signed(r['low'], 0)} to {signed(r['high'], 0)})"
    met = {p.b if p.a == top else p.a for p in result.pairs if top in (p.a, p.b)}
    beaten = {w.loser for w in result.depth.wins if w.winner == top}
    level = sorted(met - beaten, key=list(result.plan["agents"]).index)
    if not level:
        return f"{top}, rating {rating}: it beats every agent it met significantly."
    return (f"not told apart yet: {top} has the highest rating, {rating}, but no significant win "
            f"over {', '.join(level)}.")


def headline(result: LadderResult, kind: str) -> list[tuple[str, str]]:
    """The questions a reader brings, each with its answer in words."""
    answers = [("Who is strongest?", strongest_sentence(result))]
    if kind == "tournament":
        table = crosstable(result)
        best = table.sort_values("mean", ascending=False).index[0]
        met = int(table.loc[best, [a for a in result.plan["agents"] if a != best]].notna().sum())
        answers.append(("Who won the tournament?",
                        f"{best}, with the best mean pairwise score: {pct(float(table.loc[best, 'mean']))} "
                        f"over {met} opponent{'s' if met != 1 else ''}."))
    answers.append(("How deep is the game?", depth_sentence(result)))
    return answers


def glossary(result: LadderResult) -> list[tuple[str, str]]:
    """The glossary's terms; the search budget only where the field holds ISMCTS."""
    return [(k, v) for k, v in GLOSSARY if k != "ISMCTS budget" or result.budgets()]


def facts(result: LadderResult) -> list[tuple[str, str]]:
    plan = result.plan
    return [("game", str(plan["game"])), ("players", f"{plan['n_players']} per game"),
            ("agents", ", ".join(plan["agents"])), ("format", str(plan["format"])),
            ("games per pairing", f"{plan['games_per_pair']} (duplicate deals, seats rotated)"),
            ("pairings", f"{len(result.pairs)} played of {len(plan['pairs'])}"),
            ("seed", str(plan["seed"]))]


@dataclass(frozen=True)
class Chart:
    key: str
    alt: str
    caption: str
    png: bytes
    font_pt: float


def _charts(result: LadderResult, out_dir: Path, kind: str) -> list[Chart]:
    """Draw and save the charts; the budget chart only where there is a budget line to draw."""
    drawn: list[tuple[str, str, str, Figure | None]] = [
        (kind, "ratings with 95% intervals", "Each agent's rating with its 95% interval; dotted: the "
         "field's mean.", ratings_chart(result)),
        (f"{kind}-budget", "rating against search budget", "ISMCTS rating against its iterations per "
         "decision, 95% intervals; dashed: the other agents.", budget_chart(result))]
    out = []
    for key, alt, caption, fig in drawn:
        if fig is None:
            continue
        png, _ = save_figure(fig, out_dir / key)
        out.append(Chart(key, alt, caption, png.read_bytes(), min_font_pt(fig)))
    return out


def _title(result: LadderResult, kind: str) -> str:
    return f"{kind.capitalize()}: {game_title(result.plan)}, {result.plan['n_players']} players"


def _sections(result: LadderResult, kind: str) -> list[tuple[str, str, str, Table]]:
    """(id, title, note, table) in page order: a tournament leads with its crosstable."""
    ratings = ("ratings", "Ratings", EXPLAIN_RATING, rating_rows(result))
    cross = ("crosstable", "Crosstable", EXPLAIN_CROSSTABLE, crosstable_rows(result))
    pairs = ("pairings", "Pairings", EXPLAIN_SCORE, pair_rows(result))
    return [cross, ratings, pairs] if kind == "tournament" else [ratings, cross, pairs]


def render_page(result: LadderResult, kind: str, charts: list[Chart]) -> str:
    answers = "".join(f"<dt>{esc(q)}</dt><dd>{esc(a)}</dd>" for q, a in headline(result, kind))
    body = [f'<section id="headline"><dl class="headline">{answers}</dl>',
            '<details><summary>Study details</summary><dl class="facts">'
            + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in facts(result))
            + "</dl></details></section>"]
    images = {c.key: chart_img(c.png, c.alt, c.caption, c.font_pt) for c in charts}
    for key, title, text, table in _sections(result, kind):
        body += [f'<section id="{key}"><h2>{esc(title)}</h2>', html_table(table), note(text)]
        if key == "ratings":
            body += [images.get(kind, ""), images.get(f"{kind}-budget", "")]
        body.append("</section>")
    body.append(glossary_html(glossary(result), source="Every figure is defined in docs/statistics.md."))
    return page_html(_title(result, kind), body)


def render_markdown(result: LadderResult, kind: str, charts: list[Chart]) -> str:
    md = [f"# {_title(result, kind)}", ""]
    md += [f"- **{q}** {a}" for q, a in headline(result, kind)] + [""]
    for key, title, text, table in _sections(result, kind):
        md += [f"## {title}", "", text, "", *md_table(*table), ""]
        if key == "ratings":
            md += [f"![{c.alt}]({c.key}.png)\n" for c in charts]
    md += ["## Study details", "", *(f"- **{k}**: {v}" for k, v in facts(result)), "", "## Glossary", "",
           *(f"- **{k}**: {v}" for k, v in glossary(result)), ""]
    return "\n".join(md)


def write_study_report(folder: Path | str, kind: str, result: LadderResult | None = None,
                       out_dir: Path | str | None = None) -> Path:
    """Write the report of the ladder or tournament in `folder` into `out_dir` (default: the
    folder itself); return the HTML page. `result` is the folder's analysis when the caller has
    it already."""
    if kind not in KINDS:
        raise ValueError(f"kind {kind!r}: one of {', '.join(KINDS)}")
    result = result if result is not None else analyse_ladder(folder)
    out = Path(out_dir) if out_dir is not None else Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    charts = _charts(result, out, kind)
    csv_frame(result.ratings).to_csv(out / f"{kind}_ratings.csv", index=False)
    pd.DataFrame([asdict(p) for p in result.pairs]).to_csv(out / "pairings.csv", index=False)
    if kind == "tournament":
        write_crosstable(out, crosstable(result))
    write_text_file(out / f"{kind}.md", render_markdown(result, kind, charts))
    page = out / f"{kind}.html"
    write_text_file(page, render_page(result, kind, charts))
    return page


def write_ladder_report(folder: Path | str, result: LadderResult | None = None,
                        out_dir: Path | str | None = None) -> Path:
    """`ladder.html`, `ladder.md`, the charts and tables of a ladder folder."""
    return write_study_report(folder, "ladder", result, out_dir)


def write_tournament_report(folder: Path | str, result: LadderResult | None = None,
                            out_dir: Path | str | None = None) -> Path:
    """`tournament.html`, `tournament.md`, the charts and tables of a tournament folder."""
    return write_study_report(folder, "tournament", result, out_dir)
