"""`render_log`: a finished (or running) Game of Trains as text a person can follow.

Players are named P1..Pn, P1 the first seat, as people count seats (text positions, a data
format, count from P0). The log is rebuilt from the event tuples alone: trains as rows of
numbers (slot 1..7, a `*` marks a locked slot), the display after each action and after each
setup placement (always after the pair rule T11 has been applied, whose discards are listed just
before), every effect with its parameter, locks placed and voided, pairs discarded, reshuffles,
the win or the turn cap.
"""

from __future__ import annotations

from simkit.engine.seats import seat_number
from simkit.games.trains.rules import EFFECT_NAMES, effect_table


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
    def __init__(self, n: int, trains, table):
        self.n = n
        self.trains = [list(t) for t in trains]
        self.locks = [dict() for _ in range(n)]
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


def render_log(state) -> str:
    events = state.events
    if not events or events[0][0] not in ("start", "position"):
        return "(no events)"
    if events[0][0] == "start":
        _, n, start, trains, table_name = events[0]
        board = _Board(n, trains, effect_table(table_name))
        out = [f"Game of Trains: {n} players, start player {_p(start)}, effect table '{table_name}' "
               f"(trains read slot 1..7 left to right, * = locked slot)",
               "Trains after dealing (T3, descending):"]
        out += [board.train_line(p) for p in range(n)]
        out.append("Setup (T5-T7):")
        turn = 0
    else:
        _, n, start, turn, trains, locks, display, table_name = events[0]
        board = _Board(n, trains, effect_table(table_name))
        board.locks = [{k + 1: c for k, c in enumerate(lk) if c} for lk in locks]
        board.display = [c for c in display if c]
        out = [f"Game of Trains: {n} players from a position after {turn} turns, start player "
               f"{_p(start)}, effect table '{table_name}' (trains read slot 1..7 left to right, "
               f"* = locked slot)", "Trains in the position:"]
        out += [board.train_line(p) for p in range(n)]
        out.append("    " + board.display_text())
    changed: list[int] = []

    def flush():
        if changed:
            for p in dict.fromkeys(changed):
                out.append(board.train_line(p))
            out.append("    " + board.display_text())
            changed.clear()

    for ev in events[1:]:
        kind = ev[0]
        if kind == "setup_draw":
            flush()                  # the previous setup placement, after its pair rule (T7, T11)
            _, p, cards = ev
            if isinstance(cards, int):
                out.append(f"  {_p(p)} draws {cards} card(s)")
            else:
                out.append(f"  {_p(p)} draws {len(cards)} card(s): {_cards(cards)}")
        elif kind == "keep":
            flush()
            _, p, card, gone = ev
            if card is None:
                out.append(f"  {_p(p)} keeps one card and discards {gone} face down")
            else:
                out.append(f"  {_p(p)} keeps {card} and discards {_cards(gone)} face down")
        elif kind == "draw":
            flush()
            turn += 1
            _, p, card = ev
            what = f"draws {card}" if card is not None else "draws a card"
            out.append(f"Turn {turn}: {_p(p)} {what}")
        elif kind == "place":
            _, p, slot, card, old = ev
            board.trains[p][slot - 1] = card
            board.display.append(old)
            out.append(f"  {_p(p)} places {card} in slot {slot}; {old} goes face up to the display")
            changed.append(p)
        elif kind == "use":
            flush()
            turn += 1
            _, p, e, param, card = ev
            if card in board.display:
                board.display.remove(card)
            par = "" if param is None else (f" on slot {param}" if e == 8 else f" i={param}")
            out.append(f"Turn {turn}: {_p(p)} uses card {card}: effect {e} ({EFFECT_NAMES[e]}){par}")
            changed.append(p)
        elif kind == "train":
            _, p, t = ev
            board.trains[p] = list(t)
            changed.append(p)
        elif kind == "remove":
            _, p, slot, card = ev
            board.trains[p][slot - 1] = 0
            board.display.append(card)
            out.append(f"  {_p(p)} loses {card} from slot {slot} to the display")
            changed.append(p)
        elif kind == "protected":
            _, p, slot = ev
            out.append(f"  {_p(p)}'s slot {slot} is locked: nothing removed")
        elif kind == "refill":
            _, p, slot, card = ev
            board.trains[p][slot - 1] = card
            out.append(f"  {_p(p)} refills slot {slot} with {card}")
            changed.append(p)
        elif kind == "pairs":
            _, e, cards = ev
            for c in cards:
                if c in board.display:
                    board.display.remove(c)
            out.append(f"  display pair rule (T11): {_cards(cards)} (effect {e}) discarded face down")
        elif kind == "lock":
            _, p, slot, card = ev
            board.locks[p][slot] = card
            out.append(f"  {_p(p)} locks slot {slot} with card {card}")
        elif kind == "wasted_lock":
            _, p, slot, card = ev
            out.append(f"  slot {slot} of {_p(p)} is already locked: card {card} is discarded")
        elif kind == "void":
            _, p, slot, card = ev
            board.locks[p].pop(slot, None)
            out.append(f"  {_p(p)}'s lock on slot {slot} is voided (T24): card {card} discarded face down")
            changed.append(p)
        elif kind == "reshuffle":
            out.append(f"  the discard pile ({ev[1]} cards) is shuffled into a new draw pile (T13)")
        elif kind == "win":
            flush()
            out.append(f"{_p(ev[1])}'s train is ascending: {_p(ev[1])} wins on turn {ev[2]} (T25)")
        elif kind == "cap":
            flush()
            out.append(f"Turn cap reached after {ev[1]} turns: the game is a draw (T15)")
        else:
            out.append(f"  {ev!r}")
    flush()
    out.append("Final trains:")
    out += [board.train_line(p) for p in range(n)]
    out.append("    " + board.display_text())
    return "\n".join(out)


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
