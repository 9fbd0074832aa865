"""6 nimmt! actions: a card (a plain `int`) to play or draft, and `TakeRow` for the N10 row pick."""

from __future__ import annotations

import re
from dataclasses import dataclass

from simkit.games.sixnimmt.config import DECK_SIZE


@dataclass(frozen=True, order=True)
class TakeRow:
    """N10 decision: take row `row` (0-based) when the card is below every row end."""

    row: int

    def __str__(self) -> str:
        return f"take row {self.row + 1}"


#: every row pick there can be (config.rows is at most 10): legal_actions slices it
TAKE_ROW = tuple(TakeRow(r) for r in range(10))

_TAKE_ROW_TEXT = re.compile(r"take row (\d+)")


def format_action(action) -> str:
    """A card as its number ("14"), a row pick as "take row 2" (rows counted from 1)."""
    return str(action)


def parse_action(text: str):
    """The inverse of format_action; ValueError names what was expected."""
    text = text.strip().lower()
    if text.isdigit() and 1 <= int(text) <= DECK_SIZE:
        return int(text)
    match = _TAKE_ROW_TEXT.fullmatch(text)
    if match and 1 <= int(match[1]) <= len(TAKE_ROW):
        return TAKE_ROW[int(match[1]) - 1]
    raise ValueError(f"{text!r} is not a 6 nimmt! action: expected a card 1..{DECK_SIZE} "
                     f"or 'take row N' with N in 1..{len(TAKE_ROW)}")
