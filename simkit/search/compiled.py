"""Which searches run compiled whole (docs/search.md, "Compiled search iterations").

`compiled_search(game, info, rollout)` builds the game's `Game.kernel_search` once per process
for a (config, players, rollout) or says why it cannot (no hook, no kernel form, numba missing,
a config field the kernel lacks). `unsupported(params, game)` names the first search parameter
the game's compiled iterations do not play: a parameter added later, set away from its default,
keeps the search in Python. `SUPPORTED`: what every compiled search plays; `SUPPORTED_BY_GAME`:
what one game's plays besides (6 nimmt!: `infer`, its KernelSearch redeals by the opponent
model); the search passes such a parameter to `run` by keyword only when it is on (`infer=True`).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from simkit.engine.game import Game
from simkit.engine.strategy import GameInfo, StrategySpec
from simkit.search.defaults import GENERIC, SearchDefaults
from simkit.search.simulator import built_once

#: the ISMCTS parameters (SearchDefaults fields) the compiled iterations play
SUPPORTED = frozenset({"iterations", "c", "rollout", "reward", "horizon", "round_cut", "prior",
                       "prior_weight", "depth", "guard"})
#: game name -> the further parameters its compiled search plays (a game not named: none)
SUPPORTED_BY_GAME: dict[str, frozenset[str]] = {"sixnimmt": frozenset({"infer"})}

_BUILT: dict[tuple[Any, ...], tuple[Any, str | None]] = {}


def unsupported(params: SearchDefaults, game: str | None = None) -> str | None:
    """The first parameter set (away from the generic default) that the compiled iterations of
    `game` (None: any game) do not play, or None."""
    known = SUPPORTED | SUPPORTED_BY_GAME.get(game or "", frozenset())
    for f in fields(SearchDefaults):
        if f.name not in known and getattr(params, f.name) != getattr(GENERIC, f.name):
            return f.name
    return None


def compiled_search(game: Game, info: GameInfo, rollout: StrategySpec) -> tuple[Any, str | None]:
    """The game's compiled search for these rollouts (built once per process), or (None, why)."""
    return built_once(_BUILT, game, "kernel_search", "compiled search", info, rollout)
