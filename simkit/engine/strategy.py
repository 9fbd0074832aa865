"""Strategies: the base class, the per-decision view, and finding strategies by name.

A strategy is named on the command line as `name`, `name:key=value,key=value`,
`package.module:Class` or `package.module:Class:key=value`. Built-in names come from the
`BUILTIN` table of `strategies/<game>/__init__.py`; installed plug-ins from the entry-point
group `simkit.strategies` (entry name `<game>.<name>`, value `module:Class`); the strategies of
GENERIC_STRATEGIES play every game: `random` (`RandomStrategy` below, for a game that names no
`random` of its own) and the search strategies `ismcts` and `mc`.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, ClassVar, Generic

import numpy as np

from simkit.engine.config import parse_value
from simkit.engine.errors import ConfigError, UnknownNameError, did_you_mean, unknown_name
from simkit.engine.game import Action, ConfigT, State
from simkit.engine.registry import get_game

ENTRY_POINT_GROUP = "simkit.strategies"


@dataclass(frozen=True)
class GameInfo(Generic[ConfigT]):
    """What a strategy learns once per game in `setup`."""

    game: str
    config: ConfigT
    n_players: int


class Decision:
    """One seat's view of a decision: observation, legal actions, its own RNG, a forward model.

    Its attributes are plain data (`seat`, `rng`); `observation`, `legal_actions`, `is_legal`
    and `sample_state()` (a determinized copy) ask the live state, which the Decision keeps in a
    slot whose descriptor is removed from the class: no attribute, bound method or closure of a
    Decision leads to the state (`tests/reliability/test_isolation.py` walks them). That keeps
    honest code from reaching the state by accident; it is no sandbox: code in the same process
    can still find any object through `gc` or the stack frames, so in-process plug-ins are
    trusted code (`--isolate` runs a strategy in a process of its own, docs/reliability.md).
    The runner reuses one Decision per seat for a whole game; read it during `act` only.
    """

    __slots__ = ("seat", "rng", "_state")

    def __init__(self, state: State, seat: int, rng: np.random.Generator):
        self.seat = seat
        self.rng = rng
        _hold(self, state)

    @classmethod
    def for_seats(cls, state: State, rngs: Sequence[np.random.Generator]) -> list[Decision]:
        """`[Decision(state, seat, rng) for seat, rng in enumerate(rngs)]` (the runner's
        per-game set-up)."""
        new = object.__new__
        hold = _hold
        decisions = []
        for seat, rng in enumerate(rngs):
            decision = new(cls)
            decision.seat = seat
            decision.rng = rng
            hold(decision, state)
            decisions.append(decision)
        return decisions

    @property
    def observation(self) -> Any:
        return _held(self).observe(self.seat)

    @property
    def legal_actions(self) -> Any:
        """The legal actions, or None where the game cannot list them (use is_legal)."""
        return _held(self).legal_actions(self.seat)

    def is_legal(self, action: Action) -> bool:
        return _held(self).is_legal(self.seat, action)

    def sample_state(self) -> State:
        """A full state consistent with this seat's observation (hidden information resampled)."""
        return _held(self).determinize(self.seat, self.rng)


# The state's slot stays in every Decision, but its descriptor leaves the class: `dir`, `vars`
# and attribute access do not see it; only these two module-private functions read and set it.
_STATE_SLOT = Decision.__dict__["_state"]
_held = _STATE_SLOT.__get__
_hold = _STATE_SLOT.__set__
del Decision._state  # type: ignore[attr-defined]
del _STATE_SLOT


