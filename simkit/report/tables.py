"""The report's tables as text cells: a header and rows of strings, the same for the HTML page
and summary.md. Seats are numbered from 1 (the first player)."""

from __future__ import annotations

import pandas as pd

from simkit.report.figures import RunAnalysis, cell_figures, pairwise_against_the_rest
from simkit.report.page import Table
from simkit.report.words import (
    FAIR_SHARE,
    PAIRWISE_ELO,
    PL_VERSUS_PAIRWISE,
    RATIO,
    WIN_SHARE,
    llr_bounds,
    p_text,
    sprt_hypotheses,
)
from simkit.stats.match import MatchSummary, outcome_counts, outcome_labels
from simkit.stats.wording import ci, ci_pct, elo_text, nelo_text, number, pct, sequential_text, signed


def strength_rows(a: RunAnalysis) -> Table:
    """Win share against fair share, per game and per seat, and the ratio to fair."""
    head = ["strategy", "seats", WIN_SHARE, "95% CI", "fair per game",
            "per seat", "fair per seat", RATIO]
    rows = []
    for r in a.strategy_figures():
        k = float(r.seats_per_game)
        rows.append([str(r.player), f"{k:g}", pct(r.win_share), ci_pct(r.win_low, r.win_high),
                     pct(r.fair_share), pct(r.win_share / k), pct(r.fair_share / k),
                     number(r.win_share / r.fair_share)])
    return head, rows


def summary_rows(a: RunAnalysis) -> Table:
    head = ["strategy", "games", WIN_SHARE, "95% CI", FAIR_SHARE, "mean score",
            "95% CI", "forfeits"]
    rows = [[str(r.player), str(int(r.games)), pct(r.win_share), ci_pct(r.win_low, r.win_high),
             pct(r.fair_share), number(r.mean_score), ci(r.score_low, r.score_high),
             str(int(r.forfeits))] for r in a.strategy_figures()]
    return head, rows


def quantile_rows(a: RunAnalysis) -> Table:
    head = ["strategy", "seats", "min", "5%", "25%", "median", "75%", "95%", "max", "sd"]
    rows = [[str(r.player), str(int(r.n)), number(r.min, 1), number(r.q05, 1), number(r.q25, 1),
             number(r.q50, 1), number(r.q75, 1), number(r.q95, 1), number(r.max, 1), number(r.sd)]
            for r in a.quantile_figures()]
    return head, rows


def arc_rows(a: RunAnalysis) -> Table:
    """The game's arc: each figure with its 95% interval and what it means."""
    assert a.arc is not None
    f, w, unit = a.arc.summary, a.round_word, a.arc.unit or a.score_unit

    def mean(key: str, digits: int = 2, suffix: str = "") -> list[str]:
        x = f[key]
        return [f"{number(x.value, digits)}{suffix}", f"{number(x.low, digits)} to {number(x.high, digits)}"]

    def share(key: str) -> list[str]:
        x = f[key]
        return [pct(x.value), f"{pct(x.low)} to {pct(x.high)}"]

    rows = [["length", *mean("length", 2, f" {w}s"), f"{w}s a game lasts"],
            ["lead changes", *mean("lead_changes"), "times the lead passes to a seat that did not lead"],
            ["decided at", *share("decided_at"), "part of the game played when the winner led for good"],
            ["comebacks", *share("comebacks"), "games won from last place alone at half time"],
            ["drama", *mean("drama", 1, f" {unit}"), "how far behind the leader the winner fell at worst"],
            ["winner trailed", *share("trailed"), "games whose winner was behind at some point"]]
    return ["figure", "mean or share", "95% CI", "meaning"], rows


def rating_rows(a: RunAnalysis) -> Table:
    head = ["strategy", "rating", "95% CI", "se", "games"]
    rows = [[str(r.player), signed(r.rating), f"{signed(r.low)} to {signed(r.high)}",
             number(r.se, 1), str(r.games)]
            for r in a.rating_figures()]
    return head, rows


def h2h_rows(a: RunAnalysis) -> Table:
    """Row strategy against column strategy: its pairwise score and (the pairings)."""
    names = [str(n) for n in a.h2h_score.index]
    scores = a.h2h_score.to_dict("index")
    counts = a.h2h_count.to_dict("index")
    head = ["row vs column"] + names
    rows = []
    for r in names:
        row = [r]
        for c in names:
            n = counts[r][c]
            row.append("—" if r == c or n == 0 else f"{pct(scores[r][c])} ({n})")
        rows.append(row)
    return head, rows


