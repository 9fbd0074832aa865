"""The 6 nimmt! kernel rollout against the Python rollout (issue 21 item 4, the kernel rollout
contract's proof): from positions met along seeded games (every phase: N5 card play, N10 row
pick, N19 draft, the match's end N15-N17), for every rollout bot with a kernel form, several
step limits and with and without the round cut (N13), `KernelRollout.play` leaves the state and
every generator exactly as `Simulator._play` does."""

import numpy as np
import pytest

from simkit.engine.config import with_overrides
from simkit.engine.registry import get_game
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.sixnimmt.rules import DRAFT, OVER, PLAY, ROW_PICK
from simkit.search.simulator import Simulator

pytest.importorskip("numba")

GAME = get_game("sixnimmt")
BOTS = ["random", "random:row=uniform", "lowest", "highest", "heuristic", "heuristic:caution=2"]
LEFTS = [1, 3, 10_000]
#: every field of the state but the event log (and the caches observe/determinize keep)
FIELDS = ("round", "turn", "phase", "rows", "low_ends", "low_rows", "hands", "penalty", "points",
          "totals", "last_round", "round_log", "pending", "pending_at", "aside", "pool", "drafters",
          "draft_i", "round_one_drafter", "seen", "acting", "_outcome")
CONFIGS = {
    "basic single round": {"max_rounds": "1"},
    "basic match to 30": {"end_threshold": "30"},
    "basic 3 rows of 4, play_on ties": {"rows": "3", "row_capacity": "4", "end_threshold": "25",
                                        "tie_break": "play_on"},
    "advanced, 2 rounds": {"advanced": "true", "max_rounds": "2"},
    "advanced to 25, highest_total drafts first, last_round ties": {
        "advanced": "true", "end_threshold": "25", "first_drafter": "highest_total",
        "tie_break": "last_round"},
}


def _snapshot(state):
    fields = {name: getattr(state, name) for name in FIELDS}
    fields["drafters"] = tuple(fields["drafters"])
    fields["position"] = GAME.format_position(state)
    fields["chance"] = state.rng.bit_generator.state
    if state.is_over():
        fields["outcome"] = state.outcome()
    else:
        fields["evaluate"] = [GAME.evaluate(state, s) for s in range(state.n)]
        fields["legal"] = [state.legal_actions(s) for s in range(state.n)]
        fields["observe"] = [state.observe(s) for s in range(state.n)]
    return fields


def _positions(overrides, n, seed):
    """Positions along a seeded game of random moves, each also as seat 0 determinizes it (the
    search rolls out from samples, whose chance generator is made on first use)."""
    config = with_overrides(GAME.config_cls(), overrides)
    state = GAME.new_state(config, n, np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 100)
    found = []
    while True:
        found.append(state.clone())
        found.append(state.determinize(0, rng))
        if state.is_over():
            return config, found
        seats = state.to_act()
        state.apply([state.legal_actions(s)[rng.integers(len(state.legal_actions(s)))] for s in seats])


def _compare(config, n, bot, state, left, cut, seed, used=0):
    """Python `_play` and `KernelRollout.play` from copies of `state` with equal generators;
    `used` tree steps asked of the bots first (the kernel continues them through `bots=`).
    Returns, per path, the state's snapshot, the generators' states and (after tree steps) the
    bots' draw buffers."""
    info = GameInfo("sixnimmt", config, n)
    spec = parse_strategy(bot, "sixnimmt")
    results = []
    for kernel in (False, True):
        copy = state.clone()
        sim = Simulator(GAME, info, spec, np.random.default_rng(seed), "win", None, round_cut=cut,
                        kernel=kernel)
        assert (sim.kernel is not None) == kernel, sim.kernel_reason
        sim.start()
        for _ in range(used):
            if copy.is_over():
                break
            copy.apply([sim.choose(copy, s) for s in copy.to_act()])
        if kernel:
            sim.kernel.play(copy, sim.rngs, left, cut, bots=sim.bots if used else None)
        else:
            sim._play(copy, left)
        buffers = [getattr(b, "_buf", None) for b in sim.bots] if used else None
        results.append((_snapshot(copy), [r.bit_generator.state for r in sim.rngs], buffers))
    return results


@pytest.mark.parametrize("name", list(CONFIGS))
def test_kernel_rollouts_leave_what_python_rollouts_leave(name):
    phases = set()
    checked = 0
    for n, seed in ((2, 1), (4, 2), (5, 3)):
        config, positions = _positions(CONFIGS[name], n, seed)
        stride = max(1, len(positions) // 40) | 1      # odd: samples and true states both
        for i, state in enumerate(positions[::stride]):
            phases.add(state.phase)
            bot = BOTS[i % len(BOTS)]
            for left in LEFTS:
                for cut in (False, True):
                    python, kernel = _compare(config, n, bot, state, left, cut, seed=i + left)
                    assert kernel == python, f"{name}, {n} players, position {i}, {bot}, {left}, {cut}"
                    checked += 1
    assert checked > 100
    assert {PLAY, ROW_PICK, OVER} <= phases
    assert DRAFT in phases or not CONFIGS[name].get("advanced")


@pytest.mark.parametrize("bot", ["random", "random:row=uniform", "heuristic"])
def test_bots_asked_in_the_tree_continue_in_the_kernel(bot):
    """The search asks the rollout bots for the tree's steps before the rollout: `random`'s
    buffer of draws is then part used, and the kernel takes it over (and hands it back)."""
    config, positions = _positions({"end_threshold": "30"}, 4, 7)
    for i, state in enumerate(positions[::3]):
        for used in (1, 2):
            python, kernel = _compare(config, 4, bot, state, 10_000, i % 2 == 0, seed=i, used=used)
            assert kernel == python, f"position {i}, {used} tree steps"


def test_the_comparison_can_fail():
    """Control: another seed for the bots' generators leaves another state somewhere."""
    config, positions = _positions({"max_rounds": "1"}, 4, 2)
    differs = 0
    for i, state in enumerate(positions[:6]):
        one, _ = _compare(config, 4, "random", state, 10_000, False, seed=i)
        other, _ = _compare(config, 4, "random", state, 10_000, False, seed=i + 1000)
        differs += one != other
    assert differs > 0


def test_a_kernel_rollout_cannot_be_built_for_what_the_kernel_cannot_play():
    from simkit.games.sixnimmt.kernel_rollout import KernelRollout

    config = GAME.config_cls()
    info = GameInfo("sixnimmt", config, 4)
    with pytest.raises(ValueError, match="no kernel form"):
        KernelRollout(info, parse_strategy("ismcts", "sixnimmt"))
    with pytest.raises(ValueError, match="caution"):
        KernelRollout(info, parse_strategy("heuristic:caution=-1", "sixnimmt"))
    trains = get_game("trains")
    with pytest.raises(ValueError, match="not a 6 nimmt! config"):
        KernelRollout(GameInfo("trains", trains.config_cls(), 2), parse_strategy("random", "sixnimmt"))
