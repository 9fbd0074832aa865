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
    lines = [format_summary(summary_table(seats), title=title)]
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
    """A compare's result: W/D/L (and pentanomial pairs), Elo and LOS, the SPRT state, verdict."""
    e = m.estimate
    unit = "Elo" if m.sprt is None or m.sprt.model == "logistic" else "nElo"
    lines = [f"games {m.games}: {m.a} W {m.wins} / D {m.draws} / L {m.losses}"
             + (f", pentanomial {m.penta} (LL, LD, WL+DD, WD, WW)" if m.penta else "")]
    lines.append(f"Elo {e.elo:+.1f} ± {e.elo_error:.1f} (95%), nElo {e.nelo:+.1f} ± "
                 f"{e.nelo_error:.1f}, LOS {100 * e.los:.2f}%  [{e.model}]")
    if m.sprt is not None:
        lines.append(f"LLR {m.llr:.2f} (bounds {m.sprt.lower:.2f}, {m.sprt.upper:.2f}), "
                     f"SPRT [{m.sprt.elo0:g}, {m.sprt.elo1:g}] {unit}")
    lines.append(("stopped early: " if stopped_early else "") + m.verdict())
    return "\n".join(lines)
