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
from simkit.engine.position_text import (
    NOTHING,
    Ledger,
    Line,
    PositionText,
    choice,
    list_text,
    seat,
    whole,
    words,
    yes_no,
)
from simkit.engine.running import Running
from simkit.games.shipside.actions import DIR_NAMES
from simkit.games.shipside.config import MARKS, ShipsideConfig
from simkit.games.shipside.rules import DIR, MARK, OVER, PHASES, PICK, tables
from simkit.games.shipside.state import ALONE, BOTH, ShipsideState

SEATS = "AB"
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
    for p, name in enumerate(SEATS):
        lines += [f"{name} ships: {_ships_text(T, st.captured[p])}",
                  f"{name} crew: {_crew_text(T, st.crew_won[p])}"]
    lines += [f"removed ships: {_ships_text(T, st.ships_out)}",
              f"removed crew: {_crew_text(T, st.crew_out)}",
              f"points: {_per_seat(st.score)}",
              f"rum mugs left: {_per_seat(st.rum_left)}",
              f"octopus used: {_per_seat(_YES_NO[used] for used in st.octo_spent)}",
              f"marks: {_per_seat(st.marks) if st.marks else NOTHING}"]
    lines += [f"{name} hand: {_cards_text(T, st.hands[p])}" for p, name in enumerate(SEATS)]
    if st.own is not None:
        lines += [f"{name} own cards: {_cards_text(T, st.own[p])}" for p, name in enumerate(SEATS)]
    for key, pile in zip(_deck_keys(st.config), st.piles):
        lines.append(f"{key}: {_cards_text(T, reversed(pile))}")
    lines.append(f"out of the game: {_cards_text(T, sorted(st.out, key=T.kind.__getitem__))}")
    return "\n".join(lines)


def _per_seat(values) -> str:
    a, b = values
    return f"A {a}, B {b}"


def _cards_text(T, cards) -> str:
    return list_text(T.label[c] for c in cards)


def _ships_text(T, ships) -> str:
    return list_text(T.defense[s] for s in ships)


def _crew_text(T, tokens) -> str:
    return list_text(T.crew_kind[t] for t in tokens)


def _ship_line(st: ShipsideState, s: int) -> str:
    T = st.T
    sides = []
    for side in (0, 1):
        cards = st.sides[s][side]
        shown = list_text(T.label[c] + (f"{{{SEATS[st.octo_on[c]]}}}" if st.octo_on[c] >= 0 else "")
                          for c in cards)
        sides.append(f"{SEATS[side]}: {shown} = {st.tot[s][side]}")
    mugs = list_text(SEATS[p] for p in st.mugs[s])
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

_CARD = re.compile(r"(-?\d+\*?)(?:\{([AB])\})?$")
_SHIP_LINE = re.compile(r"crew (.+) \| rum (.+) \| A: (.+) \| B: (.+)$")
_SIDE = re.compile(r"(.+?)(?: = (-?\d+))?$")
_PER_SEAT = re.compile(r"A (\S+), B (\S+)$")
_PENDING = re.compile(r"([AB])'s (play|octopus move from (-?\d+)) to (-?\d+)/([AB]): ([AB]) directs the "
                      r"crew \((left|right|left, right)\)$")
_OWN_KEYS = ("A own cards", "B own cards")
_ALL_DECK_KEYS = ("deck", "A deck", "B deck")
KEYS = ("phase", "turn", "turn player", "start player", "passes in a row", "rum placed this turn", "pending",
        "ship <defense>", "A ships", "A crew", "B ships", "B crew", "removed ships", "removed crew", "points",
        "rum mugs left", "octopus used", "marks", "A hand", "B hand", *_OWN_KEYS, *_ALL_DECK_KEYS,
        "out of the game")


def _per_seat_values(line: Line) -> tuple[str, str]:
    m = _PER_SEAT.match(line.value)
    if m is None:
        raise line.error("expected 'A <value>, B <value>'")
    return m[1], m[2]


