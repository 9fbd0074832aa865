"""Game of Trains actions: one small immutable value type per kind, with a text round trip.

    Keep(card)              T6 setup: keep this drawn card (the others are discarded)
    Place(slot)             T7/T9: put the kept / drawn card into slot 1..7
    Draw()                  T9: draw the top card (then a Place(slot) decision follows)
    Use(effect, param)      T10: use the display card of `effect`; param per §5, None for 5-7

Each is a tuple whose first item is its kind tag: `Place(3) == ("place", 3)`, with the same hash
and order, so a plain tuple of that form is the same action. `str(action)` is its text
(`place 3`), which `parse_action` reads back. Every action value is interned in the tables below
(`PLACE[3]`, `DRAW`, ...), so the engine creates none per step.
"""

from __future__ import annotations

from operator import itemgetter

from simkit.engine.errors import IllegalAction
from simkit.games.trains.rules import N_CARDS, PARAMS


class _Tagged(tuple):
    """An action: its kind tag, then its fields; built from the fields alone."""

    __slots__ = ()
    kind = property(itemgetter(0))

    def __getnewargs__(self) -> tuple:      # pickle and copy build it back from its fields
        return tuple(self[1:])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(map(repr, self[1:]))})"

    def __str__(self) -> str:
        return format_action(self)


class Keep(_Tagged):
    """T6 setup: keep this drawn card (the player's other drawn cards are discarded)."""

    __slots__ = ()
    card = property(itemgetter(1))

    def __new__(cls, card: int) -> Keep:
        return tuple.__new__(cls, ("keep", card))


class Place(_Tagged):
    """T7 / T9: put the kept or drawn card into slot 1..7."""

    __slots__ = ()
    slot = property(itemgetter(1))

    def __new__(cls, slot: int) -> Place:
        return tuple.__new__(cls, ("place", slot))


class Draw(_Tagged):
    """T9: draw the top card; placing it is the next decision."""

    __slots__ = ()

    def __new__(cls) -> Draw:
        return tuple.__new__(cls, ("draw",))


class Use(_Tagged):
    """T10: use the display card of `effect` with `param` (§5; None for effects 5-7)."""

    __slots__ = ()
    effect = property(itemgetter(1))
    param = property(itemgetter(2))

    def __new__(cls, effect: int, param: int | None) -> Use:
        return tuple.__new__(cls, ("use", effect, param))


DRAW = Draw()
PLACE = (None,) + tuple(Place(s) for s in range(1, 8))         # PLACE[slot]
KEEP = (None,) + tuple(Keep(c) for c in range(1, N_CARDS + 1))  # KEEP[card]
#: USE[effect] -> every Use(effect, param) of the §5 domain; USE_ONE[(effect, param)]
USE = {e: tuple(Use(e, p) for p in PARAMS[e]) for e in range(1, 9)}
USE_ONE = {(a[1], a[2]): a for acts in USE.values() for a in acts}


def format_action(action) -> str:
    """The text of an action (or of a plain tuple equal to one): 'draw', 'place 3', 'use 1 3'."""
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
