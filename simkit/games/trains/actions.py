"""Game of Trains actions: small hashable tuples with a text round trip.

    ("keep", card)          T6 setup: keep this drawn card (the others are discarded)
    ("place", slot)         T7/T9: put the kept / drawn card into slot 1..7
    ("draw",)               T9: draw the top card (then a ("place", slot) decision follows)
    ("use", effect, param)  T10: use the display card of `effect`; param per §5, None for 5-7

Every action value is interned in the tables below, so the engine creates no tuples per step.
"""

from __future__ import annotations

from simkit.engine.errors import IllegalAction
from simkit.games.trains.rules import N_CARDS, PARAMS

DRAW = ("draw",)
PLACE = (None,) + tuple(("place", s) for s in range(1, 8))         # PLACE[slot]
KEEP = (None,) + tuple(("keep", c) for c in range(1, N_CARDS + 1))  # KEEP[card]
#: USE[effect] -> every ("use", effect, param) of the §5 domain; USE_ONE[(effect, param)]
USE = {e: tuple(("use", e, p) for p in PARAMS[e]) for e in range(1, 9)}
USE_ONE = {(a[1], a[2]): a for acts in USE.values() for a in acts}


def format_action(action) -> str:
    kind = action[0]
    if kind == "draw":
        return "draw"
    if kind == "place":
        return f"place {action[1]}"
    if kind == "keep":
        return f"keep {action[1]}"
    if kind == "use":
        e, p = action[1], action[2]
        return f"use {e}" if p is None else f"use {e} {p}"
    return repr(action)


def parse_action(text: str):
    """Inverse of `format_action`: 'draw', 'place 3', 'keep 42', 'use 5', 'use 1 3'."""
    words = text.split()
    try:
        if words == ["draw"]:
            return DRAW
        if len(words) == 2 and words[0] == "place" and 1 <= int(words[1]) <= 7:
            return PLACE[int(words[1])]
        if len(words) == 2 and words[0] == "keep" and 1 <= int(words[1]) <= N_CARDS:
            return KEEP[int(words[1])]
        if words and words[0] == "use" and len(words) in (2, 3):
            e = int(words[1])
            p = int(words[2]) if len(words) == 3 else None
            return USE_ONE[(e, p)]
    except (ValueError, IndexError, KeyError):
        pass
    raise IllegalAction(f"cannot read action {text!r}: use 'draw', 'place SLOT', 'keep CARD', "
                        f"'use EFFECT' (5-7) or 'use EFFECT PARAM' (1-4, 8)")