def parse_position(text: str, config: ShipsideConfig, rng: np.random.Generator | None = None
                   ) -> ShipsideState:
    """The state written by `format_position`; PositionError names the line that is wrong.

    The parsed state draws its future chance events (the variant's pile shuffles) from `rng`,
    by default a new generator seeded 0.
    """
    lines = PositionText(text, KEYS, example="turn: 3")
    T = tables(config)
    st = ShipsideState.__new__(ShipsideState)
    st.config, st.T = config, T
    st.rng = rng if rng is not None else np.random.default_rng(0)
    st.events, st.n_octo, st.n_rum = [], 0, 0
    st.running = Running()          # the arc before this position is not in it: from here on
    st._forget_board(crew=True)
    _read_turn(lines, st)
    side_text = _read_board(lines, st)
    _read_marks(lines, st)
    cards = Ledger(((label, c) for c, label in enumerate(T.label)), "card")
    _read_zones(lines, st, cards)
    _read_sides(lines, st, cards, side_text)
    st.out = _take_cards(cards, lines.line("out of the game"))
    _check_cards_placed(lines, st, cards)
    _read_pending(lines, st)
    st.acting = _seats_to_act(st)
    problems = st.audit()
    if problems:
        raise PositionError("the position breaks the rules: " + "; ".join(problems))
    return st


def _seats_to_act(st: ShipsideState) -> tuple[int, ...]:
    if st.phase == OVER:
        return ()
    if st.phase == PICK:
        return BOTH
    if st.phase == DIR:
        assert st.pending is not None
        return ALONE[st.pending[0]]
    return ALONE[st.first] if st.phase == MARK else ALONE[st.cur]


def _read_turn(lines: PositionText, st: ShipsideState) -> None:
    phase = lines.line("phase")
    m = re.fullmatch(r"over \((.+)\)", phase.value)
    if m:
        st.phase, st.reason = OVER, choice(phase, END_REASONS, "end of the game", m[1])
    else:
        st.phase, st.reason = choice(phase, PHASES[:-1] + ("over (<reason>)",), "phase"), ""
    st.turn = whole(lines.line("turn"))
    st.cur = seat(lines.line("turn player"), SEATS)
    st.first = seat(lines.line("start player"), SEATS)
    st.passes = whole(lines.line("passes in a row"))
    st.rum_turn = yes_no(lines.line("rum placed this turn"))


def _read_board(lines: PositionText, st: ShipsideState) -> list[tuple[Line, int, int, str]]:
    """The row (ships in play with crew and mugs), captures and removals; returns the text of
    each side's cards, (line, ship, side, text), read with the other cards."""
    T, config = st.T, st.config
    n_ships = len(T.defense)
    ships = Ledger(((str(d), s) for s, d in enumerate(T.defense)), "ship")
    crew = Ledger(((kind, t) for t, kind in enumerate(T.crew_kind)), "crew token")
    st.sides = [[[], []] for _ in range(n_ships)]
    st.tot = [[0, 0] for _ in range(n_ships)]
    st.mugs = [[] for _ in range(n_ships)]
    st.crew = [[] for _ in range(n_ships)]
    st.row = []
    side_text: list[tuple[Line, int, int, str]] = []
    for (defense,), line in lines.matching("ship <defense>"):
        s = ships.take(line, defense)
        st.row.append(s)
        m = _SHIP_LINE.match(line.value)
        if m is None:
            raise line.error("expected 'crew <kinds or -> | rum <seats or -> | A: <cards> = <total> "
                             "| B: <cards> = <total>'")
        st.crew[s] = crew.take_all(line, m[1])
        if len(st.crew[s]) > config.crew.max_per_ship:
            raise line.error(f"{len(st.crew[s])} crew tokens on one ship: crew.max_per_ship is "
                             f"{config.crew.max_per_ship}")
        st.mugs[s] = [seat(line, SEATS, w) for w in words(line, m[2])]
        if len(st.mugs[s]) > config.rum.max_per_ship:
            raise line.error(f"{len(st.mugs[s])} rum mugs on one ship: rum.max_per_ship is "
                             f"{config.rum.max_per_ship}")
        side_text += [(line, s, 0, m[3]), (line, s, 1, m[4])]
    st.captured = [ships.take_all(lines.line(f"{seat_name} ships")) for seat_name in SEATS]
    st.crew_won = [crew.take_all(lines.line(f"{seat_name} crew")) for seat_name in SEATS]
    st.ships_out = ships.take_all(lines.line("removed ships"))
    st.crew_out = crew.take_all(lines.line("removed crew"))
    ships.check_all_listed("each belongs to a ship line, a player's ships or the removed ships")
    crew.check_all_listed("each belongs to a ship, a player's crew or the removed crew")
    _read_counters(lines, st)
    return side_text


