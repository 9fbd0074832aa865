"""`render_log`: a finished game as text — the table as melds, racks as sorted tiles, each play's diff."""

from __future__ import annotations

from collections import Counter

from simkit.engine.seats import seat_label, seat_number
from simkit.games.rummikub.tiles import table_text, tile_text


def _tiles(ts) -> str:
    return " ".join(tile_text(t) for t in ts) if ts else "-"


def _diff(before, after) -> list[str]:
    """Melds that left the table and melds that appeared (unchanged melds are not listed)."""
    b, a = Counter(before), Counter(after)
    gone = [m for m in before if b[m] > a[m]]
    new = [m for m in after if a[m] > b[m]]
    out = []
    if gone:
        out.append("      broke up: " + " ".join(str(m) for m in gone))
    if new:
        out.append("      formed:   " + " ".join(str(m) for m in new))
    return out


def render_log(state) -> str:
    lines: list[str] = []
    n = state.n
    table = ()
    racks: list[list[int]] = []
    for ev in state.events:
        kind = ev[0]
        if kind == "hand_start":
            _, hand, start, dealt = ev
            racks = [list(r) for r in dealt]
            table = ()
            lines.append(f"=== Hand {hand + 1}: {n} players, {seat_label(start)} starts ===")
            for s, r in enumerate(dealt):
                lines.append(f"  {seat_label(s)} rack: {_tiles(r)}")
        elif kind == "position":
            _, hand, to_move, held, table = ev
            racks = [list(r) for r in held]           # play goes on from these racks and table
            who = "match over" if to_move is None else f"{seat_label(to_move)} to move"
            lines.append(f"=== Position in hand {hand + 1}: {n} players, {who} ===")
            for s, r in enumerate(held):
                lines.append(f"  {seat_label(s)} rack: {_tiles(r)}")
            lines.append(f"  table: {table_text(table)}")
        elif kind == "draw":
            _, seat, tile = ev
            racks[seat].append(tile)
            lines.append(f"{seat_label(seat)} draws {tile_text(tile)}")
        elif kind == "pass":
            lines.append(f"{seat_label(ev[1])} passes (pool empty)")
        elif kind == "illegal":
            _, seat, rule, meld, msg, drawn = ev
            racks[seat].extend(drawn)
            where = f" meld {meld}" if meld is not None else ""
            lines.append(f"{seat_label(seat)} INVALID submission ({rule}{where}: {msg}); table restored, "
                         f"draws {len(drawn)}: {_tiles(drawn)}")
        elif kind == "initial_meld":
            _, seat, melds, value = ev
            placed = [t for m in melds for t in m.tiles]
            racks[seat] = [t for t in racks[seat] if t not in set(placed)]
            table = table + tuple(melds)
            lines.append(f"{seat_label(seat)} INITIAL MELD ({value} points): "
                         f"{' '.join(str(m) for m in melds)}")
            lines.append(f"      rack now: {_tiles(sorted(racks[seat], key=_key))}")
            lines.append(f"      table: {table_text(table)}")
        elif kind == "play":
            _, seat, before, after, added = ev
            racks[seat] = [t for t in racks[seat] if t not in set(added)]
            lines.append(f"{seat_label(seat)} plays {_tiles(added)}")
            lines.extend(_diff(before, after))
            lines.append(f"      rack now: {_tiles(sorted(racks[seat], key=_key))}")
            lines.append(f"      table: {table_text(after)}")
            table = after
        elif kind == "hand_end":
            _, hand, reason, winners, scores, values, final_racks = ev
            how = "went out (Rummikub!)" if reason == "out" else "pool exhausted, lowest rack wins"
            lines.append(f"=== Hand {hand + 1} over: {how}; winner(s) {', '.join(map(str, winners))} ===")
            for s in range(n):
                lines.append(f"  {seat_label(s)}: rack {_tiles(final_racks[s])} (value {values[s]}) "
                             f"score {scores[s]:+g}")
    if state.is_over():
        lines.append("Final scores: " + ", ".join(f"{seat_label(s)} {v:+g}" for s, v in enumerate(state.cum)))
    return "\n".join(lines)


def _key(t: int):
    return ((t >> 1) // 13 if t < 104 else 9, (t >> 1) % 13, t)


def describe_observation(obs) -> str:
    """A player's view for `simkit play`: the table as melds, the rack as sorted tiles."""
    from simkit.games.rummikub.tiles import sorted_tiles, table_text, tile_text

    lines = [f"hand {obs.hand + 1}, your seat {seat_number(obs.seat)}, pool {obs.pool_size} tiles, "
             f"racks {' '.join(map(str, obs.rack_sizes))}, scores {' '.join(f'{x:g}' for x in obs.scores)}",
             f"opened: {' '.join('yes' if o else 'no' for o in obs.opened)}",
             f"table: {table_text(obs.table)}",
             f"your rack: {' '.join(tile_text(t) for t in sorted_tiles(obs.rack))}",
             "moves: draw | pass | meld Run[R10 R11 R12] ... | play <the whole new table>"]
    return "\n".join(lines)
