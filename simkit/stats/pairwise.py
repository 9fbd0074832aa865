"""Pairwise Elo: one meaning of "A is x Elo stronger than B" for any number of players.

Every game and every (A seat, B seat) pair in it is one seat comparison: 1 if A's seat ranked
better, 1/2 if tied, 0 if worse. The pairwise score is the mean over all comparisons and the
pairwise Elo its logistic Elo, -400·log10(1/s - 1). It estimates the chance that a seat of A
finishes ahead of a seat of B in the same game, which does not depend on how many other seats
there are (under the Plackett–Luce model it is exactly w_A/(w_A + w_B), so the pairwise Elo
equals the Plackett–Luce difference). With two players it is the ordinary game-level Elo.

Comparisons of one game are not independent, nor are the games of one deal in a duplicate run,
so the interval and the SPRT treat whole units as the independent observations: deals when a
deal was played more than once (the pentanomial pairs, with two players), else games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pandas as pd

from simkit.stats.elo import EloEstimate, elo_from_units
from simkit.stats.tables import game_results

#: above this many grid steps the unit scores are kept as observed values (no grid)
_MAX_GRID = 512


@dataclass(frozen=True)
class PairwiseUnits:
    """The distribution of the pairwise score over independent units.

    unit: "deal" or "game"; values: the possible unit scores (ascending, in [0, 1]; the full
    grid of multiples of the smallest step when the units are alike, so the SPRT regularises
    empty classes as fishtest does); counts: units with each score; games_per_unit: the mean
    number of games in a unit; comparisons: seat comparisons in all."""

    unit: str
    values: tuple[float, ...]
    counts: tuple[int, ...]
    games: int
    games_per_unit: float
    comparisons: int

    @property
    def n(self) -> int:
        return int(sum(self.counts))


def _bit_count(masks: np.ndarray) -> np.ndarray:
    return np.array([int(m).bit_count() for m in masks], dtype=np.int64)


def pairwise_units(seats: pd.DataFrame, is_a: npt.ArrayLike, is_b: npt.ArrayLike
                   ) -> PairwiseUnits:
    """Pairwise scores of side A against side B per unit (see the module docstring)."""
    res = game_results(seats, is_a, is_b)
    if len(res) == 0:
        return PairwiseUnits("game", (), (), 0, float("nan"), 0)
    pairs = _bit_count(res["a_mask"].to_numpy()) * _bit_count(res["b_mask"].to_numpy())
    half_points = np.rint(2.0 * res["result"].to_numpy() * pairs).astype(np.int64)
    by_deal = res["deal"].nunique() < len(res)
    key = res["deal"].to_numpy() if by_deal else res["game"].to_numpy()
    per_unit = (pd.DataFrame({"u": key, "h": half_points, "c": pairs})
                .groupby("u", sort=True).agg(h=("h", "sum"), c=("c", "sum"), g=("h", "size")))
    h = per_unit["h"].to_numpy()
    c = per_unit["c"].to_numpy()
    denom = math.lcm(*(2 * int(x) for x in np.unique(c)))
    if denom <= _MAX_GRID:
        idx = h * (denom // (2 * c))
        counts = np.bincount(idx, minlength=denom + 1)
        values = tuple(k / denom for k in range(denom + 1))
    else:
        uniq, counts = np.unique(h / (2.0 * c), return_counts=True)
        values = tuple(float(v) for v in uniq)
    return PairwiseUnits("deal" if by_deal else "game", values,
                         tuple(int(x) for x in counts), int(len(res)),
                         float(per_unit["g"].mean()), int(c.sum()))


def pairwise_elo(units: PairwiseUnits) -> EloEstimate:
    """Pairwise Elo of A over B with its 95 % interval, nElo and LOS (units as observations)."""
    return elo_from_units("pairwise", units.values, units.counts, units.games_per_unit)
