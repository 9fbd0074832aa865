"""The per-decision time budget wrapper (`simkit.engine.timed`), game by game through its hook."""

import pickle
import time

import numpy as np

from simkit.engine.registry import get_game
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import Decision, GameInfo, Strategy, StrategySpec
from simkit.engine.timed import Timed, TimedSpec, budget_of, timed_specs
from simkit.games.rummikub.actions import LATE
from simkit.games.rummikub.config import RummikubConfig


class Answers(Strategy):
    """Answers "mine" after `sleep_s` seconds and remembers its setup."""

    def __init__(self, sleep_s: float):
        self.sleep_s = sleep_s

    def act(self, decision: Decision):
        time.sleep(self.sleep_s)
        return "mine"


def _act(bot: Strategy):
    bot.setup(GameInfo("rummikub", RummikubConfig(), 2), 1, np.random.default_rng(0))
    return bot.act(None)  # type: ignore[arg-type]


def test_timed_passes_an_answer_in_time_and_replaces_a_late_one():
    assert _act(Timed(Answers(0.0), 5.0, "late")) == "mine"
    assert _act(Timed(Answers(0.03), 0.001, "late")) == "late"


def test_timed_sets_the_inner_strategy_up():
    inner = Answers(0.0)
    _act(Timed(inner, 1.0, "late"))
    assert inner.seat == 1 and inner.info.game == "rummikub"


def test_the_hook_gives_a_budget_only_where_the_config_sets_one():
    rummikub = get_game("rummikub")
    assert budget_of(rummikub, RummikubConfig()) is None
    assert budget_of(rummikub, RummikubConfig(time_budget_s=2.5)) == (2.5, LATE)
    nimmt = get_game("sixnimmt")
    assert budget_of(nimmt, nimmt.config_cls()) is None


def test_timed_specs_wrap_only_under_a_budget_and_survive_pickling():
    spec = RunSpec.create("sixnimmt", 3, ["random"], 2, seed=1)
    assert timed_specs(get_game("sixnimmt"), spec.config, spec.strategies) == spec.strategies
    plain = StrategySpec("greedy_tiles", "strategies.rummikub.greedy:GreedyTiles")
    (wrapped,) = timed_specs(get_game("rummikub"), RummikubConfig(time_budget_s=1.5), [plain])
    again = pickle.loads(pickle.dumps(wrapped))
    assert isinstance(again, TimedSpec) and again == wrapped and again.text == plain.text
    assert again.late == LATE and again.seconds == 1.5


def test_a_run_spec_read_back_from_its_manifest_keeps_the_budget():
    spec = RunSpec.create("rummikub", 2, ["simple"], 2, seed=1, overrides={"time_budget_s": "0.25"})
    again = RunSpec.from_manifest(spec.manifest_fields())
    assert again.strategies == spec.strategies and isinstance(again.strategies[0], TimedSpec)
