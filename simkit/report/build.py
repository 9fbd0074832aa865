"""The report of one or several runs: `report.html`, `summary.md`, CSV tables and figures.

`build_report(run_dirs, out_dir)` reads each run folder (manifest.json, games.parquet,
seats.parquet, and compare.json when the run came from `simkit compare`), computes every table
of `simkit.stats`, draws the charts of `simkit.report.charts`, and writes

    out_dir/report.html         self-contained: images embedded as base64 PNG, all text escaped
    out_dir/summary.md          the headline, the key tables in Markdown, links to the charts
    out_dir/tables/<run>/*.csv  every table of every run (and comparison.csv for several runs)
    out_dir/figures/<run>/*.png, *.svg

Every run starts with a headline (the game, the lineup and a verdict in words computed from the
tables), then the strength figures: win share against fair share first, then one rating scale
(pairwise Elo for two strategies, Plackett–Luce for more). Several runs (a variant sweep, two
player counts) get a comparison section first, normalised so cells with different player
counts compare. Seats are numbered from 1 (the first player) everywhere a person reads them,
including the CSV tables; only the run folder's Parquet tables count from 0.
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from simkit.engine.errors import RunFolderError
from simkit.report import charts
from simkit.stats.elo import SPRT
from simkit.stats.match import MatchSummary, match_summary, sides_from_slots
from simkit.stats.multiple import flag_significant, seat_effect_flags
from simkit.stats.ratings import plackett_luce
from simkit.stats.rounds import round_score_curves
from simkit.stats.tables import (
    balance,
    head_to_head,
    paired_table,
    player_key,
    players,
    score_quantiles,
    seat_independence,
    summary_table,
)
from simkit.stats.wording import ci as _ci
from simkit.stats.wording import ci_pct as _ci_pct
from simkit.stats.wording import (
    elo_text,
    nelo_text,
    seq_bound,
    sequential_text,
    signed,
)
from simkit.stats.wording import number as _f
from simkit.stats.wording import pct as _pct

SECTIONS = ("headline", "strength", "summary", "scores", "ratings", "head-to-head", "seats",
            "balance", "convergence")
#: the charts every run gets (the rounds chart only for multi-round games)
FIGURES = ("win_share", "scores", "seats", "length", "convergence")


@dataclass
class RunAnalysis:
    """Every table of one run, ready to render. `name` is the run folder's name as typed
    (`p3-rows=3`), `slug` the file-system-safe form used for tables/ and figures/."""

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
    round_curves: pd.DataFrame | None = None     # score after each round (games with rounds)
    figures: dict = field(default_factory=dict)   # name -> PNG bytes
    figure_fonts: dict = field(default_factory=dict)   # name -> smallest font (pt)
    slug: str = ""

    @property
    def higher_is_better(self) -> bool:
        return bool(self.manifest.get("higher_is_better", True))

    @property
    def n_players(self) -> int:
        return int(self.manifest.get("n_players") or self.balance.get("n_players") or 0)

    @property
    def round_word(self) -> str:
        """What the game calls a round: `hand` for games that count hands (Rummikub)."""
        return "hand" if "hands" in self.games.columns else "round"

    @property
    def correction(self) -> str:
        return str(self.seat_table.attrs.get("correction", "Holm"))


def _load(run_dir: Path):
    from simkit.engine.runner import load_run  # the runner imports stats users lazily

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
    name = name or run_dir.name
    analysis = RunAnalysis(
        name=name, path=run_dir, manifest=manifest, games=games, seats=seats,
        summary=summary_table(seats), quantiles=score_quantiles(seats),
        seat_table=seat_effect_flags(seats, method="holm"),
        independence=seat_independence(seats),
        h2h_score=score, h2h_count=count, ratings=plackett_luce(seats),
        balance=balance(games, seats, hib), paired=paired_table(seats), compare=compare,
        round_curves=round_score_curves(seats), slug=_safe(name))
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


def game_title(manifest: dict) -> str:
    """The game's title from the registry (`6 nimmt!`), else its name as recorded."""
    name = str(manifest.get("game", "?"))
    try:
        from simkit.engine.registry import get_game

        return get_game(name).title
    except Exception:  # an unknown or uninstalled game: the report still works from the tables
        return name


# ---------------------------------------------------------------------------------------------
# formatting helpers

def _p(p) -> str:
    try:
        v = float(p)
    except (TypeError, ValueError):
        return "n/a"
    if math.isnan(v):
        return "n/a"
    return "< 0.0001" if v < 1e-4 else f"{v:.4f}"


def p_is(p) -> str:
    """`p = 0.0123` or `p < 0.0001`."""
    text = _p(p).replace(" ", "\u00a0")
    # no-break spaces: a line never ends between `p =` and its value
    return f"p\u00a0{text}" if text.startswith("<") else f"p\u00a0=\u00a0{text}"


def value_text(v) -> str:
    """A config value for people: yes/no for booleans, none for None, lists joined."""
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return ", ".join(value_text(x) for x in v) or "none"
    return str(v)


def config_items(cfg: dict, prefix: str = "") -> list[tuple[str, str]]:
    """(`max rounds`, `none`), (`advanced`, `no`), (`variant enabled`, `yes`), ... in order."""
    out: list[tuple[str, str]] = []
    for k, v in (cfg or {}).items():
        label = f"{prefix}{k}".replace("_", " ")
        if isinstance(v, dict):
            out += config_items(v, label + " ")
        else:
            out.append((label, value_text(v)))
    return out


def config_text(cfg: dict) -> str:
    return "; ".join(f"{k}: {v}" for k, v in config_items(cfg)) or "defaults"


