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
from simkit.engine.position_text import Ledger, Line, PositionText, choice, list_text, seat, whole, words
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
_NO_WINNER = "none (turn cap)"


# --------------------------------------------------------------------------- writing

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
              f"{DRAW_KEY}: {list_text(reversed(state.draw))}",
              f"{DISCARD_KEY}: {list_text(state.discard)}"]
    lines += [f"setup discards P{p}: {list_text(h)}" for p, h in enumerate(state.hidden) if h]
    lines += [f"setup draw P{p}: {list_text(h)}" for p, h in enumerate(state.hands) if h]
    lines += [f"kept P{p}: {c}" for p, c in enumerate(state.kept) if c]
    if state.drawn:
        lines.append(f"drawn P{state.cur}: {state.drawn}")
    if state.phase == OVER:
        lines.append(f"winner: {_NO_WINNER if state.winner < 0 else f'P{state.winner}'}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- reading

KEYS = (*_HEADER_KEYS, "P<seat>", *_PILE_KEYS, *(f"{kind} P<seat>" for kind in _SEAT_KEYS), "winner")


def _seat_lines(lines: PositionText, kind: str, n: int) -> list[tuple[int, Line]]:
    """(seat, line) of every `<kind> P<seat>` line, by seat."""
    found = sorted((int(fields[0]), line) for fields, line in lines.matching(f"{kind} P<seat>"))
    for p, line in found:
        if p >= n:
            raise line.error(f"P{p} is not a seat of this {n}-player position")
    return found


def _card(cards: Ledger, line: Line, word: str) -> int:
    """A card, or 0 for '_' (an empty slot)."""
    return 0 if word == "_" else cards.take(line, word)


def _read_train(state: TrainsState, line: Line, cards: Ledger, p: int) -> None:
    slots_text, _, locks_text = line.value.partition("|")
    train = [_card(cards, line, word) for word in words(line, slots_text)]
    if len(train) != 7:
        raise line.error(f"a train has 7 slots (write '_' for an empty one), got {len(train)}")
    state.trains[p] = train
    lock_words = locks_text.split()
    if lock_words and lock_words[0] == "locks":
        lock_words = lock_words[1:]
    elif lock_words:
        raise line.error(f"after '|' expected 'locks SLOT:CARD ...', got {locks_text.strip()!r}")
    for word in lock_words:
        slot, sep, card = word.partition(":")
        if not sep or not slot.isdecimal() or int(slot) not in LOCK_SLOTS:
            raise line.error(f"lock {word!r}: write SLOT:CARD with SLOT 1, 4 or 7 (T24)")
        if state.locks[p][int(slot) - 1]:
            raise line.error(f"slot {slot} has two locks (T24)")
        state.locks[p][int(slot) - 1] = cards.take(line, card)


def _read_display(state: TrainsState, line: Line, cards: Ledger) -> None:
    for word in words(line):
        found = re.fullmatch(r"e(\d):(\S+)", word)
        if not found:
            raise line.error(f"{word!r}: write each display card as eEFFECT:CARD, e.g. e3:41")
        e, card = int(found.group(1)), cards.take(line, found.group(2))
        if state.eff[card] != e:
            raise line.error(f"card {card} has effect {state.eff[card]}, not {e}")
        if state.display[e]:
            raise line.error(f"two cards of effect {e} (T11 keeps at most one)")
        state.display[e] = card
        state._shown |= 1 << e


def _read_piles(state: TrainsState, lines: PositionText, cards: Ledger) -> None:
    """The draw and discard piles, last: "..." stands for every card not named elsewhere."""
    draw, discard = lines.line(DRAW_KEY), lines.line(DISCARD_KEY)
    rest_in = [line for line in (draw, discard) if line.value.split()[-1:] == [REST]]
    if len(rest_in) == 2:
        raise discard.error("'...' may end the draw pile or the discard pile, not both")
    piles = {}
    for line in (draw, discard):
        named = line.value.split()
        if REST in named[:-1]:
            raise line.error("'...' may only be the last word")
        piles[line.key] = [cards.take(line, word) for word in words(line) if word != REST]
    for line in rest_in:
        piles[line.key] += cards.rest(line)
    cards.check_all_listed(f"every card 1..{N_CARDS} is named once, or end the draw or the discard pile "
                           f"with '...'")
    state.draw = piles[DRAW_KEY][::-1]
    state.discard = piles[DISCARD_KEY]


def _one_card(cards: Ledger, line: Line) -> int:
    named = line.value.split()
    if len(named) != 1:
        raise line.error(f"expected one card, got {len(named)}")
    return cards.take(line, named[0])


def _read_pending(state: TrainsState, lines: PositionText, cards: Ledger) -> None:
    for p, line in _seat_lines(lines, "setup draw", state.n):
        state.hands[p] = cards.take_all(line)
    for p, line in _seat_lines(lines, "kept", state.n):
        state.kept[p] = _one_card(cards, line)
    for p, line in _seat_lines(lines, "drawn", state.n):
        if p != state.cur:
            raise line.error(f"only the current seat P{state.cur} can hold a drawn card")
        state.drawn = _one_card(cards, line)


def _read_hidden(state: TrainsState, lines: PositionText) -> None:
    """§8 setup discards: cards of the discard pile (so a ledger of their own: they are named twice)."""
    pile = set(state.discard)
    cards = Ledger.numbered(1, N_CARDS)
    for p, line in _seat_lines(lines, "setup discards", state.n):
        hidden = cards.take_all(line)
        if not set(hidden) <= pile:
            raise line.error(f"cards {sorted(set(hidden) - pile)} are not in the discard pile")
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


def _check_pending(state: TrainsState, lines: PositionText) -> None:
    """The pending cards are exactly the ones the phase waits for."""
    phase, acting = state.phase, state.acting
    for p in range(state.n):
        if state.hands[p] and (phase != KEEP_PHASE or p not in acting or len(state.hands[p]) < 2):
            raise lines.line(f"setup draw P{p}").error("a setup draw of 2 or more cards waits for a keep "
                                                  "decision (T6) of a seat to act in phase keep")
        if phase == KEEP_PHASE and p in acting and not state.hands[p]:
            raise lines.line("phase").error(f"P{p} is to keep a card (T6) but has no 'setup draw P{p}' line")
        kept_ok = (phase == SETUP_PLACE and p in acting) or (phase == KEEP_PHASE and p not in acting
                                                             and state.config.setup_order == "simultaneous")
        if state.kept[p] and not kept_ok:
            raise lines.line(f"kept P{p}").error(f"no kept card waits for placement (T7) in phase {phase}")
        if phase == SETUP_PLACE and p in acting and not state.kept[p]:
            raise lines.line("phase").error(f"P{p} is to place its kept card (T7) but has no 'kept P{p}' "
                                            f"line")
    if state.drawn and phase != PLACE_PHASE:
        raise lines.line(f"drawn P{state.cur}").error(f"no drawn card waits for placement (T9) in phase "
                                                      f"{phase}")
    if phase == PLACE_PHASE and not state.drawn:
        raise lines.line("phase").error(f"P{state.cur} is to place a drawn card (T9) but has no "
                                   f"'drawn P{state.cur}' line")


def _read_result(state: TrainsState, lines: PositionText) -> None:
    line = lines.needs("winner", state.phase == OVER, "the game is over (phase over)")
    if line is None:
        return
    if line.value == _NO_WINNER:
        if state.turns != state.config.max_turns:
            raise line.error(f"a game ends without a winner only at the turn cap max_turns="
                             f"{state.config.max_turns} (T15), not at turn {state.turns}")
        state.capped = True
        return
    state.winner = seat(line, [f"P{p}" for p in range(state.n)])
    if not is_ascending(state.trains[state.winner]):
        raise line.error(f"P{state.winner}'s train is not ascending (T25)")


def parse_position(text: str, config: TrainsConfig, rng: np.random.Generator | None = None) -> TrainsState:
    """The state `text` describes (see the module docstring); PositionError names what is wrong."""
    lines = PositionText(text, KEYS, example="turn: 12")
    trains = lines.indexed("P<seat>")
    n = len(trains)
    state = TrainsState.__new__(TrainsState)
    try:
        state._configure(config, n, rng if rng is not None else np.random.default_rng())
    except ConfigError as exc:
        raise PositionError(f"{n} trains: {exc}") from None
    seats = [f"P{p}" for p in range(n)]
    state.start = seat(lines.line("start"), seats)
    state.order = seat_order(state.start, n)
    state.cur = seat(lines.line("current"), seats)
    state.turns = whole(lines.line("turn"))
    state.phase = PHASES[PHASES.index(choice(lines.line("phase"), PHASES, "phase"))]   # the constant itself
    state.trains = [[] for _ in range(n)]
    state.locks = [[0] * 7 for _ in range(n)]
    cards = Ledger.numbered(1, N_CARDS)
    for p, _, line in trains:
        _read_train(state, line, cards, p)
    _read_display(state, lines.line("display"), cards)
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
