"""Kernel forms of the Shipside bots: compiled functions of the kernel's bot signature
(`simkit.games.shipside.kernel_play.BOT_SIG`), each answering what its scalar strategy answers,
decision by decision (tests/shipside/test_kernel.py). Declared in kernels.py; imported (and
compiled, or loaded from numba's cache) only when a kernel plays.
"""

from __future__ import annotations

import numpy as np

from simkit.engine.kernel_rng import SCRATCH, compiled, next64
from simkit.games.shipside import kernel_layout as L
from simkit.games.shipside.kernel_play import BOT_SIG

_U = np.uint64
_DOUBLE = 1.0 / 9007199254740992.0


@compiled()
def buffered_double32(row):
    """A double from a buffer of 32 refilled by `Generator.random(32)` and popped from its end
    (RandomStrategy: `buf.extend(rng.random(32).tolist()); buf.pop()`). The buffer lives in the
    row's scratch columns: its fill at SCRATCH, the raw draws after (kernel_play.ROW_WORDS)."""
    left = row[SCRATCH]
    if left == _U(0):
        for i in range(32):
            row[SCRATCH + 1 + i] = next64(row)
        left = _U(32)
    left -= _U(1)
    row[SCRATCH] = left
    return np.float64(row[SCRATCH + 1 + np.int64(left)] >> _U(11)) * _DOUBLE


@compiled(BOT_SIG)
def random_bot(ask, seat, g, params, gen):
    """`random`: uniform over the legal list with the strategy's buffered draws."""
    return np.int64(buffered_double32(gen) * g[L.NLEGAL])
