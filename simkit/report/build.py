"""The report of one or several runs: `report.html`, `summary.md`, CSV tables and figures.

`build_report(run_dirs, out_dir)` reads each run folder (manifest.json, games.parquet,
seats.parquet, and compare.json when the run came from `simkit compare`), computes every table
of `simkit.stats`, draws the charts of `simkit.report.charts`, and writes

    out_dir/report.html         self-contained: images embedded as base64 PNG, all text escaped
    out_dir/summary.md          the key tables in Markdown
    out_dir/tables/<run>/*.csv  every table of every run (and comparison.csv for several runs)
    out_dir/figures/<run>/*.png, *.svg

Several runs (a variant sweep, two player counts) get a comparison section first.
"""

from __future__ import annotations

import base64
import html
import json
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from simkit.core.errors import RunFolderError
from simkit.report import charts
from simkit.stats.elo import SPRT
from simkit.stats.match import MatchSummary, match_summary, sides_from_slots
from simkit.stats.ratings import plackett_luce
from simkit.stats.tables import (
    balance,
    head_to_head,
    paired_table,
    player_key,
    players,
    score_quantiles,
    seat_effects,
    seat_independence,
    summary_table,
)

SECTIONS = ("summary", "scores", "ratings", "head-to-head", "seats", "balance", "convergence")


@dataclass
class RunAnalysis:
    """Every table of one run, ready to render."""

    name: str
    path: Path
    manifest: dict
    games: pd.DataFrame
    seats: pd.DataFrame
    summary: pd.DataFrame
    quantiles: pd.DataFrame
    seat_table: pd.DataFrame
    independence: dict
    h2h_score: pd.DataFrame
    h2h_count: pd.DataFrame
    ratings: pd.DataFrame
    balance: dict
    match: MatchSummary | None = None
    paired: pd.DataFrame | None = None
    compare: dict | None = None
    figures: dict = field(default_factory=dict)   # name -> PNG bytes

    @property
    def higher_is_better(self) -> bool:
        return bool(self.manifest.get("higher_is_better", True))


def _load(run_dir: Path):
    from simkit.core.runner import load_run  # the runner imports stats users lazily

    if not (run_dir / "manifest.json").exists():
        raise RunFolderError(f"{run_dir} is not a run folder: it has no manifest.json "
                             f"(give a folder written by `simkit run` or `simkit compare`)")
    return load_run(run_dir)


def analyze_run(run_dir: Path | str, name: str | None = None) -> RunAnalysis:
    """Load a run folder and compute every table of the report."""
    run_dir = Path(run_dir)
    result = _load(run_dir)
    games, seats, manifest = result.games, result.seats, dict(result.manifest)
    if len(seats) == 0:
        raise RunFolderError(f"{run_dir} holds no finished games yet: nothing to report")
    hib = bool(manifest.get("higher_is_better", True))
    score, count = head_to_head(seats)
    compare = None
    cpath = run_dir / "compare.json"
    if cpath.exists():
        compare = json.loads(cpath.read_text())
    analysis = RunAnalysis(
        name=name or run_dir.name, path=run_dir, manifest=manifest, games=games, seats=seats,
        summary=summary_table(seats), quantiles=score_quantiles(seats),
        seat_table=seat_effects(seats), independence=seat_independence(seats),
        h2h_score=score, h2h_count=count, ratings=plackett_luce(seats),
        balance=balance(games, seats, hib), paired=paired_table(seats), compare=compare)
    analysis.match = _match(analysis)
    return analysis


def _match(a: RunAnalysis) -> MatchSummary | None:
    if a.compare:
        s = a.compare.get("sprt")
        sprt = SPRT(**s) if s else None
        is_a, is_b = sides_from_slots(a.seats, a.compare["a_slots"], a.compare["b_slots"])
        return match_summary(a.seats, is_a, is_b, a.compare["a"], a.compare["b"], sprt)
    names = players(a.seats)
    if len(names) != 2:
        return None
    key = player_key(a.seats)
    return match_summary(a.seats, (key == names[0]).to_numpy(), (key == names[1]).to_numpy(),
                         names[0], names[1])


