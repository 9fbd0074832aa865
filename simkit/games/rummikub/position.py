"""Text positions: a whole Rummikub state as readable lines, and back (docs/architecture.md).

    to move: 1                       seat to play, or "over" when the match has ended
    turns: 42                        turns played in the match (an outcome column)
    start seat: 0                    start player of the first hand (R1; an outcome column)
    hand start seat: 2               start player of the hand being played, from hand 2 on (R22 ties)
    passes: 0                        consecutive passes with the pool empty (R21)
    cycle left: 2                    turns left under end_rule=one_more_cycle (only once counting)
    hand 1: out +31 -31              each finished hand: "out" (R19) or "exhausted" (R21), its scores
    seat 0 (opened): R1 R2' K5 J0    each rack, sorted; "(not opened)" before the initial meld (R11)
    meld: Run[R5 R6 R7]              each table meld, in table order (none for an empty table)
    pool: B3 R7' K1                  the pool, next tile drawn first ("-" when empty)

Tiles and melds use the notation of the actions (`R5`, `R5'` the second copy, `J0`, `Run[..]`,
`Group[..]`). The cumulative scores are the sums of the hand lines and the hand being played is the
next one. A parsed state has no event history (its log starts with a "position" event and its
observations have an empty `history`) and draws later deals from `rng` (default: seed 0).
"""

from __future__ import annotations

import math
import re

import numpy as np

from simkit.engine.errors import ConfigError, PositionError
from simkit.games.rummikub import rules
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.rules import OVER, PLAY
from simkit.games.rummikub.state import RummikubState
from simkit.games.rummikub.tiles import N_TILES, Meld, parse_meld, parse_tile, sorted_tiles, tile_text

OVER_TEXT = "over"
HAND_ENDS = ("out", "exhausted")


def _tiles_text(tiles) -> str:
    return " ".join(tile_text(t) for t in tiles) if tiles else "-"


def _score_text(x: float) -> str:
    """Exact and short: whole scores as "+31", split payouts (R22) as their shortest exact repr."""
    return f"{int(x):+d}" if x == int(x) else ("+" if x > 0 else "") + repr(x)


def format_position(state: RummikubState) -> str:
    lines = [f"to move: {OVER_TEXT if state.is_over() else state.seat}",
             f"turns: {state.turns}",
             f"start seat: {state.first_seat}"]
    if state.hand > 0 and not state.is_over():
        lines.append(f"hand start seat: {state.hand_start_seat}")
    lines.append(f"passes: {state.passes}")
    if state.cycle_left >= 0:
        lines.append(f"cycle left: {state.cycle_left}")
    for h, (end, scores) in enumerate(zip(state.hand_ends, state.hand_scores), 1):
        lines.append(f"hand {h}: {end} " + " ".join(map(_score_text, scores)))
    for s, rack in enumerate(state.racks):
        status = "(opened)" if state.opened[s] else "(not opened)"
        lines.append(f"seat {s} {status}: {_tiles_text(sorted_tiles(rack))}")
    lines += [f"meld: {m}" for m in state.table]
    lines.append(f"pool: {_tiles_text(state.pool[::-1])}")
    return "\n".join(lines)


SEAT_LINE = re.compile(r"seat (\d+) \((opened|not opened)\)")
COUNTERS = ("turns", "start seat", "hand start seat", "passes", "cycle left")


