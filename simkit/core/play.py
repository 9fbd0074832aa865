"""Playing games: the hot loop that turns (spec, game index) into result rows.

Game i's randomness comes only from its seed streams (simkit.core.seeding), so any range of
games gives the same rows in any process, in any order.
"""

from __future__ import annotations

import math
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simkit.core.errors import EngineError, IllegalAction, StrategyError
from simkit.core.game import ROUND_SCORES, Game, State
from simkit.core.guard import DecisionGuard
from simkit.core.registry import get_game
from simkit.core.seeding import GameStreams, GeneratorPool, batch_stream_words, game_streams
from simkit.core.spec import RunSpec, batch_module
from simkit.core.strategy import Decision, GameInfo, Strategy, StrategySpec

GAME_COLUMNS = ("game", "deal", "rotation", "n_players", "steps", "forfeit_seat", "error", "draw")
SEAT_COLUMNS = ("game", "deal", "rotation", "seat", "slot", "strategy", "score", "rank", "win", "forfeit")


def seat_slots(seating: str, duplicate: bool, index: int, n: int,
               streams: GameStreams) -> tuple[list[int], int, int]:
    """Which lineup slot sits in each seat of game `index`; also its deal and rotation."""
    if duplicate:
        deal, rotation = divmod(index, n)
        return [(s + rotation) % n for s in range(n)], deal, rotation
    if seating == "rotate":
        rotation = index % n
        return [(s + rotation) % n for s in range(n)], index, rotation
    if seating == "random":
        return streams.seating_rng(n).permutation(n).tolist(), index, 0
    return list(range(n)), index, 0


@dataclass
class Chunk:
    """Rows of a contiguous range of games, column-wise (cheap to pickle and to write)."""

    start: int
    stop: int
    games: dict[str, list] = field(default_factory=dict)
    seats: dict[str, list] = field(default_factory=dict)


def _forfeit_outcome(n: int, seat: int) -> tuple[Sequence[float], Sequence[int], Sequence[float]]:
    share = 1.0 / (n - 1) if n > 1 else 0.0
    return ([math.nan] * n, [n if s == seat else 1 for s in range(n)],
            [0.0 if s == seat else share for s in range(n)])


#: called before each decision step with (state, step, seats to act)
BeforeStep = Callable[[State, int, tuple[int, ...]], None]
#: called after each decision step with (state, step, seats that acted, their actions)
AfterStep = Callable[[State, int, tuple[int, ...], list], None]


@dataclass
class Played:
    """How `play_out` ended: the steps played, the seat that forfeited (-1 for none) and why,
    and the seats that acted in the last step (to name them when a later audit fails)."""

    steps: int
    forfeit: int = -1
    error: str = ""
    exception: BaseException | None = None
    last_seats: tuple[int, ...] = ()


def seat_strategies(lineup: Sequence[StrategySpec | Strategy], info: GameInfo,
                    rngs: Sequence[np.random.Generator]) -> list[Strategy]:
    """One set-up strategy per seat: specs are built fresh, instances are set up as they are.

    A strategy that fails here raises SeatError naming its seat (a forfeit for the runner).
    """
    bots = []
    for seat, entry in enumerate(lineup):
        try:
            bot = entry.build() if isinstance(entry, StrategySpec) else entry
            bot.setup(info, seat, rngs[seat])
        except BaseException as exc:
            raise SeatError(seat, exc) from exc
        bots.append(bot)
    return bots


class SeatError(Exception):
    """A strategy failed while being set up; `seat` forfeits."""

    def __init__(self, seat: int, cause: BaseException):
        super().__init__(f"{type(cause).__name__}: {cause}")
        self.seat = seat
        self.cause = cause


def _plain(action: Any) -> Any:
    """A numpy scalar or array returned as an action, as the plain Python value it equals."""
    if isinstance(action, np.generic):
        return action.item()
    if isinstance(action, np.ndarray):
        return tuple(_plain(x) for x in action)
    return action


def _apply_plain(apply: Callable[[list], None], joint: list, error: IllegalAction) -> list:
    """Apply `joint` again with numpy values made plain; re-raise `error` if none was numpy."""
    plain = [_plain(a) for a in joint]
    if all(p is a for p, a in zip(plain, joint)):
        raise error
    apply(plain)
    return plain


def _blames_strategy(exc: BaseException, guard: DecisionGuard | None) -> bool:
    if guard is not None:
        return guard.blames_strategy(exc)
    return isinstance(exc, Exception)


