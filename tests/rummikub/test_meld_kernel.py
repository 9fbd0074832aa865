"""The compiled rack-only search (`meld_kernel`: initial melds R11/R16 and plays onto an empty
table) against its reference `solver._Search`: the same value and the same plan, meld for meld,
on random racks under both objectives, several thresholds and with or without jokers."""

from __future__ import annotations

import numpy as np

from simkit.games.rummikub import meld_kernel, solver


def _rack_counts(rack):
    O = [0] * 56
    for t in rack:
        if t < 104:
            O[solver._k(t)] += 1
    return O, sum(1 for t in rack if t >= 104)


def test_compiled_rack_search_matches_the_reference_plan_for_plan():
    rng = np.random.default_rng(12)
    placed = empty = 0
    for i in range(400):
        rack = rng.permutation(106)[:int(rng.integers(3, 32))].tolist()
        objective = ("tiles", "points")[i % 2]
        min_value = (30, 0, 45, 30)[i % 4]
        O, oj = _rack_counts(rack)
        w, jw = solver._weights(objective, 30)
        ref = solver._Search([0] * 56, list(O), 0, oj, w, jw, [], min_value, {})
        value = ref.best(0, 0, 0)
        got_value, got_plan = meld_kernel.search(O, oj, w, jw, min_value, ("test", objective, min_value))
        assert got_value == value, f"rack {rack}"
        if value > 0:
            assert got_plan == ref.reconstruct(0, 0), f"rack {rack}"
            placed += 1
        else:
            assert got_plan is None
            empty += 1
    assert placed >= 100 and empty >= 50       # both outcomes met often


def test_solver_openings_are_the_same_compiled_and_in_python(monkeypatch):
    """`solve` for an initial meld (R11: worth >= 30; R16: jokers allowed or not) and onto an
    empty table, through the compiled search and through `_Search`: equal Solutions."""
    rng = np.random.default_rng(5)
    cases = [(rng.permutation(106)[:int(rng.integers(6, 25))].tolist(), i) for i in range(150)]

    def answers():
        return [solver.solve((), rack, opened=i % 3 == 0, objective=("tiles", "points")[i % 2],
                             jokers_in_initial=i % 5 != 0) for rack, i in cases]

    fast = answers()
    monkeypatch.setattr(solver.dp, "USE_KERNEL", False)
    assert answers() == fast
    assert sum(a is not None for a in fast) >= 50
