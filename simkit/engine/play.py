"""Playing games: the hot loop that turns (spec, game index) into result rows.

Game i's randomness comes only from its seed streams (simkit.engine.seeding), so any range of
games gives the same rows in any process, in any order. On listed deals (`RunSpec.deal_numbers`)
the game's index decides its seats, rotation and strategies' streams, its deal number the cards.
"""

from __future__ import annotations

import functools
import math
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

import numpy as np

from simkit.engine.act_audit import sealed_acts
from simkit.engine.errors import EngineError, IllegalAction, StrategyError
from simkit.engine.faults import capped, error_text, safe_text, settle_step
from simkit.engine.game import ROUND_SCORES, RUNNING_SCORE, Game, State
from simkit.engine.guard import DecisionGuard, DecisionTimeout
from simkit.engine.registry import get_game
from simkit.engine.seeding import (
    GameStreams,
    GeneratorPool,
    batch_stream_words,
    deal_number,
    deal_numbers,
    deal_stream_words,
    game_streams,
)
from simkit.engine.spec import RunSpec, batch_module, kernel_module
from simkit.engine.stdout_guard import stdout_to_stderr
from simkit.engine.strategy import Decision, GameInfo, Strategy, StrategySpec, load_class
from simkit.engine.termination import STOPS

GAME_COLUMNS = ("game", "deal", "rotation", "n_players", "steps", "forfeit_seat", "error", "draw")
SEAT_COLUMNS = ("game", "deal", "rotation", "seat", "slot", "strategy", "score", "rank", "win", "forfeit")


def seat_slots(seating: str, duplicate: bool, index: int, n: int,
               streams: GameStreams) -> tuple[list[int], int, int]:
    """Which lineup slot sits in each seat of game `index`; also its deal (the run's k-th: the
    index, or index // n when duplicate; `RunSpec.deal_numbers` names its number) and rotation."""
    if duplicate:
        deal, rotation = divmod(index, n)
        return list(_rotated(n, rotation)), deal, rotation
    if seating == "rotate":
        rotation = index % n
        return list(_rotated(n, rotation)), index, rotation
    if seating == "random":
        return streams.seating_rng(n).permutation(n).tolist(), index, 0
    return list(range(n)), index, 0


@functools.cache
def _rotated(n: int, rotation: int) -> tuple[int, ...]:
    return tuple((s + rotation) % n for s in range(n))


@dataclass
class Chunk:
    """Rows of a contiguous range of games, column-wise (cheap to pickle and to write). A column
    is a list, or a NumPy or Arrow array (the batch engine's): `records.write_chunk` and
    `pd.DataFrame` take either, code reading one element by element must too."""

    start: int
    stop: int
    games: dict[str, Any] = field(default_factory=dict)
    seats: dict[str, Any] = field(default_factory=dict)


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


def _blames_strategy(exc: BaseException, guard: DecisionGuard | None) -> bool:
    """Whether `exc`, raised while a seat decided (or was set up), is that seat's fault. Without
    a guard a KeyboardInterrupt, SystemExit or SIGTERM is taken for the user's."""
    if guard is not None:
        return guard.blames_strategy(exc)
    return not isinstance(exc, (KeyboardInterrupt, SystemExit, *STOPS))


def _forfeit(exc: BaseException, steps: int, current: int, seats: tuple[int, ...],
             guard: DecisionGuard | None) -> Played | None:
    """The forfeit `exc` means inside `play_out`'s loop: the seat deciding when it was raised, or
    the seat an IllegalAction names; None when no seat is to blame (the engine's own error)."""
    steps = max(steps, 0)
    if isinstance(exc, DecisionTimeout) and exc.seat is not None:
        current = exc.seat
    if current >= 0 and _blames_strategy(exc, guard):
        return Played(steps, current, error_text(exc), exc, seats)
    if isinstance(exc, IllegalAction) and exc.seat is not None:
        return Played(steps, exc.seat, capped(f"illegal action: {safe_text(exc)}"), exc, seats)
    return None


