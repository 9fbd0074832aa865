"""Options and arguments shared by the `simkit` commands, each defined once.

Module-level decorators, used as `@options.seed` (as in pip-tools' `piptools/scripts/options.py`);
the two whose help must say what the command does with them (`-s`, `--out`) are made by a
function. Validation that needs the library raises SimkitError, which the group prints as one
line.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from simkit.core.chunks import resolve_jobs
from simkit.core.registry import get_game
from simkit.core.spec import SEATINGS
from simkit.core.termination import STOPS, exit_status


def command_line() -> str:
    """The command as typed, recorded in every manifest."""
    return shlex.join(["simkit", *sys.argv[1:]])


@contextmanager
def explained_interrupt(explain: Callable[[], str]) -> Iterator[None]:
    """On Ctrl-C (or SIGTERM, which the runner turns into one), print `explain()` (what is
    saved, how to go on) and exit 130 (143 for SIGTERM)."""
    try:
        yield
    except STOPS as exc:
        click.echo(f"\ninterrupted: {explain()}", err=True)
        sys.exit(exit_status(exc))


def echo_err(message: str) -> None:
    click.echo(message, err=True)


def _known_game(ctx: click.Context, param: click.Parameter, value: str) -> str:
    get_game(value)          # raises UnknownNameError naming the allowed games
    return value


def _int_list(ctx: click.Context, param: click.Parameter, value: str | None) -> list[int] | None:
    if value is None:
        return None
    try:
        return [int(v) for v in value.split(",")]
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a comma-separated list of whole numbers, "
                                 f"e.g. 3,4,5") from None


def _jobs(ctx: click.Context, param: click.Parameter, value: int) -> int:
    return resolve_jobs(value)   # checked before anything is written


game = click.argument("game", callback=_known_game)

players = click.option(
    "-p", "--players", type=int, default=None,
    help="Number of players (default: 4, or the nearest allowed).")

player_counts = click.option(
    "-p", "--players", callback=_int_list, default=None,
    help="Player counts, comma-separated (e.g. 3,4,5). Default: 4, or the nearest allowed.")

games = click.option(
    "-n", "--games", "n_games", type=int, default=1000, show_default=True,
    help="Games to play (in a sweep: per cell).")

seed = click.option(
    "--seed", type=int, default=None,
    help="Master seed (default: fresh entropy, printed and recorded).")

jobs = click.option(
    "-j", "--jobs", type=int, default=-1, show_default=True, callback=_jobs,
    help="Worker processes; -1 = all cores.")

overrides = click.option(
    "--set", "set_items", multiple=True, metavar="FIELD=VALUE",
    help="Override a rule config field (see `simkit strategies GAME`).")

seating = click.option(
    "--seating", type=click.Choice(SEATINGS), default="rotate", show_default=True,
    help="rotate: every strategy takes every seat equally; fixed: as given.")

duplicate = click.option(
    "--duplicate", is_flag=True,
    help="Play every deal once per seat rotation (deal luck cancels); -n is rounded up to whole deals.")

resume = click.option(
    "--resume", is_flag=True, help="Finish an interrupted run or sweep in --out (same options).")

progress = click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal).")


paranoid = click.option(
    "--paranoid", is_flag=True,
    help="Audit the game state after every step, not only at the end of each game (slower).")


def _timeout(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    return None if value == 0 else value    # 0 turns the limit off; RunSpec checks the rest


def decision_timeout(default: float | None) -> Callable:
    """`--decision-timeout SECONDS`: a decision over it forfeits that game (0 = no limit)."""
    shown = "no limit" if default is None else f"{default:g}"
    return click.option(
        "--decision-timeout", type=float, default=default, callback=_timeout, metavar="SECONDS",
        help=f"A strategy that thinks longer than this on one decision forfeits that game; 0 = no "
             f"limit (default: {shown}). Needs the loky backend.")


def strategies(help: str) -> Callable:
    """`-s/--strategy`, repeatable; `help` says how the command fills the seats from it."""
    return click.option("-s", "--strategy", "strategy_names", multiple=True, help=help)


def out(help: str) -> Callable:
    """`--out`, a folder; `help` says what goes there and the default."""
    return click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=None,
                        help=help)


run_out = out("Run folder (default: a new folder under results/).")
