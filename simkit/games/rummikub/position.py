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
from dataclasses import dataclass

import numpy as np

from simkit.engine.errors import PositionError
from simkit.engine.position_text import Ledger, Line, PositionText, check_players, list_text, whole
from simkit.games.rummikub import rules
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.rules import OVER, PLAY
from simkit.games.rummikub.state import RummikubState
from simkit.games.rummikub.tiles import N_TILES, Meld, parse_meld, parse_tile, sorted_tiles, tile_text

OVER_TEXT = "over"
HAND_ENDS = ("out", "exhausted")
#: the whole-number lines every position has, in the order written, and the state field of each
COUNTERS = {"turns": "turns", "start seat": "first_seat", "passes": "passes"}
HAND_START = "hand start seat"   # only from hand 2 on, while a hand is played (R22 ties count from it)
CYCLE_LEFT = "cycle left"        # only while counting the last cycle (end_rule=one_more_cycle)
SEAT_KEY = "seat <n> (<opened|not opened>)"
KEYS = ("to move", *COUNTERS, HAND_START, CYCLE_LEFT, "hand <n>", SEAT_KEY, "pool")


def _score_text(x: float) -> str:
    """Exact and short: whole scores as "+31", split payouts (R22) as their shortest exact repr."""
    return f"{int(x):+d}" if x == int(x) else ("+" if x > 0 else "") + repr(x)


def _tiles_text(tiles) -> str:
    return list_text(map(tile_text, tiles))


def format_position(state: RummikubState) -> str:
    lines = [f"to move: {OVER_TEXT if state.is_over() else state.seat}"]
    for key, field in COUNTERS.items():
        lines.append(f"{key}: {getattr(state, field)}")
        if key == "start seat" and state.hand > 0 and not state.is_over():
            lines.append(f"{HAND_START}: {state.hand_start_seat}")
    if state.cycle_left >= 0:
        lines.append(f"{CYCLE_LEFT}: {state.cycle_left}")
    for h, (end, scores) in enumerate(zip(state.hand_ends, state.hand_scores), 1):
        lines.append(f"hand {h}: {end} " + " ".join(map(_score_text, scores)))
    for s, rack in enumerate(state.racks):
        status = "(opened)" if state.opened[s] else "(not opened)"
        lines.append(f"seat {s} {status}: {_tiles_text(sorted_tiles(rack))}")
    lines += [f"meld: {m}" for m in state.table]
    lines.append(f"pool: {_tiles_text(state.pool[::-1])}")
    return "\n".join(lines)


@dataclass
class _Fields:
    """What a position text says, each field checked as it was read."""
    to_move: int | None                      # None: the match is over
    counters: dict[str, int]                 # state field -> value
    hand_start: int | None                   # None: not given (the first hand, or the match is over)
    cycle_left: int
    hands: list[tuple[str, tuple[float, ...]]]
    racks: list[list[int]]
    opened: list[bool]
    table: list[Meld]
    pool: list[int]                          # next tile drawn last


def parse_position(text: str, config: RummikubConfig,
                   rng: np.random.Generator | None = None) -> RummikubState:
    """The state written by `format_position`; PositionError names the line or field that is wrong."""
    lines = PositionText(text, KEYS, repeated=("meld",), example="turns: 42")
    tiles = Ledger(((tile_text(t), t) for t in range(N_TILES)), "tile",
                   spell=lambda word: tile_text(parse_tile(word)))
    to_move = lines.line("to move")
    seats = lines.indexed(SEAT_KEY)
    cycle_left = lines.get(CYCLE_LEFT)
    hand_start = lines.get(HAND_START)
    fields = _Fields(
        to_move=None if to_move.value == OVER_TEXT else whole(to_move),
        counters={field: whole(lines.line(key)) for key, field in COUNTERS.items()},
        hand_start=whole(hand_start) if hand_start else None,
        cycle_left=whole(cycle_left) if cycle_left else -1,
        hands=[_hand(line) for _, _, line in lines.indexed("hand <n>", first=1)],
        racks=[tiles.take_all(line) for _, _, line in seats],
        opened=[status == ("opened",) for _, status, _ in seats],
        table=[_meld(line, tiles) for line in lines.all("meld")],
        pool=tiles.take_all(lines.line("pool"))[::-1])
    n = len(seats)
    check_players(config, n, f"{n} seats listed")
    tiles.check_all_listed(f"each of the {N_TILES} tiles is on a rack, on the table or in the pool")
    _check_match(fields, config, n)
    return _state(fields, config, rng if rng is not None else np.random.default_rng(0), n)


