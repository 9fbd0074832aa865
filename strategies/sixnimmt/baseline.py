"""Baselines: uniform random, always the lowest card, always the highest card."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from simkit.engine.strategy import Decision, Strategy
from simkit.games.sixnimmt.actions import TAKE_ROW, TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import BH_BYTES


def cheapest_row(rows) -> TakeRow:
    """N10 pick: the row with the fewest bullheads (lowest index on ties)."""
    costs = [sum(bytes(r).translate(BH_BYTES)) for r in rows]    # rules.row_points, inlined
    return TAKE_ROW[costs.index(min(costs))]


class RandomStrategy(Strategy[SixNimmtConfig]):
    name = "random"
    array_form = "strategies.sixnimmt.arrays:RandomArrays"
    kernel_form = "strategies.sixnimmt.kernels:RANDOM"
    description = ("Uniformly random card and draft pick; N10 row pick: the cheapest row "
                   "(the seed's advice), or uniform with row=uniform.")

    reusable = True     # setup() empties the draw buffer

    def __init__(self, row: str = "cheapest"):
        if row not in ("cheapest", "uniform"):
            raise ValueError(f"row={row!r} is not allowed: cheapest or uniform")
        self.uniform_rows = row == "uniform"

    def setup(self, info, seat, rng) -> None:
        self.info, self.seat, self.rng = info, seat, rng      # Strategy.setup, inlined
        self._buf: list[float] = []

    def act(self, decision: Decision):
        legal = decision.legal_actions
        if type(legal[0]) is TakeRow and not self.uniform_rows:
            return cheapest_row(decision.observation.rows)
        buf = self._buf
        if not buf:
            buf.extend(self.rng.random(16).tolist())
        return legal[int(buf.pop() * len(legal))]

    @classmethod
    def act_many(cls, bots, decisions):
        """`act` of every seat in one call: a card from a filled buffer inline, the rest by `act`."""
        actions = []
        for bot, decision in zip(bots, decisions):
            legal = decision.legal_actions
            buf = bot._buf
            if buf and type(legal[0]) is not TakeRow:
                actions.append(legal[int(buf.pop() * len(legal))])
            else:
                actions.append(bot.act(decision))
        return actions


class _ExtremeCardStrategy(Strategy[SixNimmtConfig]):
    """Plays (and drafts) by a fixed rule on card values; takes the cheapest row."""

    #: min or max (a builtin: not bound as a method)
    pick: Callable[[Sequence[int]], int] = min

    def act(self, decision: Decision):
        legal = decision.legal_actions
        if type(legal[0]) is TakeRow:
            return cheapest_row(decision.observation.rows)
        return self.pick(legal)


class LowestStrategy(_ExtremeCardStrategy):
    name = "lowest"
    array_form = "strategies.sixnimmt.arrays:LowestArrays"
    kernel_form = "strategies.sixnimmt.kernels:LOWEST"
    description = "Plays its lowest card (drafts the lowest); takes the cheapest row."
    pick: Callable[[Sequence[int]], int] = min


class HighestStrategy(_ExtremeCardStrategy):
    name = "highest"
    array_form = "strategies.sixnimmt.arrays:HighestArrays"
    kernel_form = "strategies.sixnimmt.kernels:HIGHEST"
    description = "Plays its highest card (drafts the highest); takes the cheapest row."
    pick: Callable[[Sequence[int]], int] = max
