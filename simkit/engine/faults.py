"""What a strategy's misbehaviour becomes in the game loop: the text stored for a forfeit (safe to
build, capped in length), and the reading of a step whose actions the game rejected.

A strategy returns any object. When `State.apply` fails on a step: if the code of a returned
object raised (its `__repr__` while the game wrote its message, its `__eq__`), that seat
forfeits. If the game rejected the step (IllegalAction) or a numpy value is in it, each seat's
action is checked on its own: a legal one stands; a numpy value (`np.int64`, `np.float64`, a 0-d
array, an array) equal to a legal action becomes that legal action; anything else makes its
seat forfeit (an IllegalAction naming it). Any other failure is the engine's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from simkit.engine.errors import IllegalAction
from simkit.engine.game import State
from simkit.engine.termination import STOPS

#: the most characters of error text stored for one game (a plug-in's repr can be megabytes)
ERROR_TEXT_LIMIT = 2000
#: the most characters of one action's repr inside an error text
REPR_LIMIT = 200


def capped(text: str, limit: int = ERROR_TEXT_LIMIT) -> str:
    """`text`, or its start and how much was cut when it is longer than `limit`."""
    if len(text) <= limit:
        return text
    keep = max(limit - 40, 0)                   # the note below is shorter than 40 characters
    return text[:keep] + f"... ({len(text) - keep} characters cut)"


def safe_text(value: Any, *, as_repr: bool = False, limit: int = ERROR_TEXT_LIMIT) -> str:
    """`str(value)` (or its repr), capped; `<unprintable T>` when building it raises."""
    try:
        text = repr(value) if as_repr else str(value)
        if not isinstance(text, str):
            raise TypeError
    except STOPS:
        raise
    except BaseException:
        text = f"<unprintable {type(value).__name__}>"
    return capped(text, limit)


def error_text(exc: BaseException) -> str:
    """`Type: message` of a strategy's exception, safe to build and capped."""
    return capped(f"{type(exc).__name__}: {safe_text(exc)}")


def plain(action: Any) -> Any:
    """A numpy scalar or array as the plain Python value it equals (a 0-d array as its item)."""
    if isinstance(action, np.generic):
        return action.item()
    if isinstance(action, np.ndarray):
        return action.item() if action.ndim == 0 else tuple(plain(x) for x in action)
    return action


_NO_ACTION = object()


def _legal_equal(state: State, seat: int, action: Any) -> Any:
    """`action` if legal for `seat`, else the legal action a numpy `action` equals; _NO_ACTION."""
    if state.is_legal(seat, action):
        return action
    if not isinstance(action, (np.generic, np.ndarray)):
        return _NO_ACTION
    value = plain(action)
    if state.is_legal(seat, value):
        return value
    for legal in state.legal_actions(seat) or ():
        if type(legal) is not bool and legal == value:
            return legal
    return _NO_ACTION


def _raised_by(error: BaseException, joint: Sequence[Any]) -> int | None:
    """The position in `joint` of the action whose own method (`__repr__`, `__eq__`, ...) raised
    `error`, found in its traceback; None when no action's code is in it."""
    positions = {id(a): k for k, a in enumerate(joint)}
    tb = error.__traceback__
    while tb is not None:
        owner = tb.tb_frame.f_locals.get("self")
        if owner is not None and id(owner) in positions:
            return positions[id(owner)]
        tb = tb.tb_next
    return None


def settle_step(apply: Callable[[list], None], state: State, seats: Sequence[int], joint: list,
                error: BaseException, is_fault: Callable[[BaseException], bool]) -> list:
    """After `apply(joint)` raised `error`: raise an IllegalAction naming the seat at fault, or
    apply the step with numpy values read as the legal actions they equal and return it, or
    re-raise `error` (the engine's own failure).

    A seat is at fault when the code of the action it returned raised (an unprintable object),
    or, when the game rejected the step (an IllegalAction) or a numpy value is in it, when its
    action is legal in no reading. `is_fault(exc)` says whether an exception raised while
    looking at a strategy's object is the strategy's fault (a real Ctrl-C is not).
    """
    numpy = any(isinstance(a, (np.generic, np.ndarray)) for a in joint)
    rejected = isinstance(error, IllegalAction)
    if rejected and error.seat is not None and not numpy:       # type: ignore[attr-defined]
        raise error                               # the game named the seat: its verdict stands
    if not is_fault(error):
        raise error
    culprit = _raised_by(error, joint)
    if culprit is not None:
        shown = safe_text(joint[culprit], as_repr=True, limit=REPR_LIMIT)
        raise IllegalAction(f"seat {seats[culprit]} played {shown}, whose own code raised "
                            f"{error_text(error)}", seat=seats[culprit]) from None
    if not (rejected or numpy):
        raise error                               # every action is the engine's business
    settled = []
    for seat, action in zip(seats, joint):
        try:
            legal = _legal_equal(state, seat, action)
        except BaseException as exc:
            if not is_fault(exc):
                raise
            legal = _NO_ACTION
        if legal is _NO_ACTION:
            if rejected and error.seat == seat:                    # type: ignore[attr-defined]
                raise error
            raise IllegalAction(f"seat {seat} played {safe_text(action, as_repr=True, limit=REPR_LIMIT)}, "
                                f"which is not a legal action", seat=seat) from None
        settled.append(legal)
    if all(s is a for s, a in zip(settled, joint)):
        raise error
    apply(settled)
    return settled