def _hand(line: Line) -> tuple[str, tuple[float, ...]]:
    """'out +31 -31': how a finished hand ended and its scores."""
    end, *scores = line.value.split() or [""]
    if end not in HAND_ENDS:
        raise line.error(f"a hand ends {' or '.join(HAND_ENDS)}, not {end!r}")
    try:
        values = tuple(float(s) for s in scores)
    except ValueError:
        values = (math.nan,)
    if not all(map(math.isfinite, values)):
        raise line.error("scores must be finite numbers")
    return end, values


def _meld(line: Line, tiles: Ledger) -> Meld:
    try:
        meld = parse_meld(line.value)
    except ValueError as exc:
        raise line.error(str(exc)) from None
    error = rules.meld_error(meld)
    if error:
        raise line.error(f"{meld} is not a valid meld ({error})")
    for tile in meld.tiles:
        tiles.take(line, tile_text(tile))
    return meld


def _check_match(r: _Fields, config: RummikubConfig, n: int) -> None:
    """The counters fit the config and one another (hand scores must also sum to zero: audit)."""
    for h, (_, scores) in enumerate(r.hands, 1):
        if len(scores) != n:
            raise PositionError(f"hand {h}: {len(scores)} scores for {n} seats")
    over, finished = r.to_move is None, len(r.hands)
    if over != (finished == config.hands_per_match) or finished > config.hands_per_match:
        raise PositionError(f"'to move: {OVER_TEXT if over else r.to_move}' after {finished} finished hands: "
                            f"the match is over exactly after hands_per_match={config.hands_per_match}")
    for key, seat in (("to move", r.to_move), ("start seat", r.counters["first_seat"]),
                      (HAND_START, r.hand_start)):
        if seat is not None and seat >= n:
            raise PositionError(f"'{key}: {seat}' is not a seat: seats are 0 to {n - 1}")
    if (0 < finished < config.hands_per_match) != (r.hand_start is not None):
        raise PositionError(f"'{HAND_START}' is given exactly while a hand after the first is played "
                            f"(it settles R22 ties); this position has {finished} finished hands"
                            f"{' and the match is over' if over else ''}")
    if r.cycle_left >= 0 and config.end_rule != "one_more_cycle":
        raise PositionError(f"'cycle left' counts turns under end_rule=one_more_cycle, not {config.end_rule}")
    if over:
        return
    empty = [s for s, rack in enumerate(r.racks) if not rack]
    if empty:
        raise PositionError(f"seat {empty[0]} has an empty rack but the hand goes on (R13: going out "
                            f"ends the hand)")
    if config.end_rule == "cycle_of_passes" and r.counters["passes"] >= n:
        raise PositionError(f"'passes: {r.counters['passes']}': {n} passes in a row end the hand (R21)")


def _state(r: _Fields, config: RummikubConfig, rng: np.random.Generator, n: int) -> RummikubState:
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
    state.seat = -1 if r.to_move is None else r.to_move
    state.acting = () if over else (state.seat,)
    for field, value in r.counters.items():
        setattr(state, field, value)
    state.hand_start_seat = state.first_seat if r.hand_start is None else r.hand_start
    state.cycle_left, state.racks, state.opened = r.cycle_left, r.racks, r.opened
    state.table = tuple(r.table)
    state.pool = r.pool
    state.public = []
    state.events = [("position", state.hand, None if over else state.seat,
                     tuple(sorted_tiles(rack) for rack in state.racks), state.table)]
    problems = state.audit()
    if problems:
        raise PositionError("; ".join(problems))
    return state
