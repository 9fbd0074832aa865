"""Lineups: which strategy sits in each slot, built from what the user named.

The commands differ in what a short list of strategies means: `run` wants one for all seats
or one per seat, `sweep` fills the seats a cell has beyond the list with its last strategy,
`play` takes the other seats' strategies, `compare` alternates A and B.
"""

from __future__ import annotations

from simkit.engine.errors import ConfigError
from simkit.engine.game import Game
from simkit.engine.strategy import available_strategies

DEFAULT_PLAYERS = 4
DEFAULT_STRATEGY = "random"


def default_players(game: Game) -> int:
    """4 players, or the allowed count nearest to 4."""
    return min(max(DEFAULT_PLAYERS, game.min_players), game.max_players)


def named_or_default(strategies: list[str] | tuple[str, ...]) -> list[str]:
    """The strategies given, or the default one for all seats."""
    return list(strategies) or [DEFAULT_STRATEGY]


def check_players(game: Game, n_players: int) -> None:
    """Refuse a player count the game does not allow (before anything is sized by it)."""
    if not game.min_players <= n_players <= game.max_players:
        raise ConfigError(f"--players {n_players} is not allowed for {game.name}: "
                          f"allowed are {game.players_allowed()}")


def filled_lineup(strategies: list[str], n_players: int, game: Game | None = None) -> list[str]:
    """One strategy for all seats; or the given lineup, its last strategy filling extra seats.
    With `game`, the player count is checked first (a huge count is refused, not filled)."""
    if game is not None:
        check_players(game, n_players)
    if len(strategies) > n_players:
        raise ConfigError(f"{len(strategies)} strategies for {n_players} players: give at most "
                          f"{n_players} (the last one fills the remaining seats)")
    return strategies + [strategies[-1]] * (n_players - len(strategies))


def default_opponent(game: str) -> str:
    """The bot a person plays against by default: heuristic where the game has one."""
    return "heuristic" if "heuristic" in available_strategies(game) else DEFAULT_STRATEGY


def lineup_around(others: list[str], n_players: int, human_seat: int) -> list[str]:
    """A lineup for a person in `human_seat` against `others`.

    Given one strategy per other seat, the person's slot is filled with a placeholder (the
    first strategy, never asked to act); one strategy or a full lineup is returned as given.
    """
    if len(others) != n_players - 1:
        return list(others)
    slot = human_seat if 0 <= human_seat < n_players else 0
    return [*others[:slot], others[0], *others[slot:]]


def alternating_lineup(a: str, b: str, n_players: int) -> list[str]:
    """A on the even slots, B on the odd ones: a compare of A against B."""
    if n_players < 2:
        raise ConfigError(f"--players {n_players} is not allowed: compare needs at least 2 players")
    return [a if k % 2 == 0 else b for k in range(n_players)]