class Strategy(Generic[ConfigT]):
    """Base class of every strategy. Subclasses take their parameters as keyword arguments
    with type annotations (so `heuristic:depth=2` can be parsed) and override `act`. A
    strategy of one game names its config class, `Strategy[SixNimmtConfig]`, to read
    `self.info.config` as that class; a bare `Strategy` plays any game.

    Two opt-in fast paths for strategies played millions of times (docs/strategies.md):
    `reusable = True` lets the runner keep one instance per lineup slot for a whole chunk of
    games (its `setup` must reset everything a game leaves behind), and `act_many` answers a
    step where every seat acts and every seat has this class, in one call.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: True when `setup` resets all per-game state, so one instance may play game after game
    reusable: ClassVar[bool] = False

    seat: int
    rng: np.random.Generator
    info: GameInfo[ConfigT]

    def setup(self, info: GameInfo[ConfigT], seat: int, rng: np.random.Generator) -> None:
        self.info = info
        self.seat = seat
        self.rng = rng

    def act(self, decision: Decision) -> Action:
        raise NotImplementedError

    @classmethod
    def act_many(cls, bots: Sequence[Strategy], decisions: Sequence[Decision]) -> list[Action]:
        """The actions of `bots` (all of this class, seats 0..n-1 in order) in a step where
        every seat acts: exactly `[bot.act(d) for bot, d in zip(bots, decisions)]`, the same
        draws in the same order. Override it only to do that faster (the loop then calls it
        instead of `act`; an exception or a timeout in it is blamed on seat 0)."""
        return [bot.act(decision) for bot, decision in zip(bots, decisions)]


class RandomStrategy(Strategy):
    """Uniform over the legal actions; where a game cannot list them, uniform over its
    `Game.candidate_actions` in a determinized copy (the seat's own moves do not depend on what
    it cannot see). Draws only from the decision's generator: one integer per decision."""

    name = "random"
    description = "uniform over the legal actions (the game's candidate moves where they cannot be listed)"
    reusable = True     # keeps nothing from one game to the next

    def act(self, decision: Decision) -> Action:
        legal = decision.legal_actions
        if legal is None:
            candidates = get_game(self.info.game).candidate_actions
            if candidates is None:
                raise ConfigError(f"{self.info.game} cannot list its legal actions and has no "
                                  f"Game.candidate_actions: the generic random strategy cannot play it")
            legal = candidates(decision.sample_state(), decision.seat)
        return legal[int(decision.rng.integers(len(legal)))]


@dataclass(frozen=True)
class StrategySpec:
    """A picklable recipe for a strategy: rebuilt fresh for every game."""

    text: str
    target: str                     # "module:Class"
    params: tuple[tuple[str, Any], ...] = ()
    #: the folder a `module:Class` was found in when it is not importable otherwise (the
    #: current folder, like pytest and uvicorn); workers put it on sys.path too
    path: str = ""

    def build(self) -> Strategy:
        return load_class(self.target, self.path)(**dict(self.params))

    @property
    def label(self) -> str:
        return self.text


def builtin_strategies(game: str) -> dict[str, str]:
    """Built-in strategy names of a game -> "module:Class"."""
    try:
        module = importlib.import_module(f"strategies.{game}")
    except ModuleNotFoundError:
        return {}
    return dict(getattr(module, "BUILTIN", {}))


@functools.cache
def _entry_points() -> tuple:
    return tuple(entry_points(group=ENTRY_POINT_GROUP))


def plugin_strategies(game: str) -> dict[str, str]:
    found = {}
    for ep in _entry_points():
        prefix, _, name = ep.name.partition(".")
        if prefix == game and name:
            found[name] = ep.value
    return found


#: strategies that play every game through the protocol alone (a game's own names come first)
GENERIC_STRATEGIES = {
    "random": "simkit.engine.strategy:RandomStrategy",
    "ismcts": "simkit.search.ismcts:ISMCTS",
    "mc": "simkit.search.flat:FlatMC",
}


def available_strategies(game: str) -> dict[str, str]:
    return {**GENERIC_STRATEGIES, **plugin_strategies(game), **builtin_strategies(game)}


_CLASS_CACHE: dict[str, type[Strategy]] = {}
#: top-level module names found only in a folder put on sys.path by `load_class`: name -> folder
_FOUND_IN: dict[str, str] = {}


def _import(module_name: str, path: str = ""):
    """Import `module_name`; if it (its top-level package) is not importable, look in `path`,
    or in the current folder, as pytest and uvicorn do for `module:Class` names."""
    top = module_name.partition(".")[0]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != top:
            raise
        folder = os.path.abspath(path or os.getcwd())
        if folder in sys.path:
            raise
        sys.path.insert(0, folder)
        importlib.invalidate_caches()
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as again:
            sys.path.remove(folder)
            if again.name == top:
                raise exc from None
            raise
        _FOUND_IN[top] = folder
        return module


