"""The solver: proven optimal against exhaustive search; every answer passes the validator."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.rummikub import dp, rules, solver
from simkit.games.rummikub.actions import InitialMeld, Play
from simkit.games.rummikub.random_positions import random_position, random_table
from simkit.games.rummikub.solver import solve
from tests.rummikub.bruteforce import _score, best_initial, best_play
from tests.rummikub.helpers import G, R, T


def _near_rack(rng, table, left, k, jokers):
    """A small rack, mostly of tiles that fit next to the table's tiles (so plays exist)."""
    faces = [t >> 1 for m in table for t in m.tiles if t < 104]
    pool = [t for t in left if t < 104]
    near = [t for t in pool if any(abs((t >> 1) - f) <= 1 or (t >> 1) % 13 == f % 13 for f in faces)]
    src = near if near and rng.random() < 0.8 else pool
    rack = [src[i] for i in rng.permutation(len(src))[:k].tolist()]
    if jokers:
        spare = [t for t in left if t >= 104]
        if spare and rng.random() < 0.7:
            rack[-1] = spare[0]
    return list(dict.fromkeys(rack))


UNPROVEN: list[bool] = []


def _check(table, rack, objective, retrieval):
    ref = best_play(table, rack, objective, retrieval)
    sol = solve(table, rack, objective=objective, retrieval=retrieval)
    if sol is not None:
        assert isinstance(sol.action, Play)
        bad = rules.check_play(table, sol.melds, rack, retrieval=retrieval)
        assert bad is None, f"solver answer rejected: {bad}"
        UNPROVEN.append(not sol.proven)
    got = 0 if sol is None else _score(sol.placed, objective)
    assert got == ref, f"{retrieval}/{objective}: table {table} rack {rack}: solver {got}, exhaustive {ref}"
    return ref > 0


@pytest.fixture(params=["forward", "mirrored"])
def direction(request, monkeypatch):
    """The table DP as given, or only through the mirrored position (numbers n -> 14 - n), the
    method the solver turns to when the forward DP passes its state cap."""
    monkeypatch.setattr(solver, "FORCE_MIRROR", request.param == "mirrored")
    return request.param


@pytest.mark.slow
@pytest.mark.parametrize("objective", ["tiles", "points"])
@pytest.mark.parametrize("jokers", [False, True])
def test_solver_optimal_vs_exhaustive_R12_R15(objective, jokers, direction):
    """R12/R15: 90 random small positions per case (strict and free), solver == exhaustive,
    through the forward and through the mirrored DP."""
    rng = np.random.default_rng(100 + 2 * jokers + (objective == "points"))
    found = 0
    for i in range(90):
        table, left = random_table(rng, int(rng.integers(3, 8)), jokers=jokers, joker_prob=0.5)
        rack = _near_rack(rng, table, left, int(rng.integers(2, 6)), jokers)
        found += _check(table, rack, objective, "strict" if i % 3 else "free")
    assert found >= 30          # the instances are not all trivial
    # a strict optimum is "proven" unless a type-level optimum had no legal tile assignment
    # (two table jokers in the same role); the value still matched the exhaustive search
    assert sum(UNPROVEN) <= 0.03 * len(UNPROVEN)


@pytest.mark.parametrize("objective", ["tiles", "points"])
@pytest.mark.parametrize("jokers", [False, True])
def test_solver_initial_meld_optimal_vs_exhaustive_R11_R16(objective, jokers):
    """R11/R16: 40 random racks per case; the initial meld's best value and threshold."""
    rng = np.random.default_rng(7 + jokers + 2 * (objective == "points"))
    hits = 0
    for i in range(40):
        melds, left = random_table(rng, int(rng.integers(4, 8)), jokers=jokers, joker_prob=0.4)
        rack = [t for m in melds for t in m.tiles][:7] + [t for t in left if t < 104][:1]
        rack = [rack[k] for k in rng.permutation(len(rack)).tolist()]
        min_points = (30, 15, 6)[i % 3]
        for allow in ((True, False) if jokers else (True,)):
            ref = best_initial(rack, objective, min_points, allow)
            sol = solve((), rack, opened=False, objective=objective, initial_points=min_points,
                        jokers_in_initial=allow)
            got = 0 if sol is None else _score(sol.placed, objective)
            assert got == ref, f"rack {rack} min {min_points} jokers {allow}: solver {got}, exhaustive {ref}"
            if sol is not None:
                assert isinstance(sol.action, InitialMeld)
                assert rules.check_initial_meld(sol.melds, rack, min_points=min_points,
                                                jokers_allowed=allow) is None
                hits += 1
    assert hits >= 10


