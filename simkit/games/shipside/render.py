"""Text log of a finished (or running) Shipside game: what happened each turn, and the row of
ships after it with both sides, totals, crew, rum mugs and octopi. A crew move's left/right
(S25-S28) is along the row as the log lists it, not a player's own left or right.

The log is rebuilt from the event tuples alone, on a small board model of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from simkit.games.shipside import rules

if TYPE_CHECKING:
    from simkit.games.shipside.config import ShipsideConfig
    from simkit.games.shipside.state import ShipsideState

SEAT = ("A", "B")


class _Board:
    def __init__(self, T: rules.Tables, row_defs: Sequence[int], crew: Sequence[tuple[int, str]], bonus: int):
        self.T = T
        self.bonus = bonus
        self.row = list(row_defs)               # defenses, in row order (scored ones stay, marked)
        self.scored: dict[int, str] = {}
        self.sides: dict[int, tuple[list[int], list[int]]] = {d: ([], []) for d in row_defs}
        self.crew: dict[int, list[str]] = {d: [] for d in row_defs}
        for d, kind in crew:
            self.crew[d].append(kind)
        self.mugs: dict[int, list[int]] = {d: [] for d in row_defs}
        self.octo: dict[int, int] = {}          # card -> owner seat
        self.score = [0, 0]

    def card(self, c: int) -> str:
        text = self.T.label[c]
        if self.octo.get(c, -1) >= 0:
            text += "{" + SEAT[self.octo[c]] + "}"
        return text

    def lines(self) -> list[str]:
        out = []
        for d in self.row:
            if d in self.scored:
                out.append(f"    ship {d:>3}  -- {self.scored[d]}")
                continue
            thr = rules.threshold(d, len(self.mugs[d]), self.bonus)
            head = f"    ship {d:>3}"
            head += f" (defense {thr}, rum {'+'.join(SEAT[m] for m in self.mugs[d])})" if self.mugs[d] else ""
            crew = ",".join(self.crew[d]) or "-"
            parts = []
            for a in (0, 1):
                cards = self.sides[d][a]
                total = sum(self.T.value[c] for c in cards)
                shown = " ".join(self.card(c) for c in cards) or "."
                parts.append(f"{SEAT[a]}: {shown} = {total}")
            out.append(f"{head:<31} crew {crew:<8} | {parts[0]:<28} | {parts[1]}")
        return out


class _Log:
    """The text of one game's log as it is written, with the board it follows: one method per
    event kind (`_WRITERS`)."""

    def __init__(self, config: ShipsideConfig):
        self.config = config
        self.T = rules.tables(config)
        self.lines: list[str] = []
        self.in_turn = False
        self._board: _Board | None = None

    @property
    def board(self) -> _Board:
        if self._board is None:
            raise ValueError("the Shipside log has an event before its setup event")
        return self._board

    def flush(self) -> None:
        """The row of ships and the score, after a turn."""
        if self._board is not None:
            self.lines.extend(self._board.lines())
            self.lines.append(f"    score A {self._board.score[0]} - B {self._board.score[1]}")

    def setup(self, ev: tuple) -> None:
        _, row, crew, first = ev
        self._board = _Board(self.T, row, crew, self.config.rum.defense_bonus)
        self.lines.append(f"Shipside: row {' '.join(map(str, row))} (crew 'left'/'right' below "
                          f"mean along this row as listed, not a player's own left or right); crew "
                          + ", ".join(f"{k} on {d}" for d, k in crew) + f"; {SEAT[first]} starts")

    def marks(self, ev: tuple) -> None:
        self.lines.append(f"Variant: A takes the {ev[1][0]} cards, B the {ev[1][1]} cards")

    def pick(self, ev: tuple) -> None:
        self.lines.append(f"  {SEAT[ev[1]]} picks {self.T.label[ev[2]]}")

    def deal(self, ev: tuple) -> None:
        hands = [" ".join(self.T.label[c] for c in hand) for hand in ev[1:]]
        self.lines.append(f"Hands: A {hands[0]} | B {hands[1]}")

    def turn(self, ev: tuple) -> None:
        if self.in_turn:
            self.flush()
        self.in_turn = True
        self.lines.append(f"Turn {ev[1] + 1}: {SEAT[ev[2]]}")

    def play(self, ev: tuple) -> None:
        _, p, c, d, a = ev
        self.board.sides[d][a].append(c)
        side = "own" if a == p else "opponent's"
        self.lines.append(f"  {SEAT[p]} plays {self.T.label[c]} on {d}, {side} side ({SEAT[a]})"
                          + (" [jellyfish]" if self.T.jelly[c] else ""))

    def octopus(self, ev: tuple) -> None:
        _, p, c, d1, a1, d2, a2 = ev
        board = self.board
        board.sides[d1][a1].remove(c)
        board.sides[d2][a2].append(c)
        for k, o in list(board.octo.items()):
            if o == p:
                del board.octo[k]
        board.octo[c] = p
        self.lines.append(f"  {SEAT[p]} uses the octopus: {self.T.label[c]} from {d1}/{SEAT[a1]} "
                          f"to {d2}/{SEAT[a2]}")

    def move(self, ev: tuple) -> None:
        _, token, d1, d2, chooser, dr = ev
        kind = self.T.crew_kind[token]
        self.board.crew[d1].remove(kind)
        self.board.crew[d2].append(kind)
        self.lines.append(f"  the {kind} on {d1} moves {'left' if dr == 'L' else 'right'} in the row to {d2} "
                          f"({SEAT[chooser]} chooses)")

    def stay(self, ev: tuple) -> None:
        self.lines.append(f"  the crew on {ev[1]} cannot move")

    def rum(self, ev: tuple) -> None:
        _, p, d, when, thr = ev
        self.board.mugs[d].append(p)
        self.lines.append(f"  {SEAT[p]} puts a rum mug on {d} ({when} the action): defense {thr}")

    def score(self, ev: tuple) -> None:
        _, d, w, how, t0, t1, thr, crew = ev
        why = f"A {t0} vs B {t1}, defense {thr}"
        board = self.board
        for a in (0, 1):
            for c in board.sides[d][a]:
                board.octo.pop(c, None)
        board.sides[d] = ([], [])
        if w < 0 and self.config.scoring.full_tie == "stay":
            self.lines.append(f"  ship {d}: both sides full and tied ({why}); cards cleared, ship stays")
            return
        board.crew[d] = []
        board.mugs[d] = []
        if w < 0:
            board.scored[d] = "removed (tie)"
            self.lines.append(f"  ship {d}: both sides full and tied ({why}); ship and crew leave the game")
            return
        pts = self.config.scoring.ship_points + sum(self.config.crew.points[k] for k in crew)
        board.score[w] += pts
        board.scored[d] = f"captured by {SEAT[w]}"
        by = "threshold" if how == "threshold" else "full sides"
        taken = f" with the {', '.join(crew)}" if crew else ""
        self.lines.append(f"  {SEAT[w]} captures {d} by {by} ({why}){taken}: +{pts}")

    def draw(self, ev: tuple) -> None:
        self.lines.append(f"  {SEAT[ev[1]]} draws")

    def pass_(self, ev: tuple) -> None:
        self.lines.append(f"  {SEAT[ev[1]]} passes")

    def end(self, ev: tuple) -> None:
        self.flush()
        self.in_turn = False
        a, b = ev[2]
        result = "draw" if a == b else f"{SEAT[0] if a > b else SEAT[1]} wins"
        self.lines.append(f"Game over ({ev[1]}): A {a} - B {b}, {result}")


#: event tag -> the `_Log` method that writes it (other tags are not shown)
_WRITERS: dict[str, Callable[[_Log, tuple], None]] = {
    "setup": _Log.setup, "marks": _Log.marks, "pick": _Log.pick, "deal": _Log.deal, "turn": _Log.turn,
    "play": _Log.play, "octopus": _Log.octopus, "move": _Log.move, "stay": _Log.stay, "rum": _Log.rum,
    "score": _Log.score, "draw": _Log.draw, "pass": _Log.pass_, "end": _Log.end,
}


def render_log(state: ShipsideState) -> str:
    """The game as text a person can follow (`simkit replay`)."""
    log = _Log(state.config)
    for ev in state.events:
        write = _WRITERS.get(ev[0])
        if write is not None:
            write(log, ev)
    if log.in_turn:
        log.flush()
    return "\n".join(log.lines)


def _side(cards) -> str:
    return " ".join(f"{s}{'*' if sym else ''}{'{' + SEAT[o] + '}' if o >= 0 else ''}"
                    for s, sym, o in cards) or "-"


def describe_observation(obs) -> str:
    """What a person playing one side sees (`simkit play`): the row of ships with both sides'
    cards (`*` a symbol card, `{A}` an octopus), crew and rum mugs; scores, rum, octopi, piles
    and the own hand. Seats are A and B, as in the log."""
    me, other = SEAT[obs.seat], SEAT[1 - obs.seat]
    lines = [f"you are {me}; turn {obs.turn}, {obs.phase}; {SEAT[obs.to_move]} to move",
             f"score A {obs.scores[0]}, B {obs.scores[1]}; rum left A {obs.rum_left[0]}, "
             f"B {obs.rum_left[1]}; octopus A {obs.octopus[0]}, B {obs.octopus[1]}"]
    for ship in obs.row:
        extra = "".join([f"  crew {' '.join(ship.crew)}" if ship.crew else "",
                         f"  rum {' '.join(SEAT[m] for m in ship.mugs)}" if ship.mugs else ""])
        lines.append(f"  ship {ship.defense:>3} (needs {ship.threshold}): A {_side(ship.cards[0])} = "
                     f"{ship.totals[0]} | B {_side(ship.cards[1])} = {ship.totals[1]}{extra}")
    lines.append(f"draw pile{'s' if len(obs.piles) > 1 else ''}: {' / '.join(map(str, obs.piles))}; "
                 f"{other} holds {obs.opp_hand} cards")
    lines.append("your hand: " + (" ".join(f"{s}{'*' if sym else ''}" for s, sym in obs.hand) or "-"))
    if obs.pending_dirs:
        lines.append(f"the crew of ship {obs.pending_ship} moves: {' or '.join(obs.pending_dirs)}")
    return "\n".join(lines)
