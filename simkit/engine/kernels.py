"""Compiled kernels: what every game's kernel shares (issue 21).

A game's kernel plays whole games as numba-compiled code on a few arrays, with the bots' kernel
forms compiled too. A game offers one through `Game.kernel_engine`, a module with
`kernel_supported(spec)` (None, or the reason it cannot play the run: it must not import numba)
and `play_range_kernel(spec, start, stop)` (the same `Chunk` as `play_range`, its columns built
by `simkit.engine.kernel_records`). `--engine kernel` asks for it; `--engine auto` takes it where
it can play every seat (simkit/engine/spec.py, `choose_engine`).

A strategy has a kernel form when its class names one: `kernel_form = "module:NAME"`, a
`KernelForm` that names the compiled function and builds its float parameters from the
strategy's own keyword parameters (docs/strategies.md, "Kernel forms"). The form is declared
in a module that does not import numba, so checking a run compiles nothing; the function's
module is imported only when a kernel plays.

Compilation is lazy and cached: numba compiles a kernel's functions the first time a process
plays it and stores the machine code in its disk cache (`cache=True`; `NUMBA_CACHE_DIR` moves it),
so later processes load it. The CLI never imports numba at start-up.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.engine.config import GameConfig
from simkit.engine.strategy import StrategySpec, load_class, parse_strategy


@dataclass(frozen=True)
class KernelForm:
    """A strategy's kernel form: `function` is "module:name" of the compiled bot (the game's bot
    signature); `params(config, n_players, **strategy_params)` returns its float64 parameters
    and raises ValueError (or TypeError) for parameters the form cannot play."""

    function: str
    params: Callable[..., np.ndarray]


def numba_missing() -> str | None:
    """Why kernels cannot run here (numba is not installed), or None."""
    if importlib.util.find_spec("numba") is None:
        return "numba is not installed (pip install numba)"
    return None


def kernel_form(strategy: StrategySpec) -> KernelForm:
    """The strategy's kernel form; ValueError naming the strategy when it has none."""
    cls = load_class(strategy.target, strategy.path)
    path = getattr(cls, "kernel_form", None)
    if not path:
        raise ValueError(f"strategy {strategy.text!r} has no kernel form")
    module, _, name = str(path).partition(":")
    form = getattr(importlib.import_module(module), name, None)
    if not isinstance(form, KernelForm):
        raise ValueError(f"strategy {strategy.text!r}: its kernel_form {path!r} is not a KernelForm")
    return form


def kernel_params(strategy: StrategySpec, config: GameConfig, n_players: int) -> np.ndarray:
    """The strategy's kernel parameters (float64); ValueError naming it when the form refuses."""
    form = kernel_form(strategy)
    try:
        params = form.params(config, n_players, **dict(strategy.params))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"strategy {strategy.text!r}: its kernel form cannot play these "
                         f"parameters ({exc})") from None
    return np.ascontiguousarray(params, dtype=np.float64)


def kernel_reason(strategies: tuple[StrategySpec, ...], config: GameConfig, n_players: int) -> str | None:
    """None when every seat has a kernel form that takes its parameters, else why not."""
    for strategy in dict.fromkeys(strategies):
        try:
            kernel_params(strategy, config, n_players)
        except Exception as exc:    # a plug-in's form may fail in any way: not for the kernel
            return f"{exc} (the kernel needs a kernel form for every seat)"
    return None


def load_function(form: KernelForm) -> Any:
    """The compiled bot (imports its module; numba compiles it, or loads it from the cache,
    for its declared signature: `kernel_rng.compiled`)."""
    module, _, name = form.function.partition(":")
    with quiet_numba():
        function = getattr(importlib.import_module(module), name)
        ready = getattr(function, "ready", None)     # a bot made with kernel_rng.compiled
        return function if ready is None else ready()


def lineup_bots(spec: Any) -> list[Any]:
    """The compiled bots (not compiled yet) of the run `spec`'s lineup, but the game's `random`
    (which `compile_aside` compiles with the game loop)."""
    plain = kernel_form(parse_strategy("random", spec.game)).function
    bots = []
    for function in dict.fromkeys(kernel_form(s).function for s in spec.strategies):
        if function != plain:
            module, _, name = function.partition(":")
            bots.append(getattr(importlib.import_module(module), name))
    return bots


