"""S11: where the crew tokens start (`setup.crew_start`), as one general form.

The text names either the ships that start empty or the ship of every token:

- `empty:30` (or `empty:30+32`): these ships start empty; the crew tokens go on the other
  ships in placing order (captain, mate, sailor, sailor), one a ship, by falling defense.
- `empty:#3`: the ship at row position 3 (1 = leftmost, S10) starts empty; the crew go on the
  other ships from left to right.
- `36:captain+32:mate+30:sailor+28:sailor`: each token on the ship named (a defense, or `#k`
  for a row position); every token named once, ships not named start empty, several tokens on
  one ship only as `crew.max_per_ship` allows.

One layout names ships all by defense or all by row position, so that two names never turn out
to be the same ship once the row is laid out.

The named layouts are these general forms: `34-empty` (default) is `empty:D2` with D2 the
second-highest defense (34 with the standard ships), `28-empty` is `empty:D5` with the lowest
defense, `middle-empty` is `empty:#m` with m the middle of the row (`#3` of 5 ships).

`+` joins items (not `,`, which `simkit sweep --vary` uses between values). Parsing raises
ConfigError naming `setup.crew_start`; `place` turns a checked layout into ship -> tokens.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from simkit.engine.errors import ConfigError

NAMED = ("34-empty", "28-empty", "middle-empty")
#: crew tokens in placing order (S8): captain, first mate, two sailors
CREW_TOKENS = ("captain", "mate", "sailor", "sailor")
KINDS = ("captain", "mate", "sailor")
FIELD = "setup.crew_start"
FORMS = ("allowed are 34-empty, 28-empty, middle-empty, 'empty:<ships>' (e.g. empty:30, "
         "empty:30+32, empty:#3) or one '<ship>:<token>' per token (e.g. "
         "36:captain+32:mate+30:sailor+28:sailor); a ship is a defense or #k, the k-th ship of the row")


class Layout(NamedTuple):
    """A parsed crew start: `empty` ships, or `tokens` = ((ship ref, kind), ...); a ship ref is
    ("def", defense) or ("pos", k) for the k-th ship of the row (1-based)."""

    empty: tuple[tuple[str, int], ...] | None
    tokens: tuple[tuple[tuple[str, int], str], ...] | None


def tokens_for(n_ships: int) -> tuple[str, ...]:
    """The crew tokens in play: all four, fewer only when there are too few ships to leave one empty."""
    return CREW_TOKENS[:max(0, min(len(CREW_TOKENS), n_ships - 1))]


def _one_kind(refs, value: str) -> None:
    if len({kind for kind, _ in refs}) > 1:
        raise ConfigError(f"{FIELD}={value!r} mixes defenses and row positions (#k): name the ships "
                          f"all by defense or all by position")


def named_form(name: str, defenses: tuple[int, ...]) -> str:
    """The general form of a named layout for these ships (see the module docstring)."""
    by_def = sorted(defenses, reverse=True)
    if name == "34-empty":
        return f"empty:{by_def[1]}"
    if name == "28-empty":
        return f"empty:{by_def[-1]}"
    return f"empty:#{len(defenses) // 2 + 1}"


def _ref(text: str, value: str, defenses: tuple[int, ...]) -> tuple[str, int]:
    word = text.strip()
    try:
        d = int(word[1:] if word.startswith("#") else word)
    except ValueError:
        raise ConfigError(f"{FIELD}={value!r}: {word!r} is not a ship: {FORMS}") from None
    if word.startswith("#"):
        if not 1 <= d <= len(defenses):
            raise ConfigError(f"{FIELD}={value!r}: row position {word} does not exist: allowed are "
                              f"#1 to #{len(defenses)}")
        return ("pos", d)
    if d not in defenses:
        raise ConfigError(f"{FIELD}={value!r}: there is no ship {d}: the ships (ships.defenses) are "
                          f"{sorted(defenses)}, or #1 to #{len(defenses)} by row position")
    return ("def", d)


@functools.lru_cache(maxsize=256)
def parse(value: str, defenses: tuple[int, ...], tokens: tuple[str, ...], max_per_ship: int) -> Layout:
    """Check `setup.crew_start` against the ships and crew tokens; ConfigError names the problem."""
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{FIELD}={value!r}: {FORMS}")
    text = value.strip()
    if text in NAMED:
        text = named_form(text, defenses)
    if text.startswith("empty:"):
        refs = [_ref(w, value, defenses) for w in text[6:].split("+")]
        _one_kind(refs, value)
        if len(set(refs)) != len(refs):
            raise ConfigError(f"{FIELD}={value!r} names a ship twice: name each empty ship once")
        left = len(defenses) - len(refs)
        if left < len(tokens):
            raise ConfigError(f"{FIELD}={value!r} leaves {left} ship(s) for the {len(tokens)} crew "
                              f"tokens: name fewer empty ships, or place the tokens one by one "
                              f"('<ship>:<token>+...', several a ship up to crew.max_per_ship)")
        return Layout(tuple(refs), None)
    placed = []
    for item in text.split("+"):
        ship, sep, kind = item.partition(":")
        if not sep or kind.strip() not in KINDS:
            raise ConfigError(f"{FIELD}={value!r}: {item.strip()!r} is not '<ship>:<token>' with a "
                              f"token among {list(KINDS)}: {FORMS}")
        placed.append((_ref(ship, value, defenses), kind.strip()))
    _one_kind([ref for ref, _ in placed], value)
    if sorted(k for _, k in placed) != sorted(tokens):
        raise ConfigError(f"{FIELD}={value!r} places {sorted(k for _, k in placed)}: allowed is every "
                          f"crew token exactly once, {sorted(tokens)}")
    for ref, _ in placed:
        n = sum(1 for r, _ in placed if r == ref)
        if n > max_per_ship:
            name = f"#{ref[1]}" if ref[0] == "pos" else str(ref[1])
            raise ConfigError(f"{FIELD}={value!r} puts {n} crew tokens on ship {name}: allowed is at "
                              f"most crew.max_per_ship={max_per_ship} a ship")
    return Layout(None, tuple(placed))


def place(layout: Layout, defenses: tuple[int, ...], row: list[int],
          tokens: tuple[str, ...]) -> dict[int, list[int]]:
    """S11: ship id -> crew token ids at setup. `row` holds ship ids in row order (S10)."""

    def ship(ref: tuple[str, int]) -> int:
        return row[ref[1] - 1] if ref[0] == "pos" else defenses.index(ref[1])

    out: dict[int, list[int]] = {}
    if layout.empty is not None:
        empty = {ship(r) for r in layout.empty}
        if any(kind == "pos" for kind, _ in layout.empty):
            order = [s for s in row if s not in empty]
        else:
            order = sorted((s for s in range(len(defenses)) if s not in empty), key=lambda s: -defenses[s])
        for token, s in enumerate(order[:len(tokens)]):
            out[s] = [token]
        return out
    free = list(range(len(tokens)))
    for ref, kind in layout.tokens or ():
        token = next(t for t in free if tokens[t] == kind)
        free.remove(token)
        out.setdefault(ship(ref), []).append(token)
    return out