def _together(bots: Sequence[Strategy]) -> Callable[[Sequence[Strategy], Sequence[Decision]], list] | None:
    """`act_many` of the strategies' class when every seat has the same class and it overrides
    `Strategy.act_many` (its opt-in fast path for simultaneous steps), else None."""
    kind = type(bots[0])
    for bot in bots:
        if type(bot) is not kind:
            return None
    if getattr(kind.act_many, "__func__", None) is _BASE_ACT_MANY:
        return None
    return kind.act_many


_BASE_ACT_MANY = getattr(Strategy.act_many, "__func__", None)


def play_out(state: State, lineup: Sequence[StrategySpec | Strategy], info: GameInfo,
             rngs: Sequence[np.random.Generator], *, forfeit_on_error: bool = True,
             before: BeforeStep | None = None, after: AfterStep | None = None,
             max_steps: int | None = None, guard: DecisionGuard | None = None,
             sealed: Game | None = None, mark: Callable[[int], None] | None = None) -> Played:
    """Seat the strategies and play `state` on until it is over (or `max_steps` steps).

    With `forfeit_on_error`, a strategy that fails (in setup, in `act`, or with an action that
    `apply` rejects) forfeits: the game stops and `Played` names the seat, the error text
    (capped, see simkit.engine.faults) and the exception. Without it, those errors propagate. An
    error raised by the engine itself (not attributable to a seat) always propagates. Anything
    a strategy raises is its fault (its own BaseException subclass too) except, with a `guard`
    (entered by the caller), a real Ctrl-C or SIGTERM; with a guard, setups and decisions are
    timed, and an answer given after the limit is a forfeit. A numpy value equal to a legal
    action is accepted as that action. A step in which every seat acts goes to `act_many` when
    every seat has the same strategy class and it offers one; a failure or timeout in it is the
    first seat's. `mark(seat)` (if given) is called before each seat's setup and decision.
    With `sealed` (the game's entry, under `--paranoid`), each `act` is checked to leave the game
    unchanged (`simkit.engine.act_audit`): a seat that changes it forfeits.
    """
    steps = -1                           # -1 while the seats are set up (the watchdog times that too)
    current = -1
    seats: tuple[int, ...] = ()
    late = guard.check_late if guard is not None and guard.seconds is not None else None
    mark = mark or _no_mark
    if guard is not None:
        guard.watch(sys._getframe())    # its watchdog reads `steps` and `current` from this frame
    try:
        bots = []
        for current, entry in enumerate(lineup):
            mark(current)
            bot = entry.build() if isinstance(entry, StrategySpec) else entry
            bot.setup(info, current, rngs[current])
            bots.append(bot)
        if late is not None:
            late()
        current = -1
        steps = 0
        acts, together = _acts(bots, mark, state, sealed)
        decisions = Decision.for_seats(state, rngs[:len(bots)])
        everyone = tuple(range(len(bots)))
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
            elif together is not None and seats == everyone:
                current = 0
                joint = together(bots, decisions)
            else:
                joint = []
                for current in seats:
                    joint.append(acts[current](decisions[current]))
            if late is not None:
                late()
            current = -1
            try:
                apply(joint)
            except BaseException as exc:
                joint = settle_step(apply, state, seats, joint, exc,
                                    lambda e: _blames_strategy(e, guard))
            steps += 1
            if after is not None:
                after(state, steps, seats, joint)
    except BaseException as exc:
        forfeit = _forfeit(exc, steps, current, seats, guard) if forfeit_on_error else None
        if forfeit is None:
            raise
        return forfeit
    finally:
        if guard is not None:
            guard.watch(None)
    return Played(steps, last_seats=seats)


def _no_mark(seat: int) -> None:
    pass


def _acts(bots: Sequence[Strategy], mark: Callable[[int], None], state: State,
          sealed: Game | None) -> tuple[list[Callable], Callable | None]:
    """Each seat's `act` and the shared `act_many` (or None, see `_together`); with a `mark`
    other than `_no_mark`, each calls `mark(seat)` first (seat 0 for `act_many`). With `sealed`
    (--paranoid) each `act` is checked to leave the game unchanged, one seat at a time."""
    acts: list[Callable] = [bot.act for bot in bots]
    together: Callable | None = _together(bots)
    if mark is not _no_mark:
        acts = [_marked(mark, seat, act) for seat, act in enumerate(acts)]
        together = _marked(mark, 0, together) if together is not None else None
    if sealed is not None:              # --paranoid: nothing may change while a seat decides
        acts, together = sealed_acts(state, sealed, acts), None
    return acts, together


