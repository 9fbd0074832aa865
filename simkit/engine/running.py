"""A game's running score, step by step: the record the game's arc is read from (docs/arc.md).

For games with no rounds of their own (Game of Trains, Shipside) the arc's step is a **round of
turns**: every seat has had one turn since the last step. After each step the record keeps every
seat's standing (Shipside: the points it holds; Trains: the cards of its train in order), and
when the game ends, the final standing (unless the game ended just as a step was recorded), so
the last point is always the position the game ended in.

Thinning: a record keeps at most `CAP` points. When a game reaches CAP, every second point is
dropped (those after odd rounds, so the rest are the standing after rounds 2, 4, 6, ...) and
from then on a point is kept after every second round; at CAP again, after every fourth, and so
on. A game of up to CAP rounds is recorded round by round; a longer one keeps between CAP/2 and
CAP points evenly spread over the game (each step then spans `stride` rounds), plus its end.

The scalar engine keeps a `Running` in the game state; the kernels follow the same rule in
compiled code (`simkit/engine/kernel_running.py`), so both engines write the same
`running_score` column (the tables' test compares them).
"""

from __future__ import annotations

from collections.abc import Sequence

#: at most this many points per game (even: thinning halves it)
CAP = 32


class Running:
    """One game's record: `points` (one tuple of every seat's standing per step), `stride`
    (rounds per step), `rounds` (rounds completed) and `fresh` (the last turn ended with a
    point recorded, so the end adds none)."""

    __slots__ = ("points", "stride", "rounds", "fresh")

    def __init__(self) -> None:
        self.points: list[tuple[float, ...]] = []
        self.stride = 1
        self.rounds = 0
        self.fresh = False

    def copy(self) -> Running:
        other = Running.__new__(Running)
        other.points = self.points[:]
        other.stride, other.rounds, other.fresh = self.stride, self.rounds, self.fresh
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Running):
            return NotImplemented
        return (self.points, self.stride, self.rounds, self.fresh) == \
            (other.points, other.stride, other.rounds, other.fresh)

    __hash__ = None  # type: ignore[assignment]    # mutable

    def turn_end(self, round_end: bool) -> bool:
        """A turn ended (`round_end`: it completed a round); True when the caller must `push`
        the standing now."""
        if round_end:
            self.rounds += 1
            if self.rounds % self.stride == 0:
                return True
        self.fresh = False
        return False

    def push(self, standing: Sequence[float]) -> None:
        """Record the standing after this step (thinning at CAP, see the module docstring)."""
        self.points.append(tuple(map(float, standing)))
        self.fresh = True
        if len(self.points) == CAP:
            self.points = self.points[1::2]
            self.stride *= 2

    def close(self, standing: Sequence[float]) -> tuple[tuple[float, ...], ...]:
        """The record of the finished game: its points and, unless the last turn just recorded
        one, the final standing."""
        if not self.fresh:
            return (*self.points, tuple(map(float, standing)))
        return tuple(self.points)
