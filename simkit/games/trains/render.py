"""`render_log`: a finished (or running) Game of Trains as text a person can follow.

Players are named P1..Pn, P1 the first seat, as people count seats (text positions, a data
format, count from P0). The log is rebuilt from the event tuples alone: trains as rows of
numbers (slot 1..7, a `*` marks a locked slot), the display after each action and after each
setup placement (always after the pair rule T11 has been applied, whose discards are listed just
before), every effect with its parameter, locks placed and voided, pairs discarded, reshuffles,
the win or the turn cap.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from simkit.engine.seats import seat_number
from simkit.games.trains.rules import EFFECT_NAMES, effect_table

if TYPE_CHECKING:
    from simkit.games.trains.state import TrainsState


def _p(seat: int) -> str:
    """`P1` for the 0-based seat 0: the log counts players as people do."""
    return f"P{seat_number(seat)}"


def _row(train, locks) -> str:
    cells = []
    for k, c in enumerate(train):
        text = f"{c:>2}" if c else " _"
        cells.append(text + ("*" if locks.get(k + 1) else " "))
    return " ".join(cells).rstrip()


def _cards(cards) -> str:
    return ", ".join(str(c) for c in cards)


class _Board:
    def __init__(self, n: int, trains: Sequence[Sequence[int]], table: tuple):
        self.n = n
        self.trains = [list(t) for t in trains]
        self.locks: list[dict[int, int]] = [{} for _ in range(n)]      # per seat: slot -> lock card
        self.display: list[int] = []
        self.eff = table

    def display_text(self) -> str:
        if not self.display:
            return "display: (empty)"
        cards = sorted(self.display, key=lambda c: self.eff[c])
        return "display: " + "  ".join(f"e{self.eff[c]}:{c}" for c in cards)

    def train_line(self, p: int) -> str:
        extra = ""
        if self.locks[p]:
            extra = "   locks: " + ", ".join(f"slot {s} (card {c})" for s, c in sorted(self.locks[p].items()))
        return f"    {_p(p)}: {_row(self.trains[p], self.locks[p])}{extra}"

    def train_lines(self) -> list[str]:
        return [self.train_line(p) for p in range(self.n)]


def _from_start(ev: tuple) -> tuple[_Board, list[str], int]:
    """Board, opening lines and turn count of a log that starts with the deal."""
    _, n, start, trains, table_name = ev
    board = _Board(n, trains, effect_table(table_name))
    out = [f"Game of Trains: {n} players, start player {_p(start)}, effect table '{table_name}' "
           f"(trains read slot 1..7 left to right, * = locked slot)",
           "Trains after dealing (T3, descending):", *board.train_lines(), "Setup (T5-T7):"]
    return board, out, 0


def _from_position(ev: tuple) -> tuple[_Board, list[str], int]:
    """Board, opening lines and turn count of a log that starts from a given position."""
    _, n, start, turn, trains, locks, display, table_name = ev
    board = _Board(n, trains, effect_table(table_name))
    board.locks = [{k + 1: c for k, c in enumerate(lk) if c} for lk in locks]
    board.display = [c for c in display if c]
    out = [f"Game of Trains: {n} players from a position after {turn} turns, start player "
           f"{_p(start)}, effect table '{table_name}' (trains read slot 1..7 left to right, "
           f"* = locked slot)", "Trains in the position:", *board.train_lines(),
           "    " + board.display_text()]
    return board, out, turn


class _Log:
    """The text of one game's log as it is written, with the board it follows: one method per
    event kind (`_WRITERS`). Trains changed by an action are shown once the action is over."""

    def __init__(self, board: _Board, out: list[str], turn: int):
        self.board = board
        self.out = out
        self.turn = turn
        self.changed: list[int] = []             # seats whose train changed since the last flush

    def flush(self) -> None:
        if self.changed:
            for p in dict.fromkeys(self.changed):
                self.out.append(self.board.train_line(p))
            self.out.append("    " + self.board.display_text())
            self.changed.clear()

    def setup_draw(self, ev: tuple) -> None:
        self.flush()                  # the previous setup placement, after its pair rule (T7, T11)
        _, p, cards = ev
        if isinstance(cards, int):
            self.out.append(f"  {_p(p)} draws {cards} card(s)")
        else:
            self.out.append(f"  {_p(p)} draws {len(cards)} card(s): {_cards(cards)}")

    def keep(self, ev: tuple) -> None:
        self.flush()
        _, p, card, gone = ev
        if card is None:
            self.out.append(f"  {_p(p)} keeps one card and discards {gone} face down")
        else:
            self.out.append(f"  {_p(p)} keeps {card} and discards {_cards(gone)} face down")

    def draw(self, ev: tuple) -> None:
        self.flush()
        self.turn += 1
        _, p, card = ev
        what = f"draws {card}" if card is not None else "draws a card"
        self.out.append(f"Turn {self.turn}: {_p(p)} {what}")

    def place(self, ev: tuple) -> None:
        _, p, slot, card, old = ev
        self.board.trains[p][slot - 1] = card
        self.board.display.append(old)
        self.out.append(f"  {_p(p)} places {card} in slot {slot}; {old} goes face up to the display")
        self.changed.append(p)

    def use(self, ev: tuple) -> None:
        self.flush()
        self.turn += 1
        _, p, e, param, card = ev
        if card in self.board.display:
            self.board.display.remove(card)
        par = "" if param is None else (f" on slot {param}" if e == 8 else f" i={param}")
        self.out.append(f"Turn {self.turn}: {_p(p)} uses card {card}: effect {e} ({EFFECT_NAMES[e]}){par}")
        self.changed.append(p)

    def train(self, ev: tuple) -> None:
        _, p, t = ev
        self.board.trains[p] = list(t)
        self.changed.append(p)

    def remove(self, ev: tuple) -> None:
        _, p, slot, card = ev
        self.board.trains[p][slot - 1] = 0
        self.board.display.append(card)
        self.out.append(f"  {_p(p)} loses {card} from slot {slot} to the display")
        self.changed.append(p)

    def protected(self, ev: tuple) -> None:
        _, p, slot = ev
        self.out.append(f"  {_p(p)}'s slot {slot} is locked: nothing removed")

    def refill(self, ev: tuple) -> None:
        _, p, slot, card = ev
        self.board.trains[p][slot - 1] = card
        self.out.append(f"  {_p(p)} refills slot {slot} with {card}")
        self.changed.append(p)

    def pairs(self, ev: tuple) -> None:
        _, e, cards = ev
        for c in cards:
            if c in self.board.display:
                self.board.display.remove(c)
        self.out.append(f"  display pair rule (T11): {_cards(cards)} (effect {e}) discarded face down")

    def lock(self, ev: tuple) -> None:
        _, p, slot, card = ev
        self.board.locks[p][slot] = card
        self.out.append(f"  {_p(p)} locks slot {slot} with card {card}")

    def wasted_lock(self, ev: tuple) -> None:
        _, p, slot, card = ev
        self.out.append(f"  slot {slot} of {_p(p)} is already locked: card {card} is discarded")

    def void(self, ev: tuple) -> None:
        _, p, slot, card = ev
        self.board.locks[p].pop(slot, None)
        self.out.append(f"  {_p(p)}'s lock on slot {slot} is voided (T24): card {card} discarded face down")
        self.changed.append(p)

    def reshuffle(self, ev: tuple) -> None:
        self.out.append(f"  the discard pile ({ev[1]} cards) is shuffled into a new draw pile (T13)")

    def win(self, ev: tuple) -> None:
        self.flush()
        self.out.append(f"{_p(ev[1])}'s train is ascending: {_p(ev[1])} wins on turn {ev[2]} (T25)")

    def cap(self, ev: tuple) -> None:
        self.flush()
        self.out.append(f"Turn cap reached after {ev[1]} turns: the game is a draw (T15)")

    def unknown(self, ev: tuple) -> None:
        self.out.append(f"  {ev!r}")


#: event kind -> the `_Log` method that writes it (`_Log.unknown` for any other kind)
_WRITERS: dict[str, Callable[[_Log, tuple], None]] = {
    "setup_draw": _Log.setup_draw, "keep": _Log.keep, "draw": _Log.draw, "place": _Log.place,
    "use": _Log.use, "train": _Log.train, "remove": _Log.remove, "protected": _Log.protected,
    "refill": _Log.refill, "pairs": _Log.pairs, "lock": _Log.lock, "wasted_lock": _Log.wasted_lock,
    "void": _Log.void, "reshuffle": _Log.reshuffle, "win": _Log.win, "cap": _Log.cap,
}
_OPENINGS = {"start": _from_start, "position": _from_position}


def render_log(state: TrainsState) -> str:
    """The game as text a person can follow (`simkit replay`)."""
    events = state.events
    opening = _OPENINGS.get(events[0][0]) if events else None
    if opening is None:
        return "(no events)"
    log = _Log(*opening(events[0]))
    for ev in events[1:]:
        _WRITERS.get(ev[0], _Log.unknown)(log, ev)
    log.flush()
    return "\n".join([*log.out, "Final trains:", *log.board.train_lines(), "    " + log.board.display_text()])


def describe_observation(obs) -> str:
    """What a person playing one seat sees (`simkit play`): whose turn, every train with its
    locks, the display, the piles and the seat's own cards in hand; players count from P1."""
    lines = [f"you are {_p(obs.seat)}; turn {obs.turn}, {obs.phase}; "
             f"{', '.join(_p(s) for s in obs.to_act) or 'nobody'} to act (start player {_p(obs.start_seat)})"]
    for p, train in enumerate(obs.trains):
        locks = {k + 1: c for k, c in enumerate(obs.locks[p]) if c}
        lines.append(f"  {_p(p)}{' (you)' if p == obs.seat else ''}: {_row(train, locks)}")
    shown = [f"e{e}:{c}" for e, c in enumerate(obs.display) if e and c]
    lines.append("display: " + ("  ".join(shown) or "(empty)"))
    lines.append(f"draw pile: {obs.draw_size} cards; discard pile: {obs.discard_size} cards")
    own = [("your setup draw", _cards(obs.hand) if obs.hand else ""),
           ("kept, to place", obs.kept or ""), ("drawn, to place", obs.drawn or "")]
    lines += [f"{name}: {value}" for name, value in own if value]
    return "\n".join(lines)
