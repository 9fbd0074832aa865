"""The kernels' array helpers written as loops (simkit/engine/kernel_arrays.py) do what the
numpy forms they replace did."""

import numpy as np
import pytest

from simkit.engine.kernel_arrays import grow_rows, sort_small


@pytest.mark.parametrize("rows, cols", [(1, 1), (3, 10), (64, 7)])
def test_grow_rows_doubles_the_rows_and_keeps_every_value(rows, cols):
    a = np.random.default_rng(rows).integers(-2**40, 2**40, size=(rows, cols))
    bigger = grow_rows(a)
    assert bigger.shape == (2 * rows, cols)
    assert bigger.dtype == np.int64
    assert np.array_equal(bigger[:rows], a)
    assert not bigger[rows:].any()


def test_sort_small_sorts_the_first_n_entries_and_leaves_the_rest():
    rng = np.random.default_rng(7)
    for _ in range(300):
        size = int(rng.integers(0, 12))
        n = int(rng.integers(0, size + 1))
        a = rng.integers(0, 6, size=size)      # few values: many ties
        got = a.copy()
        sort_small(got, n)
        assert np.array_equal(got[:n], np.sort(a[:n]))
        assert np.array_equal(got[n:], a[n:])