def _seat_word(k: float) -> str:
    return f"{k:g} seat" + ("" if k == 1 else "s")


def lineup_text(a: RunAnalysis) -> str:
    """`heuristic (1 seat), random (3 seats); 4 players, seats rotated every game`."""
    parts = [f"{r.player} ({_seat_word(r.seats_per_game)})" for r in a.summary.itertuples()]
    seating = {"rotate": "seats rotated every game", "random": "seats drawn at random",
               "fixed": "fixed seats"}.get(str(a.manifest.get("seating")),
                                           str(a.manifest.get("seating", "?")))
    dup = ", every deal played in every seat rotation" if a.manifest.get("duplicate") else ""
    return f"{', '.join(parts)}; {a.n_players} players, {seating}{dup}"


def _vs_fair(low: float, high: float, fair: float) -> str:
    if low > fair:
        return "more than its fair share"
    if high < fair:
        return "less than its fair share"
    return "within chance of its fair share"


# ---------------------------------------------------------------------------------------------
# the headline: a verdict in words, computed from the tables

def strength_sentence(a: RunAnalysis) -> str:
    """Win share against fair share for each strategy, strongest (relative to fair) first."""
    t = a.summary.assign(ratio=a.summary["win_share"] / a.summary["fair_share"])
    parts = []
    for r in t.sort_values("ratio", ascending=False, kind="stable").itertuples():
        judge = _vs_fair(r.win_low, r.win_high, r.fair_share)
        if r.seats_per_game > 1:
            parts.append(f"{r.player}, holding {_seat_word(r.seats_per_game)}, wins "
                         f"{_pct(r.win_share)} of games with any of them "
                         f"({_pct(r.win_share / r.seats_per_game)} per seat against a fair "
                         f"{_pct(r.fair_share / r.seats_per_game)}; {judge})")
        else:
            parts.append(f"{r.player} wins {_pct(r.win_share)} of games (95% "
                         f"{_ci_pct(r.win_low, r.win_high)}) against a fair "
                         f"{_pct(r.fair_share)} ({judge})")
    return "; ".join(parts) + "."


def rating_sentence(a: RunAnalysis) -> str:
    """The one rating scale in words: pairwise Elo for two strategies, else Plackett–Luce."""
    m = a.match
    if m is not None and m.pairwise is not None:
        seq = m.sequential
        pw = m.pairwise
        if seq is not None:
            return (f"On the pairwise Elo scale {m.a} is {seq_bound(seq.elo, seq.elo_at_reach)} "
                    f"against {m.b} (95% {seq_bound(seq.low, seq.low_at_reach)} to "
                    f"{seq_bound(seq.high, seq.high_at_reach)}, bias-adjusted as the "
                    f"SPRT stopped the run early); {m.verdict()}.")
        return (f"On the pairwise Elo scale {m.a} is {signed(pw.elo)} against {m.b} (95% "
                f"{signed(pw.elo_low)} to {signed(pw.elo_high)}): a seat of {m.a} finishes "
                f"ahead of a seat of {m.b} in {_pct(pw.score)} of their comparisons.")
    r = a.ratings.sort_values("rating", ascending=False)
    if len(r) < 2:
        return ""
    top, low = r.iloc[0], r.iloc[-1]
    return (f"Plackett–Luce ratings (Elo scale, mean 0) run from {top['player']} "
            f"{signed(top['rating'], 0)} (95% {signed(top['low'], 0)} to "
            f"{signed(top['high'], 0)}) down to {low['player']} {signed(low['rating'], 0)}.")


def _wins_test_name(i: dict) -> str:
    if i.get("wins_test") == "hotelling":
        return "Hotelling's T² test over deals"
    return "chi-square test of wins by seat"


def seat_sentence(a: RunAnalysis) -> str:
    """Is the game fair to seats? The omnibus test, then the seats flagged after correction."""
    i = a.independence
    flagged = a.seat_table[a.seat_table["significant"].fillna(False).astype(bool)]
    test = f"{_wins_test_name(i)}, {p_is(i.get('wins_p'))}"
    p = float(i.get("wins_p", float("nan")))
    if not flagged.empty:
        seats = ", ".join(f"seat {int(r.seat) + 1} wins {_pct(r.win_rate)}"
                          for r in flagged.itertuples())
        text = (f"the seat matters: {seats} against a fair {_pct(flagged['fair_rate'].iloc[0])} "
                f"(Holm-adjusted {p_is(flagged['p_adjusted'].max())} or less; {test})")
    elif not math.isnan(p) and p < 0.05:
        text = (f"the seats' win rates differ ({test}), but no single seat is off its fair "
                f"share after Holm's correction")
    elif math.isnan(p):
        text = "the seat effect could not be tested"
    else:
        text = (f"the seat effect is not significant ({test}; no seat off its fair share after "
                f"Holm's correction)")
    if a.manifest.get("seating") == "fixed":
        text += "; seating is fixed, so seat and strategy effects are mixed"
    return text[0].upper() + text[1:] + "."


def length_sentence(a: RunAnalysis) -> str:
    b = a.balance
    parts = []
    steps = b["length"].get("steps")
    if steps:
        extra = ""
        for col in ("rounds", "turns"):
            if col in b["length"]:
                extra = f", {_f(b['length'][col]['mean'], 1)} {col}"
                break
        parts.append(f"A game lasts {_f(steps['mean'], 1)} decision steps{extra} on average")
    draw = b["draw"]["rate"]
    if draw and not math.isnan(draw):
        parts.append(f"{_pct(draw)} of games end without a winner")
    forfeit = b["forfeit"]["rate"]
    if forfeit and not math.isnan(forfeit):
        parts.append(f"{_pct(forfeit)} of games had a forfeit")
    return ("; ".join(parts) + ".") if parts else ""


