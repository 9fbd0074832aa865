"""Shipside positions as text, like FEN in chess: `format_position(state)` and its inverse
`parse_position(text, config, rng=None)` (see docs/architecture.md and docs/shipside.md).

One `key: value` line per fact, in the order `format_position` writes them. Cards are written as
on the table: strength, `*` for the move-sailor symbol (S6), `{A}` when A's octopus lies on the
card (S40); ships by their defense (S1); seats as A (seat 0) and B (seat 1); `-` for nothing.
Every list keeps the state's order: hands and sides as the cards came, decks with the next card
to draw first. Everything that decides the game from here is written, hidden cards included; the
event history, the outcome's octopus and rum counters and the chance generator are not.
Reading skips blank lines and lines starting with `#`.
"""

from __future__ import annotations

import re

import numpy as np

from simkit.engine.errors import PositionError
from simkit.games.shipside.actions import DIR_NAMES
from simkit.games.shipside.config import MARKS, ShipsideConfig
from simkit.games.shipside.rules import DIR, MARK, OVER, PHASES, PICK, tables
from simkit.games.shipside.state import ALONE, BOTH, ShipsideState

SEATS = "AB"
NOTHING = "-"
END_REASONS = ("points", "all scored", "stalled", "turn cap", "stuck")
_YES_NO = ("no", "yes")
_WORD_DIRS = {word: d for d, word in DIR_NAMES.items()}


# ---------------------------------------------------------------------- writing

def format_position(st: ShipsideState) -> str:
    """The state as readable lines (see the module docstring)."""
    T = st.T
    lines = [f"phase: {st.phase}" + (f" ({st.reason})" if st.phase == OVER else ""),
             f"turn: {st.turn}",
             f"turn player: {SEATS[st.cur]}",
             f"start player: {SEATS[st.first]}",
             f"passes in a row: {st.passes}",
             f"rum placed this turn: {_YES_NO[st.rum_turn]}",
             f"pending: {_pending_text(st)}"]
    lines += [_ship_line(st, s) for s in st.row]
    for p, seat in enumerate(SEATS):
        lines += [f"{seat} ships: {_ships_text(T, st.captured[p])}",
                  f"{seat} crew: {_crew_text(T, st.crew_won[p])}"]
    lines += [f"removed ships: {_ships_text(T, st.ships_out)}",
              f"removed crew: {_crew_text(T, st.crew_out)}",
              f"points: {_per_seat(st.score)}",
              f"rum mugs left: {_per_seat(st.rum_left)}",
              f"octopus used: {_per_seat(_YES_NO[used] for used in st.octo_spent)}",
              f"marks: {_per_seat(st.marks) if st.marks else NOTHING}"]
    lines += [f"{seat} hand: {_cards_text(T, st.hands[p])}" for p, seat in enumerate(SEATS)]
    if st.own is not None:
        lines += [f"{seat} own cards: {_cards_text(T, st.own[p])}" for p, seat in enumerate(SEATS)]
    for key, pile in zip(_deck_keys(st.config), st.piles):
        lines.append(f"{key}: {_cards_text(T, reversed(pile))}")
    lines.append(f"out of the game: {_cards_text(T, sorted(st.out, key=T.kind.__getitem__))}")
    return "\n".join(lines)


def _per_seat(values) -> str:
    a, b = values
    return f"A {a}, B {b}"


def _cards_text(T, cards) -> str:
    return " ".join(T.label[c] for c in cards) or NOTHING


def _ships_text(T, ships) -> str:
    return " ".join(str(T.defense[s]) for s in ships) or NOTHING


def _crew_text(T, tokens) -> str:
    return " ".join(T.crew_kind[t] for t in tokens) or NOTHING


def _ship_line(st: ShipsideState, s: int) -> str:
    T = st.T
    sides = []
    for side in (0, 1):
        cards = st.sides[s][side]
        shown = " ".join(T.label[c] + (f"{{{SEATS[st.octo_on[c]]}}}" if st.octo_on[c] >= 0 else "")
                         for c in cards) or NOTHING
        sides.append(f"{SEATS[side]}: {shown} = {st.tot[s][side]}")
    mugs = " ".join(SEATS[p] for p in st.mugs[s]) or NOTHING
    return f"ship {T.defense[s]}: crew {_crew_text(T, st.crew[s])} | rum {mugs} | {sides[0]} | {sides[1]}"


