"""Search strategies under a game's per-decision time budget (Rummikub `time_budget_s`, R18):
they stop in time however many iterations or samples they were given."""

import gc
import time
from contextlib import contextmanager

import numpy as np
import pytest

from simkit.engine.play import play_out
from simkit.engine.registry import get_game
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.rummikub.config import RummikubConfig

#: the searches plan to use half of it, so an answer is late only after a stall of half a second
BUDGET_S = 1.0
UNBOUNDED = ["ismcts:iterations=100000", "mc:samples=100000"]


@pytest.fixture(autouse=True, scope="module")
def _solver_loaded():
    """Load the solver's compiled kernels (opening search and table DP) before any clock runs:
    Rummikub's ismcts defaults roll out with `greedy_tiles`, whose first table solve in a process
    loads the DP from numba's cache (seconds on a loaded machine), a one-off no budget can foresee.
    What is tested here is that the search stops in time, not how long a kernel takes to load."""
    from simkit.engine.play import play_range
    play_range(RunSpec.create("rummikub", 2, ["greedy_tiles"] * 2, 1, seed=1), 0, 1)


@contextmanager
def _no_collector_pauses():
    """A full garbage collection late in a long test process can stall for longer than any
    margin; what is tested is the searches' own timing, so the collector waits."""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _timed_decision(bot: str, config: RummikubConfig, seed: int = 0):
    state = get_game("rummikub").new_state(config, 2, np.random.default_rng(seed))
    strategy = parse_strategy(bot, "rummikub").build()
    rng = np.random.default_rng(seed)
    seat = state.to_act()[0]
    strategy.setup(GameInfo("rummikub", config, 2), seat, rng)
    with _no_collector_pauses():
        start = time.perf_counter()
        action = strategy.act(Decision(state, seat, rng))
        seconds = time.perf_counter() - start
    return action, seconds, state, seat


@pytest.mark.parametrize("bot", UNBOUNDED)
def test_search_answers_within_the_game_budget(bot):
    action, seconds, state, seat = _timed_decision(bot, RummikubConfig(time_budget_s=BUDGET_S))
    assert seconds < BUDGET_S and state.is_legal(seat, action)


@pytest.mark.parametrize("bot", ["ismcts:iterations=20", "mc:samples=3"])
def test_a_budget_that_does_not_bind_changes_no_answer(bot):
    for seed in range(3):
        free, _, _, _ = _timed_decision(bot, RummikubConfig(), seed)
        roomy, _, _, _ = _timed_decision(bot, RummikubConfig(time_budget_s=3600), seed)
        assert roomy == free


def test_search_seats_are_never_late_in_a_run():
    spec = RunSpec.create("rummikub", 2, UNBOUNDED, 1, seed=5, overrides={"time_budget_s": str(BUDGET_S)})
    state = get_game("rummikub").new_state(spec.config, 2, np.random.default_rng(5))
    with _no_collector_pauses():
        play_out(state, spec.strategies, GameInfo("rummikub", spec.config, 2),
                 [np.random.default_rng(s) for s in range(2)], forfeit_on_error=False, max_steps=6)
    assert state.turns == 6 and not [ev for ev in state.events if ev[0] == "illegal"]
