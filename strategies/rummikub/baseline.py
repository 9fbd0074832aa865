"""Baseline Rummikub bots: no search, only the simple move generators."""

from __future__ import annotations

from simkit.engine.strategy import Decision, Strategy
from simkit.games.rummikub.actions import DRAW, PASS, InitialMeld, Play
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.moves import disjoint_melds_worth, extension_plays, rack_melds


def _draw_or_pass(obs):
    return DRAW if obs.pool_size else PASS


def _random_initial(obs, config, rng):
    """A random set of disjoint rack melds worth >= the initial-meld minimum, or None."""
    melds = rack_melds(obs.rack, jokers=config.joker_in_initial_meld)
    if not melds:
        return None
    found = disjoint_melds_worth(melds, rng.permutation(len(melds)).tolist(), config.initial_meld_points)
    return InitialMeld(found) if found else None


class SimpleStrategy(Strategy[RummikubConfig]):
    name = "simple"
    description = ("plays a random valid new meld from its rack when it can (an initial meld of >= 30 "
                   "first), else draws")

    def act(self, decision: Decision):
        obs = decision.observation
        cfg = self.info.config
        if not obs.opened[obs.seat]:
            return _random_initial(obs, cfg, self.rng) or _draw_or_pass(obs)
        melds = rack_melds(obs.rack)
        if melds:
            m = melds[int(self.rng.integers(len(melds)))]
            return Play(obs.table + (m,))
        return _draw_or_pass(obs)


class RandomStrategy(Strategy[RummikubConfig]):
    name = "random"
    description = "uniform choice among drawing, new rack melds and one-tile extensions of table melds"

    def act(self, decision: Decision):
        obs = decision.observation
        cfg = self.info.config
        rng = self.rng
        if not obs.opened[obs.seat]:
            if rng.random() < 0.5:
                return _random_initial(obs, cfg, rng) or _draw_or_pass(obs)
            return _draw_or_pass(obs)
        options = [Play(obs.table + (m,)) for m in rack_melds(obs.rack)]
        options += [Play(t) for t in extension_plays(obs.table, obs.rack)]
        pick = int(rng.integers(len(options) + 1))
        return options[pick] if pick < len(options) else _draw_or_pass(obs)
