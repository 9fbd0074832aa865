"""6 nimmt! rules: constants and pure functions over plain ints and lists (docs/sixnimmt-rules.md)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simkit.games.sixnimmt.config import SixNimmtConfig

#: phases: N5 every seat chooses a card; N10 one seat picks a row; N19 one seat drafts; the match is over
PLAY, ROW_PICK, DRAFT, OVER = "play", "row_pick", "draft", "over"
PHASES = (PLAY, ROW_PICK, DRAFT, OVER)


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


def target_row(ends: list[int], card: int) -> int:
    """N7/N8: index of the row whose end (last card) is the highest below `card`; -1 if every
    end is higher (N10: the player picks a row). Cards are unique, so the end names its row."""
    best_end = 0
    for end in ends:
        if best_end < end < card:
            best_end = end
    return ends.index(best_end) if best_end else -1


#: BH as a 256-byte translation table (0 beyond 104): cards fit a byte, so `bytes(cards)`
#: translated by it holds their bullheads, summed in C (half the cost of `map(BH.__getitem__)`)
BH_BYTES = bytes(BH) + bytes(256 - len(BH))


def row_points(row: Iterable[int]) -> int:
    """N13 bullheads in a row (what taking it costs)."""
    return sum(bytes(row).translate(BH_BYTES))


def match_over(totals: list[int], rounds_played: int, config: SixNimmtConfig) -> bool:
    """N15/N16 (checked only after a complete round), with N17's tie_break=play_on: a tie for
    the fewest bullheads plays on, within max_rounds."""
    max_rounds = config.max_rounds
    if max_rounds is not None and rounds_played >= max_rounds:
        return True
    top = max(totals)
    reached = top >= config.end_threshold if config.end_inclusive else top > config.end_threshold
    if reached and config.tie_break == "play_on":
        return totals.count(min(totals)) == 1
    return reached


def standing_keys(totals: list[int], last_round: list[int], tie_break: str) -> list:
    """N17: what ranks the seats, lower is better: the total, then under tie_break=last_round
    the bullheads of the last round."""
    if tie_break == "last_round":
        return list(zip(totals, last_round))
    return list(totals)


def competition_ranks(keys: list) -> tuple[int, ...]:
    """N17 ranks, lower keys better: 1 + the number of strictly better keys (ties share the best
    rank of their tie), as `simkit.engine.game.ranks_from_scores` computes it, in O(n log n)."""
    ordered = sorted(keys)
    return tuple([bisect_left(ordered, key) + 1 for key in keys])


def winners(totals: list[int], last_round: list[int], tie_break: str) -> list[int]:
    """N17: the seats with the fewest bullheads; `last_round` breaks ties under tie_break=last_round."""
    keys = standing_keys(totals, last_round, tie_break)
    best = min(keys)
    return [s for s, key in enumerate(keys) if key == best]


def draft_order(n_players: int, first: int, picks: int) -> list[int]:
    """N19: single clockwise passes from `first` (not a snake draft)."""
    return [(first + k) % n_players for k in range(picks)]


def max_decision_steps(config: SixNimmtConfig, n_players: int) -> int:
    """An upper bound on the decision steps of a match (for the conformance checker): every round
    hands out >= 1 bullhead (N14), so rounds <= n * threshold + 1 (more with play_on ties)."""
    rounds = config.max_rounds or (n_players * (config.end_threshold + 1) + 1) * 4
    per_round = config.hand_size * 2 + (config.hand_size * n_players if config.advanced else 0)
    return rounds * per_round


def first_drafter(rule: str, totals: list[int], round_no: int, round_one_first: int) -> int:
    """N19 [CHOICE] who drafts first in round `round_no`: seat 0; the highest total (lowest seat
    on ties); or `round_one_first` (drawn at random) moved one seat clockwise each round."""
    if rule == "seat0":
        return 0
    if rule == "highest_total":
        return totals.index(max(totals))
    return (round_one_first + round_no - 1) % len(totals)
