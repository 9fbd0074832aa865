"""The study commands `simkit report` and `simkit compare` (attached to the main group in
simkit/cli.py). Thin Click wrappers: the work is in simkit.report, simkit.studies.compare and
simkit.stats."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click

from simkit import cli_options as options
from simkit.engine.config import parse_set_options
from simkit.engine.errors import ConfigError
from simkit.engine.guard import DEFAULT_DECISION_TIMEOUT


@dataclass(frozen=True)
class StudyStart:
    """What every study command (compare, ladder, tournament, luck, tune) settles before it
    plans: the seed to plan with (as given, or on --resume without --seed the one its folder
    recorded), whether it was given, and how it speaks; then its seed words and its Ctrl-C
    hint."""

    seed: int | None
    seed_given: bool
    say: Callable[[str], None]

    def seed_words(self, planned: int) -> str:
        """`seed 7`, or `seed 123 (drawn; --seed 123 repeats it)` when neither given nor recorded."""
        return options.seed_text(planned, self.seed_given or self.seed is not None)

    def on_interrupt(self, saved: str | Callable[[], str], out_dir: Path, planned: int):
        """On Ctrl-C: `<saved>; finish with <the same command plus --resume ...>`, exit 130
        (`saved` a text, or a function that tells it at that moment)."""
        def explain() -> str:
            told = saved if isinstance(saved, str) else saved()
            return f"{told}; finish with {options.resume_hint(out_dir, planned, self.seed_given)}"
        return options.explained_interrupt(explain)


def study_start(kind: str, out: Path | None, resume: bool, seed: int | None, *, quiet: bool = False,
                listing: str = "manifest.json") -> StudyStart:
    """Refuse --resume without --out (`kind` names the folder to finish; a default folder is
    named by the time, so there is none to finish) and settle the seed and how the command
    speaks."""
    if resume and out is None:
        raise ConfigError(f"--resume needs --out FOLDER: the {kind} folder to finish")
    say = (lambda message: None) if quiet else options.echo_err
    return StudyStart(options.recorded_seed(out, resume, seed, listing), seed is not None, say)


@click.command("report")
@click.argument("run_dirs", nargs=-1, required=True,
                type=click.Path(path_type=Path, exists=True, file_okay=False))
@options.out("Report folder (default: RUN_DIR/report for one run or sweep folder, "
             "report-<time> beside the first run for several).")
@click.option("--force", is_flag=True,
              help="Replace a report already in the --out folder (the default folder is always replaced).")
def report_command(run_dirs, out, force):
    """Write report.html, summary.md, CSV tables and charts of one or several runs.

    Several runs (a variant sweep, two player counts) are compared side by side; a sweep
    folder from `simkit sweep` stands for all its cells. A ladder or tournament folder gets its
    own page (ladder.html or tournament.html, with .md), rebuilt inside that folder by default;
    so does a tune folder (tune.html, tune.md); a luck study gets luck.html and luck.md beside
    its run report.

    \b
    Examples:
      simkit report results/sixnimmt-20261130-101500-s7
      simkit report results/rows4 results/rows5 --out results/rows-report
      simkit report results/tournament-sixnimmt-20261130-101500-s7
    """
    from simkit.report import build_report
    from simkit.report.folders import check_report_dir, default_report_dir, pairing_study, runs_to_report
    from simkit.report.ladder import write_study_report
    from simkit.report.luck import write_luck_report
    from simkit.report.tune import write_tune_report
    from simkit.studies.luck import LUCK_FILE
    from simkit.studies.tune import TUNE_MANIFEST

    if out is not None:     # the default folder (inside the run folder) is simkit's own to replace
        check_report_dir(out, force)
    if len(run_dirs) == 1 and (run_dirs[0] / TUNE_MANIFEST).is_file():    # a tune: its own page
        page = write_tune_report(run_dirs[0], out)
        click.echo(f"tune report written: {page}")
        click.echo(f"markdown: {page.with_suffix('.md')}")
        return
    study = pairing_study(list(run_dirs))
    if study is not None:   # a ladder or tournament: its page, in its own folder by default
        folder, kind = study
        page = write_study_report(folder, kind, out_dir=out)
        click.echo(f"{kind} report written: {page}")
        click.echo(f"markdown: {page.with_suffix('.md')}")
        return
    out_dir = out if out is not None else default_report_dir(list(run_dirs))
    path = build_report(runs_to_report(list(run_dirs)), out_dir)
    click.echo(f"report written: {path}")
    click.echo(f"markdown summary: {out_dir / 'summary.md'}; tables: {out_dir / 'tables'}")
    if len(run_dirs) == 1 and (run_dirs[0] / LUCK_FILE).is_file():          # a luck study: its page too
        click.echo(f"luck report: {write_luck_report(run_dirs[0], out_dir=out_dir)}")


def _parse_sprt(ctx, param, value: str):
    from simkit.stats.elo import SPRT

    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 4:
        raise click.BadParameter(f"{value!r} is not elo0,elo1,alpha,beta: give four numbers, "
                                 f"e.g. 0,10,0.05,0.05")
    try:
        elo0, elo1, alpha, beta = (float(p) for p in parts)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not elo0,elo1,alpha,beta: every part must be a "
                                 f"number, e.g. 0,10,0.05,0.05") from None
    if not all(math.isfinite(x) for x in (elo0, elo1, alpha, beta)):
        raise click.BadParameter(f"{value!r} is not allowed: every part must be a finite number "
                                 f"(not nan or inf), e.g. 0,10,0.05,0.05")
    model = ctx.params.get("model", "logistic")
    try:
        return SPRT(elo0, elo1, alpha, beta, model)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command("compare")
@options.game
@click.argument("a")
@click.argument("b")
@click.option("--model", type=click.Choice(["logistic", "normalized"]), default="logistic",
              show_default=True, is_eager=True,
              help="Unit of the SPRT bounds: logistic Elo or normalised Elo (nElo).")
@click.option("--sprt", "sprt", default="0,10,0.05,0.05", show_default=True,
              callback=_parse_sprt, metavar="ELO0,ELO1,ALPHA,BETA",
              help="H0: A is elo0 stronger, H1: elo1 stronger; alpha, beta: error rates.")
@click.option("-p", "--players", type=options.WHOLE, default=2, show_default=True,
              help="Players per game (at least 2); seats alternate A, B, A, B, ...")
@click.option("--max-games", type=options.WHOLE, default=20000, show_default=True, callback=options.positive,
              help="Stop here if the SPRT has not decided (rounded up to whole deals).")
@click.option("--batch", type=options.WHOLE, default=None, callback=options.positive,
              help="Games between SPRT checks (default about 100, whole deals).")
@options.seed
@options.jobs
@options.overrides
@options.run_out
@options.decision_timeout(DEFAULT_DECISION_TIMEOUT)
@options.resume
@options.progress
@options.quiet
@options.verbose
@options.as_json
def compare_command(game, a, b, model, sprt, players, max_games, batch, seed, jobs, set_items,
                    out, decision_timeout, resume, progress, quiet, verbose, as_json):
    """Play strategy A against B on duplicate deals until the SPRT decides.

    Every deal is played once per seat rotation, so both strategies sit in every seat with the
    same cards; pairs of games with the seats swapped give pentanomial counts. While it runs,
    the progress display shows the interim Elo, LLR and bounds. The run stops as soon as the
    log-likelihood ratio crosses a bound, or at --max-games, and prints Elo with its 95 %
    interval, LOS, the LLR and the decision. The run folder is a normal run folder (plus
    compare.json) that `simkit report` accepts; --resume --out FOLDER finishes an interrupted
    compare.

    \b
    Examples:
      simkit compare sixnimmt heuristic random
      simkit compare sixnimmt heuristic random --players 4 --sprt 0,20,0.05,0.05 --seed 3
      simkit compare sixnimmt random random --max-games 2000
      simkit compare sixnimmt heuristic random --resume --out results/<compare-folder>
    """
    from simkit.engine.registry import get_game
    from simkit.engine.runner import default_out_dir
    from simkit.report.console import match_text
    from simkit.studies.compare import plan_compare, run_compare
    from simkit.studies.run_facts import facts_text, run_json

    start = study_start("compare", out, resume, seed, quiet=quiet)
    plan = plan_compare(game, a, b, players, max_games, sprt, batch=batch, seed=start.seed,
                        overrides=parse_set_options(set_items), command=options.command_line(),
                        decision_timeout=decision_timeout)
    out_dir = out if out is not None else default_out_dir(plan.spec)
    say = start.say

    def header() -> None:
        say(f"{get_game(game).title}: {a} (A) against {b} (B), {players} players, duplicate "
            f"deals, up to {plan.spec.n_games} games, {start.seed_words(plan.spec.seed)} -> {out_dir}")
        say(sprt.describe())

    with start.on_interrupt(f"the finished games are saved in {out_dir} (simkit report {out_dir} reads them)",
                            out_dir, plan.spec.seed):
        result, summary = run_compare(plan, out_dir, jobs=jobs, resume=resume, on_start=header,
                                      progress=False if quiet and progress is None else progress,
                                      notify=say)
    if as_json:
        click.echo(run_json(result, match=plan.record(summary)))
        return
    click.echo(match_text(summary, result.stopped_early))
    if verbose:
        click.echo(facts_text(result))
    click.echo(f"run folder: {out_dir}  (simkit report {out_dir})")


def _play_pairings(kind: str, game: str, agents: list[str] | None, players: int | None, n_games: int | None,
                   fmt: str, seed: int | None, jobs: int, set_items: tuple[str, ...], out: Path | None,
                   resume: bool, decision_timeout: float | None, progress: bool | None,
                   say: Callable[[str], None], isolate: bool = True) -> Path:
    """Plan and play the pairings of a ladder or tournament (header, time estimate, per-pairing
    lines, resume hint on Ctrl-C); return its folder. On --resume, what -s, -n and -p leave out
    is the folder's own plan (ladder.json), so an old folder keeps the meaning it was made with."""
    from simkit.engine.chunks import resolve_jobs
    from simkit.engine.lineup import default_players
    from simkit.engine.registry import get_game
    from simkit.engine.runner import stamped_dir
    from simkit.studies.ladder import pending_pairs, plan_ladder, recorded_plan, run_ladder
    from simkit.studies.ladder_defaults import estimate, minutes

    entry = get_game(game)
    start = study_start(kind, out, resume, seed, listing="ladder.json")
    recorded = recorded_plan(out) if resume and out is not None else {}
    agents = agents or recorded.get("agents")
    n_games = n_games if n_games is not None else recorded.get("games_per_pair")
    players = players if players is not None else recorded.get("n_players")
    n = default_players(entry) if players is None else players
    plan = plan_ladder(game, n, agents, games_per_pair=n_games, seed=start.seed, fmt=fmt,
                       overrides=parse_set_options(set_items), decision_timeout=decision_timeout,
                       command=options.command_line(), isolate="plugins" if isolate else "off")
    out_dir = out if out is not None else stamped_dir(f"{kind}-{game}", plan.seed)
    say(f"{entry.title}: {kind} ({fmt}) of {len(plan.agents)} agents, {len(plan.pairs)} pairings of "
        f"{plan.games_per_pair} games, {n} players, {start.seed_words(plan.seed)} -> {out_dir}")
    cores = min(resolve_jobs(jobs), os.cpu_count() or 1)
    todo = pending_pairs(plan, out_dir) if resume else list(plan.pairs)
    left = [estimate(entry.name, [(p.a, p.b)], n, plan.games_per_pair, cores, plan.config)
            for p in plan.pairs]
    whole = estimate(entry.name, [(p.a, p.b) for p in todo], n, plan.games_per_pair, cores, plan.config)
    if kind == "ladder":
        played = len(plan.pairs) - len(todo)
        done = f"{played} of {len(plan.pairs)} pairings already played; " if resume else ""
        say(f"{done}{whole.text()}")

    def announce(i: int, pair) -> None:
        rest = [left[k] for k in range(i, len(plan.pairs)) if plan.pairs[k] in todo]
        hint = ""
        if kind == "ladder" and rest and not whole.unknown:
            hint = f" (about {minutes(sum(e.wall_seconds for e in rest))} left)"
        say(f"[pairing {i + 1}/{len(plan.pairs)}] {pair.a} vs {pair.b}{hint}")

    with start.on_interrupt(f"finished pairings are saved in {out_dir}", out_dir, plan.seed):
        run_ladder(plan, out_dir, jobs=jobs, progress=progress, resume=resume, on_pair=announce)
    return out_dir