class _Reader:
    """The fields of a position text, each checked as it is read; errors name the line."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.counters: dict[str, int] = {}
        self.to_move: int | None = None          # None: the match is over
        self.hands: list[tuple[str, tuple[float, ...]]] = []
        self.racks: dict[int, list[int]] = {}
        self.opened: dict[int, bool] = {}
        self.table: list[Meld] = []
        self.pool: list[int] = []
        self.placed_by: dict[int, str] = {}      # tile -> the line that placed it

    def read(self, text: str) -> None:
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            where = f"line {number} ({line!r})"
            key, colon, value = line.partition(":")
            if not colon:
                raise PositionError(f"{where}: expected 'field: value'")
            try:
                self._field(key.strip(), value.strip(), where)
            except PositionError:
                raise
            except ValueError as exc:             # a bad tile, meld or number
                raise PositionError(f"{where}: {exc}") from None

    def _field(self, key: str, value: str, where: str) -> None:
        seat_line = SEAT_LINE.fullmatch(key)
        if key == "to move":
            self._once(key, where)
            self.to_move = None if value == OVER_TEXT else _whole(value, "the seat to move")
        elif key in COUNTERS:
            self._once(key, where)
            self.counters[key] = _whole(value, key)
        elif key.startswith("hand "):
            self._hand(key[5:], value)
        elif seat_line:
            self._once(f"seat {int(seat_line[1])}", where)
            self.opened[int(seat_line[1])] = seat_line[2] == "opened"
            self.racks[int(seat_line[1])] = self._place(_tiles(value), where)
        elif key == "meld":
            meld = parse_meld(value)
            error = rules.meld_error(meld)
            if error:
                raise PositionError(f"{where}: {meld} is not a valid meld ({error})")
            self._place(list(meld.tiles), where)
            self.table.append(meld)
        elif key == "pool":
            self._once(key, where)
            self.pool = self._place(_tiles(value), where)[::-1]
        else:
            raise PositionError(f"{where}: unknown field {key!r}; expected to move, turns, start seat, "
                                f"hand start seat, passes, cycle left, hand N, seat N (opened|not opened), "
                                f"meld or pool")

    def _once(self, key: str, where: str) -> None:
        if key in self.seen:
            raise PositionError(f"{where}: {key!r} is given twice")
        self.seen.add(key)

    def _hand(self, label: str, value: str) -> None:
        if _whole(label, "the hand number") != len(self.hands) + 1:
            raise ValueError(f"hands are listed in order: expected hand {len(self.hands) + 1}")
        end, *scores = value.split() or [""]
        if end not in HAND_ENDS:
            raise ValueError(f"a hand ends {' or '.join(HAND_ENDS)}, not {end!r}")
        values = tuple(float(s) for s in scores)
        if not all(map(math.isfinite, values)):
            raise ValueError("scores must be finite numbers")
        self.hands.append((end, values))

    def _place(self, tiles: list[int], where: str) -> list[int]:
        for tile in tiles:
            if tile in self.placed_by:
                raise PositionError(f"{where}: tile {tile_text(tile)} is already placed by "
                                    f"{self.placed_by[tile]}")
            self.placed_by[tile] = where
        return tiles


def _tiles(value: str) -> list[int]:
    return [] if value == "-" else [parse_tile(word) for word in value.split()]


def _whole(text: str, what: str) -> int:
    if not text.isdigit():
        raise ValueError(f"{what} must be a whole number >= 0, not {text!r}")
    return int(text)


def parse_position(text: str, config: RummikubConfig,
                   rng: np.random.Generator | None = None) -> RummikubState:
    """The state written by `format_position`; PositionError names the line or field that is wrong."""
    reader = _Reader()
    reader.read(text)
    return _build(reader, config, rng if rng is not None else np.random.default_rng(0))


def _build(r: _Reader, config: RummikubConfig, rng: np.random.Generator) -> RummikubState:
    missing = [k for k in ("to move", "turns", "start seat", "passes", "pool") if k not in r.seen]
    if missing:
        raise PositionError(f"the position has no {', '.join(repr(k + ':') for k in missing)} line")
    n = len(r.racks)
    if sorted(r.racks) != list(range(n)):
        raise PositionError(f"seats {sorted(r.racks)} are listed: a position lists seat 0 to seat n-1")
    try:
        config.check_players(n)
    except ConfigError as exc:
        raise PositionError(f"{n} seats listed: {exc}") from None
    if len(r.placed_by) != N_TILES:
        absent = " ".join(tile_text(t) for t in range(N_TILES) if t not in r.placed_by)
        raise PositionError(f"tiles missing (each of the {N_TILES} tiles is on a rack, on the table or "
                            f"in the pool): {absent}")
    _check_match(r, config, n)
    return _state(r, config, rng, n)


def _check_match(r: _Reader, config: RummikubConfig, n: int) -> None:
    """The counters fit the config and one another (hand scores must also sum to zero: audit)."""
    for h, (_, scores) in enumerate(r.hands, 1):
        if len(scores) != n:
            raise PositionError(f"hand {h}: {len(scores)} scores for {n} seats")
    over, finished = r.to_move is None, len(r.hands)
    if over != (finished == config.hands_per_match) or finished > config.hands_per_match:
        raise PositionError(f"'to move: {OVER_TEXT if over else r.to_move}' after {finished} finished hands: "
                            f"the match is over exactly after hands_per_match={config.hands_per_match}")
    for key in ("to move", "start seat", "hand start seat"):
        seat = r.to_move if key == "to move" else r.counters.get(key)
        if seat is not None and seat >= n:
            raise PositionError(f"'{key}: {seat}' is not a seat: seats are 0 to {n - 1}")
    later_hand = 0 < finished < config.hands_per_match
    if later_hand != ("hand start seat" in r.counters):
        raise PositionError(f"'hand start seat' is given exactly while a hand after the first is played "
                            f"(it settles R22 ties); this position has {finished} finished hands"
                            f"{' and the match is over' if over else ''}")
    if "cycle left" in r.counters and config.end_rule != "one_more_cycle":
        raise PositionError(f"'cycle left' counts turns under end_rule=one_more_cycle, not {config.end_rule}")
    if over:
        return
    empty = [s for s, rack in r.racks.items() if not rack]
    if empty:
        raise PositionError(f"seat {empty[0]} has an empty rack but the hand goes on (R13: going out "
                            f"ends the hand)")
    if config.end_rule == "cycle_of_passes" and r.counters["passes"] >= n:
        raise PositionError(f"'passes: {r.counters['passes']}': {n} passes in a row end the hand (R21)")


def _state(r: _Reader, config: RummikubConfig, rng: np.random.Generator, n: int) -> RummikubState:
    state = object.__new__(RummikubState)
    state.config, state.n, state.rng = config, n, rng
    state.hand_ends = [end for end, _ in r.hands]
    state.hand_scores = [scores for _, scores in r.hands]
    state.cum = [0.0] * n
    for scores in state.hand_scores:          # summed in hand order, as the engine does
        for s, x in enumerate(scores):
            state.cum[s] += x
    over = r.to_move is None
    state.phase = OVER if over else PLAY
    state.hand = len(r.hands) - over
    state.seat = -1 if over else r.to_move
    state.acting = () if over else (state.seat,)
    state.turns, state.first_seat = r.counters["turns"], r.counters["start seat"]
    state.hand_start_seat = r.counters.get("hand start seat", state.first_seat)
    state.passes, state.cycle_left = r.counters["passes"], r.counters.get("cycle left", -1)
    state.racks = [r.racks[s] for s in range(n)]
    state.opened = [r.opened[s] for s in range(n)]
    state.table = tuple(r.table)
    state.pool = r.pool
    state.public = []
    state.events = [("position", state.hand, None if over else state.seat,
                     tuple(sorted_tiles(rack) for rack in state.racks), state.table)]
    problems = state.audit()
    if problems:
        raise PositionError("; ".join(problems))
    return state
