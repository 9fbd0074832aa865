"""Array helpers for kernels, written as loops on purpose.

numba compiles an array-to-slice assignment (`a[:n] = b`) with its error path, whose message
builds strings: that pulls numba's unicode, `str` and `repr` machinery into the compile, several
seconds of a first start for nothing a kernel ever raises (measured in the Rummikub solver:
docs/performance.md). `ndarray.sort` compiles a whole quicksort for lists of a few entries (the
Rummikub table DP's open runs, Shipside's determinized deck order).
"""

from __future__ import annotations

import numpy as np

from simkit.engine.kernel_rng import compiled


@compiled(nrt=True)
def grow_rows(a):
    """`a` (2-D int64) with twice as many rows: its rows copied over, the new ones zero."""
    bigger = np.zeros((2 * a.shape[0], a.shape[1]), dtype=np.int64)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            bigger[i, j] = a[i, j]
    return bigger


@compiled()
def sort_small(a, n):
    """Sorts a[:n] in place, ascending (insertion sort, for short lists)."""
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v
