"""Tiles (R1 of the spec's components) and melds: ids, faces and their text forms.

A tile is an int id. Real tiles: ``id = face * 2 + copy`` with ``face = colour * 13 + number - 1``
(colours R, K, O, B; numbers 1..13; copy 0 or 1), so ids 0..103. Jokers are 104 (J0) and 105 (J1)
and have face 52. Text: ``R5`` is copy 0, ``R5'`` copy 1, ``J0``/``J1`` the jokers.
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = "RKOB"
JOKER_FACE = 52
N_TILES = 106

RUN = "run"
GROUP = "group"


def number(tile: int) -> int:
    return (tile >> 1) % 13 + 1


def tile_id(col: int, num: int, copy: int = 0) -> int:
    return ((col * 13) + num - 1) * 2 + copy


def face_of(col: int, num: int) -> int:
    return col * 13 + num - 1


def face_text(f: int) -> str:
    if f == JOKER_FACE:
        return "J"
    return f"{COLOURS[f // 13]}{f % 13 + 1}"


def tile_text(tile: int) -> str:
    if tile >= 104:
        return f"J{tile - 104}"
    return face_text(tile >> 1) + ("'" if tile & 1 else "")


def parse_tile(text: str) -> int:
    """Inverse of `tile_text` ("R5", "R5'", "J0")."""
    t = text.strip()
    if t in ("J0", "J1"):
        return 104 + int(t[1])
    copy = 1 if t.endswith("'") else 0
    t = t.rstrip("'")
    if len(t) < 2 or t[0] not in COLOURS or not t[1:].isdigit():
        raise ValueError(f"bad tile {text!r}: use colour R/K/O/B + number 1-13 (R5, R5' for the second "
                         f"copy) or J0/J1")
    num = int(t[1:])
    if not 1 <= num <= 13:
        raise ValueError(f"bad tile {text!r}: numbers run 1-13")
    return tile_id(COLOURS.index(t[0]), num, copy)


def tile_value(tile: int, joker_points: int = 30) -> int:
    """Rack value of one tile (R20): its number, a joker `joker_points`."""
    return joker_points if tile >= 104 else (tile >> 1) % 13 + 1


def sort_key(tile: int) -> tuple[int, int, int]:
    """Display order of a rack: by colour, then number, jokers last."""
    return (tile >> 1) // 13 if tile < 104 else 9, (tile >> 1) % 13, tile


def sorted_tiles(tiles) -> tuple[int, ...]:
    return tuple(sorted(tiles, key=sort_key))


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld on the table (R7): its kind ("run" or "group") and its tiles in order."""

    kind: str
    tiles: tuple[int, ...]

    def __str__(self) -> str:
        return ("Run[" if self.kind == RUN else "Group[") + " ".join(tile_text(t) for t in self.tiles) + "]"

    __repr__ = __str__


def run(*tiles: int) -> Meld:
    return Meld(RUN, tuple(tiles))


def group(*tiles: int) -> Meld:
    return Meld(GROUP, tuple(tiles))


def parse_meld(text: str) -> Meld:
    """Inverse of `str(meld)`: "Run[R5 R6 J0]" or "Group[R3 K3 O3]"."""
    t = text.strip()
    for prefix, kind in (("Run[", RUN), ("Group[", GROUP)):
        if t.startswith(prefix) and t.endswith("]"):
            body = t[len(prefix):-1].split()
            return Meld(kind, tuple(parse_tile(x) for x in body))
    raise ValueError(f"bad meld {text!r}: use Run[R5 R6 R7] or Group[R3 K3 O3]")


def table_text(table) -> str:
    return " ".join(str(m) for m in table) if table else "(empty)"
