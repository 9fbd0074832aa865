"""The `simkit` command: a thin Click layer over the library (no logic lives here).

Options shared by several commands are defined once in simkit/cli_options.py; `report` and
`compare` live in simkit/cli_study.py. Heavy modules (pandas, the runner, the report) are
imported inside the commands, so `simkit games` and `--help` start quickly; so are the registry,
the run spec, lineups and strategies (they import NumPy), so `--help` imports no NumPy.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from simkit import cli_options as options
from simkit.cli_designer import luck_command, tune_command
from simkit.cli_study import compare_command, ladder_command, report_command, study_start, tournament_command
from simkit.engine.config import describe_fields, parse_set_options
from simkit.engine.errors import ConfigError, RunFolderError, SimkitError

if TYPE_CHECKING:
    from simkit.engine.spec import RunSpec


class SimkitGroup(click.Group):
    """Turns every SimkitError into a one-line message and a non-zero exit (no traceback)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SimkitError as exc:
            raise click.ClickException(str(exc)) from None
        except BrokenPipeError:  # `simkit ... | head`: the reader left; stop quietly, as Unix tools do
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(141)
        except OSError as exc:   # the last line of defence: a path the system refused
            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(f"{where}{exc.strerror or exc}") from None


@click.group(cls=SimkitGroup, context_settings={"help_option_names": ["-h", "--help"],
                                                 "auto_envvar_prefix": "SIMKIT"})
@click.version_option(package_name="simkit")
def main():
    """Monte Carlo balance studies of card games.

    \b
    Example:
      simkit run sixnimmt --players 5 -s heuristic -s heuristic -s random -n 200000
      simkit report results/<run-folder>

    \b
    Environment defaults (a typed option wins):
      SIMKIT_<COMMAND>_<OPTION>   any option by its long name, e.g. SIMKIT_RUN_GAMES=5000,
                                  SIMKIT_SWEEP_SEATING=random, SIMKIT_RUN_STRATEGY="heuristic random"
      SIMKIT_JOBS, SIMKIT_PROGRESS, SIMKIT_QUIET   the same in every command
    """


@main.command()
def games():
    """List the games, their player counts and rules versions.

    \b
    Example:
      simkit games
    """
    from simkit.engine.registry import all_games
    for g in all_games():
        click.echo(f"{g.name:<10} {g.title:<16} {g.players_allowed():<9} players  "
                   f"{g.rules_version:<12} {g.description}")


@main.command()
@options.game
def strategies(game):
    """List a game's strategies (with parameters) and its config fields for --set.

    \b
    Example:
      simkit strategies sixnimmt
    """
    from simkit.engine.registry import get_game
    from simkit.engine.strategy import available_strategies, load_class, strategy_parameters
    click.echo(f"Strategies for {game} (use -s NAME or -s NAME:key=value,...):")
    for name, target in sorted(available_strategies(game).items()):
        cls = load_class(target)
        params = ", ".join(f"{p}={v.default!r}" for p, v in strategy_parameters(cls).items())
        click.echo(f"  {name:<14} {cls.description}" + (f"  [{params}]" if params else ""))
    click.echo(f"\nConfig fields of {game} (use --set field=value):")
    for f in describe_fields(get_game(game).config_cls):
        click.echo(f"  {f.name} = {f.default!r}  ({f.allowed})")
        if f.help:
            click.echo(f"      {f.help}")


@main.command()
@options.game
@options.players
@options.strategies("Strategy per seat (repeat once per seat), or once for all seats. Default: random.")
@options.games
@options.seed
@options.jobs
@options.run_out
@options.seating
@options.duplicate
@options.overrides
@options.deals
@click.option("--chunk-size", type=options.WHOLE, default=None,
              help="Games per worker task (results do not depend on it).")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
              help="joblib backend; dask needs a scheduler address or starts a local cluster.")
