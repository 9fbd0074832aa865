"""A cheap value of a Rummikub position for a seat (`Game.evaluate`, issue 20): points already
scored in finished hands, then the tiles left on each rack, counted by their rack value (R20:
what a seat pays when another goes out), so fewer and lower tiles stand better."""

from __future__ import annotations

from simkit.engine.evaluation import standing
from simkit.games.rummikub.tiles import tile_value

#: rack points worth about one logistic unit (a rack of 14 tiles holds about 100)
SCALE = 15.0


def rack_points(state) -> list[float]:
    joker = state.config.joker_points
    return [state.cum[s] - sum(tile_value(t, joker) for t in rack) for s, rack in enumerate(state.racks)]


def evaluate(state, seat: int) -> float:
    return standing(rack_points(state), seat, SCALE)