def verdict(a: RunAnalysis) -> str:
    """One paragraph: who is stronger, by how much, is the game fair to seats."""
    return " ".join(s for _, _, s in headline_answers(a))


def _strongest_key(a: RunAnalysis) -> str:
    t = a.summary.assign(ratio=a.summary["win_share"] / a.summary["fair_share"])
    best = t.loc[t["ratio"].idxmax()]
    if not best["win_low"] > best["fair_share"]:
        return "no clear difference"
    return f"{best['player']}, {_f(best['ratio'])}× its fair share"


def _rating_key(a: RunAnalysis) -> str:
    m = a.match
    if m is not None and m.pairwise is not None:
        seq = m.sequential
        elo = seq_bound(seq.elo, seq.elo_at_reach, 0) if seq else signed(m.pairwise.elo, 0)
        return f"{elo} pairwise Elo"
    r = a.ratings.sort_values("rating", ascending=False)
    if len(r) < 2:
        return ""
    return f"{float(r['rating'].iloc[0] - r['rating'].iloc[-1]):.0f} Elo from first to last"


def _seat_key(a: RunAnalysis) -> str:
    flagged = a.seat_table[a.seat_table["significant"].fillna(False).astype(bool)]
    p = float(a.independence.get("wins_p", float("nan")))
    if not flagged.empty:
        key = "no: " + ", ".join(f"seat {int(s) + 1}" for s in flagged["seat"]) + " off fair"
    elif math.isnan(p):
        key = "not tested"
    elif p < 0.05:
        key = "unclear"
    else:
        key = "yes, within chance"
    return key + (" (fixed seating)" if a.manifest.get("seating") == "fixed" else "")


def headline_answers(a: RunAnalysis) -> list[tuple[str, str, str]]:
    """The headline as (question, short answer, sentence): who is stronger, by how much, is the
    game fair to seats, and how long a game lasts. Questions without an answer are left out."""
    rows = [("Who is stronger?", _strongest_key(a), strength_sentence(a)),
            ("By how much?", _rating_key(a), rating_sentence(a)),
            ("Fair to seats?", _seat_key(a), seat_sentence(a)),
            ("Game length", "", length_sentence(a))]
    return [r for r in rows if r[2]]


# ---------------------------------------------------------------------------------------------
# tables

def strength_rows(a: RunAnalysis):
    """Win share against fair share, per game and per seat, and the ratio to fair."""
    head = ["strategy", "seats", "win share per game", "95% CI", "fair per game",
            "per seat", "fair per seat", "÷ fair"]
    rows = []
    for r in a.summary.itertuples():
        k = float(r.seats_per_game)
        rows.append([str(r.player), f"{k:g}", _pct(r.win_share), _ci_pct(r.win_low, r.win_high),
                     _pct(r.fair_share), _pct(r.win_share / k), _pct(r.fair_share / k),
                     _f(r.win_share / r.fair_share)])
    return head, rows


