"""Every sentence a reader of a report sees, and the terminal texts that say the same thing: the
headline's verdict, the notes under the tables, the chart captions, the glossary, the
comparison of several runs.

A figure is named once here (`WIN_SHARE`, `FAIR_SHARE`, `RATIO`, `PAIRWISE_ELO`, the SPRT's
unit and bounds) and the report, `summary.md` and the terminal (`simkit.report.console`) use
that name. Numbers are formatted by `simkit.stats.wording` (`66.1%`, `64.0–68.2%`, `+288.1`),
which the estimators' own terminal tables use too and which stays with them in `simkit.stats`.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from simkit.report.figures import RunAnalysis, all_players, game_title
from simkit.stats.elo import SPRT
from simkit.stats.match import MatchSummary
from simkit.stats.wording import ci_pct, elo_text, number, pct, seq_bound, sequential_text, signed

# ---------------------------------------------------------------------------------------------
# the names of the figures

WIN_SHARE = "win share per game"
FAIR_SHARE = "fair share"
RATIO = "÷ fair"
PAIRWISE_ELO = "pairwise Elo"

#: what the win-share columns mean, in the terminal under the summary table
WIN_SHARE_NOTE = (f"{WIN_SHARE}: games won with any of a strategy's seats (a win shared by k "
                  f"co-winners counts 1/k); {FAIR_SHARE}: its seats / players; {RATIO}: 1 is fair")


def sprt_unit(sprt: SPRT | None) -> str:
    """The scale of an SPRT's bounds: `pairwise Elo`, or `pairwise nElo` for a normalised test."""
    return PAIRWISE_ELO if sprt is None or sprt.model == "logistic" else "pairwise nElo"


def sprt_hypotheses(sprt: SPRT) -> str:
    """`[0, 10] pairwise Elo`: the SPRT's two hypotheses on its scale."""
    return f"[{sprt.elo0:g}, {sprt.elo1:g}] {sprt_unit(sprt)}"


def llr_bounds(sprt: SPRT) -> str:
    """`-2.94, 2.94`: the log-likelihood ratio's two stopping bounds."""
    return f"{sprt.lower:.2f}, {sprt.upper:.2f}"


def _sentence_case(text: str) -> str:
    return text[0].upper() + text[1:]


# ---------------------------------------------------------------------------------------------
# figures in words

def p_text(p: Any) -> str:
    """A p-value, `0.0123`, `< 0.0001` or `n/a`."""
    try:
        v = float(p)
    except (TypeError, ValueError):
        return "n/a"
    if math.isnan(v):
        return "n/a"
    return "< 0.0001" if v < 1e-4 else f"{v:.4f}"


def p_is(p: Any) -> str:
    """`p = 0.0123` or `p < 0.0001`."""
    text = p_text(p).replace(" ", "\u00a0")
    # no-break spaces: a line never ends between `p =` and its value
    return f"p\u00a0{text}" if text.startswith("<") else f"p\u00a0=\u00a0{text}"


def value_text(v: Any) -> str:
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