def _pending_text(st: ShipsideState) -> str:
    """Phase dir: the action waiting for the crew's direction (S25, movement.chooser=owner)."""
    if st.pending is None:
        return NOTHING
    chooser, dirs, (actor, s, side, _card, origin, is_play, _d, _stage) = st.pending
    T = st.T
    what = "play" if is_play else f"octopus move from {T.defense[origin]}"
    return (f"{SEATS[actor]}'s {what} to {T.defense[s]}/{SEATS[side]}: {SEATS[chooser]} directs the "
            f"crew ({', '.join(DIR_NAMES[d] for d in dirs)})")


def _deck_keys(config: ShipsideConfig) -> tuple[str, ...]:
    """One shared draw pile, or one per seat (variant with personal decks, S58)."""
    if config.variant.enabled and config.variant.personal_decks:
        return ("A deck", "B deck")
    return ("deck",)


# ---------------------------------------------------------------------- reading

_LINE = re.compile(r"(ship -?\d+|[A-Za-z][a-z ]*): (.*)$")
_CARD = re.compile(r"(-?\d+\*?)(?:\{([AB])\})?$")
_SHIP_LINE = re.compile(r"crew (.+) \| rum (.+) \| A: (.+) \| B: (.+)$")
_SIDE = re.compile(r"(.+?)(?: = (-?\d+))?$")
_PER_SEAT = re.compile(r"A (\S+), B (\S+)$")
_PENDING = re.compile(r"([AB])'s (play|octopus move from (-?\d+)) to (-?\d+)/([AB]): ([AB]) directs the "
                      r"crew \((left|right|left, right)\)$")
_HEAD_KEYS = ("phase", "turn", "turn player", "start player", "passes in a row", "rum placed this turn",
              "pending")
_TAIL_KEYS = ("A ships", "A crew", "B ships", "B crew", "removed ships", "removed crew", "points",
              "rum mugs left", "octopus used", "marks", "A hand", "B hand")
_OWN_KEYS = ("A own cards", "B own cards")
_ALL_DECK_KEYS = ("deck", "A deck", "B deck")


class _Text:
    """The lines of a position by key, with their line numbers for error messages."""

    def __init__(self, text: str):
        self.values: dict[str, str] = {}
        self.numbers: dict[str, int] = {}
        self.ships: list[str] = []                 # ship keys in row order
        known = set(_HEAD_KEYS + _TAIL_KEYS + _OWN_KEYS + _ALL_DECK_KEYS + ("out of the game",))
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            m = _LINE.match(line)
            if m is None:
                raise PositionError(f"line {number} ({line!r}): expected 'key: value', e.g. 'turn: 3'")
            key, value = m[1], m[2].strip()
            if key in self.numbers:
                raise PositionError(f"line {number} ({line!r}): '{key}' is given twice (first on line "
                                    f"{self.numbers[key]})")
            if key.startswith("ship "):
                self.ships.append(key)
            elif key not in known:
                raise PositionError(f"line {number} ({line!r}): unknown line '{key}'; allowed are "
                                    f"{', '.join(sorted(known))} and 'ship <defense>'")
            self.values[key], self.numbers[key] = value, number
        if not self.values:
            raise PositionError("empty position: expected lines like 'phase: main', 'ship 28: ...'")

    def error(self, key: str, message: str) -> PositionError:
        return PositionError(f"line {self.numbers[key]} ({key}: {self.values[key]}): {message}")

    def get(self, key: str) -> str:
        if key not in self.values:
            raise PositionError(f"the '{key}:' line is missing")
        return self.values[key]

    def refuse(self, keys, why: str) -> None:
        for key in keys:
            if key in self.values:
                raise self.error(key, why)

    def choice(self, key: str, text: str, allowed) -> str:
        if text not in allowed:
            raise self.error(key, f"{text!r} is not one of {', '.join(map(str, allowed))}")
        return text

    def number(self, key: str, text: str | None = None) -> int:
        text = self.get(key) if text is None else text
        if not re.fullmatch(r"\d+", text):
            raise self.error(key, f"{text!r} is not a whole number >= 0")
        return int(text)

    def seat(self, key: str, text: str | None = None) -> int:
        return SEATS.index(self.choice(key, self.get(key) if text is None else text, tuple(SEATS)))

    def per_seat(self, key: str) -> tuple[str, str]:
        m = _PER_SEAT.match(self.get(key))
        if m is None:
            raise self.error(key, "expected 'A <value>, B <value>'")
        return m[1], m[2]

    def words(self, key: str, text: str | None = None) -> list[str]:
        text = self.get(key) if text is None else text
        return [] if text == NOTHING else text.split()


