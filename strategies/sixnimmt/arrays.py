"""Array forms of the 6 nimmt! baselines, for the batch engine: `random`, `lowest`, `highest`.

The protocol they implement (views, draws, how to write one) is `simkit.games.sixnimmt.arrays`;
each scalar baseline names its form in its `array_form` attribute.
"""

from __future__ import annotations

import numpy as np

from simkit.games.sixnimmt.arrays import ArrayStrategy, CardView, RowView


class RandomArrays(ArrayStrategy):
    """`random`: a uniformly random card; N10 the cheapest row, or uniform with row=uniform."""

    def __init__(self, row: str = "cheapest"):
        if row not in ("cheapest", "uniform"):
            raise ValueError(f"row={row!r} is not allowed: cheapest or uniform")
        self.uniform_rows = row == "uniform"

    def choose_cards(self, view: CardView) -> np.ndarray:
        return view.random_below(view.cards_left)

    def choose_rows(self, view: RowView) -> np.ndarray:
        if self.uniform_rows:
            return view.random_below(view.points.shape[1])
        return super().choose_rows(view)


class LowestArrays(ArrayStrategy):
    """`lowest`: its lowest card; N10 the cheapest row."""

    def choose_cards(self, view: CardView) -> np.ndarray:
        return view.hand.argmin(axis=1)


class HighestArrays(ArrayStrategy):
    """`highest`: its highest card; N10 the cheapest row."""

    def choose_cards(self, view: CardView) -> np.ndarray:
        return view.hand.argmax(axis=1)
