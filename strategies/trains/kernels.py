"""Kernel forms of the Game of Trains bots, declared without compiling anything: which compiled
function plays (kernel_bots.py) and the float parameters it reads. Each scalar strategy names
its form in its `kernel_form` attribute (docs/strategies.md, "Kernel forms")."""

from __future__ import annotations

import numpy as np

from simkit.engine.kernels import KernelForm
from simkit.games.trains.config import TrainsConfig

_BOTS = "strategies.trains.kernel_bots"


def _no_params(config: TrainsConfig, n_players: int) -> np.ndarray:
    return np.zeros(1)


def _greedy_params(config: TrainsConfig, n_players: int, memory: bool = True) -> np.ndarray:
    return np.array([1.0 if memory else 0.0, 1.0 if config.move_semantics == "insert" else 0.0])


def _rival_params(config: TrainsConfig, n_players: int, attack: float = 150.0, lock_risk: float = 0.15,
                  memory: bool = True) -> np.ndarray:
    if attack < 0 or lock_risk < 0:
        raise ValueError("attack and lock_risk must be >= 0")
    return np.concatenate([_greedy_params(config, n_players, memory), [float(attack), float(lock_risk)]])


#: the game kernel's uniform bot, which its step calls directly (simkit/games/trains/kernel_play.py)
RANDOM = KernelForm("simkit.games.trains.kernel_play:uniform_bot", _no_params)
GREEDY = KernelForm(f"{_BOTS}:greedy_bot", _greedy_params)
RIVAL = KernelForm(f"{_BOTS}:rival_bot", _rival_params)