class _Pool:
    """The items (cards, crew tokens or ships) not yet placed, by name; each is placed once."""

    def __init__(self, names, what: str):
        self.free: dict[str, list[int]] = {}
        for item, name in enumerate(names):
            self.free.setdefault(name, []).append(item)
        self.counts = {name: len(items) for name, items in self.free.items()}
        self.what = what

    def take(self, text: _Text, key: str, name: str, prefer=None) -> int:
        items = self.free.get(name)
        if items is None:
            raise text.error(key, f"unknown {self.what} {name!r}: allowed are {' '.join(self.counts)}")
        if not items:
            raise text.error(key, f"{self.what} {name} appears more often than the {self.counts[name]} "
                                  f"there are")
        if prefer is not None:
            for i, item in enumerate(items):
                if prefer(item):
                    return items.pop(i)
        return items.pop(0)

    def left(self) -> list[str]:
        return [name for name, items in self.free.items() for _ in items]


def parse_position(text: str, config: ShipsideConfig, rng: np.random.Generator | None = None
                   ) -> ShipsideState:
    """The state written by `format_position`; PositionError names the line that is wrong.

    The parsed state draws its future chance events (the variant's pile shuffles) from `rng`,
    by default a new generator seeded 0.
    """
    lines = _Text(text)
    T = tables(config)
    st = ShipsideState.__new__(ShipsideState)
    st.config, st.T = config, T
    st.rng = rng if rng is not None else np.random.default_rng(0)
    st.events, st.n_octo, st.n_rum = [], 0, 0
    st._forget_board(crew=True)
    _read_turn(lines, st)
    side_text = _read_board(lines, st)
    _read_marks(lines, st)
    _read_cards(lines, st, side_text)
    _read_pending(lines, st)
    st.acting = (() if st.phase == OVER else BOTH if st.phase == PICK
                 else ALONE[st.pending[0]] if st.phase == DIR
                 else ALONE[st.first] if st.phase == MARK else ALONE[st.cur])
    problems = st.audit()
    if problems:
        raise PositionError("the position breaks the rules: " + "; ".join(problems))
    return st


def _read_turn(lines: _Text, st: ShipsideState) -> None:
    phase = lines.get("phase")
    m = re.fullmatch(r"over \((.+)\)", phase)
    if m:
        st.phase, st.reason = OVER, lines.choice("phase", m[1], END_REASONS)
    else:
        st.phase, st.reason = lines.choice("phase", phase, PHASES[:-1] + ("over (<reason>)",)), ""
    st.turn = lines.number("turn")
    st.cur = lines.seat("turn player")
    st.first = lines.seat("start player")
    st.passes = lines.number("passes in a row")
    st.rum_turn = _YES_NO.index(lines.choice("rum placed this turn", lines.get("rum placed this turn"),
                                             _YES_NO)) == 1