def found_in(target: str) -> str:
    """The folder `load_class` added to sys.path to find `target`'s module ("" if none)."""
    return _FOUND_IN.get(target.partition(":")[0].partition(".")[0], "")


def load_class(target: str, path: str = "") -> type[Strategy]:
    """The Strategy class `module:Class`; a module not importable otherwise is looked for in
    `path` or the current folder (so `-s mybots:Cautious` finds ./mybots.py)."""
    cls = _CLASS_CACHE.get(target)
    if cls is not None:
        return cls
    module_name, _, attr = target.partition(":")
    try:
        module = _import(module_name, path)
    except ImportError as exc:
        raise UnknownNameError(f"cannot import strategy module {module_name!r}: {exc} (looked in "
                               f"the installed packages and the current folder)") from None
    cls = getattr(module, attr, None)
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise UnknownNameError(f"{target!r} is not a Strategy class: "
                               f"module {module_name!r} has no Strategy subclass {attr!r}")
    _CLASS_CACHE[target] = cls
    return cls


def strategy_parameters(cls: type) -> dict[str, inspect.Parameter]:
    sig = inspect.signature(cls)
    return {n: p for n, p in sig.parameters.items()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _is_import_path(head: str, rest: str, known: dict) -> bool:
    """`module:Class` (not a built-in name followed by parameters)."""
    return rest.isidentifier() and ("." in head or head not in known)


def parse_strategy(text: str, game: str) -> StrategySpec:
    """Resolve a strategy name as given on the command line; raise a clear error if unknown."""
    text = text.strip()
    head, _, rest = text.partition(":")
    known = available_strategies(game)
    if _is_import_path(head, rest.partition(":")[0], known):
        cls_name, _, param_text = rest.partition(":")
        target = f"{head}:{cls_name}"
    else:
        if head not in known:
            raise unknown_name("strategy", head, sorted(known), where=f" for {game}",
                               alternative=", or package.module:Class")
        target, param_text = known[head], rest
    cls = load_class(target)
    params = _parse_params(param_text, cls, text)
    try:
        cls(**params)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"strategy {text!r}: {exc}") from None
    return StrategySpec(text=text, target=target, params=tuple(sorted(params.items())),
                        path=found_in(target))


def _parse_params(param_text: str, cls: type, text: str) -> dict[str, Any]:
    allowed = strategy_parameters(cls)
    params: dict[str, Any] = {}
    if not param_text.strip():
        if text.rstrip().endswith(":"):
            raise ConfigError(f"strategy {text!r}: nothing after ':': give key=value parameters "
                              f"or leave the ':' out")
        return params
    for item in param_text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep:
            raise ConfigError(f"strategy {text!r}: parameter {item!r} must look like key=value")
        if key in params:
            raise ConfigError(f"strategy {text!r}: parameter {key!r} is given twice; give it once")
        if key not in allowed:
            names = ", ".join(allowed) or "none"
            raise UnknownNameError(f"strategy {text!r}: unknown parameter {key!r}; allowed are {names}"
                                   f"{did_you_mean(key, list(allowed))}")
        params[key] = parse_value(value.strip(), _parameter_type(cls, allowed[key]), f"{text}: {key}")
    return params


def _parameter_type(cls: type, param: inspect.Parameter) -> Any:
    """The declared type of a constructor parameter, also when written as a string
    (`from __future__ import annotations`); text when undeclared or unresolvable."""
    tp = param.annotation
    if tp is inspect.Parameter.empty:
        return str
    if isinstance(tp, str):
        try:
            tp = inspect.signature(cls, eval_str=True).parameters[param.name].annotation
        except Exception:  # a plug-in's annotation naming something its module cannot resolve
            tp = {"int": int, "float": float, "bool": bool, "str": str}.get(tp, str)
    return tp
