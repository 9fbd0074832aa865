"""The `simkit` command: a thin Click layer over the library (no logic lives here).

Options shared by several commands are defined once in simkit/cli_options.py; `report` and
`compare` live in simkit/cli_study.py. Heavy modules (pandas, the runner, the report) are
imported inside the commands, so `simkit games` and `--help` start quickly.
"""

from __future__ import annotations

from pathlib import Path

import click

from simkit import cli_options as options
from simkit.cli_study import compare_command, ladder_command, report_command
from simkit.core.config import describe_fields, parse_set_options
from simkit.core.errors import ConfigError, SimkitError
from simkit.core.lineup import default_opponent, default_players, lineup_around, named_or_default
from simkit.core.registry import all_games, get_game
from simkit.core.spec import RunSpec
from simkit.core.strategy import available_strategies, load_class, strategy_parameters


class SimkitGroup(click.Group):
    """Turns every SimkitError into a one-line message and a non-zero exit (no traceback)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SimkitError as exc:
            raise click.ClickException(str(exc)) from None
        except OSError as exc:   # the last line of defence: a path the system refused
            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(f"{where}{exc.strerror or exc}") from None


@click.group(cls=SimkitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="simkit")
def main():
    """Monte Carlo balance studies of card games.

    \b
    Example:
      simkit run sixnimmt --players 5 -s heuristic -s heuristic -s random -n 200000
      simkit report results/<run-folder>
    """


@main.command()
def games():
    """List the games, their player counts and rules versions.

    \b
    Example:
      simkit games
    """
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
@click.option("--chunk-size", type=int, default=None,
              help="Games per worker task (results do not depend on it).")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
              help="joblib backend; dask needs a scheduler address or starts a local cluster.")
@click.option("--scheduler", default=None, help="dask.distributed scheduler address (with --backend dask).")
@options.resume
@click.option("--strict", is_flag=True, help="Stop at the first strategy error with its traceback.")
@options.decision_timeout(None)
@options.paranoid
@options.progress
def run(game, players, strategy_names, n_games, seed, jobs, out, seating, duplicate, set_items,
        chunk_size, backend, scheduler, resume, strict, decision_timeout, paranoid, progress):
    """Play a batch of seeded games and write a run folder.

    \b
    Examples:
      simkit run sixnimmt --players 5 -s heuristic -s heuristic -s random -s random -s random -n 200000
      simkit run sixnimmt -p 4 -s random -n 20000 --set max_rounds=1 --seed 7
      simkit run sixnimmt -p 4 -s heuristic -s random -s random -s random --duplicate -n 4000
    """
    from simkit.core.runner import default_out_dir
    from simkit.core.runner import run as run_games
    from simkit.report.console import run_summary

    entry = get_game(game)
    players = default_players(entry) if players is None else players
    spec = RunSpec.create(game, players, named_or_default(strategy_names), n_games, seed=seed,
                          seating=seating, duplicate=duplicate,
                          overrides=parse_set_options(set_items), command=options.command_line(),
                          strict=strict, decision_timeout=decision_timeout, paranoid=paranoid)
    out_dir = out if out is not None else default_out_dir(spec)

    def header() -> None:
        click.echo(f"{entry.title}: {spec.n_games} games, {players} players, seed {spec.seed} -> "
                   f"{out_dir}", err=True)

    def saved() -> str:
        return (f"{_saved_games(out_dir)} finished games are saved in {out_dir}; "
                f"finish with the same command plus --resume --out {out_dir}")

    try:
        with options.explained_interrupt(saved):
            result = run_games(spec, out_dir, jobs=jobs, chunk_size=chunk_size, backend=backend,
                               scheduler=scheduler, progress=progress, resume=resume,
                               on_start=header, notify=options.echo_err)
    except Exception as exc:
        if not isinstance(exc, SimkitError) and (out_dir / "manifest.json").exists():
            click.echo(f"\nthe run stopped on an internal error; {_saved_games(out_dir)} finished games "
                       f"are saved in {out_dir} (--resume --out {out_dir} continues it)", err=True)
        raise
    click.echo(run_summary(result, entry))


def _saved_games(out_dir: Path) -> int:
    from simkit.core.records import read_manifest

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
@options.jobs
@options.out("Sweep folder, one run folder per cell (default: a new folder under results/).")
@options.seating
@options.duplicate
@options.resume
@options.progress
def sweep(game, players, strategy_names, vary_items, set_items, n_games, seed, jobs, out, seating,
          duplicate, resume, progress):
    """Run the same study over a grid of player counts and rule variants.

    Every cell gets its own run folder inside the sweep folder and the same master seed, so
    cells are compared on the same deals where the rules allow. `simkit report` accepts the
    sweep folder and shows the cells side by side.

    \b
    Examples:
      simkit sweep sixnimmt -p 3,4,5,6 -s heuristic -s random -n 5000 --set max_rounds=1
      simkit sweep sixnimmt -p 4 -s heuristic -s random --vary rows=3,4,5 --vary row_capacity=5,6
    """
    from simkit.core.sweep import default_sweep_dir, parse_vary, plan, run_sweep
    from simkit.report.console import cell_summary

    entry = get_game(game)
    planned = plan(game, players or [default_players(entry)], named_or_default(strategy_names),
                   n_games, seed, parse_vary(list(vary_items)), parse_set_options(set_items),
                   seating=seating, duplicate=duplicate, command=options.command_line())
    seed = planned[0][1].seed
    out_dir = out if out is not None else default_sweep_dir(game, seed)

    def header() -> None:
        click.echo(f"{entry.title}: sweep of {len(planned)} cells x {n_games} games, seed "
                   f"{seed} -> {out_dir}", err=True)

    def saved() -> str:
        return (f"finished cells and games are saved in {out_dir}; "
                f"finish with the same command plus --resume --out {out_dir}")

    with options.explained_interrupt(saved):
        run_sweep(planned, out_dir, jobs=jobs, progress=progress, resume=resume, on_start=header,
                  on_cell=lambda cell, result: click.echo(cell_summary(cell.label, result)))
    click.echo(f"\nreport of every cell side by side: simkit report {out_dir}")


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--game", "-g", "index", type=int, required=True, help="Game index (0-based) in the run.")
@click.option("--position", "step", type=int, default=None,
              help="Print the text position before decision step STEP (0 = the start) instead of the log.")
def replay(run_dir, index, step):
    """Replay one game of a run from its seed, as a log a person can follow.

    \b
    Examples:
      simkit replay results/sixnimmt-20261130-101500-s7 --game 3
      simkit replay results/sixnimmt-20261130-101500-s7 --game 3 --position 12
    """
    from simkit.core.runner import replay_game

    state, record, spec = replay_game(run_dir, index, step)
    entry = get_game(spec.game)
    seats = ", ".join(f"seat {s}: {spec.strategies[k].text}" for s, k in enumerate(record.slots))
    if step is not None:
        if entry.format_position is None:
            raise ConfigError(f"{spec.game} has no text positions, so --position cannot be used")
        click.echo(f"Game {index} of {run_dir} ({seats}), position before step {step}:")
        click.echo(entry.format_position(state))
        return
    click.echo(f"Game {index} of {run_dir} ({seats})")
    click.echo(entry.render_log(state))
    if record.forfeit >= 0:
        click.echo(f"Seat {record.forfeit} forfeited: {record.error}")


@main.command()
@options.game
@options.players
@options.strategies("Strategy of the other seats (once for all, or once per seat). "
                   "Default: heuristic if the game has it, else random.")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 plays first).")
@options.seed
@options.overrides
def play(game, players, strategy_names, seat, seed, set_items):
    """Play one game yourself against strategies, in the terminal.

    \b
    Example:
      simkit play sixnimmt -p 4 -s heuristic --seat 0
    """
    from simkit.core.interactive import play_interactive

    entry = get_game(game)
    players = default_players(entry) if players is None else players
    others = list(strategy_names) or [default_opponent(game)]
    spec = RunSpec.create(game, players, lineup_around(others, players, seat), 1, seed=seed,
                          seating="fixed", overrides=parse_set_options(set_items))
    click.echo(f"{entry.title}, {players} players, you are seat {seat}, seed {spec.seed}")

    def ask(prompt, n):
        return click.prompt(prompt, type=click.IntRange(1, n))

    state = play_interactive(entry, spec, seat, ask, click.echo,
                             ask_text=lambda prompt: click.prompt(prompt, type=str))
    out = state.outcome()
    click.echo("You win!" if out.win_shares[seat] > 0 else f"You finish with rank {out.ranks[seat]}.")


main.add_command(report_command, "report")
main.add_command(compare_command, "compare")
main.add_command(ladder_command, "ladder")
