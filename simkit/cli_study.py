"""The study commands `simkit report` and `simkit compare` (attached to the main group in
simkit/cli.py). Thin Click wrappers: the work is in simkit.report and simkit.stats."""

from __future__ import annotations

import json
import shlex
import sys
from datetime import datetime
from pathlib import Path

import click

from simkit.stats.elo import SPRT


def _default_report_dir(run_dirs: list[Path]) -> Path:
    if len(run_dirs) == 1:
        return run_dirs[0] / "report"
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return run_dirs[0].resolve().parent / f"report-{stamp}"


@click.command("report")
@click.argument("run_dirs", nargs=-1, required=True,
                type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Report folder (default: RUN_DIR/report for one run, "
                   "report-<time> beside the first run for several).")
def report_command(run_dirs, out):
    """Write report.html, summary.md, CSV tables and charts of one or several runs.

    Several runs (a variant sweep, two player counts) are compared side by side; a sweep
    folder from `simkit sweep` stands for all its cells.

    \b
    Examples:
      simkit report results/sixnimmt-20261130-101500-s7
      simkit report results/rows4 results/rows5 --out results/rows-report
    """
    from simkit.core.sweep import sweep_run_dirs
    from simkit.report import build_report

    given = list(run_dirs)
    run_dirs = [cell for d in given for cell in (sweep_run_dirs(d) or [d])]
    if out is None and len(given) == 1 and len(run_dirs) > 1:
        out = given[0] / "report"          # a sweep folder keeps its report inside
    out_dir = out if out is not None else _default_report_dir(run_dirs)
    path = build_report(run_dirs, out_dir)
    click.echo(f"report written: {path}")
    click.echo(f"markdown summary: {out_dir / 'summary.md'}; tables: {out_dir / 'tables'}")


def _parse_sprt(ctx, param, value: str) -> SPRT:
    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 4:
        raise click.BadParameter(f"{value!r} is not elo0,elo1,alpha,beta: give four numbers, "
                                 f"e.g. 0,10,0.05,0.05")
    try:
        elo0, elo1, alpha, beta = (float(p) for p in parts)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not elo0,elo1,alpha,beta: every part must be a "
                                 f"number, e.g. 0,10,0.05,0.05") from None
    model = ctx.params.get("model", "logistic")
    try:
        return SPRT(elo0, elo1, alpha, beta, model)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _positive(ctx, param, value):
    if value is not None and value < 1:
        raise click.BadParameter(f"{value} is not allowed: at least 1")
    return value


@click.command("compare")
@click.argument("game")
@click.argument("a")
@click.argument("b")
@click.option("--model", type=click.Choice(["logistic", "normalized"]), default="logistic",
              show_default=True, is_eager=True,
              help="Unit of the SPRT bounds: logistic Elo or normalised Elo (nElo).")
@click.option("--sprt", "sprt", default="0,10,0.05,0.05", show_default=True,
              callback=_parse_sprt, metavar="ELO0,ELO1,ALPHA,BETA",
              help="H0: A is elo0 stronger, H1: elo1 stronger; alpha, beta: error rates.")
@click.option("-p", "--players", type=int, default=2, show_default=True, callback=_positive,
              help="Players per game; seats alternate A, B, A, B, ...")
@click.option("--max-games", type=int, default=20000, show_default=True, callback=_positive,
              help="Stop here if the SPRT has not decided (rounded up to whole deals).")
@click.option("--batch", type=int, default=None, callback=_positive,
              help="Games between SPRT checks (default about 100, whole deals).")
@click.option("--seed", type=int, default=None, help="Master seed (default: fresh, recorded).")
@click.option("-j", "--jobs", type=int, default=-1, show_default=True,
              help="Worker processes; -1 = all cores.")
@click.option("--set", "set_items", multiple=True, metavar="FIELD=VALUE",
              help="Override a rule config field (see `simkit strategies GAME`).")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Run folder (default: a new folder under results/).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar (default: on a terminal).")
def compare_command(game, a, b, model, sprt, players, max_games, batch, seed, jobs, set_items,
                    out, progress):
    """Play strategy A against B on duplicate deals until the SPRT decides.

    Every deal is played once per seat rotation, so both strategies sit in every seat with the
    same cards; pairs of games with the seats swapped give pentanomial counts. The run stops as
    soon as the log-likelihood ratio crosses a bound, or at --max-games, and prints Elo with
    its 95 % interval, LOS, the LLR and the decision. The run folder is a normal run folder
    (plus compare.json) that `simkit report` accepts.

    \b
    Examples:
      simkit compare sixnimmt heuristic random
      simkit compare sixnimmt heuristic random --players 4 --sprt 0,20,0.05,0.05 --seed 3
      simkit compare sixnimmt random random --max-games 2000
    """
    from simkit.core.config import parse_set_options
    from simkit.core.registry import get_game
    from simkit.core.runner import RunSpec, default_out_dir, run
    from simkit.stats.match import lineup_sides, match_summary, sides_from_slots

    entry = get_game(game)
    lineup = [a if k % 2 == 0 else b for k in range(players)]
    a_slots, b_slots = lineup_sides(lineup)
    if not b_slots:
        raise click.BadParameter(f"{players} is not allowed: compare needs at least 2 players",
                                 param_hint="--players")
    spec = RunSpec.create(game, players, lineup, max_games, seed=seed, seating="rotate",
                          duplicate=True, overrides=parse_set_options(set_items),
                          command=shlex.join(["simkit", *sys.argv[1:]]))
    deal = players
    step = batch or 100
    chunk = max(deal, -(-step // deal) * deal)
    out_dir = out if out is not None else default_out_dir(spec)
    click.echo(f"{entry.title}: {a} (A) against {b} (B), {players} players, duplicate deals, "
               f"up to {spec.n_games} games, seed {spec.seed} -> {out_dir}", err=True)
    click.echo(sprt.describe(), err=True)

    def stop(games_df, seats_df) -> bool:
        is_a, is_b = sides_from_slots(seats_df, a_slots, b_slots)
        return match_summary(seats_df, is_a, is_b, a, b, sprt).decision is not None

    try:
        result = run(spec, out_dir, jobs=jobs, chunk_size=chunk, progress=progress, stop=stop)
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: the finished games are saved in {out_dir} "
                   f"(simkit report {out_dir} reads them)", err=True)
        sys.exit(130)
    is_a, is_b = sides_from_slots(result.seats, a_slots, b_slots)
    m = match_summary(result.seats, is_a, is_b, a, b, sprt)
    record = {"a": a, "b": b, "a_slots": a_slots, "b_slots": b_slots,
              **{k: v for k, v in m.to_dict().items() if k not in ("a", "b")}}
    (Path(out_dir) / "compare.json").write_text(json.dumps(record, indent=2))
    click.echo(format_match(m, result.stopped_early))
    click.echo(f"run folder: {out_dir}  (simkit report {out_dir})")


def format_match(m, stopped_early: bool) -> str:
    """The compare result as terminal text."""
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