def test_solver_examples_K8_K10_K11_K12():
    sol = solve((G("B5 R5 K5 O5"),), T("B4 B6 B7"))                  # K8: goes out
    assert sol.tiles == 3
    sol = solve((R("R5 R6 J0"),), T("R7 K9 O9"))                      # K10: retrieval with R7
    assert sol.tiles == 3
    sol = solve((G("R5 B5 K5 O5"), R("J0 R6 R7")), T("B9 B10"))        # K11
    assert sol.tiles == 2
    assert solve((R("R5 R6 R7 J0"),), T("K9 O9"), retrieval="strict") is None    # K12
    assert solve((R("R5 R6 R7 J0"),), T("K9 O9"), retrieval="free").tiles == 2


def test_solver_R11_initial_meld_threshold_and_R16():
    assert solve((), T("K8 B8 O8"), opened=False) is None                     # 24 < 30
    sol = solve((), T("K8 B8 O8 R1 R2 R3 K1"), opened=False)
    assert sol.tiles == 6 and isinstance(sol.action, InitialMeld)
    sol = solve((), T("R10 B10 J0"), opened=False)
    assert sol.tiles == 3
    assert solve((), T("R10 B10 J0"), opened=False, jokers_in_initial=False) is None
    # the initial meld never touches the table (R11)
    sol = solve((R("B4 B5 B6"),), T("R10 R11 R12 B7"), opened=False)
    assert sol.action == InitialMeld((R("R10 R11 R12"),))


def test_solver_objectives_differ():
    # tiles: R1 R2 R3 (3 tiles); points: nothing better than... K12 K13 + J scores 25 + 30
    rack = T("R1 R2 R3 R4 K12 K13")
    table = (G("O12 B12 R12"),)
    by_tiles = solve(table, rack, objective="tiles")
    by_points = solve(table, rack, objective="points")
    assert by_tiles.tiles == 5 and by_points.points >= by_tiles.points


def test_solver_mid_game_answers_are_legal():
    """Larger positions (40 table tiles, 10 rack): every answer passes the validator."""
    rng = np.random.default_rng(3)
    for _ in range(6):
        table, rack = random_position(rng, 40, 10, jokers=True)
        for mode in ("strict", "free"):
            sol = solve(table, rack, retrieval=mode)
            if sol is not None:
                assert rules.check_play(table, sol.melds, rack, retrieval=mode) is None


@pytest.mark.slow
def test_solver_optimal_with_both_jokers_on_the_table_R15(direction):
    """R15 strict with two table jokers (keep / retrieve / distinct replacements): 80 positions."""
    rng = np.random.default_rng(77)
    found = 0
    for i in range(80):
        table, left = random_table(rng, int(rng.integers(4, 8)), jokers=True, joker_prob=1.0)
        rack = _near_rack(rng, table, left, int(rng.integers(2, 5)), False)
        found += _check(table, rack, "tiles" if i % 2 else "points", "strict")
    assert found >= 20


@pytest.fixture
def forward_states(monkeypatch):
    """A list filled with the memo size of every table DP that runs (the largest forward DP of a
    `state_cap=None` solve is the position's forward state count)."""
    sizes: list[int] = []
    run = dp.TableDP.solve

    def counted(self, *args, **kw):
        try:
            return run(self, *args, **kw)
        finally:
            sizes.append(len(self.memo))

    monkeypatch.setattr(dp.TableDP, "solve", counted)
    return sizes