# ---------------------------------------------------------------------------------------------
# formatting helpers

def _f(x, digits: int = 2) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, (int,)) and not isinstance(x, bool):
        return str(x)
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "n/a"
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    return f"{v:.{digits}f}"


def _pct(x, digits: int = 1) -> str:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return "n/a"
    return "n/a" if math.isnan(v) else f"{100 * v:.{digits}f}%"


def _ci_pct(lo, hi) -> str:
    return f"{_pct(lo)} – {_pct(hi)}"


def _ci(lo, hi, digits: int = 2) -> str:
    return f"{_f(lo, digits)} to {_f(hi, digits)}"


def _p(p) -> str:
    try:
        v = float(p)
    except (TypeError, ValueError):
        return "n/a"
    if math.isnan(v):
        return "n/a"
    return "< 0.0001" if v < 1e-4 else f"{v:.4f}"


def summary_rows(a: RunAnalysis) -> tuple[list[str], list[list[str]]]:
    head = ["strategy", "games", "win share", "95% CI", "fair share", "mean score", "95% CI",
            "forfeits"]
    rows = [[str(r.player), str(int(r.games)), _pct(r.win_share), _ci_pct(r.win_low, r.win_high),
             _pct(r.fair_share), _f(r.mean_score), _ci(r.score_low, r.score_high),
             str(int(r.forfeits))] for r in a.summary.itertuples()]
    return head, rows


def quantile_rows(a: RunAnalysis):
    q = a.quantiles
    head = ["strategy", "seats", "min", "5%", "25%", "median", "75%", "95%", "max", "sd"]
    rows = [[str(r.player), str(int(r.n)), _f(r.min, 1), _f(r.q05, 1), _f(r.q25, 1),
             _f(r.q50, 1), _f(r.q75, 1), _f(r.q95, 1), _f(r.max, 1), _f(r.sd)]
            for r in q.itertuples()]
    return head, rows


def rating_rows(a: RunAnalysis):
    head = ["strategy", "rating", "95% CI", "se", "games"]
    rows = [[str(r.player), _f(r.rating, 1), _ci(r.low, r.high, 1), _f(r.se, 1), str(r.games)]
            for r in a.ratings.itertuples()]
    return head, rows


def h2h_rows(a: RunAnalysis):
    names = list(a.h2h_score.index)
    head = ["row vs column"] + [str(n) for n in names]
    rows = []
    for r in names:
        row = [str(r)]
        for c in names:
            v = a.h2h_score.loc[r, c]
            n = a.h2h_count.loc[r, c]
            row.append("—" if r == c or n == 0 else f"{_pct(v)} ({n})")
        rows.append(row)
    return head, rows


def seat_rows(a: RunAnalysis):
    head = ["seat", "games", "win rate", "95% CI", "fair", "advantage", "mean score", "95% CI",
            "mean rank"]
    rows = [[str(int(r.seat) + 1), str(int(r.games)), _pct(r.win_rate),
             _ci_pct(r.win_low, r.win_high), _pct(r.fair_rate), _pct(r.advantage),
             _f(r.mean_score), _ci(r.score_low, r.score_high), _f(r.mean_rank)]
            for r in a.seat_table.itertuples()]
    return head, rows


