"""Seat numbers as people read them.

In code, results and the run folder's Parquet tables a seat is a 0-based index, as Python counts;
text positions (`format_position`) count from 0 too, a data format like FEN. Wherever a person
reads a seat — the report, replay logs, `simkit play` — seats count from 1: seat 1 is the first
seat. These helpers are that one conversion (docs/statistics.md, "Seat numbers").
"""

from __future__ import annotations

from simkit.engine.errors import ConfigError


def seat_number(seat: int) -> int:
    """The number a person reads for the 0-based `seat` (seat 0 is seat 1)."""
    return seat + 1


def seat_label(seat: int) -> str:
    """`seat 1` for the 0-based seat 0: how logs and prompts name a seat."""
    return f"seat {seat_number(seat)}"


def seat_index(number: int, n_players: int, option: str = "--seat") -> int:
    """The 0-based seat of a seat number a person typed (1..n_players); a number outside that
    range is refused in one line naming the range."""
    if not 1 <= number <= n_players:
        raise ConfigError(f"{option} {number} is not allowed: seats are 1 to {n_players}")
    return number - 1