def _read_board(lines: _Text, st: ShipsideState) -> list[tuple[str, int, int, str]]:
    """The row (ships in play with crew and mugs), captures and removals; returns the text of
    each side's cards, (key, ship, side, text), read with the other cards."""
    T, config = st.T, st.config
    n_ships = len(T.defense)
    ships = _Pool([str(d) for d in T.defense], "ship")
    crew = _Pool(T.crew_kind, "crew token")
    st.sides = [[[], []] for _ in range(n_ships)]
    st.tot = [[0, 0] for _ in range(n_ships)]
    st.mugs = [[] for _ in range(n_ships)]
    st.crew = [[] for _ in range(n_ships)]
    st.row = []
    side_text: list[tuple[str, int, int, str]] = []       # (key, ship, side, cards)
    for key in lines.ships:
        s = ships.take(lines, key, key[5:])
        st.row.append(s)
        m = _SHIP_LINE.match(lines.get(key))
        if m is None:
            raise lines.error(key, "expected 'crew <kinds or -> | rum <seats or -> | A: <cards> = <total> "
                                   "| B: <cards> = <total>'")
        st.crew[s] = [crew.take(lines, key, k) for k in lines.words(key, m[1])]
        if len(st.crew[s]) > config.crew.max_per_ship:
            raise lines.error(key, f"{len(st.crew[s])} crew tokens on one ship: crew.max_per_ship is "
                                   f"{config.crew.max_per_ship}")
        st.mugs[s] = [lines.seat(key, w) for w in lines.words(key, m[2])]
        if len(st.mugs[s]) > config.rum.max_per_ship:
            raise lines.error(key, f"{len(st.mugs[s])} rum mugs on one ship: rum.max_per_ship is "
                                   f"{config.rum.max_per_ship}")
        side_text += [(key, s, 0, m[3]), (key, s, 1, m[4])]
    st.captured, st.crew_won = [[], []], [[], []]
    for p, seat in enumerate(SEATS):
        st.captured[p] = [ships.take(lines, f"{seat} ships", w) for w in lines.words(f"{seat} ships")]
        st.crew_won[p] = [crew.take(lines, f"{seat} crew", w) for w in lines.words(f"{seat} crew")]
    st.ships_out = [ships.take(lines, "removed ships", w) for w in lines.words("removed ships")]
    st.crew_out = [crew.take(lines, "removed crew", w) for w in lines.words("removed crew")]
    for pool, where in ((ships, "a ship line, a player's ships or the removed ships"),
                        (crew, "a ship, a player's crew or the removed crew")):
        if pool.left():
            raise PositionError(f"{pool.what}s missing: {' '.join(pool.left())} (each belongs to {where})")
    points = config.scoring.ship_points
    st.score = [points * len(st.captured[p]) + sum(T.crew_points[t] for t in st.crew_won[p]) for p in (0, 1)]
    written = lines.per_seat("points")
    if list(written) != [str(x) for x in st.score]:
        raise lines.error("points", f"the ships and crew taken are worth A {st.score[0]}, B {st.score[1]} "
                                    f"(S54)")
    st.rum_left = [lines.number("rum mugs left", x) for x in lines.per_seat("rum mugs left")]
    st.octo_spent = [_YES_NO.index(lines.choice("octopus used", x, _YES_NO)) == 1
                     for x in lines.per_seat("octopus used")]
    return side_text


def _read_marks(lines: _Text, st: ShipsideState) -> None:
    variant = st.config.variant.enabled
    if lines.get("marks") == NOTHING:
        st.marks = None
        if variant and st.phase != MARK:
            raise lines.error("marks", "with the variant on, each seat has a mark after the mark phase")
    else:
        marks = tuple(lines.choice("marks", m, MARKS) for m in lines.per_seat("marks"))
        if not variant or st.phase == MARK or marks[0] == marks[1]:
            raise lines.error("marks", "marks are two different marks, set only in the variant after "
                                       "the mark phase (S56)")
        st.marks = marks