def _marked(mark: Callable[[int], None], seat: int, act: Callable) -> Callable:
    def marked(*args: Any) -> Any:
        mark(seat)
        return act(*args)
    return marked


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
    #: per step of the arc, each seat's standing (games with `Game.running_unit`; empty without a result)
    running: Sequence[Sequence[float]] = ()


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


class _Table:
    """What every game of a run shares, set up once per chunk: the game entry, what strategies
    learn in `setup`, the step cap, the generators, and one instance per lineup slot of each
    strategy that declares itself `reusable`."""

    def __init__(self, spec: RunSpec, pool: GeneratorPool | None = None):
        self.spec = spec
        self.game: Game = get_game(spec.game)
        n = self.n = spec.n_players
        self.info = GameInfo(self.game.name, spec.config, n)
        self.cap = self.game.max_steps(spec.config, n)
        self.pool = pool
        self.lineup: list[StrategySpec | Strategy] = [_reusable(entry) for entry in spec.strategies]

    def play(self, index: int, *, words: list[int] | None = None, chance_words: list[int] | None = None,
             deal: int | None = None, max_steps: int | None = None,
             guard: DecisionGuard | None = None,
             mark: Callable[[int], None] | None = None) -> tuple[GameRecord, State]:
        """`play_game` with this table's shared parts (see there); `deal`, the game's deal
        number, is passed in with `chance_words` when precomputed by `chunk_deals`."""
        spec = self.spec
        n = self.n
        streams = game_streams(spec.seed, index, n, duplicate=spec.duplicate, pool=self.pool,
                               words=words, chance_words=chance_words, deals=spec.deal_numbers)
        slots, k, rotation = seat_slots(spec.seating, spec.duplicate, index, n, streams)
        if deal is None:
            deal = k if spec.deal_numbers is None else deal_number(spec.deal_numbers, k)
        state: State = self.game.new_state(spec.config, n, streams.chance)
        lineup = self.lineup
        partial = max_steps is not None
        cap = max_steps if max_steps is not None else self.cap
        after = _audit_every_step if spec.paranoid and not partial else None
        try:
            played = play_out(state, [lineup[k] for k in slots], self.info, streams.seats, max_steps=cap,
                              after=after, guard=guard, mark=mark,
                              sealed=self.game if after is not None else None)
            failure = "" if partial or played.forfeit >= 0 else _engine_error(state, played, cap)
        except Exception as exc:   # not a strategy's fault: the engine's (or a failed audit)
            if partial:
                raise
            if spec.strict:
                raise EngineError(f"game {index}: {_failure_text(exc)}\n"
                                  + "".join(traceback.format_exception(exc))) from exc
            played = Played(0)
            failure = _failure_text(exc)
        if failure:
            if spec.strict:
                raise EngineError(f"game {index}: {failure}")
            return GameRecord(index, deal, rotation, slots, played.steps, -1, ENGINE_ERROR + failure, False,
                              [math.nan] * n, [n] * n, [math.nan] * n, {}), state
        forfeit = played.forfeit
        if forfeit >= 0:
            return self._forfeited(index, deal, rotation, slots, played), state
        if partial and not state.is_over():
            return GameRecord(index, deal, rotation, slots, played.steps, -1, "", False,
                              (), (), (), {}), state
        out = state.outcome()
        return GameRecord(index, deal, rotation, slots, played.steps, forfeit, played.error,
                          not any(out.win_shares), out.scores, out.ranks, out.win_shares, out.extras,
                          out.round_scores, out.running), state

    def _forfeited(self, index: int, deal: int, rotation: int, slots: list[int],
                   played: Played) -> GameRecord:
        forfeit = played.forfeit
        entry = self.spec.strategies[slots[forfeit]]
        if self.spec.strict:
            cause = played.exception
            raise StrategyError(
                f"game {index}, seat {forfeit} ({entry.text}): {played.error}\n"
                + "".join(traceback.format_exception(cause)), seat=forfeit, strategy=entry.text) from cause
        scores, ranks, wins = _forfeit_outcome(self.n, forfeit)
        return GameRecord(index, deal, rotation, slots, played.steps, forfeit, played.error, False,
                          scores, ranks, wins, {})


