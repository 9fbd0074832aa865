"""Issue 20: search defaults that depend on the number of players (`defaults.PER_PLAYERS`), and
the Game of Trains 4-player entry: `rival` rollouts with the tree cut after the seat's first
action, so that every rollout starts from freshly set-up bots and plays in the kernel."""

import numpy as np
import pytest

from simkit.engine.registry import get_game
from simkit.engine.strategy import Decision, GameInfo
from simkit.search import ismcts
from simkit.search.defaults import PER_GAME, PER_PLAYERS, SearchDefaults, defaults_for
from simkit.search.ismcts import ISMCTS
from simkit.search.simulator import Simulator


def test_a_players_entry_changes_only_what_it_names(monkeypatch):
    monkeypatch.setitem(PER_GAME, "toy", SearchDefaults(c=0.3, rollout="greedy"))
    monkeypatch.setitem(PER_PLAYERS, ("toy", 3), {"iterations": 7})
    assert defaults_for("toy", 3) == SearchDefaults(c=0.3, rollout="greedy", iterations=7)
    assert defaults_for("toy", 2) == defaults_for("toy") == SearchDefaults(c=0.3, rollout="greedy")
    assert defaults_for("no such game", 3) == SearchDefaults()


def _setup(n, **given):
    game = get_game("trains")
    config = game.config_cls()
    bot = ISMCTS(**given)
    bot.setup(GameInfo("trains", config, n), 0, np.random.default_rng(0))
    return bot


def test_trains_4_players_take_their_entry_and_2_players_the_games():
    entry = PER_PLAYERS[("trains", 4)]
    two, four = _setup(2), _setup(4)
    assert two.params == PER_GAME["trains"]
    assert four.params == PER_GAME["trains"].merged(**entry) != two.params
    assert (four.rollout, four.depth) == ("rival", 1)
    assert (two.rollout, two.depth) == (PER_GAME["trains"].rollout, None)


def test_a_given_parameter_beats_the_players_entry():
    bot = _setup(4, rollout="greedy", depth=0)
    assert (bot.rollout, bot.depth) == ("greedy", None)


def _four_player_positions(count):
    from tests.kernel_rollouts import positions

    found = [(info, state) for info, kind, state in positions("trains", 4, {}, ["rival"], 7, every=3)
             if kind == "sampled" and len(state.legal_actions(state.to_act()[0])) > 1]
    return found[::max(1, len(found) // count)][:count]


def _decide(kernel, info, state, seed, monkeypatch):
    """The 4-player defaults' action at `state`, every rollout reward, and the Python rollouts."""
    rewards, python = [], []
    rollout, play = Simulator.rollout, Simulator._play

    def recorded(self, *args):
        reward = rollout(self, *args)
        rewards.append(reward)
        return reward

    def counted(self, state, left):
        python.append(left)
        play(self, state, left)

    monkeypatch.setattr(Simulator, "rollout", recorded)
    monkeypatch.setattr(Simulator, "_play", counted)
    # the Python loop with kernel rollouts (Trains' iterations compiled whole: test_kernel_search.py)
    monkeypatch.setattr(ismcts, "compiled_search", lambda *args: (None, "switched off"))
    seat = state.to_act()[0]
    bot = ISMCTS(iterations=30, kernel=kernel)
    rng = np.random.default_rng(seed)
    bot.setup(info, seat, rng)
    action = bot.act(Decision(state.clone(), seat, rng))
    monkeypatch.undo()
    return action, rewards, len(python)


def test_trains_4_player_defaults_roll_out_in_the_kernel_with_the_python_results(monkeypatch):
    pytest.importorskip("numba")
    for i, (info, state) in enumerate(_four_player_positions(3)):
        action, rewards, in_python = _decide(False, info, state, i, monkeypatch)
        k_action, k_rewards, k_in_python = _decide(True, info, state, i, monkeypatch)
        assert (k_action, k_rewards) == (action, rewards), f"position {i}"
        assert len(rewards) == 30 and in_python == 30
        assert k_in_python == 0, "a rollout of the 4-player defaults played in Python"