def play_out(state: State, lineup: Sequence[StrategySpec | Strategy], info: GameInfo,
             rngs: Sequence[np.random.Generator], *, forfeit_on_error: bool = True,
             before: BeforeStep | None = None, after: AfterStep | None = None,
             max_steps: int | None = None, guard: DecisionGuard | None = None) -> Played:
    """Seat the strategies and play `state` on until it is over (or `max_steps` steps).

    With `forfeit_on_error`, a strategy that fails (in setup, in `act`, or with an action that
    `apply` rejects as illegal) forfeits: the game stops and `Played` names the seat, the error
    text and the exception. Without it, those errors propagate. An error raised by the engine
    itself (not attributable to a seat) always propagates. With a `guard` (entered by the
    caller), decisions are timed and a `SystemExit`, `DecisionTimeout` or self-raised
    `KeyboardInterrupt` inside `act` also forfeits. A numpy value equal to a legal action is
    accepted as that action.
    """
    steps = 0
    current = -1
    seats: tuple[int, ...] = ()
    if guard is not None:
        guard.watch(sys._getframe())    # its watchdog reads `steps` and `current` from this frame
    try:
        bots = seat_strategies(lineup, info, rngs)
        acts = [bot.act for bot in bots]
        decisions = [Decision(state, seat, rngs[seat]) for seat in range(len(bots))]
        apply = state.apply
        to_act = state.to_act
        is_over = state.is_over
        limit = -1 if max_steps is None else max_steps
        while steps != limit and not is_over():
            seats = to_act()
            if before is not None:
                before(state, steps, seats)
            if len(seats) == 1:
                current = seats[0]
                joint = [acts[current](decisions[current])]
            else:
                joint = []
                for current in seats:
                    joint.append(acts[current](decisions[current]))
            current = -1
            try:
                apply(joint)
            except IllegalAction as exc:
                joint = _apply_plain(apply, joint, exc)
            steps += 1
            if after is not None:
                after(state, steps, seats, joint)
    except SeatError as exc:
        if not forfeit_on_error or not _blames_strategy(exc.cause, guard):
            raise exc.cause from None
        return Played(steps, exc.seat, str(exc), exc.cause)
    except BaseException as exc:
        if not forfeit_on_error:
            raise
        if current >= 0 and _blames_strategy(exc, guard):
            return Played(steps, current, f"{type(exc).__name__}: {exc}", exc, seats)
        if isinstance(exc, IllegalAction) and exc.seat is not None:
            return Played(steps, exc.seat, f"illegal action: {exc}", exc, seats)
        raise
    finally:
        if guard is not None:
            guard.watch(None)
    return Played(steps, last_seats=seats)


@dataclass
class GameRecord:
    """One played game of a run: seating, length, forfeit and result per seat.

    `error` holds a forfeiting strategy's error, or for a game the engine could not finish
    (its own exception, a failed audit, the step cap) a text starting with ENGINE_ERROR; such a
    game has no winner and NaN scores, and `forfeit` is -1.
    """

    index: int
    deal: int
    rotation: int
    slots: list[int]
    steps: int
    forfeit: int
    error: str
    draw: bool
    scores: Sequence[float]
    ranks: Sequence[int]
    wins: Sequence[float]
    extras: dict[str, Any]
    #: per round, each seat's points (games with `Game.has_rounds`; empty without a result)
    round_scores: Sequence[Sequence[float]] = ()


ENGINE_ERROR = "engine error: "


class _AuditFailed(Exception):
    def __init__(self, step: int, seats: tuple[int, ...], problems: list[str]):
        super().__init__(f"audit failed after step {step} (last to act: {_seat_names(seats)}): "
                         + "; ".join(problems))


def _seat_names(seats: Sequence[int]) -> str:
    return ", ".join(f"seat {s}" for s in seats) or "no seat"


def _audit_every_step(state: State, step: int, seats: tuple[int, ...], joint: list) -> None:
    problems = state.audit()
    if problems:
        raise _AuditFailed(step, seats, problems)


def _failure_text(exc: Exception) -> str:
    return str(exc) if isinstance(exc, _AuditFailed) else f"{type(exc).__name__}: {exc}"


def _engine_error(state: State, played: Played, cap: int) -> str:
    """Why a game that no strategy forfeited has no valid result ('' when it has one)."""
    if not state.is_over():
        return f"the game did not end within {cap} steps (its hard step cap, Game.max_steps)"
    problems = state.audit()
    if problems:
        return (f"audit failed at the end (last to act: {_seat_names(played.last_seats)}): "
                + "; ".join(problems))
    return ""