def _read_cards(lines: _Text, st: ShipsideState, side_text) -> None:
    """Hands, own decks (variant picks), draw piles, sides, out of the game: every card once.

    Identical labels are interchangeable; in the variant a seat's zones get cards of its mark."""
    T, config = st.T, st.config
    cards = _Pool(T.label, "card")
    mark_ids = [MARKS.index(m) for m in st.marks] if st.marks else None

    def of_seat(p: int):
        return None if mark_ids is None else (lambda c: T.mark[c] == mark_ids[p])

    def read(key: str, text: str | None = None, prefer=None, octopus_allowed: bool = False):
        ids, octopi = [], []
        for word in lines.words(key, text):
            m = _CARD.match(word)
            if m is None or (m[2] and not octopus_allowed):
                where = "" if m is None else " (an octopus lies only on a card beside a ship)"
                raise lines.error(key, f"{word!r} is not a card{where}: write e.g. 7, -2* or 9{{A}}")
            ids.append(cards.take(lines, key, m[1], prefer))
            octopi.append(-1 if m[2] is None else SEATS.index(m[2]))
        return ids, octopi

    st.hands = [read(f"{seat} hand", prefer=of_seat(p))[0] for p, seat in enumerate(SEATS)]
    if st.marks is None:
        lines.refuse(_OWN_KEYS, "own cards are listed only in the variant once the marks are taken")
        st.own = None
    else:
        st.own = [read(f"{seat} own cards", prefer=of_seat(p))[0] for p, seat in enumerate(SEATS)]
    deck_keys = _deck_keys(config)
    lines.refuse([k for k in _ALL_DECK_KEYS if k not in deck_keys],
                 f"this config has {'one deck per seat' if len(deck_keys) == 2 else 'one shared deck'}: "
                 f"the lines are {', '.join(k + ':' for k in deck_keys)}")
    st.piles = [read(k, prefer=of_seat(p) if len(deck_keys) == 2 else None)[0][::-1]
                for p, k in enumerate(deck_keys)]
    st.pile_of = (0, 1) if len(deck_keys) == 2 else (0, 0)
    st.octo_on, st.octo_at = [-1] * T.n_cards, [-1, -1]
    for key, s, side, text in side_text:
        m = _SIDE.match(text)
        ids, octopi = read(key, m[1], octopus_allowed=True)
        total = sum(T.value[c] for c in ids)
        if m[2] is not None and int(m[2]) != total:
            raise lines.error(key, f"side {SEATS[side]}'s cards add up to {total}, not {m[2]}")
        if len(ids) > config.rules.max_cards_per_side:
            raise lines.error(key, f"side {SEATS[side]} holds {len(ids)} cards: at most "
                                   f"{config.rules.max_cards_per_side} (S20)")
        st.sides[s][side], st.tot[s][side] = ids, total
        for card, owner in zip(ids, octopi):
            if owner >= 0:
                if st.octo_at[owner] >= 0:
                    raise lines.error(key, f"{SEATS[owner]}'s octopus lies on two cards")
                st.octo_on[card], st.octo_at[owner] = owner, card
    for p, seat in enumerate(SEATS):
        if st.octo_at[p] >= 0 and not st.octo_spent[p]:
            raise lines.error("octopus used", f"{seat}'s octopus lies on a card, so it has been used")
    st.out = read("out of the game")[0]
    left = cards.left()
    if st.phase == MARK:
        if len(left) != T.n_cards:
            raise lines.error("phase", "in the mark phase the deck is not split yet: no card is listed")
    elif left:
        raise PositionError(f"cards missing: {' '.join(left)} (each card is in a hand, a deck, own "
                            f"cards, beside a ship or out of the game)")
    if st.phase == PICK:
        sizes = [len(h) for h in st.hands]
        if sizes[0] != sizes[1] or sizes[0] >= config.setup.hand_size:
            raise lines.error("A hand", f"while picking (S57) both hands hold the same number of cards, "
                                        f"fewer than {config.setup.hand_size}")


def _read_pending(lines: _Text, st: ShipsideState) -> None:
    """Phase dir: the play or octopus move waiting for the side owner's direction (S25)."""
    text = lines.get("pending")
    st.pending = None
    if st.phase != DIR:
        if text != NOTHING:
            raise lines.error("pending", "only the dir phase waits for a crew direction: write '-'")
        return
    m = _PENDING.match(text)
    if m is None:
        raise lines.error("pending", "expected e.g. \"A's play to 34/B: B directs the crew (left, right)\" "
                                     "or \"A's octopus move from 30 to 34/B: B directs the crew (left)\"")
    T, config = st.T, st.config
    actor, side, chooser = SEATS.index(m[1]), SEATS.index(m[5]), SEATS.index(m[6])
    if actor != st.cur:
        raise lines.error("pending", f"the action is the turn player's ({SEATS[st.cur]})")
    if config.movement.chooser != "owner" or chooser != side or side == actor:
        raise lines.error("pending", "the owner of the side chooses only with movement.chooser=owner, "
                                     "for a card on the other player's side (S25)")
    s = T.ship_of.get(int(m[4]), -1)
    origin = -1 if m[3] is None else T.ship_of.get(int(m[3]), -1)
    if s not in st.row or (m[3] is not None and origin < 0):
        raise lines.error("pending", "the ships named must be in play")
    placed = st.sides[s][side]
    if not placed or not T.sym[placed[-1]] or (m[3] is not None and not config.octopus.as_placement):
        raise lines.error("pending", f"the last card on {m[4]}/{m[5]} must be a move-sailor card that "
                                     f"counts as placed (S23, S42)")
    dirs = tuple(_WORD_DIRS[w] for w in m[7].split(", "))
    free = st._dirs(s)
    if dirs != free:
        raise lines.error("pending", f"the crew on {m[4]} can move {', '.join(DIR_NAMES[d] for d in free)}"
                                     if free else f"the crew on {m[4]} cannot move")
    stage = 0 if config.movement.before_scoring else 2
    st.pending = (chooser, dirs, [actor, s, side, placed[-1], origin, m[3] is None, None, stage])
