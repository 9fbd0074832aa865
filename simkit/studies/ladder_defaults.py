"""What `simkit ladder GAME` plays when no -s / -n is given, and how long a ladder will take.

Per game: the agents (`random`, the game's built-in heuristics, then `ismcts` at the game's own
defaults, simkit/search/defaults.py, the strong player of issue 20: no iteration override, so
the ladder follows those defaults), the games per pairing, and a cost table: CPU seconds one
seat of an agent costs in one game of this ladder, measured by `scripts/ladder_timing.py`
(pilot deals of every default pairing, on the development machine). The estimate printed
before a ladder starts comes from that table; it is a figure to plan by, not a promise.

A game without an entry gets the generic ladder (`random`, every built-in heuristic, `ismcts`,
100 games a pairing) and no estimate for agents it has no cost for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from simkit.engine.lineup import default_players
from simkit.engine.registry import get_game
from simkit.engine.strategy import builtin_strategies
from simkit.search.defaults import defaults_for

GENERIC_GAMES = 100


@dataclass(frozen=True)
class LadderDefaults:
    agents: tuple[str, ...]
    games_per_pair: int
    #: agent -> CPU seconds per seat and game (scripts/ladder_timing.py); `ismcts` at the game's defaults
    seat_seconds: Mapping[str, float] = field(default_factory=dict)


def _generic(game: str) -> LadderDefaults:
    others = [name for name in builtin_strategies(game) if name != "random"]
    return LadderDefaults(("random", *others, "ismcts"), GENERIC_GAMES)


#: game -> its default ladder (docs/search.md "Ladder on defaults" has the measurements)
PER_GAME: dict[str, LadderDefaults] = {
    "sixnimmt": LadderDefaults(("random", "lowest", "highest", "heuristic", "ismcts"), 240,
                               # ismcts refitted to the whole default ladder at the 1000-iteration
                               # match defaults, compiled (docs/search.md): 26.8 min CPU
                               {"random": 0.004, "lowest": 0.004, "highest": 0.004, "heuristic": 0.005,
                                "ismcts": 0.82}),
    "trains": LadderDefaults(("random", "greedy", "rival", "ismcts"), 600,
                             # refitted to the whole default ladder after the 4-player search
                             # defaults were merged (docs/search.md): 19 min CPU
                             {"random": 0.004, "greedy": 0.002, "rival": 0.004, "ismcts": 0.31}),
    "shipside": LadderDefaults(("random", "greedy", "octopus", "ismcts"), 200,
                               {"random": 0.005, "greedy": 0.02, "octopus": 0.01, "ismcts": 0.25}),
    # no ismcts: a Rummikub search decision costs seconds (the table solver below the root), so
    # even 20 games a pairing would take hours; `-s ismcts` adds it by hand (docs/search.md)
    "rummikub": LadderDefaults(("random", "simple", "greedy_tiles", "greedy_value", "patient"), 1000,
                               {"random": 0.007, "simple": 0.010, "greedy_tiles": 0.009,
                                "greedy_value": 0.008, "patient": 0.009}),
}


def ladder_defaults(game: str) -> LadderDefaults:
    """The game's default ladder, or the generic one."""
    return PER_GAME.get(game) or _generic(game)


def default_agents(game: str) -> list[str]:
    return list(ladder_defaults(game).agents)


def default_games(game: str) -> int:
    return ladder_defaults(game).games_per_pair


def search_budget(agent: str, game: str = "", players: int | None = None, config: Any = None
                  ) -> int | None:
    """The iteration budget of an `ismcts` agent in `game` (None for any other agent); without
    `iterations=` it is what the search plays there: the game's default at `players` players and
    in the variant `config` (defaults_for: PER_PLAYERS, PER_VARIANT), as ISMCTS.setup resolves it."""
    params = _search_params(agent)
    if params is None:
        return None
    return int(params.get("iterations", defaults_for(game, players, config).iterations))


def measured_players(game: str) -> int:
    """The player count the game's cost table was measured at (its default, as the ladder's)."""
    return default_players(get_game(game))


def _search_params(agent: str) -> dict[str, str] | None:
    match = re.fullmatch(r"ismcts(?::(.*))?", agent.strip())
    if match is None:
        return None
    return dict(item.partition("=")[::2] for item in (match.group(1) or "").split(",") if item)


def seat_cost(game: str, agent: str, players: int | None = None, config: Any = None) -> float | None:
    """CPU seconds per seat and game of `agent` in `game`'s ladder with `players` players (None:
    the default count) in the variant `config` (None: the default rules), or None when not known.
    The table was measured at the default count and rules; `ismcts` with at most `iterations=`
    given scales with the budget it plays there against the one it played in the table (a
    search's cost is linear in it); any other parameter changed makes it unknown."""
    table = ladder_defaults(game).seat_seconds
    params = _search_params(agent)
    if params is None or "ismcts" not in table:
        return table.get(agent)
    if not set(params) <= {"iterations"}:
        return None
    measured = measured_players(game)
    budget = search_budget(agent, game, measured if players is None else players, config)
    assert budget is not None
    return table["ismcts"] * budget / defaults_for(game, measured).iterations


@dataclass(frozen=True)
class Estimate:
    cpu_seconds: float            # the whole ladder's CPU time
    wall_seconds: float           # on `cores` cores, all busy
    cores: int
    unknown: tuple[str, ...]      # agents without a cost: the estimate leaves them out

    def text(self) -> str:
        if self.unknown:
            return (f"no time estimate: no measured cost for {', '.join(self.unknown)} "
                    f"(scripts/ladder_timing.py measures a ladder's pairings)")
        return (f"estimate: about {minutes(self.wall_seconds)} on {self.cores} quiet "
                f"core{'s' if self.cores != 1 else ''} ({minutes(self.cpu_seconds)} CPU)")


def minutes(seconds: float) -> str:
    """`40 s`, `12 min`, `2.5 h`."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def pair_seconds(game: str, a: str, b: str, seats_a: int, seats_b: int, games: int, config: Any = None
                 ) -> float | None:
    """CPU seconds of one pairing: `games` games, `seats_a` seats of a and `seats_b` of b."""
    players = seats_a + seats_b
    cost_a, cost_b = seat_cost(game, a, players, config), seat_cost(game, b, players, config)
    if cost_a is None or cost_b is None:
        return None
    return games * (seats_a * cost_a + seats_b * cost_b)


def estimate(game: str, pairs: Sequence[tuple[str, str]], n_players: int, games: int, cores: int,
             config: Any = None) -> Estimate:
    """The CPU and wall time of a ladder's pairings (A on the even seats, B on the odd ones) with
    `n_players` players in the variant `config` (the ladder's rules; None: the default ones)."""
    seats_a, seats_b = (n_players + 1) // 2, n_players // 2
    unknown = sorted({agent for pair in pairs for agent in pair
                      if seat_cost(game, agent, n_players, config) is None})
    if unknown:
        return Estimate(0.0, 0.0, cores, tuple(unknown))
    cpu = sum(pair_seconds(game, a, b, seats_a, seats_b, games, config) or 0.0 for a, b in pairs)
    return Estimate(cpu, cpu / max(cores, 1), cores, ())
