"""Terminal texts of finished studies: a run's summary, a sweep cell, a compare's verdict.
A figure is named as in the report (`simkit.report.words`)."""

from __future__ import annotations

from simkit.engine.game import Game
from simkit.engine.runner import RunResult
from simkit.report.words import (
    PAIRWISE_ELO,
    WIN_SHARE_NOTE,
    llr_bounds,
    sprt_hypotheses,
    strongest_line,
)
from simkit.stats.match import MatchSummary, format_paired, match_lines
from simkit.stats.strategy_tests import strategy_effect_flags
from simkit.stats.tables import format_summary, summary_table
from simkit.stats.wording import sequential_text


def run_summary(result: RunResult, game: Game) -> str:
    """Win shares and scores with intervals, then the game's own figures and what to do next."""
    games, seats = result.games, result.seats
    better = "more" if game.higher_is_better else "fewer"
    title = (f"{game.title}: {len(games)} games in {result.timings.get('wall_seconds', 0):.1f} s "
             f"({better} {game.score_unit[1]} is better); results in {result.out_dir}")
    table = summary_table(seats)
    lines = [format_summary(table, title=title)]
    lines.append(WIN_SHARE_NOTE)
    lines.append(strongest_line(strategy_effect_flags(seats, method="holm")))
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


def match_text(m: MatchSummary, stopped_early: bool) -> str:
    """A compare's result: one strength figure first (the pairwise Elo with its interval,
    bias-adjusted after an SPRT), then the other figures as details, each saying how it
    relates to it, the SPRT state and the verdict.

    Intervals are 95 %: `± x` where the normal interval holds, `[low, high]` (the honest
    Wilson-type bounds) near a score of 0 % or 100 %; a nElo without spread is `n/a`."""
    sample, game_level = match_lines(m)[:-1], match_lines(m)[-1]
    lines = [f"games {m.games}: {m.a} (A) against {m.b} (B)"]
    seq = m.sequential
    if seq is not None and m.units is not None:
        lines.append(f"strength: {PAIRWISE_ELO} {sequential_text(seq)} (95%, bias-adjusted for "
                     f"the SPRT stop; every {m.a} seat against every {m.b} seat of a game, "
                     f"{m.units.n} {m.units.unit}s as units), LOS {100 * seq.los:.2f}%"
                     + ("  <- quote this one" if stopped_early else ""))
        lines.append("in detail:")
        lines += [f"  sample {line.removeprefix('strength: ')}; without the SPRT correction "
                  f"(overshoots after an early stop)" for line in sample]
    else:
        lines += sample
        lines.append("in detail:")
    lines.append(f"  {game_level}; whole games, "
                 + ("the same games as the pairwise Elo" if m.two_seats else
                    "grows with the player count (not the headline's scale)"))
    if m.sprt is not None:
        lines.append(f"LLR {m.llr:.2f} (bounds {llr_bounds(m.sprt)}), SPRT {sprt_hypotheses(m.sprt)}")
    lines.append(("stopped early: " if stopped_early else "") + m.verdict())
    return "\n".join(lines)