@click.option("--scheduler", default=None, help="dask.distributed scheduler address (with --backend dask).")
@options.resume
@click.option("--strict", is_flag=True, help="Stop at the first strategy error with its traceback.")
@options.decision_timeout(None)
@options.paranoid
@options.isolate(False)
@options.engine
@options.progress
@options.quiet
@options.verbose
@options.as_json
def run(game, players, strategy_names, n_games, seed, jobs, out, seating, duplicate, set_items,
        deals_path, chunk_size, backend, scheduler, resume, strict, decision_timeout, paranoid, isolate,
        engine, progress, quiet, verbose, as_json):
    """Play a batch of seeded games and write a run folder.

    Give -s once for all seats, or per seat; with fewer than the players, the last one fills
    the remaining seats (as in `simkit sweep`). Without --seed a seed is drawn, printed and
    recorded; the resume hint includes it.

    \b
    Examples:
      simkit run sixnimmt --players 5 -s heuristic -s heuristic -s random -s random -s random -n 200000
      simkit run sixnimmt -p 4 -s random -n 20000 --set max_rounds=1 --seed 7
      simkit run sixnimmt -p 4 -s heuristic -s random -s random -s random --duplicate -n 4000
      simkit run sixnimmt -p 4 -s heuristic -s random -n 2000 --json -q > summary.json
    """
    from simkit.engine import compile_aside
    from simkit.engine.deals import games_for_deals, ranges_text, read_deals
    from simkit.engine.lineup import default_players, filled_lineup, named_or_default
    from simkit.engine.registry import get_game
    from simkit.engine.runner import default_out_dir
    from simkit.engine.runner import run as run_games
    from simkit.engine.spec import RunSpec
    from simkit.report.console import run_summary
    from simkit.studies.run_facts import facts_text, run_json

    entry = get_game(game)
    players = default_players(entry) if players is None else players
    deal_numbers = None
    if deals_path is not None:
        fixed = read_deals(deals_path)
        seed, n_games = games_for_deals(fixed, seed, options.typed("n_games", n_games), players, duplicate)
        deal_numbers = fixed.ranges
    start = study_start("run", out, resume, seed, quiet=quiet)
    lineup = filled_lineup(named_or_default(strategy_names), players, entry)
    spec = RunSpec.create(game, players, lineup, n_games, seed=start.seed,
                          seating=seating, duplicate=duplicate,
                          overrides=parse_set_options(set_items), command=options.command_line(),
                          strict=strict, decision_timeout=decision_timeout, paranoid=paranoid,
                          engine=engine, deal_numbers=deal_numbers,
                          isolate="plugins" if isolate else "off")
    out_dir = out if out is not None else default_out_dir(spec)
    say = start.say
    tip = _kernel_tip(spec)
    compiling = spec.engine == "kernel" and compile_aside.compiles_first(spec)

    def header() -> None:
        say(f"{entry.title}: {spec.n_games} games, {players} players, "
            f"{start.seed_words(spec.seed)} -> {out_dir}")
        if len(set(lineup)) > 1 and len(strategy_names) < players:
            say(f"lineup: {', '.join(lineup)} (the last -s fills the remaining seats)")
        if spec.deal_numbers is not None:
            say(f"deals: {ranges_text(spec.deal_numbers)} of seed {spec.seed}, in that order (a "
                f"game's own index decides its seats)")
        if engine == "auto":
            say(f"engine: {spec.engine}" + (f" ({spec.engine_note})" if spec.engine_note else ""))
        if tip:
            say(tip)
        if compiling:
            say(f"compiling the {entry.title} kernel first (once after an install or an update, then "
                f"cached): up to half a minute before the first games")

    try:
        with start.on_interrupt(lambda: f"{_saved_games(out_dir)} finished games are saved in {out_dir}",
                                out_dir, spec.seed):
            result = run_games(spec, out_dir, jobs=jobs, chunk_size=chunk_size, backend=backend,
                               scheduler=scheduler, progress=_progress(progress, quiet),
                               resume=resume, on_start=header, notify=say)
    except Exception as exc:
        if not isinstance(exc, SimkitError) and (out_dir / "manifest.json").exists():
            click.echo(f"\nthe run stopped on an internal error; {_saved_games(out_dir)} finished games "
                       f"are saved in {out_dir} (finish with "
                       f"{options.resume_hint(out_dir, spec.seed, start.seed_given)})", err=True)
        raise
    if as_json:
        click.echo(run_json(result))
        return
    click.echo(run_summary(result, entry))
    if verbose:
        click.echo(facts_text(result))