def seat_rows(a: RunAnalysis) -> Table:
    """Per seat (1 = first player): win rate against fair, its p-value against the fair rate
    corrected over the seats (Holm), the flag, then scores and ranks."""
    head = ["seat", "games", "win rate", "95% CI", "fair", "advantage", "p", "p (Holm)",
            "off fair?", "mean score", "95% CI", "mean rank"]
    rows = [[str(int(r.seat) + 1), str(int(r.games)), pct(r.win_rate),
             ci_pct(r.win_low, r.win_high), pct(r.fair_rate), pct(r.advantage), p_text(r.p_value),
             p_text(r.p_adjusted), "yes" if bool(r.significant) else "no",
             number(r.mean_score), ci(r.score_low, r.score_high), number(r.mean_rank)]
            for r in a.seat_figures()]
    return head, rows


def _spread(s: dict[str, float], extremes: str) -> str:
    """`median 4.0, 5–95% 3.0–6.0, ` and then the extremes' own words."""
    return (f"median {number(s['q50'], 1)}, 5–95% {number(s['q05'], 1)}–{number(s['q95'], 1)}, "
            f"{extremes}")


def balance_rows(a: RunAnalysis) -> Table:
    """First player, draws, shared wins, forfeits, margin, game length and the game's flags."""
    b = a.balance
    fs = b["first_seat"]
    rows = [["first player win rate", pct(fs["win_rate"]), ci_pct(fs["low"], fs["high"]),
             f"fair {pct(fs['fair'])}, advantage {pct(fs['advantage'])}"]]
    for key, label in (("draw", "draws (no winner)"), ("shared_win", "shared wins (co-winners)"),
                       ("forfeit", "forfeited games")):
        rows.append([label, pct(b[key]["rate"]), ci_pct(b[key]["low"], b[key]["high"]),
                     f"{b[key]['count']} games"])
    m = b["margin"]
    rows.append([f"winning margin ({a.score_unit})", number(m["mean"]), ci(m["low"], m["high"]),
                 _spread(m, f"margin 0 in {pct(m['zero_rate'])}")])
    for col, s in b["length"].items():
        rows.append([f"game length: {col}", number(s["mean"]), ci(s["low"], s["high"]),
                     _spread(s, f"range {number(s['min'], 0)}–{number(s['max'], 0)}")])
    for col, s in b["flags"].items():
        rows.append([f"{col}", pct(s["rate"]), ci_pct(s["low"], s["high"]), f"{s['count']} games"])
    return ["figure", "value", "95% CI", "detail"], rows


def _headline_rows(m: MatchSummary) -> list[list[str]]:
    """The headline's figure (the pairwise Elo, bias-adjusted after an SPRT), then the pairwise
    figures read from the same comparisons."""
    rows: list[list[str]] = []
    if m.pairwise is None or m.units is None:
        return rows
    pw, u = m.pairwise, m.units
    seq = m.sequential
    basis = (f"every seat of {m.a} against every seat of {m.b} in the same game "
             f"({u.comparisons} comparisons, {u.n} {u.unit}s as units); the same meaning with any "
             f"number of players")
    if seq is not None:
        rows.append([f"headline: {PAIRWISE_ELO}, bias-adjusted", sequential_text(seq),
                     f"the strength figure, 95%: {basis}; corrected for the SPRT's early stop "
                     f"(fishtest's method)" + ("; the LLR had passed the bound and was put back "
                                               "on it" if seq.clamped else "")])
        rows.append([f"{PAIRWISE_ELO}, sample", elo_text(pw),
                     "the headline's comparisons without the correction: a run that stops "
                     "after a lucky stretch overshoots, and this interval assumes a fixed "
                     "number of games, so it is too narrow after a sequential stop"])
    else:
        rows.append([f"headline: {PAIRWISE_ELO}", elo_text(pw), f"the strength figure, 95%: {basis}"])
    rows.append(["pairwise score", pct(pw.score, 2),
                 f"the sample figure as a share: how often a seat of {m.a} finished ahead of a "
                 f"seat of {m.b} (ties ½); Elo = 400·log10(score / (1 − score))"])
    los = f"likelihood that {m.a} is stronger, from the same comparisons"
    if seq is not None:
        los += f"; {pct(seq.los, 2)} after the SPRT correction"
    rows.append(["pairwise LOS", pct(pw.los, 2), los])
    return rows


