"""Playing games: the hot loop that turns (spec, game index) into result rows.

Game i's randomness comes only from its seed streams (simkit.core.seeding), so any range of
games gives the same rows in any process, in any order.
"""

from __future__ import annotations

import math
import traceback
from dataclasses import dataclass, field
from typing import Any

from simkit.core.errors import IllegalAction, StrategyError
from simkit.core.game import Game, State
from simkit.core.registry import get_game
from simkit.core.seeding import GameStreams, GeneratorPool, batch_stream_words, game_streams
from simkit.core.strategy import Decision, GameInfo

GAME_COLUMNS = ("game", "deal", "rotation", "n_players", "steps", "forfeit_seat", "error", "draw")
SEAT_COLUMNS = ("game", "deal", "rotation", "seat", "slot", "strategy", "score", "rank", "win", "forfeit")


def seat_slots(seating: str, duplicate: bool, index: int, n: int, streams: GameStreams) -> tuple[list[int], int, int]:
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


def _forfeit_outcome(n: int, seat: int) -> tuple[list, list, list]:
    share = 1.0 / (n - 1) if n > 1 else 0.0
    return ([math.nan] * n, [n if s == seat else 1 for s in range(n)],
            [0.0 if s == seat else share for s in range(n)])


def play_game(spec, index: int, pool: GeneratorPool | None = None, keep_state: bool = False,
              words: list[int] | None = None, chance_words: list[int] | None = None) -> dict[str, Any]:
    """Play game `index` of `spec`; return its record (and the final state if asked)."""
    game: Game = get_game(spec.game)
    n = spec.n_players
    streams = game_streams(spec.seed, index, n, duplicate=spec.duplicate, pool=pool,
                           words=words, chance_words=chance_words)
    slots, deal, rotation = seat_slots(spec.seating, spec.duplicate, index, n, streams)
    state: State = game.new_state(spec.config, n, streams.chance)
    info = GameInfo(game.name, spec.config, n)
    lineup = spec.strategies
    acts = []
    decisions = []
    seat_rngs = streams.seats
    steps = 0
    current = -1
    error = ""
    forfeit = -1
    apply = state.apply
    to_act = state.to_act
    is_over = state.is_over
    try:
        for current in range(n):
            bot = lineup[slots[current]].build()
            bot.setup(info, current, seat_rngs[current])
            acts.append(bot.act)
            decisions.append(Decision(state, current, seat_rngs[current]))
        current = -1
        while not is_over():
            seats = to_act()
            if len(seats) == 1:
                current = seats[0]
                joint = (acts[current](decisions[current]),)
            else:
                joint = []
                for current in seats:
                    joint.append(acts[current](decisions[current]))
            current = -1
            apply(joint)
            steps += 1
    except Exception as exc:  # a strategy's fault forfeits the game; an engine bug propagates
        if current >= 0:
            forfeit = current
            error = f"{type(exc).__name__}: {exc}"
        elif isinstance(exc, IllegalAction) and exc.seat is not None:
            forfeit = exc.seat
            error = f"illegal action: {exc}"
        else:
            raise
        if spec.strict:
            raise StrategyError(
                f"game {index}, seat {forfeit} ({lineup[slots[forfeit]].text}): {error}\n"
                + "".join(traceback.format_exception(exc)), seat=forfeit,
                strategy=lineup[slots[forfeit]].text) from exc
    if forfeit >= 0:
        scores, ranks, wins = _forfeit_outcome(n, forfeit)
        extras: dict = {}
        draw = False
    else:
        out = state.outcome()
        scores, ranks, wins, extras = out.scores, out.ranks, out.win_shares, out.extras
        draw = not any(wins)
    record = {"index": index, "deal": deal, "rotation": rotation, "slots": slots, "steps": steps,
              "forfeit": forfeit, "error": error, "draw": draw, "scores": scores, "ranks": ranks,
              "wins": wins, "extras": extras}
    if keep_state:
        record["state"] = state
    return record


def play_range(spec, start: int, stop: int) -> Chunk:
    """Play games start..stop-1 in this process and return their rows."""
    pool = GeneratorPool()
    n = spec.n_players
    labels = [s.text for s in spec.strategies]
    g = {c: [] for c in GAME_COLUMNS}
    st = {c: [] for c in SEAT_COLUMNS}
    extra_cols: dict[str, list] = {}
    chunk = Chunk(start, stop, g, st)
    seat_range = range(n)
    words = batch_stream_words(spec.seed, start, stop, n + 2)
    if spec.duplicate:
        first_deal = start // n
        deal_words = batch_stream_words(spec.seed, first_deal, (stop - 1) // n + 1, 1)
    for index in range(start, stop):
        chance = deal_words[index // n - first_deal] if spec.duplicate else None
        rec = play_game(spec, index, pool, words=words[index - start], chance_words=chance)
        deal, rotation, forfeit = rec["deal"], rec["rotation"], rec["forfeit"]
        g["game"].append(index)
        g["deal"].append(deal)
        g["rotation"].append(rotation)
        g["n_players"].append(n)
        g["steps"].append(rec["steps"])
        g["forfeit_seat"].append(forfeit)
        g["error"].append(rec["error"])
        g["draw"].append(rec["draw"])
        done = index - start
        for key, value in rec["extras"].items():
            col = extra_cols.get(key)
            if col is None:
                col = extra_cols[key] = [None] * done
            col.append(value)
        for key, col in extra_cols.items():
            if len(col) == done:
                col.append(None)
        slots = rec["slots"]
        st["game"].extend([index] * n)
        st["deal"].extend([deal] * n)
        st["rotation"].extend([rotation] * n)
        st["seat"].extend(seat_range)
        st["slot"].extend(slots)
        st["strategy"].extend([labels[k] for k in slots])
        st["score"].extend(rec["scores"])
        st["rank"].extend(rec["ranks"])
        st["win"].extend(rec["wins"])
        st["forfeit"].extend([s == forfeit for s in seat_range])
    g.update(extra_cols)
    return chunk