#: a run of at least this many games left on the default engine, which the game's kernel can
#: play, gets a tip in its header (the kernel's first compile pays back well before this)
KERNEL_TIP_GAMES = 10_000


def _kernel_tip(spec: RunSpec) -> str:
    """The header's tip for a large run on the default scalar engine that the kernel could play
    (the same games, game for game), or "" (a smaller run, --engine given, no kernel form)."""
    from click.core import ParameterSource

    from simkit.engine.spec import engine_reason

    if spec.engine != "scalar" or spec.n_games < KERNEL_TIP_GAMES:
        return ""
    if click.get_current_context().get_parameter_source("engine") is not ParameterSource.DEFAULT:
        return ""
    if engine_reason(spec, "kernel") is not None:
        return ""
    return ("tip: --engine kernel plays these same games (game for game, the same tables) 30-70x "
            "faster; its first run compiles for up to half a minute, later runs start in about 2 s")


def _progress(progress: bool | None, quiet: bool) -> bool | None:
    """--quiet turns the progress display off unless --progress is given."""
    return False if quiet and progress is None else progress


def _saved_games(out_dir: Path) -> int:
    from simkit.engine.records import read_manifest

    try:
        return int(read_manifest(out_dir).get("games_done", 0))
    except SimkitError:
        return 0


@main.command()
@options.game
@options.player_counts
@options.strategies("Lineup: once for all seats, or per seat; the last one fills extra seats.")
@click.option("--vary", "vary_items", multiple=True, metavar="FIELD=V1,V2",
              help="A config field and the values to sweep (repeat for a grid); --set fields stay fixed.")