def summary_rows(a: RunAnalysis) -> tuple[list[str], list[list[str]]]:
    head = ["strategy", "games", "win share per game", "95% CI", "fair share", "mean score",
            "95% CI", "forfeits"]
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
    rows = [[str(r.player), signed(r.rating), f"{signed(r.low)} to {signed(r.high)}", _f(r.se, 1),
             str(r.games)]
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
    """Per seat (1 = first player): win rate against fair, its p-value against the fair rate
    corrected over the seats (Holm), the flag, then scores and ranks."""
    head = ["seat", "games", "win rate", "95% CI", "fair", "advantage", "p", "p (Holm)",
            "off fair?", "mean score", "95% CI", "mean rank"]
    rows = [[str(int(r.seat) + 1), str(int(r.games)), _pct(r.win_rate),
             _ci_pct(r.win_low, r.win_high), _pct(r.fair_rate), _pct(r.advantage), _p(r.p_value),
             _p(r.p_adjusted), "yes" if bool(r.significant) else "no",
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
    """The match of A against B: the pairwise Elo first (the strength figure, the same meaning
    for any number of players), the bias-adjusted Elo after an SPRT, then the game-level W/D/L
    figures for what they are."""
    e, t = m.estimate, m.trinomial_estimate
    rows = []
    if m.pairwise is not None and m.units is not None:
        pw, u = m.pairwise, m.units
        rows.append(["strength: pairwise Elo", elo_text(pw),
                     f"{m.a} over {m.b}, 95%: every seat of {m.a} against every seat of {m.b} "
                     f"in the same game ({u.comparisons} comparisons, {u.n} {u.unit}s as units)"])
        rows.append(["pairwise score", _pct(pw.score, 2),
                     f"how often a seat of {m.a} finished ahead of a seat of {m.b} (ties ½)"])
        rows.append(["pairwise LOS", _pct(pw.los, 2), f"likelihood that {m.a} is stronger"])
    seq = m.sequential
    if seq is not None:
        rows.append(["bias-adjusted Elo (after the SPRT)",
                     sequential_text(seq),
                     "pairwise Elo corrected for stopping early (fishtest's method), 95%; "
                     f"LOS {_pct(seq.los, 2)}. Quote this one after a sequential stop"
                     + ("; the LLR had passed the bound and was put back on it"
                        if seq.clamped else "")])
    rows += [
        ["game-level W / D / L", f"{m.wins} / {m.draws} / {m.losses}",
         f"{m.games} games; a game is a win for {m.a} when it ranked better in most seat "
         f"comparisons"],
        ["game-level Elo", elo_text(e),
         f"logistic Elo of those W/D/L, 95% ({e.model}); grows with the player count, so do "
         f"not compare it across player counts"],
        ["game-level nElo", nelo_text(e), f"normalised Elo, 95% ({e.model})"],
        ["game-level LOS", _pct(e.los, 2), f"likelihood that {m.a} is stronger"],
    ]
    if m.penta is not None:
        rows.append(["pentanomial", " ".join(str(c) for c in m.penta),
                     "deal pairs LL, LD, WL+DD, WD, WW"])
        rows.append(["game-level Elo (unpaired)", elo_text(t),
                     "trinomial, for contrast: pairing narrows the interval"])
    if m.sprt is not None:
        unit = "pairwise Elo" if m.sprt.model == "logistic" else "pairwise nElo"
        rows.append(["SPRT", f"[{m.sprt.elo0:g}, {m.sprt.elo1:g}] {unit}",
                     f"alpha {m.sprt.alpha:g}, beta {m.sprt.beta:g}, LLR bounds "
                     f"({m.sprt.lower:.2f}, {m.sprt.upper:.2f})"])
        rows.append(["LLR", _f(m.llr), m.verdict()])
    return ["figure", "value", "meaning"], rows


def paired_rows(a: RunAnalysis):
    assert a.paired is not None
    head = ["strategy", "deals", "win share per game", "95% CI", "mean score", "95% CI"]
    rows = [[str(r.player), str(int(r.deals)), _pct(r.win_share), _ci_pct(r.win_low, r.win_high),
             _f(r.mean_score), _ci(r.score_low, r.score_high)] for r in a.paired.itertuples()]
    return head, rows


def run_facts(a: RunAnalysis) -> list[tuple[str, str]]:
    m = a.manifest
    facts = [
        ("game", f"{game_title(m)} ({m.get('game', '?')}, rules {m.get('rules_version', '?')})"),
        ("lineup", lineup_text(a)),
        ("games", f"{m.get('games_done', len(a.games))} of {m.get('n_games', '?')}"
                  f" ({m.get('status', 'complete')})"),
        ("seed", str(m.get("seed", "?"))),
        ("scores", "higher is better" if a.higher_is_better else "lower is better"),
        ("seats", "numbered from 1, the first player to act"),
        ("config", config_text(m.get("config", {}) or {})),
    ]
    if m.get("command"):
        facts.append(("command", str(m["command"])))
    t = m.get("timings", {}) or {}
    if t.get("wall_seconds"):
        facts.append(("wall time", f"{t['wall_seconds']} s on {t.get('jobs', '?')} jobs"))
    return facts


def independence_text(a: RunAnalysis) -> str:
    """The seat tests, naming the test actually used and its units (games or deals)."""
    i = a.independence
    blocks = i.get("blocks", "games")
    if i.get("wins_test") == "hotelling":
        parts = [f"Wins by seat, Hotelling's T² test on each deal's win totals per seat (deals "
                 f"as units, because the games of one deal share its cards): T² = "
                 f"{_f(i['wins_chi2'])}, df = {i['wins_df']}, p = {_p(i['wins_p'])}."]
    else:
        parts = [f"Wins by seat, chi-square test of equal shares (games as units): χ² = "
                 f"{_f(i['wins_chi2'])}, df = {i['wins_df']}, p = {_p(i['wins_p'])}."]
    if i.get("scores_test"):
        name = "Friedman" if i["scores_test"] == "friedman" else "Wilcoxon signed-rank"
        parts.append(f"Scores by seat, {name} test ({blocks} as blocks): statistic "
                     f"{_f(i['scores_stat'])}, p = {_p(i['scores_p'])}.")
    parts.append(f"Small p-values mean the seat matters. Each seat's own p-value (p) tests "
                 f"its win rate against the fair rate; “off fair?” says yes when that p-value, "
                 f"adjusted for the {len(a.seat_table)} seats by Holm's method (p (Holm)), is "
                 f"below 5%, so the chance of any false flag in this table stays under 5%.")
    if a.manifest.get("seating") == "fixed":
        parts.append("Seating is fixed, so seat effects are mixed with strategy effects.")
    return " ".join(parts)


# ---------------------------------------------------------------------------------------------
# comparison of several runs (a sweep's cells)

def comparison_table(runs: list[RunAnalysis]) -> pd.DataFrame:
    """One row per run: what differs (config, players, lineup) and the headline figures,
    normalised so that cells with different player counts compare: each strategy's win share,
    fair share and their ratio, the first seat's win rate ÷ its fair rate, and the seat-effect
    p-value with its Holm adjustment over the cells."""
    cfgs = [r.manifest.get("config", {}) or {} for r in runs]
    keys = sorted({k for c in cfgs for k in c})
    differing = [k for k in keys if len({json.dumps(c.get(k), sort_keys=True) for c in cfgs}) > 1]
    rows = []
    for r, c in zip(runs, cfgs):
        fs = r.balance["first_seat"]
        row = {"run": r.name, "game": r.manifest.get("game"),
               "players": r.manifest.get("n_players"),
               "lineup": ", ".join(map(str, r.manifest.get("strategies", []))),
               "variant": ", ".join(f"{k}={c.get(k)}" for k in differing) or "-",
               "games": len(r.games),
               "first_seat_advantage": fs["advantage"],
               "first_seat_ratio": fs["win_rate"] / fs["fair"] if fs["fair"] else float("nan"),
               "seat_p": r.independence.get("wins_p", float("nan")),
               "seat_test": r.independence.get("wins_test"),
               "draw_rate": r.balance["draw"]["rate"],
               "mean_steps": r.balance["length"].get("steps", {}).get("mean", float("nan")),
               "mean_margin": r.balance["margin"]["mean"]}
        for t in r.summary.itertuples():
            row[f"win_share[{t.player}]"] = t.win_share
            row[f"fair_share[{t.player}]"] = t.fair_share
            row[f"balance[{t.player}]"] = t.win_share / t.fair_share
        rows.append(row)
    df = pd.DataFrame(rows)
    flagged = flag_significant(df, "seat_p", "holm")
    df["seat_p_holm"] = flagged["p_adjusted"]
    df["seat_effect"] = flagged["significant"]
    df.attrs["correction"] = flagged.attrs["correction"]
    return df


def comparison_rows(df: pd.DataFrame):
    """Per cell: players, variant, the seat effect normalised and tested across cells."""
    head = ["cell", "players", "variant", "games", "first seat ÷ fair", "seat p (Holm)",
            "seat effect?", "draws", "mean steps"]
    rows = []
    for _, r in df.iterrows():
        rows.append([str(r["run"]), str(r["players"]), str(r["variant"]), str(r["games"]),
                     _f(r["first_seat_ratio"]), _p(r["seat_p_holm"]),
                     "yes" if bool(r["seat_effect"]) else "no", _pct(r["draw_rate"]),
                     _f(r["mean_steps"], 1)])
    return head, rows


def comparison_strategy_rows(runs: list[RunAnalysis]):
    """Per cell and strategy: win share per game, its fair share, and win share ÷ fair share
    with the Wilson interval divided the same way."""
    head = ["cell", "strategy", "seats", "win share per game", "fair share", "÷ fair",
            "95% CI ÷ fair"]
    rows = []
    for r in runs:
        for t in r.summary.itertuples():
            rows.append([r.name, str(t.player), f"{t.seats_per_game:g}", _pct(t.win_share),
                         _pct(t.fair_share), _f(t.win_share / t.fair_share),
                         _ci(t.win_low / t.fair_share, t.win_high / t.fair_share)])
    return head, rows


def sweep_verdict(runs: list[RunAnalysis], df: pd.DataFrame) -> str:
    """The comparison in words: each strategy's balance figure across the cells, and how many
    cells show a seat effect after correcting over all of them."""
    parts = []
    for p in players(pd.concat([r.seats[["strategy", "slot"]] for r in runs])):
        col = f"balance[{p}]"
        if col not in df or df[col].isna().all():
            continue
        lo, hi = df[col].idxmin(), df[col].idxmax()
        parts.append(f"{p} wins {_f(df.loc[lo, col])}× its fair share in {df.loc[lo, 'run']} "
                     f"to {_f(df.loc[hi, col])}× in {df.loc[hi, 'run']}")
    n_seat = int(df["seat_effect"].sum())
    seat = (f"the seat effect is significant in {n_seat} of {len(df)} cells after Holm's "
            f"correction over the cells" if n_seat else
            f"no cell shows a significant seat effect after Holm's correction over the "
            f"{len(df)} cells")
    head = ("Across the cells, " + "; ".join(parts) + "; ") if parts else "Across the cells, "
    return head + seat + "."


# ---------------------------------------------------------------------------------------------
# rendering

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

#: the plain-language notes of the methods, one line each (also the glossary)
GLOSSARY = [
    ("Win share per game", "the share of games a strategy won with any of its seats (a win "
     "shared by k co-winners counts 1/k). A strategy holding several seats adds them up."),
    ("Win share per seat", "the win share per game divided by the strategy's seats per game: "
     "how often one of its seats wins, comparable to the fair 1/players."),
    ("Fair share", "what an equally strong strategy would win: its seats ÷ the players."),
    ("÷ fair", "win share ÷ fair share: 1 is fair, 2 wins twice its share; it compares across "
     "player counts."),
    ("Wilson interval", "the 95% range of a win share that stays within 0–100% and is honest "
     "at 0% and 100%, unlike the plain ±."),
    ("Pairwise Elo", "the strength figure for two strategies: every pair of seats of A and B in "
     "the same game is one comparison; +191 means a seat of A finishes ahead of a seat of B "
     "3 times in 4. It means the same with 2 or with 10 players."),
    ("Game-level Elo", "Elo from whole-game wins/draws/losses of A against B; with more than "
     "two players it grows with the player count, so it is shown for contrast only."),
    ("Bias-adjusted Elo", "after an SPRT stops early, the plain Elo overshoots; this is the "
     "corrected figure and interval (fishtest's method)."),
    ("nElo, LOS", "normalised Elo (difference in standard deviations of the results, on an Elo "
     "scale); LOS: the likelihood that A is stronger than B."),
    ("SPRT, LLR", "a sequential test that stops once the evidence (the log-likelihood ratio) "
     "crosses a bound: H1 'A is elo1 stronger' or H0 'elo0'."),
    ("Plackett–Luce", "the rating for several strategies: each game's ranking is read as "
     "picking the best remaining seat again and again, in proportion to strength; shown on "
     "the Elo scale, mean 0."),
    ("Friedman test", "tests whether the seats' scores differ, comparing the seats within each "
     "game (or deal); Wilcoxon signed-rank is its two-seat form."),
    ("Chi-square / Hotelling test", "tests whether the seats win equally often: chi-square over "
     "games, Hotelling's T² over deals when each deal was played in every rotation."),
    ("Holm correction", "with many seats (or cells) tested at once some look significant by "
     "chance; Holm raises the p-values so the chance of any false flag stays under 5%."),
    ("Steps", "decision steps in a game: each time the game asked one or more seats to choose."),
    ("Rounds", "for multi-round games (6 nimmt! rounds, Rummikub hands): rounds played until "
     "the game ended; the score after each round is the sum of a seat's points so far."),
    ("Winning margin", "the winner's score minus the best other score, in the game's points."),
    ("Seats", "numbered from 1, the first player to act, in the report, charts and CSV "
     "tables (the run's Parquet tables count from 0)."),
]


def _e(x) -> str:
    return html.escape(str(x), quote=True)


#: a cell that reads as a figure (right-aligned): a number, percentage, interval, n/a or dash
_FIGURE = re.compile(r"^([+\-−≥≤]\s?)?[\d.,∞]|^(n/a|—|-|yes|no)$")


def _align(cell) -> str:
    return "" if _FIGURE.match(str(cell)) else ' class="t"'


def _html_table(head, rows, wrap_last: bool = False) -> str:
    """A table in its scrolling box; words are left-aligned, figures right-aligned (headers
    follow their column's first row)."""
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


def round_caption(a: RunAnalysis) -> str:
    w = a.round_word
    return (f"Mean score of each strategy after each {w} (its seats averaged per game), with "
            f"95% bands; a game that ended earlier counts with its final score, so the last "
            f"point is the mean final score. Below (when games differ in length): the share of "
            f"games still playing that {w}.")


def _headline_html(a: RunAnalysis) -> str:
    """The answers as a list a reader scans: the question, its short answer in bold, then the
    sentence with the figures behind it."""
    items = "".join(f"<dt>{_e(q)}</dt><dd>" + (f"<strong>{_e(k)}.</strong> " if k else "")
                    + f"{_e(s)}</dd>" for q, k, s in headline_answers(a))
    return f'<dl class="headline">{items}</dl>'


def _run_html(a: RunAnalysis, idx: int, multi: bool) -> str:
    pid = f"run{idx}-" if multi else ""
    h = "h3" if multi else "h2"

    def fig(key: str, alt: str, caption: str) -> str:
        return _img(a.figures[key], alt, caption, a.figure_fonts.get(key))

    out = [f'<article id="{pid}run">']
    title = game_title(a.manifest)
    # a single run's h1 already names it: the verdict follows at once, within the first screen
    head = f"<h2>{_e(title)}: {_e(a.name)}</h2>" if multi else ""
    out.append(f'<section id="{pid}headline">{head}')
    out.append(f'<p class="note">Rules {_e(a.manifest.get("rules_version", "?"))}; lineup '
               f"{_e(lineup_text(a))}; {_e(len(a.games))} games.</p>")
    out.append(_headline_html(a))
    out.append('<details><summary>Run details and config</summary><dl class="facts">'
               + "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in run_facts(a))
               + "</dl></details></section>")

    out.append(f'<section id="{pid}strength"><{h}>Who is stronger: win share against fair '
               f"share</{h}>")
    out.append(_html_table(*strength_rows(a)))
    out.append(_note("Win share per game: games won with any of the strategy's seats; per "
                     "seat: divided by its seats. Fair: what an equally strong strategy would "
                     "win. ÷ fair: 1 is fair. 95% Wilson interval."))
    out.append(fig("win_share", "win share chart", "Win share per game with its 95% Wilson "
                   "interval; dotted tick: fair share."))
    if a.match is not None:
        out.append(f'<p class="note">Rating scale: <strong>pairwise Elo</strong>. '
                   f"{_e(rating_sentence(a))} Details under “Match” below.</p>")
    else:
        out.append(f'<p class="note">Rating scale: <strong>Plackett–Luce</strong> (see '
                   f"“Ratings” below). {_e(rating_sentence(a))}</p>")
    out.append("</section>")

    if a.match is not None:
        out.append(f'<section id="{pid}match"><{h}>Match: {_e(a.match.a)} against '
                   f"{_e(a.match.b)}</{h}>")
        out.append(_html_table(*match_rows(a.match), wrap_last=True))
        out.append(_note("The pairwise Elo is the strength figure: it means the same with any "
                         "number of players. The game-level rows count whole-game wins and are "
                         "shown for contrast."))
        if a.match.sprt is not None:
            out.append(f'<p class="verdict">{_e(a.match.verdict())}</p>')
        out.append("</section>")

    out.append(f'<section id="{pid}summary"><{h}>Summary: win share and mean score</{h}>')
    out.append(_html_table(*summary_rows(a)))
    out.append(_note("Mean score: averaged over the strategy's seats in a game, then over "
                     "games, with a 95% Student-t interval (games as units)."))
    out.append("</section>")

    if a.paired is not None:
        out.append(f'<section id="{pid}paired"><{h}>Paired analysis (duplicate deals)</{h}>')
        out.append(_html_table(*paired_rows(a)))
        out.append(_note("Each deal was played once per seat rotation; figures are averaged "
                         "within each deal first, so the luck of the deal cancels and the "
                         "interval (normal, deals as units) is narrower."))
        out.append("</section>")

    out.append(f'<section id="{pid}scores"><{h}>Scores</{h}>')
    out.append(_html_table(*quantile_rows(a)))
    out.append(fig("scores", "score distribution chart",
                   "Score distribution per strategy; dashed lines: means."))
    if "round_scores" in a.figures:
        out.append(fig("round_scores", f"score after each {a.round_word} chart",
                       round_caption(a)))
    if "rounds" in a.figures:
        out.append(fig("rounds", "final score by rounds chart",
                       "Mean final score per seat by the number of rounds the game lasted "
                       "(95% intervals), and how often each length occurred. This run's "
                       "tables have no per-round scores (it was recorded before simkit kept "
                       "them)."))
    out.append("</section>")

    out.append(f'<section id="{pid}ratings"><{h}>Ratings (Plackett–Luce)</{h}>')
    out.append(_html_table(*rating_rows(a)))
    out.append(_note("Each game's ranking read as picking the best remaining seat again and "
                     "again, in proportion to strength (Plackett–Luce; ties by Breslow's rule; "
                     "Hunter's MM fit). Elo scale, mean 0: +191 means 3:1 odds of finishing "
                     "ahead in a two-seat pairing."))
    out.append("</section>")

    out.append(f'<section id="{pid}head-to-head"><{h}>Head to head</{h}>')
    out.append(_html_table(*h2h_rows(a)))
    out.append(_note("Share of seat pairings in which the row strategy finished ahead of the "
                     "column strategy (ties count ½); pairings in brackets."))
    out.append("</section>")

    out.append(f'<section id="{pid}seats"><{h}>Is the game fair to seats?</{h}>')
    out.append(_html_table(*seat_rows(a)))
    out.append(_note(independence_text(a)))
    out.append(fig("seats", "seat effects chart",
                   "Win rate and mean score per seat (1 = first player) with 95% intervals."))
    out.append("</section>")

    out.append(f'<section id="{pid}balance"><{h}>Balance: first player, decisiveness, length'
               f"</{h}>")
    out.append(_html_table(*balance_rows(a), wrap_last=True))
    out.append(fig("length", "game length chart", "Game length."))
    out.append("</section>")

    out.append(f'<section id="{pid}convergence"><{h}>Convergence</{h}>')
    out.append(fig("convergence", "running win share chart",
                   "Running win share per game of each strategy with its 95% band (log scale "
                   "of games); dotted lines: fair shares."))
    out.append("</section></article>")
    return "\n".join(out)


def _glossary_html() -> str:
    items = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in GLOSSARY)
    return (f'<section id="glossary"><h2>Glossary</h2><dl class="glossary">{items}</dl>'
            f'<p class="note">Every figure is defined in docs/statistics.md.</p></section>')


def _several_runs(runs: list[RunAnalysis]) -> str:
    """`sweep <folder>, 4 cells` when the runs are the cells of one sweep, else `3 runs
    compared`."""
    parents = {r.path.resolve().parent for r in runs}
    if len(parents) == 1 and (next(iter(parents)) / "sweep.json").exists():
        return f"sweep {next(iter(parents)).name}, {len(runs)} cells"
    return f"{len(runs)} runs compared"


def render_html(runs: list[RunAnalysis], comparison: pd.DataFrame | None,
                comparison_png: bytes | None, comparison_font: float | None = None) -> str:
    multi = len(runs) > 1
    games = sorted({game_title(r.manifest) for r in runs})
    title = (f"{', '.join(games)}: {_several_runs(runs)}" if multi else
             f"{games[0]}: {runs[0].name}")
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)}</title><style>{CSS}</style><script>{SCRIPT}</script>"
             "</head><body><main>",
             f"<h1>{_e(title)}</h1>"]
    if multi and comparison is not None:
        parts.append(f'<p class="headline">{_e(sweep_verdict(runs, comparison))}</p>')
        parts.append("<nav>" + "".join(f'<a href="#run{i}-run">{_e(r.name)}</a>'
                                       for i, r in enumerate(runs)) + "</nav>")
        parts.append('<section id="comparison"><h2>Comparison of cells</h2>')
        parts.append(_html_table(*comparison_strategy_rows(runs)))
        parts.append(_note("÷ fair: win share ÷ fair share, so cells with different player "
                           "counts compare (1 = as good as an equal opponent)."))
        if comparison_png:
            parts.append(_img(comparison_png, "balance across cells chart",
                              "Win share ÷ fair share in every cell, 95% intervals; dotted: 1.",
                              comparison_font))
        parts.append(_html_table(*comparison_rows(comparison)))
        parts.append(_note(f"Variant: the config fields whose values differ between the cells. "
                           f"First seat ÷ fair: the first player's win rate ÷ 1/players. Seat "
                           f"p: the test of equal wins by seat, adjusted over the cells "
                           f"({comparison.attrs.get('correction', 'Holm')}); seat effect: "
                           f"adjusted p below 5%."))
        parts.append("</section>")
    for i, r in enumerate(runs):
        parts.append(_run_html(r, i, multi))
    parts.append(_glossary_html())
    parts.append(_note(f"Generated {stamp} by simkit from {len(runs)} run "
                       f"folder{'s' if multi else ''}."))
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


