"""Shared pieces of the kernel rollout tests (tests/<game>/test_kernel_rollout.py): positions met
along seeded games, and the comparison of the Python rollout (`Simulator._play` after `start()`)
with `KernelRollout.play` from clones of one position (the kernel rollout contract)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator

import numpy as np

from simkit.engine import seeded_play
from simkit.engine.config import with_overrides
from simkit.engine.game import State
from simkit.engine.registry import get_game
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.search.simulator import Simulator

#: state fields a rollout need not write back: the event log (and its public copies), caches
#: rebuilt on demand, the chance generator (compared by its state)
NOT_COMPARED = frozenset({"events", "_log", "public_log", "_turn", "_open", "_crew", "rng"})


def positions(game_name: str, n: int, overrides: dict[str, str], lineup: list[str], seed: int,
              every: int, first: int = 0) -> Iterator[tuple[GameInfo, str, State]]:
    """(info, kind, state) at each of the first `first` steps (a game's setup), then every
    `every` steps of a seeded game played by `lineup`: the true
    state ("true") and the acting seat's determinization ("sampled", what a search rolls out)."""
    game = get_game(game_name)
    config = with_overrides(game.config_cls(), overrides)
    info = GameInfo(game_name, config, n)
    start = game.new_state(config, n, np.random.default_rng(seed))
    bots = [parse_strategy(lineup[s % len(lineup)], game_name).build() for s in range(n)]
    for step, state in enumerate(seeded_play.positions(start, bots, info, seed)):
        if step < first or step % every == 0:
            seat = state.to_act()[0]
            yield info, "true", state.clone()
            yield info, "sampled", state.determinize(seat, np.random.default_rng([seed, step]))


def kernel_rollout(game_name: str):
    """The game's `KernelRollout` class (`Game.kernel_rollout`, "module:Class")."""
    path = get_game(game_name).kernel_rollout
    assert path, f"{game_name} declares no kernel_rollout"
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _fields(state: State) -> list[str]:
    """The state's fields: its classes' slots and its instance dict's."""
    slots = [name for cls in type(state).__mro__ for name in getattr(cls, "__slots__", ())
             if hasattr(state, name)]
    return slots + list(getattr(state, "__dict__", {}))


def _copies(rngs: list[np.random.Generator]) -> list[np.random.Generator]:
    copies = [np.random.Generator(np.random.PCG64()) for _ in rngs]
    for copy, rng in zip(copies, rngs):
        copy.bit_generator.state = rng.bit_generator.state
    return copies


def differences(info: GameInfo, state: State, strategy: str, left: int, round_cut: bool, seed: int,
                kernel_seed: int | None = None) -> list[str]:
    """Play clones of `state` on with `strategy` in every seat for at most `left` steps, through
    `Simulator._play` and through the game's `KernelRollout.play`; the names of what differs
    afterwards: state fields, "outcome", "evaluate", "rng" (chance), "seat rng s". The kernel's
    seat generators start from `kernel_seed` when given (a control: then they should differ)."""
    game = get_game(info.game)
    spec = parse_strategy(strategy, info.game)
    sim = Simulator(game, info, spec, np.random.default_rng(seed), "win", None, round_cut=round_cut)
    rngs = _copies(sim.rngs) if kernel_seed is None else \
        [np.random.default_rng([kernel_seed, s]) for s in range(info.n_players)]
    kernel = kernel_rollout(game.name)(info, spec)
    python, compiled = state.clone(), state.clone()
    sim.start()
    sim._play(python, left)
    kernel.play(compiled, rngs, left, round_cut)
    bad = [name for name in _fields(python) if name not in NOT_COMPARED
           and getattr(python, name) != getattr(compiled, name)]
    if python.rng.bit_generator.state != compiled.rng.bit_generator.state:
        bad.append("rng")
    bad += [f"seat rng {s}" for s, (a, b) in enumerate(zip(sim.rngs, rngs))
            if a.bit_generator.state != b.bit_generator.state]
    if python.is_over() and compiled.is_over():
        if python.outcome() != compiled.outcome():
            bad.append("outcome")
    elif python.is_over() == compiled.is_over():
        if any(game.evaluate(python, s) != game.evaluate(compiled, s) for s in range(info.n_players)):
            bad.append("evaluate")
    else:
        bad.append("is_over")
    return bad


def carried_differences(info: GameInfo, state: State, strategy: str, used: int, seed: int) -> list[str]:
    """As `differences`, after `used` tree steps asked of the rollout bots (a search's other seats):
    two Simulators of one seed, the Python rollout on one clone and `KernelRollout.play(...,
    bots=)` on the other, to the end; also "buffer s" when a bot's draw buffer differs after."""
    game = get_game(info.game)
    spec = parse_strategy(strategy, info.game)
    kernel = kernel_rollout(game.name)(info, spec)
    assert kernel.carries_bots, strategy
    sims, copies = [], []
    for _ in range(2):
        sim = Simulator(game, info, spec, np.random.default_rng(seed), "win", None, kernel=False)
        sim.start()
        copy = state.clone()
        for _ in range(used):
            if not copy.is_over():
                copy.apply([sim.choose(copy, s) for s in copy.to_act()])
        sims.append(sim)
        copies.append(copy)
    (py_sim, k_sim), (python, compiled) = sims, copies
    py_sim._play(python, 10_000)
    kernel.play(compiled, k_sim.rngs, 10_000, False, bots=k_sim.bots)
    bad = [name for name in _fields(python) if name not in NOT_COMPARED
           and getattr(python, name) != getattr(compiled, name)]
    if python.rng.bit_generator.state != compiled.rng.bit_generator.state:
        bad.append("rng")
    bad += [f"seat rng {s}" for s, (a, b) in enumerate(zip(py_sim.rngs, k_sim.rngs))
            if a.bit_generator.state != b.bit_generator.state]
    bad += [f"buffer {s}" for s, (a, b) in enumerate(zip(py_sim.bots, k_sim.bots))
            if getattr(a, "_buf", None) != getattr(b, "_buf", None)]
    over = python.is_over()
    if over != compiled.is_over() or (over and python.outcome() != compiled.outcome()):
        bad.append("outcome")
    return bad