@options.overrides
@options.games
@options.seed
@options.deals
@options.jobs
@options.out("Sweep folder, one run folder per cell (default: a new folder under results/).")
@options.seating
@options.duplicate
@options.resume
@options.progress
@options.quiet
@options.verbose
@options.as_json
def sweep(game, players, strategy_names, vary_items, set_items, n_games, seed, deals_path, jobs, out,
          seating, duplicate, resume, progress, quiet, verbose, as_json):
    """Run the same study over a grid of player counts and rule variants.

    Every cell gets its own run folder inside the sweep folder and the same master seed, so
    cells are compared on the same deals where the rules allow. `simkit report` accepts the
    sweep folder and shows the cells side by side. -s works as in `simkit run`: once for all
    seats, or per seat, the last one filling the remaining seats.

    \b
    Examples:
      simkit sweep sixnimmt -p 3,4,5,6 -s heuristic -s random -n 5000 --set max_rounds=1
      simkit sweep sixnimmt -p 4 -s heuristic -s random --vary rows=3,4,5 --vary row_capacity=5,6
    """
    import json

    from simkit.engine.lineup import default_players, named_or_default
    from simkit.engine.registry import get_game
    from simkit.report.console import cell_summary
    from simkit.studies.run_facts import facts_text, run_facts, summary_records
    from simkit.studies.sweep import SWEEP_MANIFEST, default_sweep_dir, parse_vary, plan, run_sweep

    entry = get_game(game)
    counts = players or [default_players(entry)]
    deal_numbers = None
    if deals_path is not None:
        from simkit.engine.deals import games_for_deals, read_deals
        fixed = read_deals(deals_path)
        asked = options.typed("n_games", n_games)
        per_cell = [games_for_deals(fixed, seed, asked, n, duplicate) for n in counts]
        seed, n_games = per_cell[0][0], min(g for _, g in per_cell)
        deal_numbers = fixed.ranges
    start = study_start("sweep", out, resume, seed, quiet=quiet, listing=SWEEP_MANIFEST)
    planned = plan(game, counts, named_or_default(strategy_names),
                   n_games, start.seed, parse_vary(list(vary_items)), parse_set_options(set_items),
                   seating=seating, duplicate=duplicate, command=options.command_line(),
                   deal_numbers=deal_numbers)
    seed = planned[0][1].seed
    out_dir = out if out is not None else default_sweep_dir(game, seed)
    say = start.say
    cells_done = []

    def header() -> None:
        say(f"{entry.title}: sweep of {len(planned)} cells x {n_games} games, "
            f"{options.seed_text(seed, start.seed_given or resume)} -> {out_dir}")

    def on_cell(cell, result) -> None:
        cells_done.append((cell, result))
        say(f"[cell {len(cells_done)}/{len(planned)} done: {cell.label}]")
        if as_json:
            return
        click.echo(cell_summary(cell.label, result))
        if verbose:
            click.echo(facts_text(result))

    with start.on_interrupt(f"finished cells and games are saved in {out_dir}", out_dir, seed):
        run_sweep(planned, out_dir, jobs=jobs, progress=_progress(progress, quiet), resume=resume,
                  on_start=header, on_cell=on_cell)
    if as_json:
        click.echo(json.dumps({"sweep": {"out_dir": str(out_dir), "seed": seed, "cells": len(planned)},
                               "cells": [{"label": c.label, "run": run_facts(r),
                                          "summary": summary_records(r)} for c, r in cells_done]},
                              indent=2))
        return
    click.echo(f"\nreport of every cell side by side: simkit report {out_dir}")


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--game", "-g", "index", type=options.WHOLE, default=None,
              help="Game index (0-based) in the run.")
@click.option("--position", "step", type=options.WHOLE, default=None,
              help="Print the text position before decision step STEP (0 = the start) instead of the log.")
@click.option("--all", "all_games", is_flag=True,
              help="Write the log of every game: one file per game in --to FOLDER (default "
                   "RUN_DIR/logs), or all in one file if --to ends in .txt.")
@click.option("--to", "target", type=click.Path(path_type=Path), default=None,
              help="With --all: a new folder (game-000017.txt, ...) or a .txt file.")
@options.progress
def replay(run_dir, index, step, all_games, target, progress):
    """Replay one game of a run from its seed, as a log a person can follow; or write the logs
    of every game (--all). Each replayed game is checked against its recorded row.

    \b
    Examples:
      simkit replay results/sixnimmt-20261130-101500-s7 --game 3
      simkit replay results/sixnimmt-20261130-101500-s7 --game 3 --position 12
      simkit replay results/sixnimmt-20261130-101500-s7 --all
      simkit replay results/sixnimmt-20261130-101500-s7 --all --to games.txt
    """
    from simkit.engine.registry import get_game
    from simkit.engine.runner import replay_game
    from simkit.studies.game_logs import forfeit_line, game_header

    if all_games:
        if index is not None or step is not None:
            raise ConfigError("--all writes every game's log: leave out --game and --position")
        _export_all(run_dir, target, progress)
        return
    if index is None:
        raise ConfigError("give --game N (one game's log) or --all (every game's log)")
    if target is not None:
        raise ConfigError("--to goes with --all (the log of one game is printed)")
    state, record, spec = replay_game(run_dir, index, step)
    entry = get_game(spec.game)
    header = game_header(run_dir, index, [s.text for s in spec.strategies], record.slots)
    if step is not None:
        if entry.format_position is None:
            raise ConfigError(f"{spec.game} has no text positions, so --position cannot be used")
        click.echo(f"{header}, position before step {step} (seats in the position count from 0):")
        click.echo(entry.format_position(state))
        return
    click.echo(header)
    click.echo(entry.render_log(state))
    forfeit = forfeit_line(record)
    if forfeit is not None:
        click.echo(forfeit)