def _read_counters(lines: PositionText, st: ShipsideState) -> None:
    """Points (checked against the captures, S54), rum mugs left and octopus use per seat."""
    T, points = st.T, st.config.scoring.ship_points
    st.score = [points * len(st.captured[p]) + sum(T.crew_points[t] for t in st.crew_won[p]) for p in (0, 1)]
    line = lines.line("points")
    if list(_per_seat_values(line)) != [str(x) for x in st.score]:
        raise line.error(f"the ships and crew taken are worth A {st.score[0]}, B {st.score[1]} (S54)")
    line = lines.line("rum mugs left")
    st.rum_left = [whole(line, x) for x in _per_seat_values(line)]
    line = lines.line("octopus used")
    st.octo_spent = [yes_no(line, x) for x in _per_seat_values(line)]


def _read_marks(lines: PositionText, st: ShipsideState) -> None:
    variant, line = st.config.variant.enabled, lines.line("marks")
    if line.value == NOTHING:
        st.marks = None
        if variant and st.phase != MARK:
            raise line.error("with the variant on, each seat has a mark after the mark phase")
    else:
        marks = tuple(choice(line, MARKS, "mark", m) for m in _per_seat_values(line))
        if not variant or st.phase == MARK or marks[0] == marks[1]:
            raise line.error("marks are two different marks, set only in the variant after the mark phase "
                             "(S56)")
        st.marks = marks


def _take_cards(cards: Ledger, line: Line, text: str | None = None, prefer=None) -> list[int]:
    """Cards as written in a hand, deck or pile: no octopus lies on them."""
    ids, octopi = _take_side(cards, line, text, prefer)
    if any(owner >= 0 for owner in octopi):
        raise line.error("an octopus lies only on a card beside a ship: write e.g. 7, -2* or 9")
    return ids


def _take_side(cards: Ledger, line: Line, text: str | None = None,
               prefer=None) -> tuple[list[int], list[int]]:
    """Cards and the seat whose octopus lies on each (-1 for none): 9{A} is a 9 under A's octopus."""
    ids, octopi = [], []
    for word in words(line, text):
        m = _CARD.match(word)
        if m is None:
            raise line.error(f"{word!r} is not a card: write e.g. 7, -2* or 9{{A}}")
        ids.append(cards.take(line, m[1], prefer))
        octopi.append(-1 if m[2] is None else SEATS.index(m[2]))
    return ids, octopi


def _read_zones(lines: PositionText, st: ShipsideState, cards: Ledger) -> None:
    """Hands, own decks (variant picks) and draw piles; identical labels are interchangeable, and
    in the variant a seat's zones get cards of its mark."""
    T, config = st.T, st.config
    mark_ids = [MARKS.index(m) for m in st.marks] if st.marks else None

    def of_seat(p: int):
        return None if mark_ids is None else (lambda c: T.mark[c] == mark_ids[p])

    st.hands = [_take_cards(cards, lines.line(f"{name} hand"), prefer=of_seat(p))
                for p, name in enumerate(SEATS)]
    if st.marks is None:
        for key in _OWN_KEYS:
            lines.refuse(key, "own cards are listed only in the variant once the marks are taken")
        st.own = None
    else:
        st.own = [_take_cards(cards, lines.line(f"{name} own cards"), prefer=of_seat(p))
                  for p, name in enumerate(SEATS)]
    deck_keys = _deck_keys(config)
    for key in _ALL_DECK_KEYS:
        if key not in deck_keys:
            decks = "one deck per seat" if len(deck_keys) == 2 else "one shared deck"
            lines.refuse(key, f"this config has {decks}: the lines are "
                              f"{', '.join(k + ':' for k in deck_keys)}")
    st.piles = [_take_cards(cards, lines.line(k), prefer=of_seat(p) if len(deck_keys) == 2 else None)[::-1]
                for p, k in enumerate(deck_keys)]
    st.pile_of = (0, 1) if len(deck_keys) == 2 else (0, 0)