def _pairing_options(folder: str, games: Callable = options.pair_games) -> Callable:
    """The options `ladder` and `tournament` share, after their -s, in --help order."""
    shared = [options.players, games, options.pairing_format, options.seed, options.jobs,
              options.overrides, options.out(f"{folder} folder (default: a new folder under results/)."),
              options.resume, options.decision_timeout(DEFAULT_DECISION_TIMEOUT), options.progress,
              options.isolate(True)]

    def apply(command: Callable) -> Callable:
        for option in reversed(shared):
            command = option(command)
        return command

    return apply


@click.command("ladder")
@options.game
@options.strategies("An agent of the ladder (repeat; at least 2). Default: the game's ladder: random, "
                    "each built-in heuristic and ismcts at the game's defaults (on --resume: the folder's).")
@_pairing_options("Ladder", options.ladder_games)
def ladder_command(game, strategy_names, players, n_games, fmt, seed, jobs, set_items, out, resume,
                   decision_timeout, progress, isolate):
    """Rate a field of agents against each other and measure the game's skill depth.

    Every pairing is played on duplicate deals with seats rotated (A on even seats, B on odd
    ones); all pairings share the deals. Prints Plackett-Luce ratings with 95 % intervals,
    every pairing's pairwise score, and the skill depth: the longest chain of agents each
    beating the previous one significantly. Writes ladder.html / ladder.md with the chart of
    rating against search budget.

    Without -s and -n, the game's default ladder: random, its built-in heuristics and ismcts at
    the game's defaults, with games per pairing chosen so that it finishes within about 30
    minutes on 2 cores (docs/search.md, "Ladder on defaults"). A time estimate is printed before
    the first game, and the time left before each pairing. --resume --out FOLDER finishes a
    ladder with the agents, games and players its folder was planned with.

    \b
    Examples:
      simkit ladder sixnimmt
      simkit ladder shipside -s random -s greedy -s octopus -s ismcts:iterations=100 -n 200
      simkit ladder trains -p 2 -s rival -s ismcts:iterations=10 -s ismcts:iterations=100 --format gauntlet
    """
    from simkit.report.ladder import ladder_text, write_ladder_report
    from simkit.studies.ladder import analyse_ladder

    out_dir = _play_pairings("ladder", game, list(strategy_names) or None, players, n_games, fmt, seed,
                             jobs, set_items, out, resume, decision_timeout, progress, options.echo_err,
                             isolate)
    result = analyse_ladder(out_dir)
    click.echo(ladder_text(result))
    click.echo(f"report: {write_ladder_report(out_dir, result)}")