def _md_img(alt: str, path: str) -> str:
    """An embedded chart; the path is relative to summary.md and made of safe characters."""
    return f"![{_md_cell(alt)}]({path})"


def render_markdown(runs: list[RunAnalysis], comparison: pd.DataFrame | None) -> str:
    out = ["# simkit report", ""]
    if comparison is not None:
        out += [_md_cell(sweep_verdict(runs, comparison)), ""]
        out += ["## Comparison of cells", "", _md_table(*comparison_strategy_rows(runs)), "",
                _md_img("win share ÷ fair share in every cell", "figures/comparison.png"), "",
                _md_table(*comparison_rows(comparison)), ""]
    for r in runs:
        fig = f"figures/{r.slug}"
        out += [f"## {_md_cell(game_title(r.manifest))}: {_md_cell(r.name)}", ""]
        out += [f"- **{_md_cell(q if q.endswith('?') else q + ':')}** "
                + (f"{_md_cell(k)}. " if k else "") + _md_cell(t)
                for q, k, t in headline_answers(r)] + [""]
        out += ["Run details:", ""]
        out += [f"- **{_md_cell(k)}**: {_md_cell(v)}" for k, v in run_facts(r)] + [""]
        out += ["### Who is stronger: win share against fair share", "",
                _md_table(*strength_rows(r)), "", _md_img("win share", f"{fig}/win_share.png"),
                ""]
        if r.match is not None:
            out += [f"### Match: {_md_cell(r.match.a)} against {_md_cell(r.match.b)}", "",
                    _md_table(*match_rows(r.match)), ""]
        out += ["### Summary", "", _md_table(*summary_rows(r)), ""]
        if r.paired is not None:
            out += ["### Paired analysis (duplicate deals)", "", _md_table(*paired_rows(r)), ""]
        out += ["### Scores", "", _md_img("score distribution", f"{fig}/scores.png"), ""]
        if "round_scores" in r.figures:
            out += [_md_img(f"score after each {r.round_word}", f"{fig}/round_scores.png"),
                    _md_cell(round_caption(r)), ""]
        if "rounds" in r.figures:
            out += [_md_img("final score by rounds", f"{fig}/rounds.png"), ""]
        out += ["### Ratings (Plackett–Luce)", "", _md_table(*rating_rows(r)), ""]
        out += ["### Seat effects", "", _md_table(*seat_rows(r)), "",
                _md_cell(independence_text(r)), "", _md_img("seat effects", f"{fig}/seats.png"),
                ""]
        out += ["### Balance", "", _md_table(*balance_rows(r)), "",
                _md_img("game length", f"{fig}/length.png"), "",
                _md_img("running win share", f"{fig}/convergence.png"), ""]
    out += ["## Glossary", ""] + [f"- **{_md_cell(k)}**: {_md_cell(v)}" for k, v in GLOSSARY]
    return "\n".join(out) + "\n"


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
    """A folder name for tables/ and figures/: letters, digits and -_.= kept, others `_`."""
    keep = "".join(c if (c.isalnum() or c in "-_.=") else "_" for c in name)
    return keep.strip(".") or "run"


