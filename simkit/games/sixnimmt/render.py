"""6 nimmt! event log as text a person can follow (`simkit replay`)."""

from __future__ import annotations

from simkit.engine.seats import seat_label
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import BH, PLAY, ROW_PICK, row_points, target_row

#: what the stars after a card mean, shown when starred cards appear (not again while they stay)
STAR_KEY = "key: each * is one more bullhead (a card is worth 1 + its stars, 55******* is 7)"


def _cards(cards) -> str:
    return " ".join(f"{c}{'*' * (BH[c] - 1)}" if BH[c] > 1 else str(c) for c in cards)


def render_log(state) -> str:
    """Deal, each turn's reveals, placements, pick-ups, round scores and the winner.

    Cards worth more than one bullhead are marked with one '*' per extra bullhead.
    """
    n = state.n
    game = "advanced" if state.config.advanced else "basic"
    lines: list[str] = [f"6 nimmt! with {n} players ({game} game)"]
    rows: list[list[int]] = []
    for ev in state.events:
        kind = ev[0]
        if kind == "deal":
            _, rnd, h, dealt = ev
            hands = [dealt[k * h:(k + 1) * h] for k in range(n)]
            rows = [[c] for c in dealt[n * h:]]
            lines.append(f"\n== Round {rnd} ==")
            for s, hand in enumerate(hands):
                lines.append(f"  {seat_label(s)} hand: {_cards(sorted(hand))}")
            lines.append(_rows_text(rows))
        elif kind == "position":
            _, rnd, turns, rows_now = ev
            rows = [list(r) for r in rows_now]
            lines.append(f"\n== Round {rnd}, from a position after {turns} turns ==")
            lines.append(_rows_text(rows))
        elif kind == "draft_start":
            _, rnd, first, pool = ev
            lines.append(f"\n== Round {rnd} == open draft of cards 1..{len(pool)}, "
                         f"{seat_label(first)} drafts first")
        elif kind == "draft":
            lines.append(_draft_text(ev[1], ev[2]))
        elif kind == "rows":
            rows = [[c] for c in ev[2]]
            lines.append(_rows_text(rows))
        elif kind == "reveal":
            lines.append(_reveal_text(ev[2], ev[3]))
        elif kind == "place":
            _, s, card, r = ev
            rows[r].append(card)
            lines.append(_place_text(s, card, r))
        elif kind == "take":
            _, s, r, taken, card, cause = ev
            lines.append(_take_text(s, r, taken, card, cause))
            rows[r] = [card]
        elif kind == "round_end":
            _, rnd, points, totals = ev
            lines.append(_rows_text(rows))
            lines.append(f"Round {rnd} bullheads: " + _per_seat(points))
            lines.append("Totals: " + _per_seat(totals))
        elif kind == "end":
            _, winners, totals = ev
            names = " and ".join(seat_label(s) for s in winners)
            lines.append(f"\nGame over: {names} {'wins' if len(winners) == 1 else 'share the win'} "
                         f"with {bullheads(totals[winners[0]])}.")
    return "\n".join(lines) + "\n"


def _draft_text(seat: int, card: int) -> str:
    return f"  {seat_label(seat)} drafts {card}"


def _reveal_text(turn: int, plays) -> str:
    shown = ", ".join(f"{seat_label(s)}: {c}" for c, s in plays)
    return f"Turn {turn}: reveal {shown}"


def _place_text(seat: int, card: int, r: int) -> str:
    return f"  {card} ({seat_label(seat)}) -> row {r + 1}"


def _take_text(seat: int, r: int, taken, card: int, cause: str) -> str:
    why = "6th card of a full row" if cause == "full" else "lower than every row end, chooses"
    return (f"  {card} ({seat_label(seat)}) {why}: takes row {r + 1} [{_cards(taken)}] "
            f"= {bullheads(sum(BH[c] for c in taken))}")


def bullheads(count) -> str:
    """`1 bullhead`, `0 bullheads`, `7 bullheads`."""
    return f"{count} bullhead" if count == 1 else f"{count} bullheads"


def _per_seat(values) -> str:
    return ", ".join(f"{seat_label(s)}: {v}" for s, v in enumerate(values))


