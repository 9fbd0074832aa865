"""Text log of a finished (or running) Shipside game: what happened each turn, and the row of
ships after it with both sides, totals, crew, rum mugs and octopi. A crew move's left/right
(S25-S28) is along the row as the log lists it, not a player's own left or right.

The log is rebuilt from the event tuples alone, on a small board model of its own.
"""

from __future__ import annotations

from simkit.games.shipside import rules

SEAT = ("A", "B")


class _Board:
    def __init__(self, T, row_defs, crew, bonus):
        self.T = T
        self.bonus = bonus
        self.row = list(row_defs)               # defenses, in row order (scored ones stay, marked)
        self.scored: dict[int, str] = {}
        self.sides = {d: ([], []) for d in row_defs}
        self.crew = {d: [] for d in row_defs}
        for d, kind in crew:
            self.crew[d].append(kind)
        self.mugs = {d: [] for d in row_defs}
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


def render_log(state) -> str:
    """The game as text a person can follow (`simkit replay`)."""
    T = rules.tables(state.config)
    bonus = state.config.rum.defense_bonus
    lines: list[str] = []
    board = None
    label = T.label

    def flush() -> None:
        if board is not None:
            lines.extend(board.lines())
            lines.append(f"    score A {board.score[0]} - B {board.score[1]}")

    in_turn = False
    for ev in state.events:
        tag = ev[0]
        if tag == "setup":
            board = _Board(T, ev[1], ev[2], bonus)
            lines.append(f"Shipside: row {' '.join(map(str, ev[1]))} (crew 'left'/'right' below "
                         f"mean along this row as listed, not a player's own left or right); crew "
                         + ", ".join(f"{k} on {d}" for d, k in ev[2]) + f"; {SEAT[ev[3]]} starts")
        elif tag == "marks":
            lines.append(f"Variant: A takes the {ev[1][0]} cards, B the {ev[1][1]} cards")
        elif tag == "pick":
            lines.append(f"  {SEAT[ev[1]]} picks {label[ev[2]]}")
        elif tag == "deal":
            hands = [" ".join(label[c] for c in hand) for hand in ev[1:]]
            lines.append(f"Hands: A {hands[0]} | B {hands[1]}")
        elif tag == "turn":
            if in_turn:
                flush()
            in_turn = True
            lines.append(f"Turn {ev[1] + 1}: {SEAT[ev[2]]}")
        elif tag == "play":
            _, p, c, d, a = ev
            board.sides[d][a].append(c)
            side = "own" if a == p else "opponent's"
            lines.append(f"  {SEAT[p]} plays {label[c]} on {d}, {side} side ({SEAT[a]})"
                         + (" [jellyfish]" if T.jelly[c] else ""))
        elif tag == "octopus":
            _, p, c, d1, a1, d2, a2 = ev
            board.sides[d1][a1].remove(c)
            board.sides[d2][a2].append(c)
            for k, o in list(board.octo.items()):
                if o == p:
                    del board.octo[k]
            board.octo[c] = p
            lines.append(f"  {SEAT[p]} uses the octopus: {label[c]} from {d1}/{SEAT[a1]} to {d2}/{SEAT[a2]}")
        elif tag == "move":
            _, token, d1, d2, chooser, dr = ev
            kind = T.crew_kind[token]
            board.crew[d1].remove(kind)
            board.crew[d2].append(kind)
            lines.append(f"  the {kind} on {d1} moves {'left' if dr == 'L' else 'right'} in the row to {d2} "
                         f"({SEAT[chooser]} chooses)")
        elif tag == "stay":
            lines.append(f"  the crew on {ev[1]} cannot move")
        elif tag == "rum":
            _, p, d, when, thr = ev
            board.mugs[d].append(p)
            lines.append(f"  {SEAT[p]} puts a rum mug on {d} ({when} the action): defense {thr}")
        elif tag == "score":
            _, d, w, how, t0, t1, thr, crew = ev
            why = f"A {t0} vs B {t1}, defense {thr}"
            for a in (0, 1):
                for c in board.sides[d][a]:
                    board.octo.pop(c, None)
            if w < 0 and state.config.scoring.full_tie == "stay":
                board.sides[d] = ([], [])
                lines.append(f"  ship {d}: both sides full and tied ({why}); cards cleared, ship stays")
                continue
            board.sides[d] = ([], [])
            board.crew[d] = []
            board.mugs[d] = []
            if w < 0:
                board.scored[d] = "removed (tie)"
                lines.append(f"  ship {d}: both sides full and tied ({why}); ship and crew leave the game")
            else:
                pts = state.config.scoring.ship_points + sum(state.config.crew.points[k] for k in crew)
                board.score[w] += pts
                board.scored[d] = f"captured by {SEAT[w]}"
                by = "threshold" if how == "threshold" else "full sides"
                taken = f" with the {', '.join(crew)}" if crew else ""
                lines.append(f"  {SEAT[w]} captures {d} by {by} ({why}){taken}: +{pts}")
        elif tag == "draw":
            lines.append(f"  {SEAT[ev[1]]} draws")
        elif tag == "pass":
            lines.append(f"  {SEAT[ev[1]]} passes")
        elif tag == "end":
            flush()
            in_turn = False
            a, b = ev[2]
            result = "draw" if a == b else f"{SEAT[0] if a > b else SEAT[1]} wins"
            lines.append(f"Game over ({ev[1]}): A {a} - B {b}, {result}")
    if in_turn:
        flush()
    return "\n".join(lines)


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
