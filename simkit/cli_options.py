"""Options and arguments shared by the `simkit` commands, each defined once.

Module-level decorators, used as `@options.seed` (as in pip-tools' `piptools/scripts/options.py`);
the two whose help must say what the command does with them (`-s`, `--out`) are made by a
function. Validation that needs the library raises SimkitError, which the group prints as one
line.

Environment defaults: every option can be given as `SIMKIT_<COMMAND>_<LONG OPTION>` (set in
simkit/cli.py after Click's auto_envvar_prefix, e.g. `SIMKIT_RUN_GAMES=5000`,
`SIMKIT_SWEEP_SEATING=random`; a repeatable option takes space-separated values); the options
shared by all commands also read one name for every command: `SIMKIT_JOBS`, `SIMKIT_PROGRESS`
(1/0), `SIMKIT_QUIET` (1/0). A value typed on the command line wins over the environment.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from simkit.engine.chunks import resolve_jobs
from simkit.engine.config import NUMBER_FORM, parse_decimal, parse_whole
from simkit.engine.errors import ConfigError
from simkit.engine.termination import STOPS, exit_status


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


class _Number(click.ParamType):
    """A number typed on the command line (or in a SIMKIT_* variable) in the one form simkit
    reads: ASCII digits and `-` (simkit.engine.config.parse_whole / parse_decimal); `1_000`,
    `+4`, ` 4` and full-width digits are refused, not reinterpreted."""

    def __init__(self, name: str, parse: Callable[[str, str], int | float]):
        self.name = name
        self.parse = parse

    def convert(self, value, param, ctx):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value                       # a default, or a caller passing a number
        try:
            return self.parse(str(value), "value")
        except ConfigError:
            self.fail(f"{value!r} is not a valid {self.name}: {NUMBER_FORM}", param, ctx)


#: a whole number (click's int would read `1_000`, `+4` and `４`)
WHOLE = _Number("integer", parse_whole)
#: a finite decimal number
DECIMAL = _Number("number", parse_decimal)


def _known_game(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from simkit.engine.registry import get_game  # imports NumPy: not at --help
    get_game(value)          # raises UnknownNameError naming the allowed games
    return value


def _int_list(ctx: click.Context, param: click.Parameter, value: str | None) -> list[int] | None:
    if value is None:
        return None
    try:
        return [parse_whole(v, "value") for v in value.split(",")]
    except ConfigError:
        raise click.BadParameter(f"{value!r} is not a comma-separated list of whole numbers "
                                 f"(digits 0-9), e.g. 3,4,5") from None


def _jobs(ctx: click.Context, param: click.Parameter, value: int) -> int:
    return resolve_jobs(value)   # checked before anything is written


def _one_count(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    """`run -p`: read like `sweep -p` (so `-p 4` means the same in both), one count only."""
    counts = _int_list(ctx, param, value)
    if counts is None:
        return None
    if len(counts) != 1:
        raise ConfigError(f"--players {value} is several player counts: `simkit {ctx.info_name}` plays "
                          f"one (e.g. -p {counts[0]}); `simkit sweep -p {value}` plays each")
    return counts[0]


game = click.argument("game", callback=_known_game)

players = click.option(
    "-p", "--players", callback=_one_count, default=None, metavar="N",
    help="Number of players (default: 4, or the nearest allowed).")

player_counts = click.option(
    "-p", "--players", callback=_int_list, default=None,
    help="Player counts, comma-separated (e.g. 3,4,5). Default: 4, or the nearest allowed.")

games = click.option(
    "-n", "--games", "n_games", type=WHOLE, default=1000, show_default=True,
    help="Games to play (in a sweep: per cell).")

seed = click.option(
    "--seed", type=WHOLE, default=None,
    help="Master seed (default: fresh entropy, printed and recorded).")

jobs = click.option(
    "-j", "--jobs", type=WHOLE, default=-1, show_default=True, callback=_jobs, envvar="SIMKIT_JOBS",
    help="Worker processes; -1 = all cores. [env: SIMKIT_JOBS]")

overrides = click.option(
    "--set", "set_items", multiple=True, metavar="FIELD=VALUE",
    help="Override a rule config field (see `simkit strategies GAME`).")

#: simkit.engine.spec's SEATINGS and ENGINES, spelt out: spec imports NumPy, which `--help` must
#: not wait for (tests/cli/test_help_imports.py checks that they agree)
SEATINGS = ("rotate", "random", "fixed")
ENGINES = ("scalar", "batch", "kernel", "auto")

seating = click.option(
    "--seating", type=click.Choice(SEATINGS), default="rotate", show_default=True,
    help="rotate: every strategy takes every seat equally; fixed: as given.")

duplicate = click.option(
    "--duplicate", is_flag=True,
    help="Play every deal once per seat rotation (deal luck cancels); -n is rounded up to whole deals.")

deals = click.option(
    "--deals", "deals_path", type=click.Path(path_type=Path, exists=True), default=None,
    metavar="FILE",
    help="Play the deals of a deals file ('seed N' and 'deals N' lines, or 'deals 0-499, "
         "1000-1499' for chosen deals, played in increasing order; optionally 'players N') or of a "
         "run folder, so two studies use the same deals (for the same player count); the game's "
         "index still decides its seats. -n defaults to every "
         "deal (once per rotation with --duplicate).")


def typed(name: str, value):
    """`value` if the user gave option `name` (typed or from the environment), else None."""
    source = click.get_current_context().get_parameter_source(name)
    return None if source in (None, click.core.ParameterSource.DEFAULT) else value


resume = click.option(
    "--resume", is_flag=True, help="Finish an interrupted run or sweep in --out (same options).")

progress = click.option(
    "--progress/--no-progress", default=None, envvar="SIMKIT_PROGRESS",
    help="Progress display: a bar on a terminal, a plain line with counts and rates every few "
         "seconds otherwise (default: on, off with --quiet). [env: SIMKIT_PROGRESS]")

def positive(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    if value is not None and value < 1:
        raise click.BadParameter(f"{value} is not allowed: at least 1")
    return value


pair_games = click.option(
    "-n", "--games", "n_games", type=WHOLE, default=100, show_default=True, callback=positive,
    help="Games per pairing (rounded up to whole deals).")

ladder_games = click.option(
    "-n", "--games", "n_games", type=WHOLE, default=None, callback=positive,
    help="Games per pairing (rounded up to whole deals). Default: the game's ladder (docs/search.md, "
         "Ladder on defaults); on --resume, the folder's.")

pairing_format = click.option(
    "--format", "fmt", type=click.Choice(["round-robin", "gauntlet"]), default="round-robin",
    show_default=True,
    help="round-robin: every pair; gauntlet: the first agent against each of the others.")

quiet = click.option(
    "-q", "--quiet", is_flag=True, envvar="SIMKIT_QUIET",
    help="Print only the result: no header, notices or progress. [env: SIMKIT_QUIET]")

verbose = click.option(
    "-v", "--verbose", is_flag=True, help="Also print the run facts (folder, seed, jobs, chunks, timings).")

as_json = click.option(
    "--json", "as_json", is_flag=True,
    help="Print the result as one JSON document on stdout (the summary table and the run facts) "
         "instead of text.")


def resume_hint(out_dir: Path, seed: int, seed_given: bool) -> str:
    """How to finish an interrupted study, as typed: the drawn seed is part of it."""
    extra = "" if seed_given else f" --seed {seed}"
    return f"the same command plus --resume --out {shlex.quote(str(out_dir))}{extra}"


def seed_text(seed: int, seed_given: bool) -> str:
    """`seed 7`, or for a drawn seed `seed 123 (drawn; --seed 123 repeats it)`."""
    return f"seed {seed}" if seed_given else f"seed {seed} (drawn; --seed {seed} repeats it)"


def recorded_seed(out_dir: Path | None, resume: bool, seed: int | None, listing: str = "manifest.json"
                  ) -> int | None:
    """On --resume without --seed, the seed the folder recorded (so the resume hint's command
    works with or without the seed); else `seed` as given."""
    if seed is not None or not resume or out_dir is None:
        return seed
    import json
    try:
        recorded = json.loads((out_dir / listing).read_text()).get("seed")
    except (OSError, ValueError, AttributeError):
        return None
    return recorded if isinstance(recorded, int) and not isinstance(recorded, bool) else None


engine = click.option(
    "--engine", type=click.Choice(ENGINES), default="scalar",
    show_default=True,
    help="kernel: the game's compiled kernel (6 nimmt!, Game of Trains, Shipside; every seat a bot with "
         "a kernel form, e.g. random, heuristic, rival, octopus; the same games as the scalar engine, "
         "30-70x faster; compiled once, then cached); batch: its "
         "array engine (6 nimmt! basic game, random/lowest/highest; its random games differ from the "
         "scalar engine's and cannot be replayed as logs); auto: the fastest that can play every "
         "seat, else scalar (the header and the manifest's engine_note say why).")

paranoid = click.option(
    "--paranoid", is_flag=True,
    help="Audit the game state after every step, not only at the end of each game (slower).")


def _timeout(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    return None if value == 0 else value    # 0 turns the limit off; RunSpec checks the rest


def decision_timeout(default: float | None) -> Callable:
    """`--decision-timeout SECONDS`: a decision over it forfeits that game (0 = no limit)."""
    shown = "no limit" if default is None else f"{default:g}"
    return click.option(
        "--decision-timeout", type=DECIMAL, default=default, callback=_timeout, metavar="SECONDS",
        help=f"A strategy that thinks longer than this on one decision forfeits that game; 0 = no "
             f"limit (default: {shown}). Needs the loky backend.")


def isolate(default: bool) -> Callable:
    """`--isolate/--no-isolate`: plug-in strategies play from a process of their own."""
    return click.option(
        "--isolate/--no-isolate", default=default, show_default=True,
        help="Run each plug-in strategy (a class from outside simkit) in a process of its own that "
             "sees only its seat's view, so it cannot reach or change the game (docs/reliability.md; "
             "about 0.15 ms per decision, and a round trip per determinized sample a search asks for).")


def strategies(help: str) -> Callable:
    """`-s/--strategy`, repeatable; `help` says how the command fills the seats from it."""
    return click.option("-s", "--strategy", "strategy_names", multiple=True, help=help)


def out(help: str) -> Callable:
    """`--out`, a folder; `help` says what goes there and the default."""
    return click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=None,
                        help=help)


run_out = out("Run folder (default: a new folder under results/).")
