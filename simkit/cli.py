"""The `simkit` command: a thin Click layer over the library (no logic lives here)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from simkit.core.config import describe_fields, parse_set_options
from simkit.core.errors import ConfigError, SimkitError
from simkit.core.registry import all_games, game_names, get_game
from simkit.core.strategy import available_strategies, load_class, strategy_parameters


class SimkitGroup(click.Group):
    """Turns every SimkitError into a one-line message and a non-zero exit (no traceback)."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SimkitError as exc:
            raise click.ClickException(str(exc)) from None


@click.group(cls=SimkitGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="simkit")
def main():
    """Monte Carlo balance studies of card games.

    \b
    Example:
      simkit run sixnimmt --players 5 -s heuristic -s heuristic -s random -n 200000
      simkit report results/<run-folder>
    """


def _game_arg(ctx, param, value):
    if value not in game_names():
        raise click.BadParameter(f"unknown game {value!r}: allowed are {', '.join(game_names())}")
    return value


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
@click.argument("game", callback=_game_arg)
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
@click.argument("game", callback=_game_arg)
@click.option("-p", "--players", type=int, default=None, help="Number of players (default: 4, or the nearest allowed).")
@click.option("-s", "--strategy", "strategy_names", multiple=True,
              help="Strategy per seat (repeat once per seat), or once for all seats. Default: random.")
@click.option("-n", "--games", "n_games", type=int, default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=None, help="Master seed (default: fresh, recorded in the manifest).")
@click.option("-j", "--jobs", type=int, default=-1, show_default=True, help="Worker processes; -1 = all cores.")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="Run folder (default: a new folder under results/).")
@click.option("--seating", type=click.Choice(["rotate", "random", "fixed"]), default="rotate", show_default=True,
              help="rotate: every strategy takes every seat equally; fixed: as given.")
@click.option("--duplicate", is_flag=True,
              help="Play every deal once per seat rotation (deal luck cancels); -n is rounded up to whole deals.")
@click.option("--set", "set_items", multiple=True, metavar="FIELD=VALUE",
              help="Override a rule config field (see `simkit strategies GAME`).")
@click.option("--chunk-size", type=int, default=None, help="Games per worker task (results do not depend on it).")
@click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky", show_default=True,
              help="joblib backend; dask needs a scheduler address or starts a local cluster.")
@click.option("--scheduler", default=None, help="dask.distributed scheduler address (with --backend dask).")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out (same options).")
@click.option("--strict", is_flag=True, help="Stop at the first strategy error with its traceback.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a terminal).")
def run(game, players, strategy_names, n_games, seed, jobs, out, seating, duplicate, set_items,
        chunk_size, backend, scheduler, resume, strict, progress):
    """Play a batch of seeded games and write a run folder.

    \b
    Examples:
      simkit run sixnimmt --players 5 -s heuristic -s heuristic -s random -s random -s random -n 200000
      simkit run sixnimmt -p 4 -s random -n 20000 --set max_rounds=1 --seed 7
      simkit run sixnimmt -p 4 -s heuristic -s random -s random -s random --duplicate -n 4000
    """
    from simkit.core.runner import RunSpec, default_out_dir, run as run_games

    entry = get_game(game)
    if players is None:
        players = min(max(4, entry.min_players), entry.max_players)
    spec = RunSpec.create(game, players, list(strategy_names) or ["random"], n_games, seed=seed,
                          seating=seating, duplicate=duplicate,
                          overrides=parse_set_options(set_items),
                          command=shlex.join(["simkit", *sys.argv[1:]]), strict=strict)
    out_dir = out if out is not None else default_out_dir(spec)
    click.echo(f"{entry.title}: {spec.n_games} games, {players} players, seed {spec.seed} -> {out_dir}", err=True)
    try:
        result = run_games(spec, out_dir, jobs=jobs, chunk_size=chunk_size, backend=backend,
                           scheduler=scheduler, progress=progress, resume=resume)
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: {_saved_games(out_dir)} finished games are saved in {out_dir}; "
                   f"finish with the same command plus --resume --out {out_dir}", err=True)
        sys.exit(130)
    except Exception as exc:
        if not isinstance(exc, SimkitError) and (out_dir / "manifest.json").exists():
            click.echo(f"\nthe run stopped on an internal error; {_saved_games(out_dir)} finished games "
                       f"are saved in {out_dir} (--resume --out {out_dir} continues it)", err=True)
        raise
    _print_summary(result, entry)


def _saved_games(out_dir: Path) -> int:
    from simkit.core.records import read_manifest

    try:
        return int(read_manifest(out_dir).get("games_done", 0))
    except SimkitError:
        return 0


def _print_summary(result, entry) -> None:
    from simkit.stats.tables import format_summary, summary_table

    games = result.games
    seats = result.seats
    title = (f"{entry.title}: {len(games)} games in {result.timings.get('wall_seconds', 0):.1f} s "
             f"({'fewer' if not entry.higher_is_better else 'more'} points is better); "
             f"results in {result.out_dir}")
    click.echo(format_summary(summary_table(seats), title=title))
    if result.manifest.get("duplicate"):
        from simkit.stats.match import format_paired

        paired = format_paired(seats)
        if paired:
            click.echo(paired)
    if result.forfeits:
        click.echo(f"forfeited games: {result.forfeits} (see the 'error' column of games.parquet)")
    for col in games.columns:
        if col not in ("draw",) and games[col].dtype == bool:
            click.echo(f"{col}: {100 * games[col].mean():.2f}% of games")
    if games["draw"].any():
        click.echo(f"draws (no winner): {100 * games['draw'].mean():.2f}% of games")
    if "rounds" in games.columns:
        click.echo(f"mean rounds per game: {games['rounds'].mean():.2f}")
    click.echo(f"charts and a report to share: simkit report {result.out_dir}")


