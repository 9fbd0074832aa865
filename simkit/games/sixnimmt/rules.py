"""6 nimmt! rules as pure functions over plain ints and lists (spec: shared/rules/sixnimmt.md)."""

from __future__ import annotations


def bullheads(v: int) -> int:
    """§1 bullheads of card v: 55 -> 7, doublets -> 5, tens -> 3, units digit 5 -> 2, else 1."""
    if v == 55:
        return 7
    if v % 11 == 0:
        return 5
    if v % 10 == 0:
        return 3
    if v % 5 == 0:
        return 2
    return 1


#: BH[v] for v in 1..104 (index 0 unused): a tuple lookup in the hot loop
BH: tuple[int, ...] = (0,) + tuple(bullheads(v) for v in range(1, 105))


def target_row(rows: list[list[int]], card: int) -> int:
    """N7/N8: index of the row whose end is the highest below `card`; -1 if every end is higher (N10)."""
    best, best_end = -1, 0
    for i, row in enumerate(rows):
        end = row[-1]
        if best_end < end < card:
            best, best_end = i, end
    return best


def row_points(row: list[int]) -> int:
    """N13 bullheads in a row (what taking it costs)."""
    return sum([BH[c] for c in row])


def match_over(totals: list[int], rounds_played: int, threshold: int, inclusive: bool,
               max_rounds: int | None) -> bool:
    """N15/N16: checked only after a complete round."""
    if max_rounds is not None and rounds_played >= max_rounds:
        return True
    top = max(totals)
    return top >= threshold if inclusive else top > threshold


def winners(totals: list[int], last_round: list[int], tie_break: str) -> list[int]:
    """N17: the seats with the fewest bullheads; `last_round` breaks ties under tie_break=last_round."""
    low = min(totals)
    tied = [s for s, t in enumerate(totals) if t == low]
    if tie_break == "last_round" and len(tied) > 1:
        best = min(last_round[s] for s in tied)
        tied = [s for s in tied if last_round[s] == best]
    return tied


def draft_order(n_players: int, first: int, picks: int) -> list[int]:
    """N19: single clockwise passes from `first` (not a snake draft)."""
    return [(first + k) % n_players for k in range(picks)]
