"""Shipside actions: small frozen tuples with a text round trip (`str(a)` / `parse_action`).

Ships are named by their defense (S1), sides by the seat sitting there (A = seat 0, B = seat 1),
cards by strength plus `*` for the move-sailor symbol (S6), e.g. `-2*`. Identical cards in a hand
are interchangeable, so an action names a card kind `(strength, symbol)`, not a copy.
Every action ends with a `kind` tag, so actions of different types never compare equal.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from simkit.engine.errors import IllegalAction

SIDE_NAMES = ("A", "B")
DIR_NAMES = {"L": "left", "R": "right"}


def card_text(value: int, sym: bool) -> str:
    return f"{value}*" if sym else str(value)


def _dir_text(d: str | None) -> str:
    return f", crew {DIR_NAMES[d]}" if d else ""


class Play(NamedTuple):
    """Action A (S19-S22): play card (value, sym) beside `ship` on `side`; `dir` = crew direction
    ('L'/'R') when this player must choose one (S25), else None."""

    value: int
    sym: bool
    ship: int
    side: int
    dir: str | None = None
    kind: str = "play"

    def __str__(self) -> str:
        return (f"play {card_text(self.value, self.sym)} on {self.ship}/{SIDE_NAMES[self.side]}"
                + _dir_text(self.dir))


class Octopus(NamedTuple):
    """Action B (S40-S46): move card (value, sym) from ship/side to ship/side, put the octopus on it."""

    value: int
    sym: bool
    src_ship: int
    src_side: int
    ship: int
    side: int
    dir: str | None = None
    kind: str = "octopus"

    def __str__(self) -> str:
        return (f"octopus {card_text(self.value, self.sym)} from {self.src_ship}/"
                f"{SIDE_NAMES[self.src_side]} to {self.ship}/{SIDE_NAMES[self.side]}" + _dir_text(self.dir))


class Rum(NamedTuple):
    """Free extra (S17, S47-S52): put a rum mug on `ship`, `when` = 'before' or 'after' the action."""

    ship: int
    when: str = "before"
    kind: str = "rum"

    def __str__(self) -> str:
        return f"rum on {self.ship} {self.when}"


class Direction(NamedTuple):
    """S25 with movement.chooser=owner: the owner of the side picks the crew's direction."""

    dir: str
    kind: str = "direction"

    def __str__(self) -> str:
        return f"crew {DIR_NAMES[self.dir]}"


class EndTurn(NamedTuple):
    """Decline the rum mug after the action (rum.timing=either)."""

    kind: str = "end"

    def __str__(self) -> str:
        return "end turn"


class Pass(NamedTuple):
    """S18: no action possible (empty hand, no octopus move)."""

    kind: str = "pass"

    def __str__(self) -> str:
        return "pass"


class Pick(NamedTuple):
    """S57 (variant): choose one card of the opening hand from one's own cards."""

    value: int
    sym: bool
    kind: str = "pick"

    def __str__(self) -> str:
        return f"pick {card_text(self.value, self.sym)}"


class Mark(NamedTuple):
    """S56 (variant.mark_assignment=chooser): the start player takes a mark."""

    mark: str
    kind: str = "mark"

    def __str__(self) -> str:
        return f"take {self.mark}"


END_TURN = EndTurn()
PASS = Pass()
DIRECTIONS = (Direction("L"), Direction("R"))


def format_action(action) -> str:
    return str(action)


_CARD = r"(-?\d+)(\*?)"
_PLACE = r"(\d+)/([AB])"
_DIR = r"(?:, crew (left|right))?"
_PATTERNS = [
    (re.compile(rf"play {_CARD} on {_PLACE}{_DIR}$"),
     lambda m: Play(int(m[1]), bool(m[2]), int(m[3]), "AB".index(m[4]), _d(m[5]))),
    (re.compile(rf"octopus {_CARD} from {_PLACE} to {_PLACE}{_DIR}$"),
     lambda m: Octopus(int(m[1]), bool(m[2]), int(m[3]), "AB".index(m[4]), int(m[5]),
                       "AB".index(m[6]), _d(m[7]))),
    (re.compile(r"rum on (\d+) (before|after)$"), lambda m: Rum(int(m[1]), m[2])),
    (re.compile(r"crew (left|right)$"), lambda m: Direction(m[1][0].upper())),
    (re.compile(r"end turn$"), lambda m: END_TURN),
    (re.compile(r"pass$"), lambda m: PASS),
    (re.compile(rf"pick {_CARD}$"), lambda m: Pick(int(m[1]), bool(m[2]))),
    (re.compile(r"take (starfish|shell)$"), lambda m: Mark(m[1])),
]


def _d(word: str | None) -> str | None:
    return None if word is None else word[0].upper()


def parse_action(text: str):
    """The action whose text form is `text` (inverse of `str(action)`)."""
    text = text.strip()
    for pattern, build in _PATTERNS:
        m = pattern.match(text)
        if m:
            return build(m)
    raise IllegalAction(f"cannot read action {text!r}: allowed forms are e.g. 'play 7 on 30/A', "
                        f"'play -2* on 34/B, crew left', 'octopus 9 from 30/B to 30/A', "
                        f"'rum on 30 before', 'crew right', 'end turn', 'pass', 'pick 10', "
                        f"'take starfish'")
