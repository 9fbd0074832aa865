"""Kernel forms of the Shipside bots, declared without compiling anything: which compiled
function plays (kernel_bots.py) and the float parameters it reads. Each scalar strategy names
its form in its `kernel_form` attribute (docs/strategies.md, "Kernel forms")."""

from __future__ import annotations

import numpy as np

from simkit.engine.kernels import KernelForm
from simkit.games.shipside.config import ShipsideConfig

_BOTS = "strategies.shipside.kernel_bots"


def _no_params(config: ShipsideConfig, n_players: int) -> np.ndarray:
    return np.zeros(1)


RANDOM = KernelForm(f"{_BOTS}:random_bot", _no_params)


def _greedy_params(config: ShipsideConfig, use_octopus: bool, threat: float = 0.8, chance: float = 0.4,
                   rum_min: float = 30.0, octopus_cost: float = 45.0) -> np.ndarray:
    """GreedyStrategy's parameters, then its table of P(a card >= gap) for gap -60..79 (the
    scalar bot's `_ge`, computed the same way)."""
    from bisect import bisect_left

    from simkit.games.shipside import rules

    values = sorted(rules.tables(config).value)
    n = len(values)
    table = [(n - bisect_left(values, gap)) / n for gap in range(-60, 80)]
    return np.array([float(threat), float(chance), float(rum_min), float(octopus_cost),
                     1.0 if use_octopus else 0.0, *table], dtype=np.float64)


def _greedy(config: ShipsideConfig, n_players: int, **params: float) -> np.ndarray:
    return _greedy_params(config, False, **params)


def _octopus(config: ShipsideConfig, n_players: int, **params: float) -> np.ndarray:
    return _greedy_params(config, True, **params)


GREEDY = KernelForm(f"{_BOTS}:greedy_bot", _greedy)
OCTOPUS = KernelForm(f"{_BOTS}:greedy_bot", _octopus)