@contextmanager
def quiet_numba() -> Iterator[None]:
    """Silence numba's notice that first-class functions (the bots a kernel takes) are
    experimental: the kernels are tested against the scalar engine, game by game."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
        yield


class KernelLineup:
    """The compiled bots (`fns`) and float parameters (`params`) of a run's lineup slots, padded
    to the kernel's `slots` with the first slot's (unused slots hold any bot); `forms` their
    kernel forms. Loading the bots imports their modules (numba compiles or loads them)."""

    def __init__(self, strategies: tuple[StrategySpec, ...] | list[StrategySpec], config: GameConfig,
                 n: int, slots: int):
        self.strategies = list(strategies)
        self.forms = [kernel_form(s) for s in strategies]
        fns = [load_function(form) for form in self.forms]
        params = [kernel_params(s, config, n) for s in strategies]
        self.fns = tuple(fns + [fns[0]] * (slots - len(fns)))
        self.params = tuple(params + [params[0]] * (slots - len(params)))


@dataclass
class GameStreams:
    """Games start..stop-1 of a run as a kernel takes them: their numbers (`index`), each game's
    stream words (`words`, (G, 2 * streams) uint64, `seeding.batch_stream_array`), the chance
    stream's words of its deal (`chance`, (G, 2): the game's own, or the deal list's) and its
    deal number (`deal`); `incs` (streams, 2) each stream's increment (high, low word)."""

    index: np.ndarray
    words: np.ndarray
    chance: np.ndarray
    deal: np.ndarray
    incs: np.ndarray


def game_streams(spec: Any, start: int, stop: int, streams: int) -> GameStreams:
    """The `GameStreams` of games start..stop-1 of the run `spec` (a RunSpec), `streams` each."""
    from simkit.engine.kernel_rng import batch_stream_words
    from simkit.engine.play import chunk_deals

    index = np.arange(start, stop, dtype=np.int64)
    words = batch_stream_words(spec.seed, start, stop, streams)
    deals = chunk_deals(spec, start, stop)
    if deals is None:
        chance, deal = np.ascontiguousarray(words[:, :2]), index
    else:
        chance = np.array(deals[0], dtype=np.uint64).reshape(stop - start, 2)
        deal = np.array(deals[1], dtype=np.int64)
    return GameStreams(index, words, chance, deal, stream_incs(streams))


@functools.cache
def stream_incs(streams: int) -> np.ndarray:
    """(streams, 2) uint64: each stream's PCG64 increment as (high, low) words (shared: not
    to be written; a read-only array would be another type to numba, compiled again)."""
    from simkit.engine.seeding import _stream_inc

    incs = np.zeros((streams, 2), dtype=np.uint64)
    for stream in range(streams):
        inc = _stream_inc(stream)
        incs[stream] = (inc >> 64, inc & 0xFFFFFFFFFFFFFFFF)
    return incs


def check_run(reason: str | None) -> None:
    """ValueError with a game's `kernel_supported` reason when the kernel cannot play the run."""
    if reason is not None:
        raise ValueError(f"the kernel cannot play this run: {reason}")


def bad_answer(spec: Any, slots: np.ndarray, seat: int, game: int) -> ValueError:
    """The error for a bot that answered outside its legal list: seat `seat` of game number
    `game`, whose seats hold the lineup `slots`."""
    strategy = spec.strategies[slots[seat]]
    return ValueError(f"the kernel form of {strategy.text!r} (seat {seat}, game {game}) "
                      f"answered outside its legal list")


def replay_answers(state: Any, answers: list[int]) -> int:
    """Play a kernel's recorded answers (positions in `legal_actions` lists, seat by seat in
    `to_act` order) on a scalar state; returns the steps played. The scalar engine's log of the
    game is then the log of the kernel's game (how a kernel game is replayed and rendered)."""
    at = steps = 0
    while not state.is_over() and at < len(answers):
        joint = []
        for seat in state.to_act():
            joint.append(state.legal_actions(seat)[answers[at]])
            at += 1
        state.apply(joint)
        steps += 1
    return steps


def run_reason(spec: Any, game: str, title: str, config_cls: type[GameConfig]) -> str | None:
    """Why a game's kernel cannot play the run `spec` (a RunSpec), or None: the checks every
    game's `kernel_supported` makes (its game and config, --paranoid, numba, every seat's
    kernel form and parameters)."""
    if spec.game != game:
        return f"the {title} kernel plays {title} only, not {spec.game}"
    if not isinstance(spec.config, config_cls):
        return f"the config is not a {title} config"
    if spec.paranoid:
        return "--paranoid audits the state after every step, which only the scalar engine does"
    missing = numba_missing()
    if missing:
        return missing
    return kernel_reason(spec.strategies, spec.config, spec.n_players)


def rollout_form(info: Any, rollout: StrategySpec, config_type: type, game_name: str) -> KernelForm:
    """The rollout strategy's kernel form, for a game's `KernelRollout` (docs/search.md, "Kernel
    rollouts"); ValueError with the reason the kernel cannot play these rollouts: numba is missing,
    the config is another game's, the strategy has no kernel form or the form refuses its
    parameters."""
    missing = numba_missing()
    if missing:
        raise ValueError(missing)
    config: GameConfig = info.config
    if not isinstance(config, config_type):
        raise ValueError(f"the config is not a {game_name} config")
    kernel_params(rollout, config, info.n_players)
    return kernel_form(rollout)
