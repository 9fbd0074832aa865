"""Text positions, the part every game shares: `key: value` lines read into checked fields.

A game's `position.py` declares its keys (`PositionText(text, keys)`), reads each field with the
parsers here (`whole`, `choice`, `words`, `numbers`, `seat`) and lists every card through a
`Ledger`, which knows each card once. Every error is a `PositionError` that names the line
(`line 4 ('phase: bidding'): ...`) and what is allowed there.

Keys are exact (`"turns"`) or families with placeholders: `<name>` stands for a whole number
(`"hand <seat>"`, `"ship <defense>"`) and `<a|b>` for one of the words (`"seat <n> (<opened|not
opened>)"`). Reading skips blank lines and comments (from `#` to the end of a line) and folds runs
of spaces in keys; `fold_case` also makes keys case-blind.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from simkit.engine.config import GameConfig
from simkit.engine.errors import ConfigError, PositionError

NOTHING = "-"           # an empty list of cards
_PLACEHOLDER = re.compile(r"<([^<>]+)>")


@dataclass(frozen=True)
class Line:
    """One `key: value` line: its number counts from 1, `text` is the line as written (stripped)."""
    number: int
    key: str
    value: str
    text: str

    @property
    def where(self) -> str:
        return f"line {self.number} ({self.text!r})"

    def error(self, message: str) -> PositionError:
        return PositionError(f"{self.where}: {message}")


class Key:
    """A declared key: exact, or a family whose placeholders are read back by `fields(line)`."""

    def __init__(self, spec: str):
        self.spec = spec
        self.shown = _PLACEHOLDER.sub(lambda m: m[1] if "|" in m[1] else m[0], spec)
        parts, end = [], 0
        for m in _PLACEHOLDER.finditer(spec):
            parts.append(re.escape(spec[end:m.start()]))
            words = m[1].split("|")
            parts.append(f"({'|'.join(map(re.escape, words))})" if len(words) > 1 else r"(-?\d+)")
            end = m.end()
        self.regex = re.compile("".join(parts) + re.escape(spec[end:]))

    def fields(self, key: str) -> tuple[str, ...] | None:
        found = self.regex.fullmatch(key)
        return None if found is None else found.groups()


class PositionText:
    """The lines of a position by key, each checked against the declared keys as it is read.

    `repeated` keys may stand on several lines (`all(key)`); any other key is given once."""

    def __init__(self, text: str, keys: Sequence[str], *, repeated: Sequence[str] = (),
                 example: str = "turn: 3", fold_case: bool = False):
        self.keys = [Key(spec) for spec in keys]
        self.lines: dict[str, Line] = {}
        self.repeated: dict[str, list[Line]] = {key: [] for key in repeated}
        self.family: dict[str, list[tuple[tuple[str, ...], Line]]] = {k.spec: [] for k in self.keys}
        for number, raw in enumerate(text.splitlines(), 1):
            body = raw.split("#", 1)[0].strip()
            if body:
                self._add(Line(number, *_key_value(body, fold_case), text=raw.strip()), body, example)
        if not self.lines and not any(self.repeated.values()):
            raise PositionError(f"the position is empty: expected lines such as {example!r}")

    def _add(self, line: Line, body: str, example: str) -> None:
        if ":" not in body:
            raise line.error(f"expected 'key: value', e.g. {example!r}")
        if line.key in self.repeated:
            self.repeated[line.key].append(line)
            return
        for key in self.keys:
            fields = key.fields(line.key)
            if fields is not None:
                break
        else:
            allowed = [k.shown for k in self.keys] + list(self.repeated)
            raise line.error(f"unknown key {line.key!r}: allowed are {', '.join(allowed)}")
        if line.key in self.lines:
            raise line.error(f"{line.key!r} is given twice (first on line {self.lines[line.key].number})")
        self.lines[line.key] = line
        if fields:
            self.family[key.spec].append((fields, line))

    def get(self, key: str) -> Line | None:
        return self.lines.get(key)

    def line(self, key: str, why: str = "") -> Line:
        """The line of `key`; a PositionError when it is missing (`why` it is needed)."""
        if key not in self.lines:
            needed = f", needed because {why}" if why else ""
            raise PositionError(f"the position has no '{key}:' line{needed}")
        return self.lines[key]

    def value(self, key: str) -> str:
        return self.line(key).value

    def all(self, key: str) -> list[Line]:
        """The lines of a repeated key, in text order."""
        return self.repeated[key]

    def needs(self, key: str, needed: bool, why: str) -> Line | None:
        """The line `key`, which must be there exactly when `needed` (`why`); None when not needed."""
        if needed:
            return self.line(key, why)
        self.refuse(key, f"unexpected here: a '{key}:' line is only given when {why}")
        return None

    def refuse(self, key: str, why: str) -> None:
        if key in self.lines:
            raise self.lines[key].error(why)

    def matching(self, spec: str) -> list[tuple[tuple[str, ...], Line]]:
        """(placeholder values, line) of every line of the key family `spec`, in text order."""
        return self.family[spec]

    def indexed(self, spec: str, first: int = 0) -> list[tuple[int, tuple[str, ...], Line]]:
        """The lines of a family numbered by its first placeholder (`hand <seat>`): numbered
        first, first + 1, ... without gaps or repeats; (number, other placeholders, line) in order."""
        found = sorted(((int(fields[0]), fields[1:], line) for fields, line in self.family[spec]),
                       key=lambda item: item[0])
        for (a, _, _), (b, _, line) in zip(found, found[1:]):
            if a == b:
                raise line.error(f"{spec.split('<')[0]}{a} is given twice")
        numbers = [number for number, _, _ in found]
        if numbers != list(range(first, first + len(numbers))):
            listed = ", ".join(map(str, numbers)) or "nothing"
            raise PositionError(f"the '{Key(spec).shown}' lines are numbered {listed}: "
                                f"expected {first}, {first + 1}, ... without gaps")
        return found


def _key_value(body: str, fold_case: bool) -> tuple[str, str]:
    key, _, value = body.partition(":")
    key = " ".join(key.split())
    return (key.lower() if fold_case else key), value.strip()


# ---------------------------------------------------------------------------- fields

def check_players(config: GameConfig, n: int, listed: str) -> None:
    """The seats a position lists fit the config; `listed` says what was counted ("3 seats listed")."""
    try:
        config.check_players(n)
    except ConfigError as exc:
        raise PositionError(f"{listed}: {exc}") from None


def whole(line: Line, text: str | None = None, low: int = 0, high: int | None = None) -> int:
    """A whole number low..high (no upper bound when high is None)."""
    text = line.value if text is None else text
    if not text.isdecimal() or int(text) < low or (high is not None and int(text) > high):
        allowed = f"{low}..{high}" if high is not None else f"{low} or more"
        raise line.error(f"expected a whole number {allowed}, not {text!r}")
    return int(text)


def numbers(line: Line, count: int, what: str = "one per seat") -> list[int]:
    """Exactly `count` whole numbers >= 0 (`what` says what they are)."""
    found = line.value.split()
    if len(found) != count or not all(w.isdecimal() for w in found):
        raise line.error(f"expected {count} whole numbers, {what}")
    return [int(w) for w in found]


def choice(line: Line, allowed: Sequence[str], what: str, text: str | None = None) -> str:
    """One of the words `allowed` (`what` names the kind in the message)."""
    text = line.value if text is None else text
    if text not in allowed:
        raise line.error(f"unknown {what} {text!r}: allowed are {', '.join(allowed)}")
    return text


def seat(line: Line, names: Sequence[str], text: str | None = None) -> int:
    """A seat written by its name (`names[s]` is seat s)."""
    return list(names).index(choice(line, names, "seat", text))


def yes_no(line: Line, text: str | None = None) -> bool:
    return choice(line, ("no", "yes"), "answer", text) == "yes"


def words(line: Line, text: str | None = None) -> list[str]:
    """The words of a list; NOTHING (`-`) for an empty one."""
    text = line.value if text is None else text
    return [] if text.strip() == NOTHING else text.split()


def list_text(items: Iterable[object]) -> str:
    """The inverse of `words`: the items separated by spaces, NOTHING when there is none."""
    return " ".join(map(str, items)) or NOTHING


# ---------------------------------------------------------------------------- cards

class Ledger:
    """Every item of a kind (card, tile, ship...) by name: each is listed on one line, once.

    Items sharing a name (two identical cards) are interchangeable; `take` gives the first free one,
    or the first that `prefer` accepts. `spell` turns a written word into a name (raising ValueError
    for a word that is no item); `allowed` says what the names are in messages."""

    def __init__(self, items: Iterable[tuple[str, int]], what: str = "card", allowed: str | None = None,
                 spell: Callable[[str], str] | None = None):
        self.free: dict[str, list[int]] = {}
        self.order: list[int] = []
        for name, item in items:
            self.free.setdefault(name, []).append(item)
            self.order.append(item)
        self.named = {name: tuple(items) for name, items in self.free.items()}
        self.name_of = {item: name for name, items in self.named.items() for item in items}
        self.count = {name: len(items) for name, items in self.named.items()}
        self.what = what
        self.allowed = allowed or f"allowed are {' '.join(self.count)}"
        self.spell = spell
        self.where: dict[int, Line] = {}

    @classmethod
    def numbered(cls, low: int, high: int, what: str = "card") -> Ledger:
        """The items low..high, written as their numbers."""
        return cls(((str(c), c) for c in range(low, high + 1)), what, f"{what}s are {low}..{high}")

    def take(self, line: Line, word: str, prefer: Callable[[int], bool] | None = None) -> int:
        name = word
        if self.spell is not None:
            try:
                name = self.spell(word)
            except ValueError as exc:
                raise line.error(str(exc)) from None
        items = self.free.get(name)
        if items is None:
            raise line.error(f"unknown {self.what} {word!r}: {self.allowed}")
        if not items:
            raise line.error(self._twice(line, name))
        at = next((i for i, item in enumerate(items) if prefer(item)), 0) if prefer is not None else 0
        item = items.pop(at)
        self.where[item] = line
        return item

    def _twice(self, line: Line, name: str) -> str:
        if self.count[name] > 1:
            return f"{self.what} {name} appears more often than the {self.count[name]} there are"
        other = self.where[self.named[name][0]]
        also = "earlier on this line" if other is line else f"also on {other.where}"
        return f"{self.what} {name} is listed twice ({also})"

    def take_all(self, line: Line, text: str | None = None,
                 prefer: Callable[[int], bool] | None = None) -> list[int]:
        """The items of a list (`words`)."""
        return [self.take(line, word, prefer) for word in words(line, text)]

    def rest(self, line: Line) -> list[int]:
        """Every item not taken yet, in the order they were declared (a shorthand such as 'rest')."""
        left = self.left()
        for item in left:
            self.free[self.name_of[item]].remove(item)
            self.where[item] = line
        return left

    def left(self) -> list[int]:
        return [item for item in self.order if item not in self.where]

    def check_all_listed(self, hint: str) -> None:
        """Every item is on some line; `hint` says where an item belongs."""
        left = self.left()
        if left:
            shown = " ".join(self.name_of[item] for item in left[:24]) + (" ..." if len(left) > 24 else "")
            raise PositionError(f"{self.what}s missing: {shown} ({len(left)} in all; {hint})")
