"""Text positions: a Game of Trains state as readable lines, and back.

    start: P1
    turn: 12
    phase: turn
    current: P0
    P0: 57 70 22 30 25 13 10 | locks 7:60
    P1: 67 63 15 62 32 7 5
    display: e1:4 e3:9
    draw pile (top first): 33 84 47 ...
    discard pile (bottom first): 9 41 83
    setup discards P1: 83

Trains read slot 1..7 ("_" for a slot a won game left empty); a lock is "slot:card". Pending
cards get their own lines: "setup draw P2: ..." (T6, to keep one), "kept P2: c" (T7, to place),
"drawn P0: c" (T9, to place); a finished game ends with "winner: P1" or "winner: none (turn cap)".
"setup discards P1" names the cards of the discard pile only P1 knows (§8). Every card 1..84 is
named once; when writing a position by hand, "..." at the end of the draw or the discard pile
stands for every card not named elsewhere, in ascending order.

Not in a position: the event history (a parsed state's log starts with one "position" event) and
the reshuffle count; the chance generator is fresh unless `rng` is given.
"""

from __future__ import annotations

import re

import numpy as np

from simkit.engine.errors import ConfigError, PositionError
from simkit.games.trains.config import TrainsConfig
from simkit.games.trains.rules import (
    KEEP_PHASE,
    LOCK_SLOTS,
    N_CARDS,
    OVER,
    PHASES,
    PLACE_PHASE,
    SETUP_PLACE,
    is_ascending,
    seat_order,
)
from simkit.games.trains.state import TrainsState

DRAW_KEY = "draw pile (top first)"
DISCARD_KEY = "discard pile (bottom first)"
REST = "..."
_HEADER_KEYS = ("start", "turn", "phase", "current")
_PILE_KEYS = ("display", DRAW_KEY, DISCARD_KEY)
_SEAT_KEYS = ("setup discards", "setup draw", "kept", "drawn")   # "<key> P<seat>"
_SEAT_KEY = re.compile(r"(setup discards|setup draw|kept|drawn) P(\d+)")
_TRAIN_KEY = re.compile(r"P(\d+)")
_NO_WINNER = "none (turn cap)"


# --------------------------------------------------------------------------- writing

def _cards(cards) -> str:
    return " ".join(map(str, cards)) or "-"


def _train_line(state, p: int) -> str:
    slots = " ".join(str(c) if c else "_" for c in state.trains[p])
    locks = [f"{k + 1}:{c}" for k, c in enumerate(state.locks[p]) if c]
    return f"P{p}: {slots}" + (" | locks " + " ".join(locks) if locks else "")


