"""The array-strategy protocol of the 6 nimmt! batch engine (simkit/games/sixnimmt/batch.py).

The batch engine plays thousands of games at once. It can seat a strategy only if the strategy
has an *array form*: an `ArrayStrategy` that decides for many games in one call.

How to write one
----------------
1. Subclass `ArrayStrategy` and implement two methods; each receives a view of K decisions at
   once (one seat in each of K games: the same seat everywhere, or several seats of the same
   game, in any mix) and returns one int per decision, a (K,) array:

   - `choose_cards(view: CardView) -> positions`: for each decision, the *position* in
     `view.hand[k, :]` (0 <= position < view.cards_left) of the card to play (N5). The hand's
     order is arbitrary: do not read meaning into it.
   - `choose_rows(view: RowView) -> rows`: for each decision, the row to take (N10), 0 <= row < R.

   A view's arrays are read-only and computed on first access, so a strategy pays only for what
   it reads (`random` reads none). An array strategy is a pure function of its view: it keeps
   no per-game state between calls (the decisions in a view change from call to call).
   Randomness comes only from `view.random()`, a fresh uniform draw in [0, 1) per decision each
   call (a counter-based hash of the run's seed and the game's index, so a game's draws do not
   depend on which other games share the batch), or `view.random_below(limit)`, the same draw
   as floor(random() * limit) computed without floats.
2. Give your scalar `Strategy` class the attribute `array_form = "package.module:Class"`; the
   batch engine builds that class with the same keyword parameters as the scalar strategy
   (`-s mybots:Cautious:margin=2` builds `CautiousArrays(margin=2)`). The attribute counts on
   the class that declares it only: a subclass (which may play differently) names its own or has
   none. The built-in baselines' array forms are in `strategies/sixnimmt/arrays.py`.
3. Check it: with a deterministic strategy, `play_range_batch` must give the same rows as
   `play_range` game by game (tests/sixnimmt/test_batch.py shows how); with a random one, compare
   the distributions.

Seats with no array form, or parameters the array form does not accept, make
`batch_supported(spec)` return the reason, and the scalar engine plays the run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cached_property
from typing import Protocol

import numpy as np

from simkit.engine.strategy import StrategySpec, load_class


class Draws(Protocol):
    """A view's random draws, one per decision each call (calls of both count together)."""

    def random(self) -> np.ndarray:
        """(K,) uniforms in [0, 1)"""

    def below(self, limit: int) -> np.ndarray:
        """(K,) intp, floor(random() * limit): the same draw, computed without floats"""


class _View:
    """K decisions at once; every array is computed on first access by `fetch(name)`."""

    def __init__(self, fetch: Callable[[str], np.ndarray], draws: Draws):
        self._fetch = fetch
        #: () -> (K,) uniforms in [0, 1), fresh each call
        self.random = draws.random
        #: (limit) -> (K,) ints uniform in 0..limit-1, floor(random() * limit) (cheaper)
        self.random_below = draws.below

    @cached_property
    def seat(self) -> np.ndarray:
        """(K,) the seat deciding, in its game"""
        return self._fetch("seat")

    @cached_property
    def ends(self) -> np.ndarray:
        """(K, R) last card of each row"""
        return self._fetch("ends")

    @cached_property
    def counts(self) -> np.ndarray:
        """(K, R) cards in each row"""
        return self._fetch("counts")

    @cached_property
    def points(self) -> np.ndarray:
        """(K, R) bullheads in each row (what taking it costs)"""
        return self._fetch("points")

    @cached_property
    def totals(self) -> np.ndarray:
        """(K, n) bullheads of finished rounds, per seat of the game"""
        return self._fetch("totals")

    @cached_property
    def round_points(self) -> np.ndarray:
        """(K, n) bullheads taken this round, per seat of the game"""
        return self._fetch("round_points")


class CardView(_View):
    """K seats choosing a card (N5), each with `cards_left` cards."""

    def __init__(self, cards_left: int, fetch: Callable[[str], np.ndarray], draws: Draws):
        super().__init__(fetch, draws)
        self.cards_left = cards_left

    @cached_property
    def hand(self) -> np.ndarray:
        """(K, cards_left) the seat's remaining cards, in any order"""
        return self._fetch("hand")


class RowView(_View):
    """K seats whose card is below every row end (N10): each picks a row to take."""

    @cached_property
    def card(self) -> np.ndarray:
        """(K,) the seat's card, which will start the taken row"""
        return self._fetch("card")


def cheapest_rows(points: np.ndarray) -> np.ndarray:
    """`points.argmin(axis=1)` for (K, R) bullheads below 2**27, R <= 16, several times faster
    for small R: the minimum over the rows of bullheads * 16 + row."""
    rows = points.shape[1]
    tagged = (points.T << 4) | np.arange(rows, dtype=points.dtype)[:, None]
    return (tagged.min(axis=0) & 15).astype(np.intp)


class ArrayStrategy:
    """Base class of array forms: decide for many games at once (see the module docstring)."""

    def choose_cards(self, view: CardView) -> np.ndarray:
        raise NotImplementedError

    def choose_rows(self, view: RowView) -> np.ndarray:
        """N10 default: the cheapest row, the lowest index on ties (the baselines' choice)."""
        return cheapest_rows(view.points)


def array_form_target(spec: StrategySpec) -> str | None:
    """The "module:Class" of `spec`'s array form, or None if it has none."""
    form = vars(load_class(spec.target)).get("array_form")
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
