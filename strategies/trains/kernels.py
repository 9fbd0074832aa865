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


RANDOM = KernelForm(f"{_BOTS}:random_bot", _no_params)
GREEDY = KernelForm(f"{_BOTS}:greedy_bot", _greedy_params)