def write_tables(a: RunAnalysis, folder: Path) -> list[Path]:
    """Every table of the run as CSV; seats are numbered from 1 as in the report."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []

    def put(df: pd.DataFrame, name: str, index: bool = False):
        p = folder / f"{name}.csv"
        df.to_csv(p, index=index)
        paths.append(p)

    put(a.summary, "summary")
    put(a.quantiles, "score_quantiles")
    put(a.seat_table.assign(seat=a.seat_table["seat"] + 1), "seats")
    put(a.ratings, "ratings")
    put(a.h2h_score, "head_to_head", index=True)
    put(a.h2h_count, "head_to_head_counts", index=True)
    bal = _flat(a.balance)
    bal.update({f"seat_independence.{k}": v for k, v in a.independence.items()})
    put(pd.DataFrame({"figure": list(bal), "value": list(bal.values())}), "balance")
    if a.paired is not None:
        put(a.paired, "paired")
    if a.round_curves is not None:
        put(a.round_curves, "round_scores")
    if a.match is not None:
        m = _flat(a.match.to_dict())
        put(pd.DataFrame({"figure": list(m), "value": [json.dumps(v) if isinstance(v, list)
                                                       else v for v in m.values()]}), "match")
    return paths


def _draw(r: RunAnalysis, out_dir: Path) -> None:
    figs = {
        "win_share": charts.win_shares(r.summary),
        "scores": charts.score_distribution(r.seats, r.higher_is_better),
        "seats": charts.seat_chart(r.seats, r.higher_is_better),
        "length": charts.game_length(r.games),
        "convergence": charts.convergence(r.seats),
    }
    if r.round_curves is not None:
        figs["round_scores"] = charts.round_scores_chart(r.round_curves, r.higher_is_better,
                                                         r.round_word)
    else:   # a run recorded before the round_scores column: final scores by game length
        rounds = charts.rounds_chart(r.games, r.seats, r.higher_is_better)
        if rounds is not None:
            figs["rounds"] = rounds
    fig_dir = out_dir / "figures" / r.slug
    for key, fig in figs.items():
        charts.save_figure(fig, fig_dir / key)
        r.figures[key] = (fig_dir / f"{key}.png").read_bytes()
        r.figure_fonts[key] = charts.min_font_pt(fig)


def build_report(run_dirs, out_dir: Path | str) -> Path:
    """Write the report of `run_dirs` into `out_dir` (see module docstring); return the path
    of report.html."""
    run_dirs = [Path(p) for p in run_dirs]
    if not run_dirs:
        raise RunFolderError("no run folder given: name at least one folder written by `simkit run`")
    out_dir = Path(out_dir)
    names: list[str] = []
    for p in run_dirs:
        n = p.resolve().name or "run"
        base, k = n, 2
        while n in names or _safe(n) in {_safe(x) for x in names}:
            n, k = f"{base}-{k}", k + 1
        names.append(n)
    runs = [analyze_run(p, n) for p, n in zip(run_dirs, names)]
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunFolderError(f"cannot create the report folder {out_dir} ({exc.strerror}): "
                             f"choose an --out you can write to") from None
    for r in runs:
        _draw(r, out_dir)
        write_tables(r, out_dir / "tables" / r.slug)
    comparison = comparison_png = None
    comparison_font = None
    if len(runs) > 1:
        comparison = comparison_table(runs)
        (out_dir / "tables").mkdir(parents=True, exist_ok=True)
        comparison.to_csv(out_dir / "tables" / "comparison.csv", index=False)
        fig = charts.balance_grid([r.name for r in runs], [r.summary for r in runs])
        charts.save_figure(fig, out_dir / "figures" / "comparison")
        comparison_png = (out_dir / "figures" / "comparison.png").read_bytes()
        comparison_font = charts.min_font_pt(fig)
    (out_dir / "summary.md").write_text(render_markdown(runs, comparison), encoding="utf-8")
    path = out_dir / "report.html"
    path.write_text(render_html(runs, comparison, comparison_png, comparison_font),
                    encoding="utf-8")
    return path
