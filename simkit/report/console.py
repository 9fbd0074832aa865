"""Terminal texts of finished studies: a run's summary, a sweep cell, a compare's verdict."""

from __future__ import annotations

from simkit.core.game import Game
from simkit.core.runner import RunResult
from simkit.stats.match import MatchSummary, format_paired
from simkit.stats.tables import format_summary, summary_table


def run_summary(result: RunResult, game: Game) -> str:
    """Win shares and scores with intervals, then the game's own figures and what to do next."""
    games, seats = result.games, result.seats
    better = "more" if game.higher_is_better else "fewer"
    title = (f"{game.title}: {len(games)} games in {result.timings.get('wall_seconds', 0):.1f} s "
             f"({better} points is better); results in {result.out_dir}")
    table = summary_table(seats)
    lines = [format_summary(table, title=title)]
    lines.append(win_share_note(table))
    paired = format_paired(seats) if result.manifest.get("duplicate") else None
    if paired:
        lines.append(paired)
    if result.forfeits:
        lines.append(f"forfeited games: {result.forfeits} (see the 'error' column of games.parquet)")
    if result.engine_errors:
        lines.append(f"engine errors: {result.engine_errors} games the engine could not finish, left out "
                     f"of the figures above (see the 'error' column of games.parquet)")
    for col in games.columns:
        if col != "draw" and games[col].dtype == bool:
            lines.append(f"{col}: {100 * games[col].mean():.2f}% of games")
    if games["draw"].any():
        lines.append(f"draws (no winner): {100 * games['draw'].mean():.2f}% of games")
    if "rounds" in games.columns:
        lines.append(f"mean rounds per game: {games['rounds'].mean():.2f}")
    lines.append(f"charts and a report to share: simkit report {result.out_dir}")
    return "\n".join(lines)


def cell_summary(label: str, result: RunResult) -> str:
    """One sweep cell's summary table under its label."""
    return format_summary(summary_table(result.seats), title=f"\n[{label}] {len(result.games)} games")


def win_share_note(table) -> str:
    """What the win share column means, and the per-seat share of strategies with several seats
    (the per-game share of `random` in three seats adds them up: 34 % is 11 % per seat)."""
    note = ("win share: per game (a strategy's seats added up; a win shared by k co-winners "
            "counts 1/k); fair: its seats / players")
    multi = [r for r in table.itertuples() if r.seats_per_game > 1]
    if multi:
        note += "; per seat: " + ", ".join(
            f"{r.player} {100 * r.win_share / r.seats_per_game:.1f}% "
            f"(fair {100 * r.fair_share / r.seats_per_game:.1f}%, {r.seats_per_game:g} seats)"
            for r in multi)
    return note


def match_text(m: MatchSummary, stopped_early: bool) -> str:
    """A compare's result: the pairwise Elo (the strength figure), the bias-adjusted Elo after
    the SPRT, the game-level W/D/L figures, the SPRT state and the verdict.

    Intervals are 95 %: `± x` where the normal interval holds, `[low, high]` (the honest
    Wilson-type bounds) near a score of 0 % or 100 %; a nElo without spread is `n/a`."""
    from simkit.report.build import elo_text, nelo_text, sequential_text

    e = m.estimate
    unit = "pairwise Elo" if m.sprt is None or m.sprt.model == "logistic" else "pairwise nElo"
    lines = [f"games {m.games}: {m.a} W {m.wins} / D {m.draws} / L {m.losses}"
             + (f", pentanomial {m.penta} (LL, LD, WL+DD, WD, WW)" if m.penta else "")]
    if m.pairwise is not None and m.units is not None:
        p = m.pairwise
        lines.append(f"strength: pairwise Elo {elo_text(p)} (95%, every {m.a} seat against "
                     f"every {m.b} seat of a game, {m.units.n} {m.units.unit}s as units), "
                     f"LOS {100 * p.los:.2f}%")
    seq = m.sequential
    if seq is not None:
        lines.append(f"bias-adjusted for the SPRT stop: pairwise Elo {sequential_text(seq)} "
                     f"(95%), LOS {100 * seq.los:.2f}%"
                     + ("  <- quote this one" if stopped_early else ""))
    lines.append(f"game level: Elo {elo_text(e)} (95%), nElo {nelo_text(e)}, LOS "
                 f"{100 * e.los:.2f}%  [{e.model}]")
    if m.sprt is not None:
        lines.append(f"LLR {m.llr:.2f} (bounds {m.sprt.lower:.2f}, {m.sprt.upper:.2f}), "
                     f"SPRT [{m.sprt.elo0:g}, {m.sprt.elo1:g}] {unit}")
    lines.append(("stopped early: " if stopped_early else "") + m.verdict())
    return "\n".join(lines)