def config_items(cfg: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """(`max rounds`, `none`), (`advanced`, `no`), (`variant enabled`, `yes`), ... in order."""
    out: list[tuple[str, str]] = []
    for k, v in (cfg or {}).items():
        label = f"{prefix}{k}".replace("_", " ")
        if isinstance(v, dict):
            out += config_items(v, label + " ")
        else:
            out.append((label, value_text(v)))
    return out


def config_text(cfg: dict[str, Any]) -> str:
    return "; ".join(f"{k}: {v}" for k, v in config_items(cfg)) or "defaults"


def seat_word(k: float) -> str:
    """`1 seat`, `3 seats`."""
    return f"{k:g} seat" + ("" if k == 1 else "s")


def lineup_text(a: RunAnalysis) -> str:
    """`heuristic (1 seat), random (3 seats); 4 players, seats rotated every game`."""
    parts = [f"{r.player} ({seat_word(r.seats_per_game)})" for r in a.strategy_figures()]
    seating = {"rotate": "seats rotated every game", "random": "seats drawn at random",
               "fixed": "fixed seats"}.get(str(a.manifest.get("seating")),
                                           str(a.manifest.get("seating", "?")))
    dup = ", every deal played in every seat rotation" if a.manifest.get("duplicate") else ""
    return f"{', '.join(parts)}; {a.n_players} players, {seating}{dup}"


def _vs_fair(significant: bool, share: float, fair: float) -> str:
    """Above or below the fair share only when the strategy's test is significant after the
    correction over the strategies (`strategy_effect_flags`), else within chance."""
    if significant and share > fair:
        return "more than its fair share"
    if significant and share < fair:
        return "less than its fair share"
    return "within chance of its fair share"


def run_facts(a: RunAnalysis) -> list[tuple[str, str]]:
    """The run's details as (label, text): game, lineup, games, seed, config, command, time."""
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


# ---------------------------------------------------------------------------------------------
# the headline: a verdict in words, computed from the tables

def _by_ratio(table: pd.DataFrame) -> pd.DataFrame:
    return table.assign(ratio=table["win_share"] / table["fair_share"])


def _correction_name(tests: pd.DataFrame) -> str:
    return f"Holm's correction over the {len(tests)} strategies"


def _significant(tests: pd.DataFrame) -> pd.Series:
    return tests["significant"].fillna(False).astype(bool)


NO_DIFFERENCE = "no strategy differs from its fair share"


def strongest_key(tests: pd.DataFrame) -> str:
    """The short answer to "who is stronger?" from `strategy_effect_flags`: the strategy with
    the highest win share ÷ fair share among those significantly above their fair share after
    the correction over the strategies; else that none differs (or which fall short)."""
    t = _by_ratio(tests)
    sig = _significant(t)
    above = [(float(r), str(p)) for p, r, s in zip(t["player"], t["ratio"], sig) if s and r > 1]
    if above:
        ratio, player = max(above, key=lambda x: x[0])
        return f"{player}, {number(ratio)}× its fair share"
    below = [str(p) for p, r, s in zip(t["player"], t["ratio"], sig) if s and r < 1]
    if below:
        return "none above its fair share; " + ", ".join(below) + " below it"
    return NO_DIFFERENCE


def strongest_line(tests: pd.DataFrame) -> str:
    """The terminal's line under the summary: the short answer and the test behind it."""
    key = strongest_key(tests)
    smallest = tests["p_adjusted"].min()
    return (f"who is stronger: {key} (each win share against its fair share, "
            f"{_correction_name(tests)}; smallest adjusted {p_is(smallest)})").replace("\u00a0", " ")


def strength_sentence(a: RunAnalysis) -> str:
    """Win share against fair share for each strategy, strongest (relative to fair) first;
    when no strategy differs after the correction over the strategies, it says so first."""
    tests = a.strategy_tests()
    order = _by_ratio(tests).sort_values("ratio", ascending=False, kind="stable")
    flags = dict(zip(order["player"], _significant(order)))
    parts = []
    for r in a.strategy_figures(order):
        judge = _vs_fair(flags[r.player], r.win_share, r.fair_share)
        if r.seats_per_game > 1:
            parts.append(f"{r.player}, holding {seat_word(r.seats_per_game)}, wins "
                         f"{pct(r.win_share)} of games with any of them "
                         f"({pct(r.win_share / r.seats_per_game)} per seat against a fair "
                         f"{pct(r.fair_share / r.seats_per_game)}; {judge})")
        else:
            parts.append(f"{r.player} wins {pct(r.win_share)} of games (95% "
                         f"{ci_pct(r.win_low, r.win_high)}) against a fair "
                         f"{pct(r.fair_share)} ({judge})")
    head = ""
    if not _significant(tests).any():
        head = (f"No strategy wins more or less than its fair share beyond chance "
                f"({_correction_name(tests)}, smallest adjusted "
                f"{p_is(tests['p_adjusted'].min())}): ")
    return head + "; ".join(parts) + "."


DETAIL_TITLE = "Strength in detail"


def rating_sentence(a: RunAnalysis) -> str:
    """The one strength figure in words: pairwise Elo with its interval for two strategies
    (bias-adjusted after an SPRT), else the Plackett–Luce spread."""
    m = a.match
    if m is not None and m.pairwise is not None:
        seq = m.sequential
        pw = m.pairwise
        share = (f"a seat of {m.a} finished ahead of a seat of {m.b} in {pct(pw.score)} of "
                 f"their comparisons")
        where = f"Other figures, and how each relates to this one: “{DETAIL_TITLE}”."
        if seq is not None:
            return (f"On the {PAIRWISE_ELO} scale {m.a} is {seq_bound(seq.elo, seq.elo_at_reach)} "
                    f"against {m.b} (95% {seq_bound(seq.low, seq.low_at_reach)} to "
                    f"{seq_bound(seq.high, seq.high_at_reach)}, bias-adjusted as the "
                    f"SPRT stopped the run early; {share}); {m.verdict()}. {where}")
        return (f"On the {PAIRWISE_ELO} scale {m.a} is {signed(pw.elo)} against {m.b} (95% "
                f"{signed(pw.elo_low)} to {signed(pw.elo_high)}): {share}. {where}")
    ranked = a.rating_figures(a.ratings.sort_values("rating", ascending=False))
    if len(ranked) < 2:
        return ""
    top, low = ranked[0], ranked[-1]
    return (f"Plackett–Luce ratings (Elo scale, mean 0) run from {top.player} "
            f"{signed(top.rating, 0)} (95% {signed(top.low, 0)} to "
            f"{signed(top.high, 0)}) down to {low.player} {signed(low.rating, 0)}.")


def _wins_test_name(i: dict[str, Any]) -> str:
    if i.get("wins_test") == "hotelling":
        return "Hotelling's T² test over deals"
    return "chi-square test of wins by seat"


def _seats_p(a: RunAnalysis) -> float:
    return float(a.independence.get("wins_p", float("nan")))


def seat_sentence(a: RunAnalysis) -> str:
    """Is the game fair to seats? The omnibus test, then the seats flagged after correction."""
    flagged = a.seat_figures(a.flagged_seats())
    test = f"{_wins_test_name(a.independence)}, {p_is(a.independence.get('wins_p'))}"
    p = _seats_p(a)
    if flagged:
        seats = ", ".join(f"seat {int(r.seat) + 1} wins {pct(r.win_rate)}" for r in flagged)
        text = (f"the seat matters: {seats} against a fair {pct(flagged[0].fair_rate)} "
                f"(Holm-adjusted {p_is(max(r.p_adjusted for r in flagged))} or less; {test})")
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
    return _sentence_case(text) + "."


def length_sentence(a: RunAnalysis) -> str:
    """How long a game lasts, how often none wins, how often one was forfeited."""
    b = a.balance
    parts = []
    steps = b["length"].get("steps")
    if steps:
        extra = ""
        for col in ("rounds", "turns"):
            if col in b["length"]:
                extra = f", {number(b['length'][col]['mean'], 1)} {col}"
                break
        parts.append(f"A game lasts {number(steps['mean'], 1)} decision steps{extra} on average")
    draw = b["draw"]["rate"]
    if draw and not math.isnan(draw):
        parts.append(f"{pct(draw)} of games end without a winner")
    forfeit = b["forfeit"]["rate"]
    if forfeit and not math.isnan(forfeit):
        parts.append(f"{pct(forfeit)} of games had a forfeit")
    return ("; ".join(parts) + ".") if parts else ""


def headline_elo(m: MatchSummary) -> str:
    """The one strength figure of a match with its 95% interval: the bias-adjusted pairwise
    Elo after an SPRT (`+323 [+223, +504]`), else the sample one (`+327 ± 26`)."""
    seq = m.sequential
    if seq is not None:
        return sequential_text(seq, 0)
    assert m.pairwise is not None
    return elo_text(m.pairwise, 0)


def _rating_key(a: RunAnalysis) -> str:
    m = a.match
    if m is not None and m.pairwise is not None:
        return f"{headline_elo(m)} {PAIRWISE_ELO}"
    ranked = a.rating_figures(a.ratings.sort_values("rating", ascending=False))
    if len(ranked) < 2:
        return ""
    return f"{ranked[0].rating - ranked[-1].rating:.0f} Elo from first to last"


def _seat_key(a: RunAnalysis) -> str:
    flagged = a.seat_figures(a.flagged_seats())
    p = _seats_p(a)
    if flagged:
        key = "no: " + ", ".join(f"seat {int(r.seat) + 1}" for r in flagged) + " off fair"
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
    rows = [("Who is stronger?", strongest_key(a.strategy_tests()), strength_sentence(a)),
            ("By how much?", _rating_key(a), rating_sentence(a)),
            ("Fair to seats?", _seat_key(a), seat_sentence(a)),
            ("Game length", "", length_sentence(a))]
    return [r for r in rows if r[2]]


def independence_text(a: RunAnalysis) -> str:
    """The seat tests, naming the test actually used and its units (games or deals)."""
    i = a.independence
    blocks = i.get("blocks", "games")
    if i.get("wins_test") == "hotelling":
        parts = [f"Wins by seat, Hotelling's T² test on each deal's win totals per seat (deals "
                 f"as units, because the games of one deal share its cards): T² = "
                 f"{number(i['wins_chi2'])}, df = {i['wins_df']}, p = {p_text(i['wins_p'])}."]
    else:
        parts = [f"Wins by seat, chi-square test of equal shares (games as units): χ² = "
                 f"{number(i['wins_chi2'])}, df = {i['wins_df']}, p = {p_text(i['wins_p'])}."]
    if i.get("scores_test"):
        name = "Friedman" if i["scores_test"] == "friedman" else "Wilcoxon signed-rank"
        parts.append(f"Scores by seat, {name} test ({blocks} as blocks): statistic "
                     f"{number(i['scores_stat'])}, p = {p_text(i['scores_p'])}.")
    parts.append(f"Small p-values mean the seat matters. Each seat's own p-value (p) tests "
                 f"its win rate against the fair rate; “off fair?” says yes when that p-value, "
                 f"adjusted for the {len(a.seat_table)} seats by Holm's method (p (Holm)), is "
                 f"below 5%, so the chance of any false flag in this table stays under 5%.")
    if a.manifest.get("seating") == "fixed":
        parts.append("Seating is fixed, so seat effects are mixed with strategy effects.")
    return " ".join(parts)


# ---------------------------------------------------------------------------------------------
# several runs

def _first(cell: tuple[float, str]) -> float:
    return cell[0]


def sweep_verdict(runs: list[RunAnalysis], df: pd.DataFrame) -> str:
    """The comparison in words: each strategy's balance figure across the cells (of one game:
    runs of different games are never compared with each other), and how many cells show a seat
    effect after correcting over all of them."""
    games = list(dict.fromkeys(df["game"].tolist())) if "game" in df else []
    if len(games) > 1:
        titles = [game_title(r.manifest) for r in runs]
        head = (f"These runs play {len(games)} different games ({', '.join(dict.fromkeys(titles))}): "
                f"a strategy's figures are compared only between runs of the same game. ")
        parts = [part for game in games for part in _balance_ranges(runs, df[df["game"] == game])]
    else:
        head, parts = "", _balance_ranges(runs, df)
    n_seat = int(df["seat_effect"].sum())
    seat = (f"the seat effect is significant in {n_seat} of {len(df)} cells after Holm's "
            f"correction over the cells" if n_seat else
            f"no cell shows a significant seat effect after Holm's correction over the "
            f"{len(df)} cells")
    head += ("Across the cells, " + "; ".join(parts) + "; ") if parts else "Across the cells, "
    return head + seat + "."


def _balance_ranges(runs: list[RunAnalysis], df: pd.DataFrame) -> list[str]:
    """Each strategy's lowest and highest balance figure over the cells of `df` (two or more)."""
    parts: list[str] = []
    if len(df) < 2:
        return parts
    for p in all_players(runs):
        col = f"balance[{p}]"
        if col not in df or df[col].isna().all():
            continue
        cells = [(v, str(run)) for v, run in zip(df[col].tolist(), df["run"].tolist())
                 if not math.isnan(v)]
        (low, low_run), (high, high_run) = min(cells, key=_first), max(cells, key=_first)
        parts.append(f"{p} wins {number(low)}× its fair share in {low_run} "
                     f"to {number(high)}× in {high_run}")
    return parts


def several_runs(runs: list[RunAnalysis]) -> str:
    """`sweep <folder>, 4 cells` when the runs are the cells of one sweep, else `3 runs
    compared`."""
    parents = {r.path.resolve().parent for r in runs}
    if len(parents) == 1 and (next(iter(parents)) / "sweep.json").exists():
        return f"sweep {next(iter(parents)).name}, {len(runs)} cells"
    return f"{len(runs)} runs compared"


def report_title(runs: list[RunAnalysis]) -> str:
    """`6 nimmt!: a` for one run, `6 nimmt!: sweep s, 4 cells` for several."""
    games = sorted({game_title(r.manifest) for r in runs})
    if len(runs) > 1:
        return f"{', '.join(games)}: {several_runs(runs)}"
    return f"{games[0]}: {runs[0].name}"


COMPARISON_TITLE = "Comparison of cells"
COMPARISON_NOTE = (f"{RATIO}: win share ÷ fair share, so cells with different player counts "
                   f"compare (1 = as good as an equal opponent).")


def comparison_cells_note(correction: str) -> str:
    """What the columns of the per-cell table mean."""
    return (f"Variant: the config fields whose values differ between the cells. First seat "
            f"{RATIO}: the first player's win rate ÷ 1/players. Seat p: the test of equal wins by "
            f"seat, adjusted over the cells ({correction}); seat effect: adjusted p below 5%.")


def generated_note(stamp: str, n_runs: int) -> str:
    return f"Generated {stamp} by simkit from {n_runs} run folder{'s' if n_runs > 1 else ''}."


# ---------------------------------------------------------------------------------------------
# sections, notes and charts of one run

#: the sections' titles in the HTML page, and in summary.md where it says them shorter
TITLES = {
    "strength": "Who is stronger: win share against fair share",
    "summary": "Summary: win share and mean score",
    "paired": "Paired analysis (duplicate deals)",
    "scores": "Scores",
    "ratings": "Ratings (Plackett–Luce)",
    "head-to-head": "Head to head",
    "seats": "Is the game fair to seats?",
    "balance": "Balance: first player, decisiveness, length",
    "convergence": "Convergence",
    "arc": "The game's arc: lead changes, comebacks, drama",
}
MD_TITLES = {**TITLES, "summary": "Summary", "seats": "Seat effects", "balance": "Balance"}


def match_title(a: str, b: str) -> str:
    return f"{DETAIL_TITLE}: {a} against {b}"


#: where the pairwise Elo and the Plackett–Luce difference are shown together
PL_VERSUS_PAIRWISE = ("The Plackett–Luce difference equals the pairwise Elo only when the games "
                      "follow the Plackett–Luce model; they can differ (on 4-player 6 nimmt! "
                      "runs it was 21–26 Elo below the pairwise Elo, 1.8–2.5 standard errors). "
                      "Quote the pairwise Elo.")


NOTES = {
    "strength": (f"{_sentence_case(WIN_SHARE)}: games won with any of the strategy's seats; per "
                 f"seat: divided by its seats. Fair: what an equally strong strategy would win. "
                 f"{RATIO}: 1 is fair. 95% Wilson interval."),
    "match": (f"The first row is the headline's one strength figure, the {PAIRWISE_ELO} with its "
              f"95% interval: it means the same with any number of players. Every other row says "
              f"how it relates to that figure; none of them replaces it."),
    "summary": ("Mean score: averaged over the strategy's seats in a game, then over games, with "
                "a 95% Student-t interval (games as units)."),
    "paired": ("Each deal was played once per seat rotation; figures are averaged within each "
               "deal first, so the luck of the deal cancels and the interval (normal, deals as "
               "units) is narrower."),
    "ratings": ("Each game's ranking read as picking the best remaining seat again and again, in "
                "proportion to strength (Plackett–Luce; ties by Breslow's rule; Hunter's MM "
                "fit). Elo scale, mean 0: +191 means 3:1 odds of finishing ahead in a two-seat "
                "pairing."),
    "head-to-head": ("Share of seat pairings in which the row strategy finished ahead of the "
                     "column strategy (ties count ½); pairings in brackets."),
    "arc": ("From every seat's running score after each round: means with a 95% Student-t "
            "interval over games, shares with a 95% Wilson interval. A game with co-winners counts "
            "the one that took the lead for good earliest."),
}

def rating_scale(a: RunAnalysis) -> tuple[str, str]:
    """The run's one rating scale (pairwise Elo for a match, else Plackett–Luce), and the
    words after its name: `rating_sentence`, which says where the other figures are."""
    if a.match is not None:
        return PAIRWISE_ELO, f". {rating_sentence(a)}"
    return "Plackett–Luce", f" (see “Ratings” below). {rating_sentence(a)}"


def ratings_note(a: RunAnalysis) -> str:
    """The note under the Plackett–Luce table; beside a match it says how the ratings'
    difference relates to the pairwise Elo."""
    if a.pl_difference() is None:
        return NOTES["ratings"]
    return f"{NOTES['ratings']} {PL_VERSUS_PAIRWISE}"


def chart_name(key: str, a: RunAnalysis) -> str:
    """A chart's name, the alt text of its image (`win share`, `score after each hand`)."""
    names = {"win_share": "win share", "scores": "score distribution",
             "round_scores": f"score after each {a.round_word}", "rounds": "final score by rounds",
             "seats": "seat effects", "length": "game length", "convergence": "running win share",
             "lead": f"lead margin after each {a.round_word}"}
    return names[key]


COMPARISON_CHART = "win share ÷ fair share in every cell"
COMPARISON_CHART_HTML = "balance across cells"
COMPARISON_CAPTION = "Win share ÷ fair share in every cell, 95% intervals; dotted: 1."


def round_caption(a: RunAnalysis) -> str:
    w = a.round_word
    return (f"Mean score of each strategy after each {w} (its seats averaged per game), with "
            f"95% bands; a game that ended earlier counts with its final score, so the last "
            f"point is the mean final score. Below (when games differ in length): the share of "
            f"games still playing that {w}.")


def chart_caption(key: str, a: RunAnalysis) -> str:
    """The caption under a chart of the HTML page."""
    if key == "round_scores":
        return round_caption(a)
    return {
        "win_share": f"{_sentence_case(WIN_SHARE)} with its 95% Wilson interval; dotted tick: "
                     f"{FAIR_SHARE}.",
        "scores": "Score distribution per strategy; dashed lines: means.",
        "rounds": "Mean final score per seat by the number of rounds the game lasted (95% "
                  "intervals), and how often each length occurred. This run's tables have no "
                  "per-round scores (it was recorded before simkit kept them).",
        "seats": "Win rate and mean score per seat (1 = first player) with 95% intervals.",
        "length": "Game length.",
        "convergence": "Running win share per game of each strategy with its 95% band (log "
                       "scale of games); dotted lines: fair shares.",
        "lead": (f"Each strategy's mean lead over the best other seat after each {a.round_word} "
                 f"(negative: behind), in {(a.arc.unit if a.arc else '') or a.score_unit}, with "
                 f"95% bands; a game that ended "
                 f"earlier counts with its final margin."),
    }[key]


# ---------------------------------------------------------------------------------------------
# the glossary

#: the plain-language notes of the methods, one line each
GLOSSARY = [
    (_sentence_case(WIN_SHARE), "the share of games a strategy won with any of its seats (a win "
     "shared by k co-winners counts 1/k). A strategy holding several seats adds them up."),
    ("Win share per seat", f"the {WIN_SHARE} divided by the strategy's seats per game: "
     "how often one of its seats wins, comparable to the fair 1/players."),
    (_sentence_case(FAIR_SHARE), "what an equally strong strategy would win: its seats ÷ the "
     "players."),
    (RATIO, "win share ÷ fair share: 1 is fair, 2 wins twice its share; it compares across "
     "player counts."),
    ("Wilson interval", "the 95% range of a win share that stays within 0–100% and is honest "
     "at 0% and 100%, unlike the plain ±."),
    (_sentence_case(PAIRWISE_ELO), "the strength figure for two strategies: every pair of seats "
     "of A and B in the same game is one comparison; +191 means a seat of A finishes ahead of a "
     "seat of B 3 times in 4. It means the same with 2 or with 10 players."),
    ("Game-level Elo", "Elo from whole tables won, level or lost by A against B (a table is won "
     "when A ranked better in most seat comparisons); with two players it equals the pairwise "
     "Elo, with more it is larger and grows with the player count, so it is a detail only."),
    ("Bias-adjusted Elo", "after an SPRT stops early, the plain Elo overshoots; this is the "
     "corrected pairwise Elo and interval (fishtest's method), the headline figure then."),
    ("nElo, LOS", "normalised Elo (difference in standard deviations of the results, not the "
     "headline's Elo scale); LOS: the likelihood that A is stronger than B, from the same "
     "comparisons."),
    ("SPRT, LLR", "a sequential test that stops once the evidence (the log-likelihood ratio) "
     "crosses a bound: H1 'A is elo1 stronger' or H0 'elo0'."),
    ("Plackett–Luce", "the rating for several strategies: each game's ranking is read as "
     "picking the best remaining seat again and again, in proportion to strength; shown on "
     "the Elo scale, mean 0. The difference of two ratings equals their pairwise Elo only "
     "when the games follow that model."),
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
    ("Lead changes", "how often per game the lead passes to a seat that did not lead before "
     "(from the running scores after each round; a shared lead is not a change)."),
    ("Decided at", "the share of the game played when the eventual winner took the lead for good: "
     "low means the winner was clear early, 100% that the last round settled it."),
    ("Comebacks", "the share of games won by the seat that was alone in last place at half time."),
    ("Drama", "how far behind the leader the eventual winner fell at worst, in the game's own "
     "points; 'trailed' is the share of games whose winner was behind at some point."),
]
GLOSSARY_TITLE = "Glossary"
GLOSSARY_SOURCE = "Every figure is defined in docs/statistics.md."
