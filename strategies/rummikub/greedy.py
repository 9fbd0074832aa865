"""Greedy Rummikub bots: every turn, the solver's optimal play (most tiles, or most points)."""

from __future__ import annotations

from simkit.engine.strategy import Decision, Strategy
from simkit.games.rummikub.actions import DRAW, PASS
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.solver import solve_observation


class GreedyTiles(Strategy[RummikubConfig]):
    name = "greedy_tiles"
    description = "plays the solver's proven-optimal table placing the most rack tiles, else draws"
    objective = "tiles"

    def act(self, decision: Decision):
        obs = decision.observation
        sol = solve_observation(obs, self.info.config, self.objective)
        if sol is None:
            return DRAW if obs.pool_size else PASS
        return sol.action


class GreedyValue(GreedyTiles):
    name = "greedy_value"
    description = ("plays the solver's proven-optimal table placing the most rack points (jokers 30), "
                   "else draws")
    objective = "points"
