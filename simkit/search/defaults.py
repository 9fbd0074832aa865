"""Per-game defaults of the search strategies: what `-s ismcts` plays when a parameter is not given.

Chosen by measurement (docs/search.md, scripts/search_strength.py) so that `-s ismcts` alone is
a strong player at about 50 ms CPU per decision. A game without an entry gets GENERIC (the
behaviour before issue 20: random rollouts to the end, win reward, c = sqrt 2, 200 iterations).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class SearchDefaults:
    iterations: int = 200
    c: float = math.sqrt(2)
    rollout: str = "random"
    reward: str = "win"
    horizon: int | None = None      # rollout steps after the tree, then Game.evaluate
    round_cut: bool = False         # stop rollouts at the end of the round (Game.round_of)
    prior: str | None = None        # strategy whose choice gets the root's progressive bias
    prior_weight: float = 0.0       # bias / (visits + 1) added to that action's score
    depth: int | None = None        # cap on the seat's own actions per iteration in the tree
    guard: float = 0.0              # mean reward by which a move must beat the prior's to overrule it
    infer: bool = False             # redeal hidden cards by the rollout policy's opponent model
    crn: bool = False               # root actions swept on shared determinizations (common random numbers)
    joint: bool = False             # with infer: each dealt hand checked against every past turn as a whole

    def merged(self, **given) -> SearchDefaults:
        """These defaults with every parameter given (not None) in its place."""
        return replace(self, **{k: v for k, v in given.items() if v is not None})


GENERIC = SearchDefaults()

#: game -> defaults of `ismcts` there (see docs/search.md for the measurements behind each)
PER_GAME: dict[str, SearchDefaults] = {
    "sixnimmt": SearchDefaults(iterations=1000, c=0.4, rollout="heuristic", reward="rank",
                               round_cut=True, prior="heuristic", prior_weight=0.2, infer=True),
    "trains": SearchDefaults(iterations=60, c=0.7, rollout="greedy", reward="win", horizon=12,
                             prior="rival", prior_weight=2.0, guard=0.15),
    "shipside": SearchDefaults(iterations=60, c=0.5, rollout="octopus", reward="margin", depth=1,
                               prior="octopus", prior_weight=1.0),
    "rummikub": SearchDefaults(iterations=100, rollout="greedy_tiles", reward="win", horizon=2,
                               prior="greedy_tiles", prior_weight=1.0, depth=1, guard=0.1),
}

#: (game, players) -> defaults of `ismcts` at that number of players, where it differs from the
#: game's entry (measured: docs/search.md); every parameter not named keeps the game's entry
PER_PLAYERS: dict[tuple[str, int], dict[str, object]] = {
    ("trains", 4): dict(rollout="rival", depth=1, guard=0.075),
}

#: game -> (which of its configs, changes of its defaults there): a variant whose decisions cost
#: less can afford more iterations (docs/search.md). 6 nimmt! single rounds: the iterations run
#: compiled with `infer` (about 17 ms a decision at 2000), and the win share against 3 x
#: `heuristic` grows with them up to about 1000-2000 (0.41 at 120, 0.49 at 1000, 0.51 at 2000);
#: whole matches (the game's entry) search 1000.
PER_VARIANT: dict[str, tuple[Callable[[Any], bool], dict[str, Any]]] = {
    "sixnimmt": (lambda config: getattr(config, "max_rounds", None) == 1, {"iterations": 2000}),
}

NAMES = tuple(f.name for f in fields(SearchDefaults))


def defaults_for(game: str, players: int | None = None, config: Any = None) -> SearchDefaults:
    """The game's defaults; with its `config`, those of that variant (PER_VARIANT); with `players`,
    those of that number of players where they differ (PER_PLAYERS)."""
    found = PER_GAME.get(game, GENERIC)
    variant = PER_VARIANT.get(game)
    if config is not None and variant is not None and variant[0](config):
        found = replace(found, **variant[1])
    changed = PER_PLAYERS.get((game, players)) if players is not None else None
    return found.merged(**changed) if changed else found