def _rows_text(rows: list[list[int]]) -> str:
    return "\n".join(f"  row {i + 1}: {_cards(r)}" for i, r in enumerate(rows))


def describe_observation(obs, *, before=None, steps=(), config: SixNimmtConfig | None = None) -> str:
    """What a person sees at `simkit play`: the rows with their bullheads, the hand, the totals,
    and at a row pick (N10) what each row would cost.

    Given `before` (this seat's previous observation) and `steps` (the (seats, actions) of every
    step since, in order: every 6 nimmt! move is public once made), the text starts with what
    happened since: the turn's cards by seat, where each went, who took which row for how many
    bullheads, and at a round change the finished round's bullheads and the totals."""
    lines = _since_lines(obs, before, steps, config or SixNimmtConfig()) if before is not None else []
    lines.append(f"Round {obs.round}, turn {obs.turn + 1}")
    for i, row in enumerate(obs.rows):
        points = row_points(list(row))
        lines.append(f"  row {i + 1}: {_cards(row):<32} {points} bullhead{'s' if points != 1 else ''}")
    if obs.phase == ROW_PICK and obs.revealed:
        card, seat = obs.revealed[0]
        who = "you take" if seat == obs.seat else f"{seat_label(seat)} takes"
        lines.append(f"card {card} is lower than every row end: {who} a whole row (N10)")
        costs = ", ".join(f"row {i + 1} costs {row_points(list(r))}" for i, r in enumerate(obs.rows))
        lines.append(f"  {costs}")
    lines.append(f"your hand: {_cards(obs.hand)}")
    lines.append(f"totals: {_per_seat(obs.totals)}" + (
        f"; this round: {_per_seat(obs.round_points)}" if obs.round_points is not None else ""))
    if obs.pool:
        lines.append(f"draft pool: {_cards(obs.pool)}")
    if _shows_stars(obs) and (before is None or not _shows_stars(before)):
        lines.append(STAR_KEY)
    return "\n".join(lines)


def _shows_stars(obs) -> bool:
    shown = [c for row in obs.rows for c in row] + list(obs.hand) + list(obs.pool or ())
    return any(BH[c] > 1 for c in shown)


def _since_lines(obs, before, steps, config: SixNimmtConfig) -> list[str]:
    """The turn played since `before` (the cards come from the step every seat played in, or
    from the reveal `before` shows at a row pick) and, at a round change, the round's result."""
    if before.phase == ROW_PICK:
        plays = before.revealed
    else:
        plays = next((tuple(sorted(zip(joint, seats))) for seats, joint in steps
                      if before.phase == PLAY and len(seats) > 1), ())
    picks = [action.row for _, joint in steps for action in joint if isinstance(action, TakeRow)]
    lines = _turn_lines(before.rows, plays, picks, config.row_capacity, before.turn + 1) if plays else []
    if obs.round != before.round:
        points = [after - earlier for after, earlier in zip(obs.totals, before.totals)]
        lines.append(f"Round {before.round} over. Bullheads this round: {_per_seat(points)}")
        lines.append(f"Totals: {_per_seat(obs.totals)}")
    # N19: a step of one seat that plays a card is a draft (a row pick is a TakeRow)
    lines += [_draft_text(seats[0], joint[0]) for seats, joint in steps
              if len(seats) == 1 and type(joint[0]) is int]
    return lines + [""] if lines else lines


def _turn_lines(rows, plays, picks: list[int], capacity: int, turn: int) -> list[str]:
    """One turn replayed by N7-N10 from the rows before it: a line per card, as `render_log`
    writes them; stops at a row pick not yet made."""
    rows = [list(row) for row in rows]
    lines = [_reveal_text(turn, plays)]
    picks = list(picks)
    for card, seat in plays:
        r = target_row([row[-1] for row in rows], card)
        if r < 0:
            if not picks:
                break
            r, cause = picks.pop(0), "lowest"
        elif len(rows[r]) >= capacity:
            cause = "full"
        else:
            rows[r].append(card)
            lines.append(_place_text(seat, card, r))
            continue
        lines.append(_take_text(seat, r, rows[r], card, cause))
        rows[r] = [card]
    return lines
