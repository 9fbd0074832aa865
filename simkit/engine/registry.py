"""The game registry: built-in game packages, installed plug-in games, and games registered at run time.

A game is a package (or module) holding a module-level `GAME` entry, imported on first use.
Plug-in games are found through the entry-point group `simkit.games` (entry name = game name,
value = the package); `register_game` adds one in-process (tests, notebooks).
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from simkit.engine.errors import ConfigError, UnknownNameError, unknown_name
from simkit.engine.game import Game

GAME_ENTRY_POINT_GROUP = "simkit.games"

#: name -> package holding a module-level `GAME` entry. Order is the listing order.
GAME_PACKAGES: dict[str, str] = {
    "sixnimmt": "simkit.games.sixnimmt",
    "trains": "simkit.games.trains",
    "rummikub": "simkit.games.rummikub",
    "shipside": "simkit.games.shipside",
}
_REGISTERED: dict[str, str] = {}


@cache
def _plugin_packages() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=GAME_ENTRY_POINT_GROUP)}


def _packages() -> dict[str, str]:
    """Built-in games first (a plug-in cannot shadow one), then plug-ins and registered games."""
    found = dict(GAME_PACKAGES)
    for name, package in {**_plugin_packages(), **_REGISTERED}.items():
        found.setdefault(name, package)
    return found


def register_game(name: str, package: str) -> None:
    """Make the game in `package` (a module with a `GAME` entry) known as `name` in this process."""
    if name in GAME_PACKAGES:
        raise ConfigError(f"cannot register {name!r}: a built-in game has that name")
    _REGISTERED[name] = package
    _LOADED.pop(name, None)


def _installed(package: str) -> bool:
    try:
        return importlib.util.find_spec(package) is not None
    except ModuleNotFoundError:
        return False


def game_names() -> list[str]:
    return [name for name, package in _packages().items() if _installed(package)]


def get_game(name: str) -> Game[Any, Any]:
    game = _LOADED.get(name)
    if game is not None:
        return game
    package = _packages().get(name)
    if package is None or not _installed(package):
        raise unknown_name("game", name, game_names())
    game = importlib.import_module(package).GAME
    if not isinstance(game, Game) or game.name != name:
        raise UnknownNameError(f"{package!r} does not hold a Game entry named {name!r} in GAME")
    _LOADED[name] = game
    return game


_LOADED: dict[str, Game[Any, Any]] = {}


def all_games() -> list[Game[Any, Any]]:
    return [get_game(name) for name in game_names()]
