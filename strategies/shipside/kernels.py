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