def _read_sides(lines: PositionText, st: ShipsideState, cards: Ledger, side_text) -> None:
    """The cards beside each ship, their totals and the octopi lying on them (S40)."""
    T, config = st.T, st.config
    st.octo_on, st.octo_at = [-1] * T.n_cards, [-1, -1]
    for line, s, side, text in side_text:
        m = _SIDE.match(text)
        assert m is not None                     # the pattern matches any text
        ids, octopi = _take_side(cards, line, m[1])
        total = sum(T.value[c] for c in ids)
        if m[2] is not None and int(m[2]) != total:
            raise line.error(f"side {SEATS[side]}'s cards add up to {total}, not {m[2]}")
        if len(ids) > config.rules.max_cards_per_side:
            raise line.error(f"side {SEATS[side]} holds {len(ids)} cards: at most "
                             f"{config.rules.max_cards_per_side} (S20)")
        st.sides[s][side], st.tot[s][side] = ids, total
        for card, owner in zip(ids, octopi):
            if owner >= 0:
                if st.octo_at[owner] >= 0:
                    raise line.error(f"{SEATS[owner]}'s octopus lies on two cards")
                st.octo_on[card], st.octo_at[owner] = owner, card
    for p, name in enumerate(SEATS):
        if st.octo_at[p] >= 0 and not st.octo_spent[p]:
            raise lines.line("octopus used").error(f"{name}'s octopus lies on a card, so it has been used")


def _check_cards_placed(lines: PositionText, st: ShipsideState, cards: Ledger) -> None:
    """Every card is somewhere, but in the mark phase (the deck is not split yet); picking (S57)
    leaves both hands equal and short."""
    if st.phase == MARK:
        if len(cards.left()) != st.T.n_cards:
            raise lines.line("phase").error("in the mark phase the deck is not split yet: no card is listed")
    else:
        cards.check_all_listed("each card is in a hand, a deck, own cards, beside a ship or out of the game")
    if st.phase == PICK:
        sizes = [len(h) for h in st.hands]
        if sizes[0] != sizes[1] or sizes[0] >= st.config.setup.hand_size:
            raise lines.line("A hand").error(f"while picking (S57) both hands hold the same number of cards, "
                                             f"fewer than {st.config.setup.hand_size}")


def _read_pending(lines: PositionText, st: ShipsideState) -> None:
    """Phase dir: the play or octopus move waiting for the side owner's direction (S25)."""
    line = lines.line("pending")
    st.pending = None
    if st.phase != DIR:
        if line.value != NOTHING:
            raise line.error("only the dir phase waits for a crew direction: write '-'")
        return
    m = _PENDING.match(line.value)
    if m is None:
        raise line.error("expected e.g. \"A's play to 34/B: B directs the crew (left, right)\" "
                                     "or \"A's octopus move from 30 to 34/B: B directs the crew (left)\"")
    T, config = st.T, st.config
    actor, side, chooser = SEATS.index(m[1]), SEATS.index(m[5]), SEATS.index(m[6])
    if actor != st.cur:
        raise line.error(f"the action is the turn player's ({SEATS[st.cur]})")
    if config.movement.chooser != "owner" or chooser != side or side == actor:
        raise line.error("the owner of the side chooses only with movement.chooser=owner, "
                                     "for a card on the other player's side (S25)")
    s = T.ship_of.get(int(m[4]), -1)
    origin = -1 if m[3] is None else T.ship_of.get(int(m[3]), -1)
    if s not in st.row or (m[3] is not None and origin < 0):
        raise line.error("the ships named must be in play")
    placed = st.sides[s][side]
    if not placed or not T.sym[placed[-1]] or (m[3] is not None and not config.octopus.as_placement):
        raise line.error(f"the last card on {m[4]}/{m[5]} must be a move-sailor card that "
                                     f"counts as placed (S23, S42)")
    dirs = tuple(_WORD_DIRS[w] for w in m[7].split(", "))
    free = st._dirs(s)
    if dirs != free:
        raise line.error(f"the crew on {m[4]} can move {', '.join(DIR_NAMES[d] for d in free)}"
                                     if free else f"the crew on {m[4]} cannot move")
    stage = 0 if config.movement.before_scoring else 2
    st.pending = (chooser, dirs,
                  [actor, s, side, placed[-1], origin, m[3] is None, None, stage])
