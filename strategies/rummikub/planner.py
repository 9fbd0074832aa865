"""A Rummikub bot with a plan: open early, then hold tiles back and keep its jokers.

After its initial meld it plays only when the solver's best play (a) empties its rack, or
(b) the pool is low (`low_pool` tiles or fewer), or (c) an opponent is close to going out
(`danger` tiles or fewer), or (d) its rack holds more than `hold_max` tiles. Otherwise it draws,
so that its tiles stay hidden and it can go out in one big turn. Rack jokers are kept out of plays
unless they let it go out or the hand is about to end.
"""

from __future__ import annotations

from simkit.engine.strategy import Decision, Strategy
from simkit.games.rummikub.actions import DRAW, PASS
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.solver import solve


class PatientStrategy(Strategy[RummikubConfig]):
    name = "patient"
    description = ("opens early, then holds tiles and jokers until it can go out, the pool runs low or an "
                   "opponent is close")

    def __init__(self, low_pool: int = 10, danger: int = 4, hold_max: int = 12, objective: str = "tiles"):
        if objective not in ("tiles", "points"):
            raise ValueError(f"objective={objective!r} is not allowed: use tiles or points")
        self.low_pool = low_pool
        self.danger = danger
        self.hold_max = hold_max
        self.objective = objective

    def act(self, decision: Decision):
        obs = decision.observation
        cfg = self.info.config
        me = obs.seat
        fallback = DRAW if obs.pool_size else PASS

        def best(rack):
            return solve(obs.table, rack, opened=obs.opened[me], objective=self.objective,
                         retrieval=cfg.joker_retrieval, initial_points=cfg.initial_meld_points,
                         jokers_in_initial=cfg.joker_in_initial_meld, joker_points=cfg.joker_points)

        if not obs.opened[me]:
            sol = best(obs.rack)
            return sol.action if sol else fallback
        full = best(obs.rack)
        if full is None:
            return fallback
        if full.tiles == len(obs.rack):
            return full.action                                   # go out
        urgent = obs.pool_size <= self.low_pool or len(obs.rack) > self.hold_max or any(
            n <= self.danger for s, n in enumerate(obs.rack_sizes) if s != me)
        if not urgent:
            return fallback
        no_jokers = [t for t in obs.rack if t < 104]
        if len(no_jokers) < len(obs.rack) and obs.pool_size > 0:
            kept = best(no_jokers)
            if kept is not None:
                return kept.action
        return full.action