def format_position(state: TrainsState) -> str:
    lines = [f"start: P{state.start}", f"turn: {state.turns}",
             f"phase: {state.phase}", f"current: P{state.cur}"]
    lines += [_train_line(state, p) for p in range(state.n)]
    shown = [f"e{e}:{state.display[e]}" for e in range(1, 9) if state.display[e]]
    lines += [f"display: {' '.join(shown) or '-'}",
              f"{DRAW_KEY}: {_cards(reversed(state.draw))}",
              f"{DISCARD_KEY}: {_cards(state.discard)}"]
    lines += [f"setup discards P{p}: {_cards(h)}" for p, h in enumerate(state.hidden) if h]
    lines += [f"setup draw P{p}: {_cards(h)}" for p, h in enumerate(state.hands) if h]
    lines += [f"kept P{p}: {c}" for p, c in enumerate(state.kept) if c]
    if state.drawn:
        lines.append(f"drawn P{state.cur}: {state.drawn}")
    if state.phase == OVER:
        lines.append(f"winner: {_NO_WINNER if state.winner < 0 else f'P{state.winner}'}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- reading

class _Lines:
    """The `key: value` lines of a position, each remembered with its line number."""

    def __init__(self, text: str):
        self.lines: dict[str, tuple[int, str]] = {}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            key, sep, value = line.partition(":")
            key = " ".join(key.split())
            if not sep or not self._known(key):
                raise PositionError(
                    f"line {number} ({line.strip()!r}): expected 'KEY: VALUE' with KEY one of "
                    f"{', '.join(_HEADER_KEYS + _PILE_KEYS)}, winner, P<seat> (a train), "
                    f"or {', '.join(k + ' P<seat>' for k in _SEAT_KEYS)}")
            if key in self.lines:
                raise PositionError(f"line {number}: {key!r} is given twice (first on line "
                                    f"{self.lines[key][0]})")
            self.lines[key] = (number, value.strip())

    @staticmethod
    def _known(key: str) -> bool:
        return (key in _HEADER_KEYS or key in _PILE_KEYS or key == "winner"
                or bool(_TRAIN_KEY.fullmatch(key) or _SEAT_KEY.fullmatch(key)))

    def error(self, key: str, message: str) -> PositionError:
        number = self.lines[key][0] if key in self.lines else None
        where = f"line {number} ({key})" if number else f"line {key!r}"
        return PositionError(f"{where}: {message}")

    def value(self, key: str) -> str:
        if key not in self.lines:
            raise PositionError(f"the line {key!r} is missing")
        return self.lines[key][1]

    def seat(self, key: str, n: int) -> int:
        found = re.fullmatch(r"P(\d+)", self.value(key))
        if not found or int(found.group(1)) >= n:
            raise self.error(key, f"expected a seat P0..P{n - 1}, got {self.value(key)!r}")
        return int(found.group(1))

    def number(self, key: str) -> int:
        text = self.value(key)
        if not text.isdecimal():
            raise self.error(key, f"expected a whole number >= 0, got {text!r}")
        return int(text)

    def seat_lines(self, kind: str) -> list[tuple[int, str]]:
        """(seat, key) of every `<kind> P<seat>` line."""
        found = []
        for key in self.lines:
            m = _SEAT_KEY.fullmatch(key)
            if m and m.group(1) == kind:
                found.append((int(m.group(2)), key))
        return sorted(found)


class _Cards:
    """Reads card numbers, remembering where each was named so a repeat names both lines."""

    def __init__(self, lines: _Lines):
        self.lines = lines
        self.where: dict[int, str] = {}

    def read(self, key: str, text: str | None = None, *, empty: str = "") -> list[int]:
        text = self.lines.value(key) if text is None else text
        cards = []
        for word in text.split():
            if word == "-" and len(text.split()) == 1:
                break
            cards.append(self.card(key, word, empty))
        return cards

    def card(self, key: str, word: str, empty: str = "") -> int:
        if word == empty:
            return 0
        if not word.isdecimal() or not 1 <= int(word) <= N_CARDS:
            raise self.lines.error(key, f"unknown card {word!r}: cards are 1..{N_CARDS}")
        card = int(word)
        if card in self.where:
            raise self.lines.error(key, f"card {card} is named twice (also in {self.where[card]})")
        self.where[card] = key
        return card


def _read_train(state: TrainsState, lines: _Lines, cards: _Cards, p: int) -> None:
    key = f"P{p}"
    slots_text, _, locks_text = lines.value(key).partition("|")
    train = cards.read(key, slots_text, empty="_")
    if len(train) != 7:
        raise lines.error(key, f"a train has 7 slots (write '_' for an empty one), got {len(train)}")
    state.trains[p] = train
    words = locks_text.split()
    if words and words[0] == "locks":
        words = words[1:]
    elif words:
        raise lines.error(key, f"after '|' expected 'locks SLOT:CARD ...', got {locks_text.strip()!r}")
    for word in words:
        slot, sep, card = word.partition(":")
        if not sep or not slot.isdecimal() or int(slot) not in LOCK_SLOTS:
            raise lines.error(key, f"lock {word!r}: write SLOT:CARD with SLOT 1, 4 or 7 (T24)")
        if state.locks[p][int(slot) - 1]:
            raise lines.error(key, f"slot {slot} has two locks (T24)")
        state.locks[p][int(slot) - 1] = cards.card(key, card)


def _read_display(state: TrainsState, lines: _Lines, cards: _Cards) -> None:
    for word in lines.value("display").split():
        if word == "-":
            continue
        found = re.fullmatch(r"e(\d):(\S+)", word)
        if not found:
            raise lines.error("display", f"{word!r}: write each display card as eEFFECT:CARD, e.g. e3:41")
        e, card = int(found.group(1)), cards.card("display", found.group(2))
        if state.eff[card] != e:
            raise lines.error("display", f"card {card} has effect {state.eff[card]}, not {e}")
        if state.display[e]:
            raise lines.error("display", f"two cards of effect {e} (T11 keeps at most one)")
        state.display[e] = card
        state._shown |= 1 << e


def _read_piles(state: TrainsState, lines: _Lines, cards: _Cards) -> None:
    """The draw and discard piles, last: "..." stands for every card not named elsewhere."""
    rest_in = [key for key in (DRAW_KEY, DISCARD_KEY) if lines.value(key).split()[-1:] == [REST]]
    if len(rest_in) == 2:
        raise lines.error(DISCARD_KEY, "'...' may end the draw pile or the discard pile, not both")
    piles = {}
    for key in (DRAW_KEY, DISCARD_KEY):
        words = lines.value(key).split()
        if REST in words[:-1]:
            raise lines.error(key, "'...' may only be the last word")
        piles[key] = cards.read(key, " ".join(w for w in words if w != REST) or "-")
    missing = [c for c in range(1, N_CARDS + 1) if c not in cards.where]
    if rest_in:
        piles[rest_in[0]] += missing
    elif missing:
        raise PositionError(f"cards {', '.join(map(str, missing))} are in no zone: every card 1..84 "
                            f"is named once (or end the draw or the discard pile with '...')")
    state.draw = piles[DRAW_KEY][::-1]
    state.discard = piles[DISCARD_KEY]


def _one_card(lines: _Lines, cards: _Cards, key: str) -> int:
    words = lines.value(key).split()
    if len(words) != 1:
        raise lines.error(key, f"expected one card, got {len(words)}")
    return cards.card(key, words[0])


def _read_pending(state: TrainsState, lines: _Lines, cards: _Cards) -> None:
    n = state.n
    for kind in ("setup draw", "kept", "drawn"):
        for p, key in lines.seat_lines(kind):
            if p >= n:
                raise lines.error(key, f"P{p} is not a seat of this {n}-player position")
            if kind == "setup draw":
                state.hands[p] = cards.read(key)
            elif kind == "kept":
                state.kept[p] = _one_card(lines, cards, key)
            elif p != state.cur:
                raise lines.error(key, f"only the current seat P{state.cur} can hold a drawn card")
            else:
                state.drawn = _one_card(lines, cards, key)


def _read_hidden(state: TrainsState, lines: _Lines) -> None:
    """§8 setup discards: cards of the discard pile (so a fresh _Cards: they are named twice)."""
    pile = set(state.discard)
    reader = _Cards(lines)
    for p, key in lines.seat_lines("setup discards"):
        if p >= state.n:
            raise lines.error(key, f"P{p} is not a seat of this {state.n}-player position")
        hidden = reader.read(key)
        if not set(hidden) <= pile:
            raise lines.error(key, f"cards {sorted(set(hidden) - pile)} are not in the discard pile")
        state.hidden[p] = hidden


def _seats_to_act(state: TrainsState) -> tuple[int, ...]:
    """Who decides in this phase, as the engine sets `acting`."""
    phase = state.phase
    if phase == OVER:
        return ()
    if state.config.setup_order == "simultaneous" and phase == KEEP_PHASE:
        return tuple(p for p in state.order if state.hands[p])
    if state.config.setup_order == "simultaneous" and phase == SETUP_PLACE:
        return state.order
    return (state.cur,)


def _check_pending(state: TrainsState, lines: _Lines) -> None:
    """The pending cards are exactly the ones the phase waits for."""
    phase, acting = state.phase, state.acting
    for p in range(state.n):
        if state.hands[p] and (phase != KEEP_PHASE or p not in acting or len(state.hands[p]) < 2):
            raise lines.error(f"setup draw P{p}", "a setup draw of 2 or more cards waits for a keep "
                                                  "decision (T6) of a seat to act in phase keep")
        if phase == KEEP_PHASE and p in acting and not state.hands[p]:
            raise lines.error("phase", f"P{p} is to keep a card (T6) but has no 'setup draw P{p}' line")
        kept_ok = (phase == SETUP_PLACE and p in acting) or (phase == KEEP_PHASE and p not in acting
                                                             and state.config.setup_order == "simultaneous")
        if state.kept[p] and not kept_ok:
            raise lines.error(f"kept P{p}", f"no kept card waits for placement (T7) in phase {phase}")
        if phase == SETUP_PLACE and p in acting and not state.kept[p]:
            raise lines.error("phase", f"P{p} is to place its kept card (T7) but has no 'kept P{p}' line")
    if state.drawn and phase != PLACE_PHASE:
        raise lines.error(f"drawn P{state.cur}", f"no drawn card waits for placement (T9) in phase {phase}")
    if phase == PLACE_PHASE and not state.drawn:
        raise lines.error("phase", f"P{state.cur} is to place a drawn card (T9) but has no "
                                   f"'drawn P{state.cur}' line")


def _read_result(state: TrainsState, lines: _Lines) -> None:
    if state.phase != OVER:
        if "winner" in lines.lines:
            raise lines.error("winner", "only a finished game (phase over) has a winner line")
        return
    text = lines.value("winner")
    if text == _NO_WINNER:
        if state.turns != state.config.max_turns:
            raise lines.error("winner", f"a game ends without a winner only at the turn cap max_turns="
                                        f"{state.config.max_turns} (T15), not at turn {state.turns}")
        state.capped = True
        return
    state.winner = lines.seat("winner", state.n)
    if not is_ascending(state.trains[state.winner]):
        raise lines.error("winner", f"P{state.winner}'s train is not ascending (T25)")


def parse_position(text: str, config: TrainsConfig, rng: np.random.Generator | None = None) -> TrainsState:
    """The state `text` describes (see the module docstring); PositionError names what is wrong."""
    lines = _Lines(text)
    n = len([key for key in lines.lines if _TRAIN_KEY.fullmatch(key)])
    missing = [f"P{p}" for p in range(n) if f"P{p}" not in lines.lines]
    if n == 0 or missing:
        raise PositionError(f"the trains must be lines P0, P1, ... (one per seat); missing "
                            f"{', '.join(missing) or 'P0'}")
    state = TrainsState.__new__(TrainsState)
    try:
        state._configure(config, n, rng if rng is not None else np.random.default_rng())
    except ConfigError as exc:
        raise PositionError(f"{n} trains: {exc}") from None
    state.start = lines.seat("start", n)
    state.order = seat_order(state.start, n)
    state.cur = lines.seat("current", n)
    state.turns = lines.number("turn")
    phase = lines.value("phase")
    if phase not in PHASES:
        raise lines.error("phase", f"unknown phase {phase!r}: one of {', '.join(PHASES)}")
    state.phase = PHASES[PHASES.index(phase)]        # the constant itself, for identity-fast ==
    state.trains = [[] for _ in range(n)]
    state.locks = [[0] * 7 for _ in range(n)]
    cards = _Cards(lines)
    for p in range(n):
        _read_train(state, lines, cards, p)
    _read_display(state, lines, cards)
    _read_pending(state, lines, cards)
    _read_piles(state, lines, cards)
    _read_hidden(state, lines)
    state.acting = _seats_to_act(state)
    _check_pending(state, lines)
    _read_result(state, lines)
    problems = state.audit()
    if problems:
        raise PositionError("the position breaks the rules: " + "; ".join(problems))
    state._emit(("position", n, state.start, state.turns, tuple(map(tuple, state.trains)),
                 tuple(map(tuple, state.locks)), tuple(state.display), config.effect_table))
    return state