@click.command("tournament")
@options.game
@options.strategies("An agent of the tournament (repeat; at least 2).")
@_pairing_options("Tournament")
@options.quiet
def tournament_command(game, strategy_names, players, n_games, fmt, seed, jobs, set_items, out, resume,
                       decision_timeout, progress, isolate, quiet):
    """Play a round robin (or a gauntlet) between strategies and print the crosstable.

    Every pairing is played on the same duplicate deals with seats rotated (A on even seats, B
    on odd ones), one run folder per pairing, as `simkit ladder` does; the crosstable shows
    each agent's pairwise score against each other agent and its mean. The folder also holds
    crosstable.csv and the report tournament.html / tournament.md (ratings, the crosstable with
    95 % intervals, every pairing); `simkit report FOLDER` rebuilds it.

    \b
    Examples:
      simkit tournament sixnimmt -p 4 -s heuristic -s lowest -s highest -s random -n 400
      simkit tournament shipside -s octopus -s greedy -s random --format gauntlet
    """
    from simkit.report.ladder import write_tournament_report
    from simkit.studies.ladder import analyse_ladder
    from simkit.studies.tournament import crosstable, crosstable_text

    if len(strategy_names) < 2:
        raise ConfigError(f"a tournament needs at least 2 strategies, got {len(strategy_names)}: give -s "
                          f"once per agent")
    say = (lambda message: None) if quiet else options.echo_err
    out_dir = _play_pairings("tournament", game, list(strategy_names), players, n_games, fmt, seed, jobs,
                             set_items, out, resume, decision_timeout,
                             False if quiet and progress is None else progress, say, isolate)
    result = analyse_ladder(out_dir)
    page = write_tournament_report(out_dir, result)     # crosstable.csv too
    click.echo(crosstable_text(crosstable(result)))
    click.echo(f"tournament folder: {out_dir} (crosstable.csv; pairings in pairs/)")
    click.echo(f"report: {page}")
