"""Array forms of the 6 nimmt! baselines, for the batch engine (simkit/games/sixnimmt/batch.py).

The batch engine plays thousands of games at once. It can seat a strategy only if the strategy
has an *array form*: an `ArrayStrategy` that decides for many games in one call.

How to write one
----------------
1. Subclass `ArrayStrategy` and implement two methods; both receive read-only NumPy arrays that
   describe the same seat in G games at once, and return one int per game:

   - `choose_cards(view: CardView) -> positions`: for each game, the *position* in
     `view.hand[g, :]` (0 <= position < view.hand.shape[1]) of the card to play (N5). The hand's
     order is arbitrary: do not read meaning into it.
   - `choose_rows(view: RowView) -> rows`: for each game, the row to take (N10), 0 <= row < R.

   An array strategy is a pure function of its view: it keeps no per-game state between calls
   (the games in a view change from call to call). Randomness comes only from `view.random()`,
   a fresh uniform draw in [0, 1) per game each call (a counter-based hash of the game's own seed
   streams, so a game's draws do not depend on which other games share the batch).
2. Give your scalar `Strategy` class the attribute `array_form = "package.module:Class"`; the
   batch engine builds that class with the same keyword parameters as the scalar strategy
   (`-s mybots:Cautious:margin=2` builds `CautiousArrays(margin=2)`). The built-in baselines are
   mapped in `ARRAY_FORMS` below instead (their scalar classes do not name one).
3. Check it: with a deterministic strategy, `play_range_batch` must give the same rows as
   `play_range` game by game (tests/sixnimmt/test_batch.py shows how); with a random one, compare
   the distributions.

Seats with no array form, or parameters the array form does not accept, make
`batch_supported(spec)` return the reason, and the scalar engine plays the run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from simkit.core.strategy import StrategySpec, load_class


@dataclass(frozen=True)
class CardView:
    """One seat choosing a card (N5) in G games. Rows are (G, R) arrays, seats (G, n)."""

    seat: int
    hand: np.ndarray          # (G, m) the seat's remaining cards, m = cards left, any order
    ends: np.ndarray          # (G, R) last card of each row
    counts: np.ndarray        # (G, R) cards in each row
    points: np.ndarray        # (G, R) bullheads in each row (what taking it costs)
    totals: np.ndarray        # (G, n) bullheads of finished rounds
    round_points: np.ndarray  # (G, n) bullheads taken this round
    random: Callable[[], np.ndarray]   # () -> (G,) uniforms in [0, 1), fresh each call


@dataclass(frozen=True)
class RowView:
    """One seat whose card is below every row end (N10) in G games: it picks a row to take."""

    seat: np.ndarray          # (G,) the seat choosing, in each game
    card: np.ndarray          # (G,) its card, which will start the taken row
    ends: np.ndarray
    counts: np.ndarray
    points: np.ndarray
    totals: np.ndarray
    round_points: np.ndarray
    random: Callable[[], np.ndarray]


class ArrayStrategy:
    """Base class of array forms: decide for many games at once (see the module docstring)."""

    def choose_cards(self, view: CardView) -> np.ndarray:
        raise NotImplementedError

    def choose_rows(self, view: RowView) -> np.ndarray:
        """N10 default: the cheapest row, the lowest index on ties (the baselines' choice)."""
        return view.points.argmin(axis=1)


class RandomArrays(ArrayStrategy):
    """`random`: a uniformly random card; N10 the cheapest row, or uniform with row=uniform."""

    def __init__(self, row: str = "cheapest"):
        if row not in ("cheapest", "uniform"):
            raise ValueError(f"row={row!r} is not allowed: cheapest or uniform")
        self.uniform_rows = row == "uniform"

    def choose_cards(self, view: CardView) -> np.ndarray:
        m = view.hand.shape[1]
        return (view.random() * m).astype(np.intp)

    def choose_rows(self, view: RowView) -> np.ndarray:
        if self.uniform_rows:
            return (view.random() * view.ends.shape[1]).astype(np.intp)
        return super().choose_rows(view)


class LowestArrays(ArrayStrategy):
    """`lowest`: its lowest card; N10 the cheapest row."""

    def choose_cards(self, view: CardView) -> np.ndarray:
        return view.hand.argmin(axis=1)


class HighestArrays(ArrayStrategy):
    """`highest`: its highest card; N10 the cheapest row."""

    def choose_cards(self, view: CardView) -> np.ndarray:
        return view.hand.argmax(axis=1)


#: scalar strategy class ("module:Class") -> its array form, for classes that do not name one
ARRAY_FORMS = {
    "strategies.sixnimmt.baseline:RandomStrategy": "strategies.sixnimmt.arrays:RandomArrays",
    "strategies.sixnimmt.baseline:LowestStrategy": "strategies.sixnimmt.arrays:LowestArrays",
    "strategies.sixnimmt.baseline:HighestStrategy": "strategies.sixnimmt.arrays:HighestArrays",
}


def array_form_target(spec: StrategySpec) -> str | None:
    """The "module:Class" of `spec`'s array form, or None if it has none."""
    target = ARRAY_FORMS.get(spec.target)
    if target is not None:
        return target
    form = getattr(load_class(spec.target), "array_form", None)
    return form if isinstance(form, str) else None


def build_array_form(spec: StrategySpec) -> ArrayStrategy:
    """The array form of `spec`, built with its parameters. Raises ValueError (naming the
    strategy) if it has none or refuses the parameters."""
    target = array_form_target(spec)
    if target is None:
        raise ValueError(f"strategy {spec.text!r} has no array form")
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr, None)
    if not (isinstance(cls, type) and issubclass(cls, ArrayStrategy)):
        raise ValueError(f"strategy {spec.text!r}: {target} is not an ArrayStrategy class")
    try:
        built = cls(**dict(spec.params))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"strategy {spec.text!r}: its array form {target} refuses the "
                         f"parameters: {exc}") from exc
    return built
