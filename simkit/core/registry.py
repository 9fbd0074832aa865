"""The game registry: an explicit table of game packages, imported on first use."""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache

from simkit.core.errors import UnknownNameError
from simkit.core.game import Game

#: name -> package holding a module-level `GAME` entry. Order is the listing order.
GAME_PACKAGES: dict[str, str] = {
    "sixnimmt": "simkit.games.sixnimmt",
    "trains": "simkit.games.trains",
    "rummikub": "simkit.games.rummikub",
    "shipside": "simkit.games.shipside",
}


@cache
def _installed(name: str) -> bool:
    return importlib.util.find_spec(GAME_PACKAGES[name]) is not None


def game_names() -> list[str]:
    return [name for name in GAME_PACKAGES if _installed(name)]


def get_game(name: str) -> Game:
    game = _LOADED.get(name)
    if game is not None:
        return game
    if name not in GAME_PACKAGES or not _installed(name):
        raise UnknownNameError(f"unknown game {name!r}: allowed are {', '.join(game_names())}")
    game = _LOADED[name] = importlib.import_module(GAME_PACKAGES[name]).GAME
    return game


_LOADED: dict[str, Game] = {}


def all_games() -> list[Game]:
    return [get_game(name) for name in game_names()]
