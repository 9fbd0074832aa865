"""Search rollouts through a game's kernel (issue 21 item 4): the same decisions as the Python
path, rollout for rollout, and the Python path where the kernel cannot play."""

import numpy as np
import pytest

from simkit.engine.config import with_overrides
from simkit.engine.registry import get_game
from simkit.engine.strategy import Decision, GameInfo, Strategy, parse_strategy
from simkit.search import ismcts as ismcts_module
from simkit.search import simulator as simulator_module
from simkit.search.flat import FlatMC
from simkit.search.ismcts import ISMCTS
from simkit.search.simulator import Simulator

pytest.importorskip("numba")

NO_KERNEL = "tests.search.test_kernel_rollouts:FirstCard"


class FirstCard(Strategy):
    """A rollout bot with no kernel form: the first legal action."""

    name = "first_card"

    def act(self, decision: Decision):
        return decision.legal_actions[0]


def _positions(overrides, n=4, seed=5, every=3):
    """Positions met along a seeded random game: (state, config), every `every` steps."""
    game = get_game("sixnimmt")
    config = with_overrides(game.config_cls(), overrides)
    state = game.new_state(config, n, np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    found, k = [], 0
    while not state.is_over():
        seats = state.to_act()
        if k % every == 0 and any(len(state.legal_actions(s)) > 1 for s in seats):
            found.append((state.clone(), config))
        state.apply([state.legal_actions(s)[rng.integers(len(state.legal_actions(s)))] for s in seats])
        k += 1
    return found


def _decide(bot_factory, state, config, seed, monkeypatch):
    """The bot's action at a 6 nimmt! `state` for its first acting seat, and every rollout reward
    it scored."""
    return _game_decide(bot_factory, GameInfo("sixnimmt", config, state.n), state, seed, monkeypatch)


SEARCHES = {
    "ismcts generic (random rollouts to the end)":
        lambda kernel: ISMCTS(iterations=30, rollout="random", reward="win", c=1.4, round_cut=False,
                              prior_weight=0, kernel=kernel),
    "ismcts 6 nimmt! defaults (heuristic rollouts, round cut)":
        lambda kernel: ISMCTS(iterations=30, kernel=kernel),
    "mc (random rollouts, common random numbers)":
        lambda kernel: FlatMC(samples=4, rollout="random", kernel=kernel),
    "mc heuristic rollouts, horizon 3":
        lambda kernel: FlatMC(samples=3, rollout="heuristic", horizon=3, kernel=kernel),
}


@pytest.mark.parametrize("overrides", [{"max_rounds": "1"}, {"advanced": "true", "max_rounds": "2"}, {}],
                         ids=["single round", "advanced", "match"])
@pytest.mark.parametrize("search", list(SEARCHES))
def test_kernel_rollouts_give_the_python_paths_decisions(search, overrides, monkeypatch):
    make = SEARCHES[search]
    found = _positions(overrides, every=1)
    positions = found[::max(1, len(found) // 4)]
    assert len(positions) >= 4
    for i, (state, config) in enumerate(positions):
        python = _decide(lambda: make(False), state, config, i, monkeypatch)
        kernel = _decide(lambda: make(True), state, config, i, monkeypatch)
        assert kernel == python, f"position {i}"
        assert python[1], "the search rolled out"


def test_the_comparison_can_fail_another_seed_scores_other_rollouts(monkeypatch):
    state, config = _positions({"max_rounds": "1"})[0]
    make = SEARCHES["ismcts generic (random rollouts to the end)"]
    one = _decide(lambda: make(True), state, config, 0, monkeypatch)
    other = _decide(lambda: make(True), state, config, 1, monkeypatch)
    assert one[1] != other[1]


def test_the_simulator_uses_the_kernel_where_it_can_and_says_why_not():
    game = get_game("sixnimmt")
    config = game.config_cls()
    info = GameInfo("sixnimmt", config, 4)
    rng = np.random.default_rng(0)
    on = Simulator(game, info, parse_strategy("heuristic", "sixnimmt"), rng, "win", None)
    assert on.kernel is not None and on.kernel_reason is None
    off = Simulator(game, info, parse_strategy("heuristic", "sixnimmt"), rng, "win", None, kernel=False)
    assert off.kernel is None and off.kernel_reason == "kernel=false"
    # a rollout bot without a kernel form: the Python path, and the reason names it
    plugin = parse_strategy(NO_KERNEL, "sixnimmt")
    fallback = Simulator(game, info, plugin, rng, "win", None)
    assert fallback.kernel is None and "no kernel form" in (fallback.kernel_reason or "")
    # a game without a kernel rollout
    trains = get_game("trains")
    if trains.kernel_rollout is None:
        info = GameInfo("trains", trains.config_cls(), 2)
        none = Simulator(trains, info, parse_strategy("random", "trains"), rng, "win", None)
        assert none.kernel is None and "no kernel rollout" in (none.kernel_reason or "")


def test_a_rollout_bot_without_a_kernel_form_plays_in_python(monkeypatch):
    """The search still runs, through `_play`, and never through the kernel."""
    calls = []
    play = Simulator._play

    def counted(self, state, left):
        calls.append(left)
        play(self, state, left)

    monkeypatch.setattr(Simulator, "_play", counted)
    state, config = _positions({"max_rounds": "1"})[0]
    bot = ISMCTS(iterations=10, rollout=NO_KERNEL, prior_weight=0)
    rng = np.random.default_rng(0)
    bot.setup(GameInfo("sixnimmt", config, state.n), 0, rng)
    action = bot.act(Decision(state, 0, rng))
    assert action in state.legal_actions(0)
    assert len(calls) == 10
    monkeypatch.setattr(simulator_module, "_KERNELS", {})
    calls.clear()
    bot = ISMCTS(iterations=10, rollout="random", prior_weight=0)
    bot.setup(GameInfo("sixnimmt", config, state.n), 0, rng)
    bot.act(Decision(state, 0, rng))
    assert calls == []


# ---- Game of Trains and Shipside: bots asked in the tree continue in the kernel ----------------
def _game_positions(game_name, count):
    """`count` determinized positions (info, state) along a seeded random game of `game_name`, 2
    players, spread from its start to its end."""
    from tests.kernel_rollouts import positions

    found = [(info, state) for info, kind, state in positions(game_name, 2, {}, ["random"], 3, every=2)
             if kind == "sampled" and len(state.legal_actions(state.to_act()[0])) > 1]
    return found[::max(1, len(found) // count)][:count]


def _game_decide(make, info, state, seed, monkeypatch):
    """The search's action at `state` for its first acting seat, and every rollout reward."""
    rewards = []
    rollout = Simulator.rollout

    def recorded(self, *args):
        reward = rollout(self, *args)
        rewards.append(reward)
        return reward

    monkeypatch.setattr(Simulator, "rollout", recorded)
    # kernel rollouts inside the Python loop: not the iterations compiled whole (those are
    # proven in test_compiled_search.py)
    monkeypatch.setattr(ismcts_module, "compiled_search", lambda *args: (None, "rollouts only"))
    seat = state.to_act()[0]
    bot = make()
    rng = np.random.default_rng(seed)
    bot.setup(info, seat, rng)
    action = bot.act(Decision(state.clone(), seat, rng))
    monkeypatch.setattr(Simulator, "rollout", rollout)
    return action, rewards


GAME_SEARCHES = {
    "generic (random rollouts to the end)":
        lambda kernel: ISMCTS(iterations=100, rollout="random", reward="win", c=1.414, horizon=0,
                              round_cut=False, prior_weight=0, kernel=kernel),
    "the game's defaults": lambda kernel: ISMCTS(iterations=100, kernel=kernel),
}


@pytest.mark.parametrize("search", list(GAME_SEARCHES))
@pytest.mark.parametrize("game_name", ["trains", "shipside"])
def test_trains_and_shipside_searches_score_the_python_paths_rewards(game_name, search, monkeypatch):
    make = GAME_SEARCHES[search]
    for i, (info, state) in enumerate(_game_positions(game_name, 4)):
        python = _game_decide(lambda: make(False), info, state, i, monkeypatch)
        kernel = _game_decide(lambda: make(True), info, state, i, monkeypatch)
        assert kernel == python, f"{game_name}, position {i}"
        assert python[1], "the search rolled out"


@pytest.mark.parametrize("game_name", ["trains", "shipside"])
def test_random_rollouts_after_tree_steps_play_in_the_kernel_with_the_used_buffers(game_name, monkeypatch):
    """The kernel plays rollouts whose bots the tree asked (not only fresh ones), and their
    part-used draw buffers go in: what the comparison above then checks."""
    carried = []
    make = GAME_SEARCHES["generic (random rollouts to the end)"]
    found = _game_positions(game_name, 4)
    info = found[0][0]
    spec = parse_strategy("random", game_name)
    kernel = simulator_module.kernel_rollout(get_game(game_name), info, spec)[0]
    assert kernel is not None and kernel.carries_bots
    play = type(kernel).play

    def watched(self, state, rngs, left, round_cut, bots=None):
        carried.append(bots is not None and any(getattr(b, "_buf", None) for b in bots))
        play(self, state, rngs, left, round_cut, bots=bots)

    monkeypatch.setattr(type(kernel), "play", watched)
    monkeypatch.setattr(ismcts_module, "compiled_search", lambda *args: (None, "rollouts only"))
    for i, (info, state) in enumerate(found):
        bot = make(True)
        rng = np.random.default_rng(i)
        bot.setup(info, state.to_act()[0], rng)
        bot.act(Decision(state.clone(), state.to_act()[0], rng))
    assert sum(carried) > 0, "no rollout after tree steps went to the kernel"


@pytest.mark.parametrize("game_name", ["trains", "shipside"])
def test_the_comparison_fails_when_the_buffers_are_not_carried(game_name, monkeypatch):
    """Control: a kernel that starts every rollout with empty buffers (as for fresh bots) scores
    other rewards than the Python path once the tree has asked the bots."""
    from simkit.engine import kernel_positions

    make = GAME_SEARCHES["generic (random rollouts to the end)"]
    differs = 0
    for i, (info, state) in enumerate(_game_positions(game_name, 3)):
        python = _game_decide(lambda: make(False), info, state, i, monkeypatch)
        monkeypatch.setattr(kernel_positions, "buffers_in", lambda rows, bots, size: None)
        kernel = _game_decide(lambda: make(True), info, state, i, monkeypatch)
        monkeypatch.undo()
        differs += kernel[1] != python[1]
    assert differs > 0
