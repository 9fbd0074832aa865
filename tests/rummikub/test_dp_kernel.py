"""The compiled table DP (`dp_kernel`, issue 21 item 5) against the pure-Python reference
(`dp.USE_KERNEL = False`): the same value, the same plan and the same number of memo states
(which the solver's STATE_CAP rule reads) on hundreds of random positions, through the cap and
its resumption too; so every solver answer, and every game, is the reference's."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from simkit.games.rummikub import dp, solver
from simkit.games.rummikub.random_positions import position_with_jokers, random_position, random_table


@pytest.fixture
def dp_inputs(monkeypatch):
    """A list filled with the (args, kwargs) of every TableDP the solver builds."""
    made: list = []
    init = dp.TableDP.__init__

    def recorded(self, *args, **kw):
        init(self, *args, **kw)
        made.append((args, kw))

    monkeypatch.setattr(dp.TableDP, "__init__", recorded)
    return made


def _run(args, kw, kernel: bool, cap: int | None = None):
    """One DP, compiled or not, solved (under `cap`, raised fourfold after each StateCap, as
    the solver does): its value, plan, memo size and the caps it stopped at."""
    dp.USE_KERNEL = kernel
    try:
        table_dp = dp.TableDP(*args, **kw)
        stops = []
        while True:
            table_dp.cap = cap
            try:
                value = table_dp.solve()
                break
            except dp.StateCap:
                stops.append(len(table_dp.memo))
                cap = 4 * cap
        table_dp.cap = None
        assert (table_dp.kernel is not None) == kernel
        return value, table_dp.plan() if value > 0 else None, len(table_dp.memo), stops
    finally:
        dp.USE_KERNEL = True


def _positions(seed: int, count: int):
    rng = np.random.default_rng(seed)
    for i in range(count):
        kind = i % 3
        if kind == 0:          # mid-game sizes, jokers as in play
            table, rack = random_position(rng, int(rng.integers(15, 50)), int(rng.integers(3, 14)),
                                          jokers=True, joker_prob=0.3)
        elif kind == 1:        # small tables, both jokers on the table (every R15 pattern path)
            table, left = random_table(rng, int(rng.integers(3, 8)), jokers=True, joker_prob=1.0)
            rack = [t for t in left if t < 104][:int(rng.integers(2, 7))]
        else:                  # jokers on both sides
            table, rack = position_with_jokers(rng, int(rng.integers(20, 40)), int(rng.integers(4, 10)),
                                               int(rng.integers(0, 2)), int(rng.integers(0, 2)))
        yield i, table, rack


@pytest.mark.slow
def test_kernel_matches_the_reference_dp_state_for_state(dp_inputs):
    """300 random positions (both objectives, strict and free R15): every table DP the solver
    builds, forward and mirrored, gives the same value, plan and memo size compiled as in Python.
    The solver that builds them runs compiled: each DP it builds is solved again both ways below,
    so a kernel that strayed would fail there (a Python solver here only solved them once more)."""
    checked = 0
    for i, table, rack in _positions(21, 300):
        dp_inputs.clear()
        try:
            solver.solve(table, rack, objective="tiles" if i % 2 else "points",
                         retrieval="free" if i % 5 == 0 else "strict", state_cap=None)
            solver.FORCE_MIRROR = True
            solver.solve(table, rack, objective="points" if i % 2 else "tiles")
        finally:
            solver.FORCE_MIRROR = False
        for args, kw in list(dp_inputs):
            ref = _run(args, kw, kernel=False)
            assert _run(args, kw, kernel=True) == ref, f"position {i}: table {table} rack {rack}"
            checked += 1
    assert checked >= 300


def test_kernel_stops_at_the_same_caps_and_resumes_the_same(dp_inputs):
    """Under a small cap the compiled DP stops at the same memo sizes as the Python one and,
    resumed from its memo, ends with the same value, plan and state count."""
    stopped = 0
    rng = np.random.default_rng(8)
    for _ in range(12):
        table, rack = random_position(rng, 40, int(rng.integers(6, 13)), jokers=True, joker_prob=0.3)
        dp_inputs.clear()
        dp.USE_KERNEL = False
        try:
            solver.solve(table, rack, state_cap=None)
        finally:
            dp.USE_KERNEL = True
        for args, kw in list(dp_inputs):
            ref = _run(args, kw, kernel=False, cap=60)
            assert _run(args, kw, kernel=True, cap=60) == ref
            stopped += bool(ref[3])
    assert stopped >= 5


def test_solver_answers_the_same_compiled_and_in_python():
    """`solve` itself (default state cap, so the forward/mirrored alternation too) on 60 game-sized
    positions and 40 opening racks: the same Solution either way."""
    rng = np.random.default_rng(33)
    for i in range(100):
        if i < 60:
            table, rack = random_position(rng, 40, int(rng.integers(8, 20)), jokers=True, joker_prob=0.2)
            opened = True
        else:
            table, rack, opened = (), rng.permutation(106)[:14].tolist(), False
        kw = dict(opened=opened, objective="tiles" if i % 2 else "points", state_cap=300 if i % 4 == 0 else
                  solver.STATE_CAP)
        fast = solver.solve(table, rack, **kw)
        dp.USE_KERNEL = False
        solver._SEARCH_MEMOS.clear()
        try:
            ref = solver.solve(table, rack, **kw)
        finally:
            dp.USE_KERNEL = True
        assert fast == ref


def test_importing_the_solver_does_not_import_numba():
    """numba loads on the first table solve only: `import simkit` and the CLI stay quick."""
    code = ("import sys, simkit, simkit.cli, simkit.games.rummikub.solver, simkit.games.rummikub.dp; "
            "assert 'numba' not in sys.modules, 'numba imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_memo_table_grows_and_keeps_every_state(dp_inputs, monkeypatch):
    """A DP with thousands of states outgrows the kernel's first memo table (MEMO_SIZE slots,
    here 2,048 and no spare table kept, doubled from Python as it fills): still the Python DP's
    value, plan and state count."""
    from simkit.games.rummikub import dp_kernel

    monkeypatch.setattr(dp_kernel, "MEMO_SIZE", 1 << 11)
    monkeypatch.setattr(dp_kernel, "SPARE_TABLES", 0)
    monkeypatch.setattr(dp_kernel, "_SPARE_TABLES", [])
    rng = np.random.default_rng(4)
    grown = 0
    for _ in range(6):
        table, rack = random_position(rng, 45, 14, jokers=True, joker_prob=0.3)
        dp_inputs.clear()
        solver.solve(table, rack, state_cap=None)
        for args, kw in list(dp_inputs):
            table_dp = dp.TableDP(*args, **kw)
            value = table_dp.solve()
            if table_dp.kernel is None or len(table_dp.memo) < dp_kernel.MEMO_SIZE:
                continue
            assert table_dp.kernel.memo.shape[0] > dp_kernel.MEMO_SIZE
            got = (value, table_dp.plan() if value > 0 else None, len(table_dp.memo), [])
            assert got == _run(args, kw, kernel=False)
            grown += 1
    assert grown >= 3


def test_a_reused_memo_table_holds_no_state_of_an_earlier_dp(dp_inputs, monkeypatch):
    """Memo tables pass from DP to DP uncleared, their slots tagged with the generation that
    wrote them: DPs solved one after the other in one table (past the generations' wrap-around)
    each count and answer as the Python DP does."""
    from simkit.games.rummikub import dp_kernel

    monkeypatch.setattr(dp_kernel, "SPARE_TABLES", 1)
    monkeypatch.setattr(dp_kernel, "_SPARE_TABLES", [])
    rng = np.random.default_rng(8)
    inputs = []
    for _ in range(4):
        table, rack = random_position(rng, 30, 8, jokers=True, joker_prob=0.2)
        dp_inputs.clear()
        solver.solve(table, rack, state_cap=None)
        inputs += list(dp_inputs)
    expected = [_run(args, kw, kernel=False) for args, kw in inputs]
    for _ in range(2 * dp_kernel.MAX_GEN // len(inputs) + 2):
        for (args, kw), ref in zip(inputs, expected):
            assert _run(args, kw, kernel=True) == ref
    assert len(dp_kernel._SPARE_TABLES) == 1


def test_compiled_group_outcomes_are_the_python_ones_in_order():
    """`dp_kernel._group_outcomes` against `dp_parts.group_outcomes`: the same (cleared bits,
    room) pairs in the same order (the DP keeps the first best), for every split of up to two
    tiles a colour without patterns and for random joker patterns with up to three a colour."""
    from simkit.games.rummikub import dp_kernel, dp_parts

    rng = np.random.default_rng(6)
    colour_sets = [frozenset(c for c in range(4) if m >> c & 1) for m in range(1, 16)]

    def check(g, gj, pats, keeps):
        gpat = np.zeros((16, 4, dp_kernel.GP_COLS), dtype=np.int64)
        gpat[5, 3] = dp_kernel._group_pattern_row(pats, keeps)
        code = sum(x << (2 * c) for c, x in enumerate(g))
        got = [(int(e) >> 4 & 15, int(e) >> 8) for e in dp_kernel._group_outcomes(code, gj, gpat, 5, 3)]
        want = [(m, r) for m, r, _ in dp_parts.group_outcomes(g, gj, pats, keeps)]
        assert got == want, (g, gj, pats, keeps)

    for g in np.ndindex(3, 3, 3, 3):
        for gj in range(4):
            check(tuple(g), gj, (), ())
    for _ in range(1500):
        g = tuple(int(x) for x in rng.choice([0, 0, 1, 1, 2, 3], size=4))
        n_pats = int(rng.integers(0, 3))
        bits = [int(b) for b in rng.permutation([1, 2])]
        pats = tuple((bits[i], colour_sets[rng.integers(15)], colour_sets[rng.integers(15)])
                     for i in range(n_pats))
        keeps = tuple((int(rng.choice([1, 2])), tuple(sorted(colour_sets[rng.integers(15)])))
                      for _ in range(int(rng.integers(0, 3))))
        check(g, int(rng.integers(0, 5)), pats, keeps)