def _int_list(ctx, param, value):
    if value is None:
        return None
    try:
        return [int(v) for v in value.split(",")]
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a comma-separated list of whole numbers, e.g. 3,4,5") from None


@main.command()
@click.argument("game", callback=_game_arg)
@click.option("-p", "--players", callback=_int_list, default=None,
              help="Player counts, comma-separated (e.g. 3,4,5). Default: 4, or the nearest allowed.")
@click.option("-s", "--strategy", "strategy_names", multiple=True,
              help="Lineup: once for all seats, or per seat; the last one fills extra seats.")
@click.option("--vary", "vary_items", multiple=True, metavar="FIELD=V1,V2",
              help="A config field and the values to sweep (repeat for a grid).")
@click.option("--set", "set_items", multiple=True, metavar="FIELD=VALUE", help="Fixed config overrides.")
@click.option("-n", "--games", "n_games", type=int, default=1000, show_default=True, help="Games per cell.")
@click.option("--seed", type=int, default=None, help="Master seed shared by every cell.")
@click.option("-j", "--jobs", type=int, default=-1, show_default=True, help="Worker processes; -1 = all cores.")
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Sweep folder (one run folder per cell).")
@click.option("--seating", type=click.Choice(["rotate", "random", "fixed"]), default="rotate", show_default=True)
@click.option("--duplicate", is_flag=True, help="Play every deal once per seat rotation.")
@click.option("--resume", is_flag=True, help="Finish an interrupted sweep in --out.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: on a terminal).")
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
    from datetime import datetime

    from simkit.core.sweep import parse_vary, plan, run_sweep
    from simkit.stats.tables import format_summary, summary_table

    entry = get_game(game)
    players = players or [min(max(4, entry.min_players), entry.max_players)]
    planned = plan(game, players, list(strategy_names) or ["random"], n_games, seed,
                   parse_vary(list(vary_items)), parse_set_options(set_items), seating=seating,
                   duplicate=duplicate, command=shlex.join(["simkit", *sys.argv[1:]]))
    if out is None:
        out = Path("results") / f"{game}-sweep-{datetime.now().strftime('%Y%m%d-%H%M%S')}-s{planned[0][1].seed}"
    click.echo(f"{entry.title}: sweep of {len(planned)} cells x {n_games} games, seed "
               f"{planned[0][1].seed} -> {out}", err=True)

    def show(cell, result):
        click.echo(format_summary(summary_table(result.seats), title=f"\n[{cell.label}] {len(result.games)} games"))

    run_sweep(planned, out, jobs=jobs, progress=progress, resume=resume, on_cell=show)
    click.echo(f"\nreport of every cell side by side: simkit report {out}")


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
@click.argument("game", callback=_game_arg)
@click.option("-p", "--players", type=int, default=None, help="Number of players (default: 4, or the nearest allowed).")
@click.option("-s", "--strategy", "strategy_names", multiple=True,
              help="Strategy of the other seats (once for all, or once per seat). Default: heuristic if the game has it, else random.")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 plays first).")
@click.option("--seed", type=int, default=None, help="Seed of the deal (default: fresh).")
@click.option("--set", "set_items", multiple=True, metavar="FIELD=VALUE", help="Override a rule config field.")
def play(game, players, strategy_names, seat, seed, set_items):
    """Play one game yourself against strategies, in the terminal.

    \b
    Example:
      simkit play sixnimmt -p 4 -s heuristic --seat 0
    """
    from simkit.core.interactive import play_interactive
    from simkit.core.runner import RunSpec
    from simkit.core.strategy import available_strategies

    entry = get_game(game)
    if players is None:
        players = min(max(4, entry.min_players), entry.max_players)
    default = "heuristic" if "heuristic" in available_strategies(game) else "random"
    names = list(strategy_names) or [default]
    if len(names) == players - 1:
        names.insert(seat if 0 <= seat < players else 0, names[0])
    spec = RunSpec.create(game, players, names, 1, seed=seed, seating="fixed",
                          overrides=parse_set_options(set_items))
    click.echo(f"{entry.title}, {players} players, you are seat {seat}, seed {spec.seed}")

    def ask(prompt, n):
        return click.prompt(prompt, type=click.IntRange(1, n))

    state = play_interactive(entry, spec, seat, ask, click.echo,
                             ask_text=lambda prompt: click.prompt(prompt, type=str))
    out = state.outcome()
    click.echo("You win!" if out.win_shares[seat] > 0 else f"You finish with rank {out.ranks[seat]}.")


def _attach_study_commands() -> None:
    """report and compare live in simkit.cli_study (statistics side of the tool)."""
    try:
        from simkit.cli_study import compare_command, report_command
    except ImportError:
        return
    main.add_command(report_command, "report")
    main.add_command(compare_command, "compare")


_attach_study_commands()
