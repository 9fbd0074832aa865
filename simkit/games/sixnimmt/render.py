"""6 nimmt! event log as text a person can follow (`simkit replay`)."""

from __future__ import annotations

from simkit.engine.seats import seat_label
from simkit.games.sixnimmt.rules import BH, ROW_PICK, row_points


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
            lines.append(f"  {seat_label(ev[1])} drafts {ev[2]}")
        elif kind == "rows":
            rows = [[c] for c in ev[2]]
            lines.append(_rows_text(rows))
        elif kind == "reveal":
            _, rnd, turn, plays = ev
            shown = ", ".join(f"{seat_label(s)}: {c}" for c, s in plays)
            lines.append(f"Turn {turn}: reveal {shown}")
        elif kind == "place":
            _, s, card, r = ev
            rows[r].append(card)
            lines.append(f"  {card} ({seat_label(s)}) -> row {r + 1}")
        elif kind == "take":
            _, s, r, taken, card, cause = ev
            why = "6th card of a full row" if cause == "full" else "lower than every row end, chooses"
            lines.append(f"  {card} ({seat_label(s)}) {why}: takes row {r + 1} [{_cards(taken)}] "
                         f"= {sum(BH[c] for c in taken)} bullheads")
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
                         f"with {totals[winners[0]]} bullheads.")
    return "\n".join(lines) + "\n"


def _per_seat(values) -> str:
    return ", ".join(f"{seat_label(s)}: {v}" for s, v in enumerate(values))


def _rows_text(rows: list[list[int]]) -> str:
    return "\n".join(f"  row {i + 1}: {_cards(r)}" for i, r in enumerate(rows))


def describe_observation(obs) -> str:
    """What a person sees at `simkit play`: the rows with their bullheads, the hand, the totals,
    and at a row pick (N10) what each row would cost."""
    lines = [f"Round {obs.round}, turn {obs.turn + 1}"]
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
    return "\n".join(lines)
