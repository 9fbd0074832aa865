"""A seat's standing from one number per seat: the shared core of the games' `evaluate` hooks.

`Game.evaluate(state, seat) -> float in [0, 1]` values a position for a search that cuts its
rollouts short (docs/search.md). Each game reduces the state to one score per seat (points
margin, progress towards its goal); `standing` turns those into the seat's expected share of the
other seats it finishes ahead of, 0.5 when level: the `rank` reward's scale.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def standing(values: Sequence[float], seat: int, scale: float, higher_is_better: bool = True) -> float:
    """Mean over the other seats of a logistic in the difference of values: 1/2 when level,
    towards 1 (0) as the seat leads (trails) by several `scale`s."""
    mine = values[seat]
    sign = 1.0 if higher_is_better else -1.0
    total = 0.0
    n = len(values)
    for other, value in enumerate(values):
        if other != seat:
            x = sign * (mine - value) / scale
            total += 1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0
    return total / (n - 1) if n > 1 else 0.5