def _export_all(run_dir: Path, target: Path | None, progress: bool | None) -> None:
    from simkit.engine.runner import Progress
    from simkit.studies.game_logs import export_logs

    displays: list[Progress] = []        # made once export_logs knows how many games it replays
    try:
        done = export_logs(run_dir, target,
                           on_start=lambda n: displays.append(Progress(n, 0, progress, label="replay")),
                           on_game=lambda _index: displays[0].update(1))
    finally:
        for display in displays:
            display.close()
    where = "in one file" if done.target.suffix == ".txt" else "one file per game"
    click.echo(f"{done.written} game logs written to {done.target} ({where})")
    if done.differ:
        shown = "; ".join(f"game {g}: {why}" for g, why in done.differ[:3])
        more = f" and {len(done.differ) - 3} more" if len(done.differ) > 3 else ""
        raise RunFolderError(f"{len(done.differ)} games replay differently from their recorded rows and "
                             f"have no log ({shown}{more}): the rules, a strategy or a library changed "
                             f"since the run")


@main.command()
@options.game
@options.players
@options.strategies("Strategy of the other seats (once for all, or once per seat). "
                   "Default: heuristic if the game has it, else random.")
@click.option("--seat", type=options.WHOLE, default=1, show_default=True,
              help="Your seat, 1 to the number of players (seat 1 plays first).")
@options.seed
@options.overrides
def play(game, players, strategy_names, seat, seed, set_items):
    """Play one game yourself against strategies, in the terminal.

    \b
    Example:
      simkit play sixnimmt -p 4 -s heuristic --seat 1
    """
    from simkit.engine.lineup import default_opponent, default_players, lineup_around
    from simkit.engine.registry import get_game
    from simkit.engine.seats import seat_index, seat_label
    from simkit.engine.spec import RunSpec
    from simkit.studies.interactive import play_interactive

    entry = get_game(game)
    players = default_players(entry) if players is None else players
    others = list(strategy_names) or [default_opponent(game)]
    spec = RunSpec.create(game, players, lineup_around(others, players, seat - 1), 1, seed=seed,
                          seating="fixed", overrides=parse_set_options(set_items))
    human = seat_index(seat, spec.n_players)
    click.echo(f"{entry.title}, {players} players, you are {seat_label(human)}, seed {spec.seed}")

    def ask(prompt, n):
        return click.prompt(prompt, type=click.IntRange(1, n))

    state = play_interactive(entry, spec, human, ask, click.echo,
                             ask_text=lambda prompt: click.prompt(prompt, type=str))
    out = state.outcome()
    click.echo("You win!" if out.win_shares[human] > 0 else f"You finish with rank {out.ranks[human]}.")


main.add_command(report_command, "report")
main.add_command(compare_command, "compare")
main.add_command(ladder_command, "ladder")
main.add_command(tournament_command, "tournament")
main.add_command(luck_command, "luck")
main.add_command(tune_command, "tune")


def _environment_names(group: click.Group) -> None:
    """Every option of every command reads `SIMKIT_<COMMAND>_<LONG OPTION>` when not typed
    (`SIMKIT_RUN_GAMES` for `run --games`), unless it has a shared name (`SIMKIT_JOBS`)."""
    for name, command in group.commands.items():
        for param in command.params:
            longs = [o for o in param.opts if o.startswith("--")]
            if isinstance(param, click.Option) and param.envvar is None and longs:
                param.envvar = f"SIMKIT_{name.upper()}_{longs[0][2:].upper().replace('-', '_')}"


_environment_names(main)