def balance_rows(a: RunAnalysis):
    b = a.balance
    fs = b["first_seat"]
    rows = [
        ["first player win rate", _pct(fs["win_rate"]), _ci_pct(fs["low"], fs["high"]),
         f"fair {_pct(fs['fair'])}, advantage {_pct(fs['advantage'])}"],
        ["draws (no winner)", _pct(b["draw"]["rate"]), _ci_pct(b["draw"]["low"], b["draw"]["high"]),
         f"{b['draw']['count']} games"],
        ["shared wins (co-winners)", _pct(b["shared_win"]["rate"]),
         _ci_pct(b["shared_win"]["low"], b["shared_win"]["high"]), f"{b['shared_win']['count']} games"],
        ["forfeited games", _pct(b["forfeit"]["rate"]),
         _ci_pct(b["forfeit"]["low"], b["forfeit"]["high"]), f"{b['forfeit']['count']} games"],
    ]
    m = b["margin"]
    rows.append(["winning margin (score)", _f(m["mean"]), _ci(m["low"], m["high"]),
                 f"median {_f(m['q50'], 1)}, 5–95% {_f(m['q05'], 1)}–{_f(m['q95'], 1)}, "
                 f"margin 0 in {_pct(m['zero_rate'])}"])
    for col, s in b["length"].items():
        rows.append([f"game length: {col}", _f(s["mean"]), _ci(s["low"], s["high"]),
                     f"median {_f(s['q50'], 1)}, 5–95% {_f(s['q05'], 1)}–{_f(s['q95'], 1)}, "
                     f"range {_f(s['min'], 0)}–{_f(s['max'], 0)}"])
    for col, s in b["flags"].items():
        rows.append([f"{col}", _pct(s["rate"]), _ci_pct(s["low"], s["high"]),
                     f"{s['count']} games"])
    return ["figure", "value", "95% CI", "detail"], rows


def match_rows(m: MatchSummary):
    e, t = m.estimate, m.trinomial_estimate
    rows = [
        ["games", str(m.games), f"W {m.wins} / D {m.draws} / L {m.losses} for {m.a}"],
        ["Elo", f"{_f(e.elo, 1)} ± {_f(e.elo_error, 1)}",
         f"logistic Elo of {m.a} over {m.b}, 95% ({e.model})"],
        ["normalised Elo", f"{_f(e.nelo, 1)} ± {_f(e.nelo_error, 1)}", f"nElo, 95% ({e.model})"],
        ["LOS", _pct(e.los, 2), f"likelihood that {m.a} is stronger"],
        ["score", _pct(e.score, 2), "mean game score of A (win 1, draw ½)"],
    ]
    if m.penta is not None:
        rows.append(["pentanomial", " ".join(str(c) for c in m.penta),
                     "deal pairs LL, LD, WL+DD, WD, WW"])
        rows.append(["Elo (unpaired)", f"{_f(t.elo, 1)} ± {_f(t.elo_error, 1)}",
                     "trinomial, for contrast: pairing narrows the interval"])
    if m.sprt is not None:
        unit = "Elo" if m.sprt.model == "logistic" else "nElo"
        rows.append(["SPRT", f"[{m.sprt.elo0:g}, {m.sprt.elo1:g}] {unit}",
                     f"alpha {m.sprt.alpha:g}, beta {m.sprt.beta:g}, LLR bounds "
                     f"({m.sprt.lower:.2f}, {m.sprt.upper:.2f})"])
        rows.append(["LLR", _f(m.llr), m.verdict()])
    return ["figure", "value", "meaning"], rows


def paired_rows(a: RunAnalysis):
    head = ["strategy", "deals", "win share", "95% CI", "mean score", "95% CI"]
    rows = [[str(r.player), str(int(r.deals)), _pct(r.win_share), _ci_pct(r.win_low, r.win_high),
             _f(r.mean_score), _ci(r.score_low, r.score_high)] for r in a.paired.itertuples()]
    return head, rows


