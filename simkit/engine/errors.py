"""Exception classes. Every message names what was wrong and what is allowed."""

import difflib
from collections.abc import Sequence


class SimkitError(Exception):
    """Base of every error simkit raises on purpose; the CLI prints these as one line."""


class ConfigError(SimkitError, ValueError):
    """A Config field, run option or override has a bad value."""


class UnknownNameError(SimkitError, LookupError):
    """An unknown game, strategy, config field or strategy parameter."""


def did_you_mean(name: str, allowed: Sequence[str]) -> str:
    """`; did you mean 'x'?` when one allowed name is close to `name` (a typo), else ''."""
    close = difflib.get_close_matches(name, list(allowed), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def unknown_name(what: str, name: str, allowed: Sequence[str], *, where: str = "",
                 alternative: str = "") -> UnknownNameError:
    """`unknown <what> 'name'<where>: allowed are a, b<alternative>`, plus a suggestion for a typo."""
    listed = ", ".join(allowed) or "none"
    return UnknownNameError(f"unknown {what} {name!r}{where}: allowed are {listed}{alternative}"
                            f"{did_you_mean(name, allowed)}")


class IllegalAction(SimkitError):
    """An action the rules do not allow in the current state.

    `seat` is the seat that submitted it (None when unknown), `rule` the spec rule it breaks.
    """

    def __init__(self, message: str, seat: int | None = None, rule: str | None = None):
        super().__init__(message)
        self.seat = seat
        self.rule = rule

    def __reduce__(self):  # keep seat and rule across worker processes
        return type(self), (str(self), self.seat, self.rule)


class StrategyError(SimkitError):
    """A strategy raised or returned an illegal action (raised only under --strict)."""

    def __init__(self, message: str, seat: int, strategy: str):
        super().__init__(message)
        self.seat = seat
        self.strategy = strategy

    def __reduce__(self):  # workers send it to the parent: it must unpickle with its fields
        return type(self), (str(self), self.seat, self.strategy)


class EngineError(SimkitError):
    """A game the engine could not finish (its own exception, a failed audit, the step cap);
    raised only under --strict, recorded as the game's error otherwise."""


class PositionError(SimkitError, ValueError):
    """A text position (`Game.parse_position`) cannot be read: the message names the part."""


class RunFolderError(SimkitError):
    """The output folder cannot be used (exists, or does not match on --resume)."""