def _game_level_rows(m: MatchSummary) -> list[list[str]]:
    """Whole games (tables) won, level or lost, and their Elo, for what they are."""
    e, t = m.estimate, m.trinomial_estimate
    two = m.two_seats
    relation = ("with two players the same games as the headline (the units may differ)" if two
                else "counts whole tables, not seat comparisons: with more than two players it "
                     "is larger than the headline and grows with the player count, so do not "
                     "compare it across player counts")
    rows = [
        [f"game-level {outcome_labels(m)}", outcome_counts(m),
         f"{m.games} games; a game counts for {m.a} when it ranked better in most seat "
         f"comparisons"],
        ["game-level Elo", elo_text(e), f"logistic Elo of those games, 95% ({e.model}); {relation}"],
        ["game-level nElo", nelo_text(e),
         f"normalised Elo ({e.model}): the game-level result in standard deviations of the "
         f"results, not on the headline's Elo scale"],
        ["game-level LOS", pct(e.los, 2), f"likelihood that {m.a} is stronger, from whole games"],
    ]
    if m.penta is not None:
        rows.append(["pentanomial", " ".join(str(c) for c in m.penta),
                     "deal pairs LL, LD, WL+DD, WD, WW"])
        rows.append(["game-level Elo (unpaired)", elo_text(t),
                     "trinomial, for contrast: pairing narrows the interval"])
    return rows


def match_rows(m: MatchSummary, pl: tuple[float, float] | None = None) -> Table:
    """Strength in detail for a match of A against B: the headline's figure first (the
    pairwise Elo, bias-adjusted after an SPRT), then every other figure with how it relates to
    it: the sample pairwise figures, the game-level ones, the Plackett–Luce difference `pl`
    (rating A − rating B and its standard error) when given, and the SPRT."""
    rows = _headline_rows(m) + _game_level_rows(m)
    if pl is not None:
        diff, se = pl
        rows.append(["Plackett–Luce difference", f"{signed(diff)} ± {number(1.96 * se, 1)}",
                     f"rating of {m.a} − rating of {m.b} (see “Ratings”), 95%. "
                     + PL_VERSUS_PAIRWISE])
    if m.sprt is not None:
        rows.append(["SPRT", sprt_hypotheses(m.sprt),
                     f"alpha {m.sprt.alpha:g}, beta {m.sprt.beta:g}, LLR bounds "
                     f"({llr_bounds(m.sprt)})"])
        rows.append(["LLR", number(m.llr), m.verdict()])
    return ["figure", "value", "how it relates to the headline"], rows


def paired_rows(a: RunAnalysis) -> Table:
    head = ["strategy", "deals", WIN_SHARE, "95% CI", "mean score", "95% CI"]
    rows = [[str(r.player), str(int(r.deals)), pct(r.win_share), ci_pct(r.win_low, r.win_high),
             number(r.mean_score), ci(r.score_low, r.score_high)] for r in a.paired_figures()]
    return head, rows


# ---------------------------------------------------------------------------------------------
# several runs

def comparison_rows(df: pd.DataFrame) -> Table:
    """Per cell: players, variant, the seat effect normalised and tested across cells."""
    head = ["cell", "players", "variant", "games", f"first seat {RATIO}", "seat p (Holm)",
            "seat effect?", "draws", "mean steps"]
    rows = [[str(r.run), str(r.players), str(r.variant), str(r.games),
             number(r.first_seat_ratio), p_text(r.seat_p_holm),
             "yes" if bool(r.seat_effect) else "no", pct(r.draw_rate), number(r.mean_steps, 1)]
            for r in cell_figures(df)]
    return head, rows


def comparison_strategy_rows(runs: list[RunAnalysis]) -> Table:
    """Per cell and strategy: win share per game, its fair share, and win share ÷ fair share
    with the Wilson interval divided the same way."""
    head = ["cell", "strategy", "seats", WIN_SHARE, FAIR_SHARE, RATIO, f"95% CI {RATIO}",
            f"{PAIRWISE_ELO} vs the rest"]
    rows = []
    for r in runs:
        against = pairwise_against_the_rest(r)
        for t in r.strategy_figures():
            e = against.get(str(t.player))
            rows.append([r.name, str(t.player), f"{t.seats_per_game:g}", pct(t.win_share),
                         pct(t.fair_share), number(t.win_share / t.fair_share),
                         ci(t.win_low / t.fair_share, t.win_high / t.fair_share),
                         elo_text(e, 0) if e is not None else "n/a"])
    return head, rows