def run_facts(a: RunAnalysis) -> list[tuple[str, str]]:
    m = a.manifest
    cfg = m.get("config", {}) or {}
    facts = [
        ("game", f"{m.get('game', '?')} (rules {m.get('rules_version', '?')})"),
        ("players", str(m.get("n_players", "?"))),
        ("lineup", ", ".join(str(s) for s in m.get("strategies", []))),
        ("seating", f"{m.get('seating', '?')}" + (", duplicate deals" if m.get("duplicate") else "")),
        ("games", f"{m.get('games_done', len(a.games))} of {m.get('n_games', '?')}"
                  f" ({m.get('status', 'complete')})"),
        ("seed", str(m.get("seed", "?"))),
        ("scores", "higher is better" if a.higher_is_better else "lower is better"),
        ("config", ", ".join(f"{k}={v}" for k, v in cfg.items()) or "defaults"),
    ]
    if m.get("command"):
        facts.append(("command", str(m["command"])))
    t = m.get("timings", {})
    if t.get("wall_seconds"):
        facts.append(("wall time", f"{t['wall_seconds']} s on {t.get('jobs', '?')} jobs"))
    return facts


def independence_text(a: RunAnalysis) -> str:
    i = a.independence
    parts = [f"Wins by seat, chi-square test of equal shares: χ² = {_f(i['wins_chi2'])}, "
             f"df = {i['wins_df']}, p = {_p(i['wins_p'])}."]
    if i.get("scores_test"):
        name = "Friedman" if i["scores_test"] == "friedman" else "Wilcoxon signed-rank"
        parts.append(f"Scores by seat, {name} test (games as blocks): statistic "
                     f"{_f(i['scores_stat'])}, p = {_p(i['scores_p'])}.")
    parts.append("Small p-values mean the seat matters.")
    if a.manifest.get("seating") == "fixed":
        parts.append("Seating is fixed, so seat effects are mixed with strategy effects.")
    return " ".join(parts)


# ---------------------------------------------------------------------------------------------
# comparison of several runs

def comparison_table(runs: list[RunAnalysis]) -> pd.DataFrame:
    """One row per run: what differs (config, players, lineup) and the headline figures."""
    cfgs = [r.manifest.get("config", {}) or {} for r in runs]
    keys = sorted({k for c in cfgs for k in c})
    differing = [k for k in keys if len({json.dumps(c.get(k), sort_keys=True) for c in cfgs}) > 1]
    rows = []
    for r, c in zip(runs, cfgs):
        row = {"run": r.name, "game": r.manifest.get("game"),
               "players": r.manifest.get("n_players"),
               "lineup": ", ".join(map(str, r.manifest.get("strategies", []))),
               "variant": ", ".join(f"{k}={c.get(k)}" for k in differing) or "-",
               "games": len(r.games),
               "first_seat_advantage": r.balance["first_seat"]["advantage"],
               "draw_rate": r.balance["draw"]["rate"],
               "mean_steps": r.balance["length"].get("steps", {}).get("mean", float("nan")),
               "mean_margin": r.balance["margin"]["mean"]}
        for t in r.summary.itertuples():
            row[f"win_share[{t.player}]"] = t.win_share
        rows.append(row)
    return pd.DataFrame(rows)


def comparison_rows(df: pd.DataFrame):
    share_cols = [c for c in df.columns if c.startswith("win_share[")]
    head = ["run", "players", "variant", "games", "first seat adv.", "draws", "mean steps",
            "mean margin"] + [c[len("win_share["):-1] for c in share_cols]
    rows = []
    for _, r in df.iterrows():
        rows.append([str(r["run"]), str(r["players"]), str(r["variant"]), str(r["games"]),
                     _pct(r["first_seat_advantage"]), _pct(r["draw_rate"]), _f(r["mean_steps"], 1),
                     _f(r["mean_margin"])] + [_pct(r[c]) for c in share_cols])
    return head, rows