def _reusable(entry: StrategySpec) -> StrategySpec | Strategy:
    """One instance for every game of a chunk when its class declares `reusable` (its `setup`
    resets all it keeps from a game); the spec otherwise, or if building it fails (then each
    game fails to build it, as without reuse)."""
    if type(entry) is not StrategySpec:           # a wrapping spec builds another class
        return entry
    try:
        if not load_class(entry.target, entry.path).reusable:
            return entry
        return entry.build()
    except Exception:
        return entry


def play_game(spec: RunSpec, index: int, pool: GeneratorPool | None = None, *,
              words: list[int] | None = None, chance_words: list[int] | None = None,
              max_steps: int | None = None, guard: DecisionGuard | None = None) -> tuple[GameRecord, State]:
    """Play game `index` of `spec`; return its record and final state.

    With `max_steps` play stops there and the record has no result (replay --position).
    Otherwise play is capped at `Game.max_steps`, the final state is audited (after every
    step with `spec.paranoid`), and an engine failure is recorded (ENGINE_ERROR) unless
    `spec.strict`, where it is raised.
    """
    return _Table(spec, pool).play(index, words=words, chance_words=chance_words, max_steps=max_steps,
                                   guard=guard)


def play_range(spec: RunSpec, start: int, stop: int, mark: Callable[[int], None] | None = None) -> Chunk:
    """Play games start..stop-1 in this process and return their rows (by the game's array
    engine when `spec.engine` is "batch", by its compiled kernel when "kernel"). What strategies
    print goes to standard error; a process a strategy forked that returns into this loop ends
    after its game. `mark(seat)` is called before each seat's setup and decision (see play_out)."""
    if spec.engine == "batch":
        return batch_module(spec.game).play_range_batch(spec, start, stop)
    if spec.engine == "kernel":
        return kernel_module(spec.game).play_range_kernel(spec, start, stop)
    table = _Table(spec, GeneratorPool())
    n = spec.n_players
    rows = _Rows(n, [s.text for s in spec.strategies], table.game.has_rounds,
                 table.game.running_unit is not None)
    words = batch_stream_words(spec.seed, start, stop, n + 2)
    deals = chunk_deals(spec, start, stop)
    guard = DecisionGuard(spec.decision_timeout)
    play = table.play
    add = rows.add
    owner = os.getpid()
    getpid = os.getpid
    with guard, stdout_to_stderr():
        if deals is None:
            for index in range(start, stop):
                add(play(index, words=words[index - start], guard=guard, mark=mark)[0])
                if getpid() != owner:
                    _end_forked_child()
        else:
            for index, chance, deal in zip(range(start, stop), *deals):
                add(play(index, words=words[index - start], chance_words=chance, deal=deal,
                         guard=guard, mark=mark)[0])
                if getpid() != owner:
                    _end_forked_child()
    return rows.chunk(start, stop)


def _end_forked_child() -> None:
    """A strategy forked and its child came back into the game loop: the child ends here, at the
    end of its game, before it can write to the run folder or run the caller's code a second
    time (os._exit: no buffer the parent still holds is flushed twice, no exit handler runs)."""
    os._exit(0)


def died_game(spec: RunSpec, index: int, seat: int, why: str) -> Chunk:
    """The rows of game `index`, not played: its worker process died during it (see
    simkit/engine/worker_deaths.py). `seat` (the seat deciding then) forfeits with the error
    text `why`; with seat -1 (no strategy was deciding) it is an engine error. Its steps are 0."""
    n = spec.n_players
    streams = game_streams(spec.seed, index, n, duplicate=spec.duplicate, deals=spec.deal_numbers)
    slots, k, rotation = seat_slots(spec.seating, spec.duplicate, index, n, streams)
    deal = k if spec.deal_numbers is None else deal_number(spec.deal_numbers, k)
    if seat >= 0:
        record = GameRecord(index, deal, rotation, slots, 0, seat, why, False, *_forfeit_outcome(n, seat), {})
    else:
        record = GameRecord(index, deal, rotation, slots, 0, -1, ENGINE_ERROR + why, False,
                            [math.nan] * n, [n] * n, [math.nan] * n, {})
    game = get_game(spec.game)
    rows = _Rows(n, [s.text for s in spec.strategies], game.has_rounds, game.running_unit is not None)
    rows.add(record)
    return rows.chunk(index, index + 1)


