"""6 nimmt! test helpers: states from text positions, and games played on with play_out."""

from __future__ import annotations

import numpy as np

from simkit.engine.play import Played, play_out
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.position import parse_position
from simkit.games.sixnimmt.state import SixNimmtState


def _cards(cards) -> str:
    return " ".join(map(str, cards)) or "-"


def position(rows, hands, *, piles=None, totals=None, phase: str = "play", revealed=(),
             round_no: int = 1, turns: int = 0, aside: str | None = "rest") -> str:
    """The text of a position with these rows and hands; by default every other card is set
    aside (basic game); aside=None leaves the aside line out (advanced game)."""
    n = len(hands)
    lines = [f"round: {round_no}", f"turns played: {turns}", f"phase: {phase}"]
    lines += [f"row {r}: {_cards(row)}" for r, row in enumerate(rows, 1)]
    if revealed:
        lines.append("revealed: " + ", ".join(f"{c} by seat {s}" for c, s in revealed))
    lines += [f"hand {s}: {_cards(hand)}" for s, hand in enumerate(hands)]
    lines += [f"pile {s}: {_cards(pile)}" for s, pile in enumerate(piles or [[]] * n)]
    lines.append(f"totals: {_cards(totals or [0] * n)}")
    if aside is not None:
        lines.append(f"aside: {aside}")
    return "\n".join(lines) + "\n"


def make_state(rows, hands, config: SixNimmtConfig | None = None, **kwargs) -> SixNimmtState:
    """A basic-game state parsed from `position(rows, hands, **kwargs)`."""
    return parse_position(position(rows, hands, **kwargs), config or SixNimmtConfig())


def new_game(config: SixNimmtConfig, n: int, seed: int) -> SixNimmtState:
    return SixNimmtState(config, n, np.random.default_rng(seed))


def play_on(state: SixNimmtState, strategies=("lowest",), seed: int = 0, **hooks) -> Played:
    """Play `state` on with play_out: one strategy name per seat (or one for all), seeded."""
    names = list(strategies) * state.n if len(strategies) == 1 else list(strategies)
    lineup = [parse_strategy(name, "sixnimmt") for name in names]
    rngs = [np.random.default_rng([seed, seat]) for seat in range(state.n)]
    return play_out(state, lineup, GameInfo("sixnimmt", state.config, state.n), rngs,
                    forfeit_on_error=False, **hooks)


def rows_of(state) -> list[list[int]]:
    return [list(r) for r in state.rows]