def play_game(spec: RunSpec, index: int, pool: GeneratorPool | None = None, *,
              words: list[int] | None = None, chance_words: list[int] | None = None,
              max_steps: int | None = None, guard: DecisionGuard | None = None) -> tuple[GameRecord, State]:
    """Play game `index` of `spec`; return its record and final state.

    With `max_steps` play stops there and the record has no result (replay --position).
    Otherwise play is capped at `Game.max_steps`, the final state is audited (after every
    step with `spec.paranoid`), and an engine failure is recorded (ENGINE_ERROR) unless
    `spec.strict`, where it is raised.
    """
    game: Game = get_game(spec.game)
    n = spec.n_players
    streams = game_streams(spec.seed, index, n, duplicate=spec.duplicate, pool=pool,
                           words=words, chance_words=chance_words)
    slots, deal, rotation = seat_slots(spec.seating, spec.duplicate, index, n, streams)
    state: State = game.new_state(spec.config, n, streams.chance)
    info = GameInfo(game.name, spec.config, n)
    lineup = spec.strategies
    partial = max_steps is not None
    cap = max_steps if max_steps is not None else game.max_steps(spec.config, n)
    after = _audit_every_step if spec.paranoid and not partial else None
    try:
        played = play_out(state, [lineup[k] for k in slots], info, streams.seats, max_steps=cap,
                          after=after, guard=guard)
        failure = "" if partial or played.forfeit >= 0 else _engine_error(state, played, cap)
    except Exception as exc:   # not a strategy's fault: the engine's (or a failed audit)
        if partial:
            raise
        if spec.strict:
            raise EngineError(f"game {index}: {_failure_text(exc)}\n"
                              + "".join(traceback.format_exception(exc))) from exc
        played = Played(0)
        failure = _failure_text(exc)
    forfeit = played.forfeit
    if failure:
        if spec.strict:
            raise EngineError(f"game {index}: {failure}")
        return GameRecord(index, deal, rotation, slots, played.steps, -1, ENGINE_ERROR + failure, False,
                          [math.nan] * n, [n] * n, [math.nan] * n, {}), state
    if forfeit >= 0:
        if spec.strict:
            cause = played.exception
            raise StrategyError(
                f"game {index}, seat {forfeit} ({lineup[slots[forfeit]].text}): {played.error}\n"
                + "".join(traceback.format_exception(cause)), seat=forfeit,
                strategy=lineup[slots[forfeit]].text) from cause
        scores, ranks, wins = _forfeit_outcome(n, forfeit)
        extras: dict[str, Any] = {}
        draw = False
    elif partial and not state.is_over():
        return GameRecord(index, deal, rotation, slots, played.steps, -1, "", False, (), (), (), {}), state
    else:
        out = state.outcome()
        return GameRecord(index, deal, rotation, slots, played.steps, forfeit, played.error,
                          not any(out.win_shares), out.scores, out.ranks, out.win_shares, out.extras,
                          out.round_scores), state
    return GameRecord(index, deal, rotation, slots, played.steps, forfeit, played.error, draw,
                      scores, ranks, wins, extras), state


def play_range(spec: RunSpec, start: int, stop: int) -> Chunk:
    """Play games start..stop-1 in this process and return their rows (by the game's array
    engine when `spec.engine` is "batch")."""
    if spec.engine == "batch":
        return batch_module(spec.game).play_range_batch(spec, start, stop)
    pool = GeneratorPool()
    n = spec.n_players
    labels = [s.text for s in spec.strategies]
    g: dict[str, list] = {c: [] for c in GAME_COLUMNS}
    st: dict[str, list] = {c: [] for c in SEAT_COLUMNS}
    if get_game(spec.game).has_rounds:
        st[ROUND_SCORES] = []
    extra_cols: dict[str, list] = {}
    chunk = Chunk(start, stop, g, st)
    words = batch_stream_words(spec.seed, start, stop, n + 2)
    if spec.duplicate:
        first_deal = start // n
        deal_words = batch_stream_words(spec.seed, first_deal, (stop - 1) // n + 1, 1)
    guard = DecisionGuard(spec.decision_timeout)
    with guard:
        for index in range(start, stop):
            chance = deal_words[index // n - first_deal] if spec.duplicate else None
            rec, _ = play_game(spec, index, pool, words=words[index - start], chance_words=chance,
                               guard=guard)
            _add_rows(g, st, extra_cols, rec, index - start, n, labels)
    g.update(extra_cols)
    return chunk


def _add_rows(g: dict[str, list], st: dict[str, list], extra_cols: dict[str, list], rec: GameRecord,
              done: int, n: int, labels: list[str]) -> None:
    """Append one game's rows to the chunk's column lists (`done` games are in them already)."""
    index, deal, rotation, forfeit = rec.index, rec.deal, rec.rotation, rec.forfeit
    g["game"].append(index)
    g["deal"].append(deal)
    g["rotation"].append(rotation)
    g["n_players"].append(n)
    g["steps"].append(rec.steps)
    g["forfeit_seat"].append(forfeit)
    g["error"].append(rec.error)
    g["draw"].append(rec.draw)
    for key, value in rec.extras.items():
        col = extra_cols.get(key)
        if col is None:
            col = extra_cols[key] = [None] * done
        col.append(value)
    for col in extra_cols.values():
        if len(col) == done:
            col.append(None)
    seat_range = range(n)
    slots = rec.slots
    st["game"].extend([index] * n)
    st["deal"].extend([deal] * n)
    st["rotation"].extend([rotation] * n)
    st["seat"].extend(seat_range)
    st["slot"].extend(slots)
    st["strategy"].extend([labels[k] for k in slots])
    st["score"].extend(rec.scores)
    st["rank"].extend(rec.ranks)
    st["win"].extend(rec.wins)
    st["forfeit"].extend([s == forfeit for s in seat_range])
    rounds = st.get(ROUND_SCORES)
    if rounds is not None:
        rounds.extend(seat_round_scores(rec.round_scores, n))


def seat_round_scores(round_scores: Sequence[Sequence[float]], n: int) -> list[list[float]]:
    """Per-round points (one tuple per round) as one list per seat, the `round_scores` column."""
    return [[float(r[s]) for r in round_scores] for s in range(n)]