def join_chunks(pieces: Sequence[Chunk], start: int, stop: int) -> Chunk:
    """Consecutive chunks (of list columns) as one; a game-level column some lack is None there."""
    joined = Chunk(start, stop)
    for part in ("games", "seats"):
        tables = [getattr(piece, part) for piece in pieces]
        keys = dict.fromkeys(chain.from_iterable(tables))
        sizes = [len(next(iter(t.values()), [])) for t in tables]
        setattr(joined, part, {key: list(chain.from_iterable(
            t[key] if key in t else [None] * size for t, size in zip(tables, sizes))) for key in keys})
    return joined


def chunk_deals(spec: RunSpec, start: int, stop: int) -> tuple[list[list[int]], list[int]] | None:
    """Per game start..stop-1, its chance stream's words and its deal number when its deal is not
    its own stream (a duplicate run, a run on listed deals); None when every game's is (deal =
    game index). Resolved once per chunk."""
    if not spec.duplicate and spec.deal_numbers is None:
        return None
    per = spec.n_players if spec.duplicate else 1
    first, last = start // per, (stop - 1) // per + 1
    words = deal_stream_words(spec.seed, spec.deal_numbers, first, last)
    numbers = deal_numbers(spec.deal_numbers, first, last)
    ks = [index // per - first for index in range(start, stop)]
    return [words[k] for k in ks], [numbers[k] for k in ks]


class _Rows:
    """A chunk's game records, turned into column lists once at the end (a pass per column
    costs less than a dozen appends per game)."""

    def __init__(self, n: int, labels: list[str], has_rounds: bool, has_running: bool = False):
        self.n = n
        self.labels = labels
        self.has_rounds = has_rounds
        self.has_running = has_running
        self.records: list[GameRecord] = []
        self.add = self.records.append

    def chunk(self, start: int, stop: int) -> Chunk:
        recs, n, labels = self.records, self.n, self.labels
        seats = range(n)
        g: dict[str, list] = {
            "game": [r.index for r in recs], "deal": [r.deal for r in recs],
            "rotation": [r.rotation for r in recs], "n_players": [n] * len(recs),
            "steps": [r.steps for r in recs], "forfeit_seat": [r.forfeit for r in recs],
            "error": [r.error for r in recs], "draw": [r.draw for r in recs]}
        # game-level extras in the order first met; a game without one gets None there
        for key in dict.fromkeys(chain.from_iterable(r.extras for r in recs)):
            g[key] = [r.extras.get(key) for r in recs]
        st: dict[str, list] = {
            "game": [r.index for r in recs for _ in seats], "deal": [r.deal for r in recs for _ in seats],
            "rotation": [r.rotation for r in recs for _ in seats], "seat": [s for _ in recs for s in seats],
            "slot": list(chain.from_iterable(r.slots for r in recs)),
            "strategy": [labels[k] for r in recs for k in r.slots],
            "score": list(chain.from_iterable(r.scores for r in recs)),
            "rank": list(chain.from_iterable(r.ranks for r in recs)),
            "win": list(chain.from_iterable(r.wins for r in recs)),
            "forfeit": [s == r.forfeit for r in recs for s in seats]}
        if self.has_rounds:
            st[ROUND_SCORES] = list(chain.from_iterable(seat_round_scores(r.round_scores, n) for r in recs))
        if self.has_running:
            st[RUNNING_SCORE] = list(chain.from_iterable(seat_round_scores(r.running, n) for r in recs))
        return Chunk(start, stop, g, st)


def seat_round_scores(round_scores: Sequence[Sequence[float]], n: int) -> list[list[float]]:
    """Per-round points (one tuple per round) as one list per seat, the `round_scores` column."""
    if not round_scores:
        return [[] for _ in range(n)]
    return [list(map(float, seat)) for seat in zip(*round_scores)]
