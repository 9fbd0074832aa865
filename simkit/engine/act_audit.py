"""`--paranoid`'s check of what a seat cannot change: nothing of the game may change while a
strategy decides.

A strategy's `act` only reads; every change of a game goes through `State.apply` with the
actions the seats returned. So under `--paranoid` each `act` is wrapped (`sealed_acts`): the
game's fingerprint is taken before and after the call, and a difference is that seat's forfeit
(`StateTampered`). The fingerprint is what decides the game from there on:

- the position (`Game.format_position`: rows, hands, piles, totals, ... of every seat, hidden
  cards included), or, for a game without one, every list field of the state;
- the event log, the config, and the state of every chance generator the state holds.

It cannot see a change made outside a strategy's `act` (in `setup`, from another thread, from
an action object's own methods while the engine applies it): the per-step audit and the
final audit stay in place for those, and `--isolate` leaves a strategy nothing to change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import zip_longest
from typing import Any

import numpy as np

from simkit.engine.game import Action, Game, State
from simkit.engine.strategy import Decision

Act = Callable[[Decision], Action]
#: the most lines of a changed position a forfeit's error names
SHOWN_LINES = 3


class StateTampered(Exception):
    """The game changed while a seat's strategy decided: that seat forfeits."""


def _fields(state: State) -> list[tuple[str, Any]]:
    names: list[str] = []
    for klass in type(state).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    found = [(name, getattr(state, name)) for name in names if hasattr(state, name)]
    return found + sorted(getattr(state, "__dict__", {}).items())


def fingerprint(state: State, game: Game) -> tuple[Any, ...]:
    """What decides `state` from here on, as an immutable value (see the module docstring)."""
    fields = _fields(state)
    generators = tuple((name, repr(value.bit_generator.state)) for name, value in fields
                       if isinstance(value, np.random.Generator))
    if game.format_position is not None:
        position: Any = game.format_position(state)
    else:
        position = tuple((name, repr(value)) for name, value in fields if isinstance(value, list))
    return (position, tuple(getattr(state, "events", ())), getattr(state, "config", None), generators)


def describe_change(before: tuple[Any, ...], after: tuple[Any, ...]) -> str:
    """What differs between two fingerprints, in a few words."""
    parts = []
    if before[0] != after[0]:
        if isinstance(before[0], str):
            changed = [(a, b) for a, b in zip_longest(before[0].splitlines(), after[0].splitlines(),
                                                     fillvalue="")
                       if a != b]
            shown = "; ".join(f"{_short(a)!r} became {_short(b)!r}" for a, b in changed[:SHOWN_LINES])
            more = f" (and {len(changed) - SHOWN_LINES} more lines)" if len(changed) > SHOWN_LINES else ""
            parts.append(f"the position changed: {shown}{more}")
        else:
            parts.append("the position changed")
    for index, what in ((1, "the event log"), (2, "the config"), (3, "a chance generator")):
        if before[index] != after[index]:
            parts.append(f"{what} changed")
    return "; ".join(parts)


def _short(line: str, width: int = 80) -> str:
    return line if len(line) <= width else line[:width - 3] + "..."


def sealed_acts(state: State, game: Game, acts: Sequence[Act]) -> list[Act]:
    """Each of `acts` (seat by seat) wrapped: a call after which `state`'s fingerprint differs
    from before raises StateTampered naming that seat."""
    return [_sealed(state, game, seat, act) for seat, act in enumerate(acts)]


def _sealed(state: State, game: Game, seat: int, act: Act) -> Act:
    def sealed_act(decision: Decision) -> Action:
        before = fingerprint(state, game)
        action = act(decision)
        after = fingerprint(state, game)
        if after != before:
            raise StateTampered(f"seat {seat} changed the game while deciding (--paranoid): "
                                f"{describe_change(before, after)}")
        return action
    return sealed_act
