"""Actions (spec section 8): frozen, hashable values with a text round trip.

- `Draw()` — take one tile from the pool; the turn ends (R8, R9).
- `Pass()` — with an empty pool, a player who does not play passes (R10).
- `InitialMeld(melds)` — the first play: new melds from the rack only, worth >= 30 (R11).
- `Play(table)` — any later play: the whole end-of-turn table (R12).
- `Late()` — no submission within `time_budget_s` (R18): a failed rearrangement, put in by the
  timer of `simkit.engine.timed`, never chosen by a strategy.
"""

from __future__ import annotations

from dataclasses import dataclass

from simkit.games.rummikub.tiles import Meld, parse_meld


@dataclass(frozen=True, slots=True)
class Draw:
    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class InitialMeld:
    melds: tuple[Meld, ...]

    def __str__(self) -> str:
        return "meld " + " ".join(str(m) for m in self.melds)


@dataclass(frozen=True, slots=True)
class Play:
    table: tuple[Meld, ...]

    def __str__(self) -> str:
        return "play " + " ".join(str(m) for m in self.table)


@dataclass(frozen=True, slots=True)
class Late:
    def __str__(self) -> str:
        return "late"


DRAW = Draw()
PASS = Pass()
LATE = Late()


def format_action(action) -> str:
    return str(action)


def _split_melds(body: str) -> tuple[Meld, ...]:
    parts, cur = [], []
    for ch in body:
        cur.append(ch)
        if ch == "]":
            parts.append("".join(cur).strip())
            cur = []
    if "".join(cur).strip():
        raise ValueError(f"bad meld list {body!r}")
    return tuple(parse_meld(p) for p in parts)


def parse_action(text: str):
    """Inverse of `str(action)`: "draw", "pass", "late", "meld Run[...] ...", "play Run[...] ..."."""
    t = text.strip()
    if t == "draw":
        return DRAW
    if t == "pass":
        return PASS
    if t == "late":
        return LATE
    head, _, body = t.partition(" ")
    if head == "meld":
        return InitialMeld(_split_melds(body))
    if head == "play":
        return Play(_split_melds(body))
    raise ValueError(f"bad action {text!r}: use draw, pass, 'meld Run[..] Group[..]' or 'play Run[..] ...'")