def _check_cap_rule(table, rack, objective, cap, sizes) -> bool:
    """The solver's state-cap rule on one position; True when the forward DP stayed below the cap.
    Below it the answer is the forward DP's own play; past it, a play of the same value, the
    same on every call, that the validator accepts."""
    sizes.clear()
    ref = solve(table, rack, objective=objective, state_cap=None)
    below = max(sizes, default=0) < cap
    sol = solve(table, rack, objective=objective, state_cap=cap)
    assert (sol is None) == (ref is None)
    if sol is None:
        return below
    if below:
        assert sol == ref
    else:
        assert (sol.tiles, sol.points) == (ref.tiles, ref.points)
        assert solve(table, rack, objective=objective, state_cap=cap) == sol
    assert rules.check_play(table, sol.melds, rack, retrieval="strict") is None
    return below


def test_solver_state_cap_rule_both_halves(forward_states):
    """With a small cap both halves of the rule occur on 40 + 6..12 positions."""
    rng = np.random.default_rng(12)
    halves = []
    for _ in range(10):
        table, rack = random_position(rng, 40, int(rng.integers(6, 13)), jokers=True, joker_prob=0.3)
        for objective in ("tiles", "points"):
            halves.append(_check_cap_rule(table, rack, objective, 2000, forward_states))
    assert 3 <= halves.count(True) and 3 <= halves.count(False)


@pytest.mark.slow
def test_solver_default_cap_rule_on_the_tail_grid(forward_states):
    """The default STATE_CAP on one seed of the tail grid (120 positions, both objectives): the
    default solve's answer is the forward DP's own wherever that stays below the cap."""
    from simkit.games.rummikub.random_positions import tail_grid

    halves = [_check_cap_rule(table, rack, objective, solver.STATE_CAP, forward_states)
              for _, table, rack in tail_grid(1) for objective in ("tiles", "points")]
    assert halves.count(True) > 200 and halves.count(False) >= 1


def _capped_and_resumed(args, kw):
    """A table DP solved under a cap of 50 states, raised fourfold after each StateCap."""
    table_dp, cap = dp.TableDP(*args, **kw), 50
    while True:
        table_dp.cap = cap
        try:
            value = table_dp.solve()
            break
        except dp.StateCap:
            cap *= 4
    table_dp.cap = None
    return value, table_dp.plan() if value > 0 else None


def test_a_capped_and_resumed_table_dp_makes_the_same_choices(monkeypatch):
    """Past the cap the forward DP goes on from its memo: when it finishes first, its play is the
    one it finds uncapped (so the rule's second half only ever changes mirrored answers)."""
    made = []
    init = dp.TableDP.__init__

    def recorded(self, *args, **kw):
        init(self, *args, **kw)
        made.append((args, kw))

    monkeypatch.setattr(dp.TableDP, "__init__", recorded)
    rng = np.random.default_rng(5)
    for _ in range(6):
        table, rack = random_position(rng, 40, int(rng.integers(6, 13)), jokers=True, joker_prob=0.3)
        made.clear()
        solve(table, rack, state_cap=None)
        for args, kw in list(made):
            free = dp.TableDP(*args, **kw)
            value = free.solve()
            assert _capped_and_resumed(args, kw) == (value, free.plan() if value > 0 else None)


def test_solve_defaults_to_the_state_cap():
    assert solver.solve.__kwdefaults__["state_cap"] == solver.STATE_CAP
    assert solver.solve_observation.__defaults__[-1] == solver.STATE_CAP


def test_tail_grid_positions_have_the_asked_jokers():
    from simkit.games.rummikub.random_positions import position_with_jokers

    rng = np.random.default_rng(5)
    for tj, rj in ((0, 0), (2, 0), (1, 1), (0, 2)):
        table, rack = position_with_jokers(rng, 60, 18, tj, rj)
        assert rules.valid_table(table)
        assert sum(t >= 104 for m in table for t in m.tiles) == tj
        assert sum(t >= 104 for t in rack) == rj and len(rack) == 18
        assert not {t for m in table for t in m.tiles} & set(rack)