# ---------------------------------------------------------------------------------------------
# rendering

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;padding:0 .8rem;
color:#1b1b1b;background:#fff;line-height:1.45;font-size:16px}
main{max-width:960px;margin:0 auto}
h1{font-size:1.5rem;margin:1rem 0 .3rem}h2{font-size:1.25rem;margin:1.6rem 0 .4rem;
border-bottom:2px solid #ddd;padding-bottom:.2rem}h3{font-size:1.05rem;margin:1.1rem 0 .3rem}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.4rem 0}
table{border-collapse:collapse;font-size:.85rem;min-width:100%}
th,td{padding:.25rem .5rem;border-bottom:1px solid #e5e5e5;text-align:right;white-space:nowrap}
th:first-child,td:first-child{text-align:left}th{background:#f5f5f5}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;font-size:.9rem}
dl.facts dt{font-weight:600}dl.facts dd{margin:0;overflow-wrap:anywhere}
figure{margin:.6rem 0}figure img{max-width:100%;height:auto;display:block;border:1px solid #eee}
figcaption{font-size:.8rem;color:#555}.note{font-size:.9rem;color:#333}
nav{font-size:.9rem}nav a{margin-right:.6rem}.verdict{font-weight:600}
table.wrap-last td:last-child,table.wrap-last th:last-child{white-space:normal;text-align:left;min-width:9rem}
@media (max-width:600px){body{font-size:15px;padding:0 .5rem}table{font-size:.75rem}
th,td{padding:.2rem .3rem}h1{font-size:1.25rem}h2{font-size:1.1rem}}
"""


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def _html_table(head, rows, wrap_last: bool = False) -> str:
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    cls = ' class="wrap-last"' if wrap_last else ""
    return (f'<div class="scroll"><table{cls}><thead><tr>{th}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def _img(png: bytes, alt: str, caption: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return (f'<figure><img src="data:image/png;base64,{data}" alt="{_e(alt)}">'
            f"<figcaption>{_e(caption)}</figcaption></figure>")


def _run_html(a: RunAnalysis, idx: int, multi: bool) -> str:
    pid = f"run{idx}-" if multi else ""
    out = [f'<article id="{pid}run">']
    out.append(f"<{'h2' if multi else 'h2'}>{'Run: ' if multi else 'Run '}{_e(a.name)}</h2>")
    out.append('<dl class="facts">' + "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>"
                                              for k, v in run_facts(a)) + "</dl>")
    h = "h3" if multi else "h2"

    out.append(f'<section id="{pid}summary"><{h}>Summary: win share and mean score</{h}>')
    out.append(_html_table(*summary_rows(a)))
    out.append('<p class="note">Win share: wins per game, a shared win counts 1/k for k '
               "co-winners; 95% Wilson interval. Fair share: the strategy's seats per game "
               "divided by the players. Mean score: averaged per game over the strategy's "
               "seats, 95% Student-t interval over games.</p>")
    out.append(_img(a.figures["win_share"], "win share chart", "Win share with 95% interval; "
                    "dotted tick: fair share."))
    out.append("</section>")

    if a.match is not None:
        out.append(f'<section id="{pid}match"><{h}>Match: {_e(a.match.a)} against '
                   f"{_e(a.match.b)}</{h}>")
        out.append(_html_table(*match_rows(a.match), wrap_last=True))
        if a.match.sprt is not None:
            out.append(f'<p class="verdict">{_e(a.match.verdict())}</p>')
        out.append("</section>")

    if a.paired is not None:
        out.append(f'<section id="{pid}paired"><{h}>Paired analysis (duplicate deals)</{h}>')
        out.append(_html_table(*paired_rows(a)))
        out.append('<p class="note">Each deal was played once per seat rotation; figures are '
                   "averaged within each deal first, so the luck of the deal cancels and the "
                   "interval (normal, deals as units) is narrower.</p></section>")

    out.append(f'<section id="{pid}scores"><{h}>Scores</{h}>')
    out.append(_html_table(*quantile_rows(a)))
    out.append(_img(a.figures["scores"], "score distribution chart",
                    "Score distribution per strategy; dashed lines: means."))
    out.append("</section>")

    out.append(f'<section id="{pid}ratings"><{h}>Ratings (Plackett–Luce)</{h}>')
    out.append(_html_table(*rating_rows(a)))
    out.append('<p class="note">Every game\'s ranking is read as successive choices of the best '
               "remaining seat (Plackett–Luce, ties by Breslow's rule), fitted by MM iterations "
               "(Hunter 2004). Elo scale, mean 0: +191 means 3:1 odds in a two-seat pairing."
               "</p></section>")

    out.append(f'<section id="{pid}head-to-head"><{h}>Head to head</{h}>')
    out.append(_html_table(*h2h_rows(a)))
    out.append('<p class="note">Share of seat pairings in which the row strategy finished ahead '
               "of the column strategy (ties count ½); pairings in brackets.</p></section>")

    out.append(f'<section id="{pid}seats"><{h}>Seat (turn-order) effects</{h}>')
    out.append(_html_table(*seat_rows(a)))
    out.append(f'<p class="note">{_e(independence_text(a))}</p>')
    out.append(_img(a.figures["seats"], "seat effects chart",
                    "Win rate and mean score per seat with 95% intervals."))
    out.append("</section>")

    out.append(f'<section id="{pid}balance"><{h}>Balance: first player, decisiveness, length'
               f"</{h}>")
    out.append(_html_table(*balance_rows(a), wrap_last=True))
    out.append(_img(a.figures["length"], "game length chart", "Game length."))
    out.append("</section>")

    out.append(f'<section id="{pid}convergence"><{h}>Convergence</{h}>')
    out.append(_img(a.figures["convergence"], "running win share chart",
                    "Running win share of each strategy with its 95% band (log scale of "
                    "games); dotted lines: fair shares."))
    out.append("</section></article>")
    return "\n".join(out)


def render_html(runs: list[RunAnalysis], comparison: pd.DataFrame | None,
                comparison_png: bytes | None) -> str:
    multi = len(runs) > 1
    title = ("simkit report: " + ", ".join(r.name for r in runs)) if multi else \
        f"simkit report: {runs[0].name}"
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)}</title><style>{CSS}</style></head><body><main>",
             f"<h1>{_e(title)}</h1>",
             f'<p class="note">Generated {_e(stamp)} by simkit from '
             f"{len(runs)} run folder{'s' if multi else ''}.</p>"]
    if multi:
        parts.append("<nav>" + "".join(f'<a href="#run{i}-run">{_e(r.name)}</a>'
                                       for i, r in enumerate(runs)) + "</nav>")
        parts.append('<section id="comparison"><h2>Comparison of runs</h2>')
        parts.append(_html_table(*comparison_rows(comparison)))
        parts.append('<p class="note">Variant: the config fields whose values differ between '
                     "the runs. Win shares per strategy label.</p>")
        if comparison_png:
            parts.append(_img(comparison_png, "comparison chart", "Win share by run, 95% "
                              "intervals."))
        parts.append("</section>")
    for i, r in enumerate(runs):
        parts.append(_run_html(r, i, multi))
    parts.append("</main></body></html>")
    return "\n".join(parts)


#: characters that Markdown (or HTML inside it) would read as markup in a table cell or list item
_MD_SPECIAL = set("\\`*_[]<>|~&")


def _md_cell(x) -> str:
    """Text shown as itself: every markup character backslash-escaped, one line."""
    text = " ".join(str(x).splitlines())
    return "".join("\\" + c if c in _MD_SPECIAL else c for c in text)


def _md_table(head, rows) -> str:
    lines = ["| " + " | ".join(_md_cell(h) for h in head) + " |",
             "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def render_markdown(runs: list[RunAnalysis], comparison: pd.DataFrame | None) -> str:
    out = ["# simkit report", ""]
    if comparison is not None:
        out += ["## Comparison of runs", "", _md_table(*comparison_rows(comparison)), ""]
    for r in runs:
        out += [f"## Run {_md_cell(r.name)}", ""]
        out += [f"- **{_md_cell(k)}**: {_md_cell(v)}" for k, v in run_facts(r)] + [""]
        out += ["### Summary", "", _md_table(*summary_rows(r)), ""]
        if r.match is not None:
            out += [f"### Match: {_md_cell(r.match.a)} against {_md_cell(r.match.b)}", "",
                    _md_table(*match_rows(r.match)), ""]
        if r.paired is not None:
            out += ["### Paired analysis (duplicate deals)", "", _md_table(*paired_rows(r)), ""]
        out += ["### Ratings (Plackett–Luce)", "", _md_table(*rating_rows(r)), ""]
        out += ["### Seat effects", "", _md_table(*seat_rows(r)), "", independence_text(r), ""]
        out += ["### Balance", "", _md_table(*balance_rows(r)), ""]
    return "\n".join(out)


def _flat(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flat(v, key + "."))
        else:
            out[key] = v
    return out


def _safe(name: str) -> str:
    keep = "".join(c if (c.isalnum() or c in "-_.") else "_" for c in name)
    return keep.strip(".") or "run"


def write_tables(a: RunAnalysis, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []

    def put(df: pd.DataFrame, name: str, index: bool = False):
        p = folder / f"{name}.csv"
        df.to_csv(p, index=index)
        paths.append(p)

    put(a.summary, "summary")
    put(a.quantiles, "score_quantiles")
    put(a.seat_table, "seats")
    put(a.ratings, "ratings")
    put(a.h2h_score, "head_to_head", index=True)
    put(a.h2h_count, "head_to_head_counts", index=True)
    bal = _flat(a.balance)
    bal.update({f"seat_independence.{k}": v for k, v in a.independence.items()})
    put(pd.DataFrame({"figure": list(bal), "value": list(bal.values())}), "balance")
    if a.paired is not None:
        put(a.paired, "paired")
    if a.match is not None:
        m = _flat(a.match.to_dict())
        put(pd.DataFrame({"figure": list(m), "value": [json.dumps(v) if isinstance(v, list)
                                                       else v for v in m.values()]}), "match")
    return paths


def build_report(run_dirs, out_dir: Path | str) -> Path:
    """Write the report of `run_dirs` into `out_dir` (see module docstring); return the path
    of report.html."""
    run_dirs = [Path(p) for p in run_dirs]
    if not run_dirs:
        raise RunFolderError("no run folder given: name at least one folder written by `simkit run`")
    out_dir = Path(out_dir)
    names: list[str] = []
    for p in run_dirs:
        n = _safe(p.resolve().name)
        base, k = n, 2
        while n in names:
            n, k = f"{base}-{k}", k + 1
        names.append(n)
    runs = [analyze_run(p, n) for p, n in zip(run_dirs, names)]
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunFolderError(f"cannot create the report folder {out_dir} ({exc.strerror}): "
                             f"choose an --out you can write to") from None
    for r in runs:
        figs = {
            "win_share": charts.win_shares(r.summary),
            "scores": charts.score_distribution(r.seats, r.higher_is_better),
            "seats": charts.seat_chart(r.seats, r.higher_is_better),
            "length": charts.game_length(r.games),
            "convergence": charts.convergence(r.seats),
        }
        fig_dir = out_dir / "figures" / r.name
        for key, fig in figs.items():
            charts.save_figure(fig, fig_dir / key)
            r.figures[key] = (fig_dir / f"{key}.png").read_bytes()
        write_tables(r, out_dir / "tables" / r.name)
    comparison = comparison_png = None
    if len(runs) > 1:
        comparison = comparison_table(runs)
        (out_dir / "tables").mkdir(parents=True, exist_ok=True)
        comparison.to_csv(out_dir / "tables" / "comparison.csv", index=False)
        fig = charts.runs_comparison([r.name for r in runs], [r.summary for r in runs])
        charts.save_figure(fig, out_dir / "figures" / "comparison")
        comparison_png = (out_dir / "figures" / "comparison.png").read_bytes()
    (out_dir / "summary.md").write_text(render_markdown(runs, comparison), encoding="utf-8")
    path = out_dir / "report.html"
    path.write_text(render_html(runs, comparison, comparison_png), encoding="utf-8")
    return path
