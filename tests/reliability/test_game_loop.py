"""The game loop against hostile or broken strategies and engines (issue 11, game loop part):
decision time limits, stray exits and interrupts, numpy actions, engine errors, audits, step caps."""

from __future__ import annotations

import dataclasses
import os
import signal
import sys
import time

import numpy as np
import pytest

from simkit.engine import registry
from simkit.engine.errors import EngineError
from simkit.engine.guard import DecisionGuard
from simkit.engine.play import ENGINE_ERROR, play_game, play_out, play_range
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import Decision, GameInfo, Strategy
from tests.golden import CASES  # noqa: F401  (registers the toy game "highcard")
from tests.highcard import GAME as HIGHCARD
from tests.highcard import HighCardConfig, RandomPlay


class Sleeps(Strategy):
    def act(self, decision):
        time.sleep(30)
        return -1


class Spins(Strategy):
    """A busy loop that swallows every Exception it sees."""

    def act(self, decision):
        end = time.monotonic() + 30
        while time.monotonic() < end:
            try:
                sum(range(100))
            except Exception:
                pass
        return -1


class Exits(Strategy):
    def act(self, decision):
        sys.exit(3)


class RaisesInterrupt(Strategy):
    def act(self, decision):
        raise KeyboardInterrupt


class SignalsItself(Strategy):
    """Stands for a person pressing Ctrl-C while this strategy thinks."""

    def act(self, decision):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
        return -1


class NumpyChoice(Strategy):
    def act(self, decision):
        return decision.rng.choice(decision.legal_actions)


class PlainChoice(Strategy):
    """The same draws as NumpyChoice, turned into plain Python values by the strategy itself."""

    def act(self, decision):
        choice = decision.rng.choice(decision.legal_actions)
        return choice.item() if isinstance(choice, np.generic) else choice


class ForgesACard(Strategy):
    """A determined cheat: digs the live state out of the stack frames and, on its second turn,
    turns a card of the next seat into a copy of its own best card (hand sizes stay, the deck no
    longer holds each card once)."""

    def act(self, decision):
        frame = sys._getframe(1)
        while "state" not in frame.f_locals:
            frame = frame.f_back
        state = frame.f_locals["state"]
        hand = state.hands[self.seat]
        if len(hand) == 4:
            state.hands[(self.seat + 1) % len(state.hands)][0] = max(hand)
        return decision.legal_actions[0]


def test_a_decision_has_no_attribute_holding_the_live_state():
    state, info, rngs = _table()
    decision = Decision(state, 1, rngs[1])
    assert not any(getattr(decision, name, None) is state for name in dir(decision))
    sample = decision.sample_state()
    assert sample is not state and sample.observe(1) == state.observe(1)


def _table(seed=0):
    config = HighCardConfig()
    state = HIGHCARD.new_state(config, 3, np.random.default_rng(seed))
    return state, GameInfo("highcard", config, 3), [np.random.default_rng(9 + s) for s in range(3)]


def _spec(middle: str, **kw) -> RunSpec:
    return RunSpec.create("highcard", 3, ["tests.highcard:RandomPlay", middle, "tests.highcard:RandomPlay"],
                          6, seed=4, seating="fixed", **kw)


@pytest.mark.parametrize("bot", [Sleeps(), Spins()], ids=["sleeps", "spins"])
def test_a_decision_over_the_time_limit_forfeits_that_seat(bot):
    state, info, rngs = _table()
    with DecisionGuard(0.2) as guard:
        played = play_out(state, [RandomPlay(), bot, RandomPlay()], info, rngs, guard=guard)
    assert played.forfeit == 1 and played.error.startswith("DecisionTimeout: seat 1 took over 0.2 s")


class SleepsTogether(RandomPlay):
    """Decides every seat's card in one `act_many` call, and hangs there."""

    @classmethod
    def act_many(cls, bots, decisions):
        time.sleep(30)
        return [bot.act(decision) for bot, decision in zip(bots, decisions)]


def test_an_act_many_over_the_time_limit_forfeits_seat_0():
    state, info, rngs = _table()
    with DecisionGuard(0.2) as guard:
        played = play_out(state, [SleepsTogether() for _ in range(3)], info, rngs, guard=guard)
    assert played.forfeit == 0 and played.error.startswith("DecisionTimeout: seat 0 took over 0.2 s")


def test_the_time_limit_reaches_the_runner_rows():
    chunk = play_range(_spec("tests.reliability.test_game_loop:Sleeps", decision_timeout=0.2), 0, 2)
    assert chunk.games["forfeit_seat"] == [1, 1]
    assert all("--decision-timeout" in e for e in chunk.games["error"])


@pytest.mark.parametrize("bot,kind", [(Exits(), "SystemExit"), (RaisesInterrupt(), "KeyboardInterrupt")])
def test_an_exit_or_interrupt_raised_by_a_strategy_is_its_error(bot, kind):
    state, info, rngs = _table()
    with DecisionGuard() as guard:
        played = play_out(state, [RandomPlay(), bot, RandomPlay()], info, rngs, guard=guard)
    assert played.forfeit == 1 and played.error.startswith(kind)


def test_a_real_ctrl_c_during_a_decision_stops_the_batch():
    state, info, rngs = _table()
    with pytest.raises(KeyboardInterrupt), DecisionGuard() as guard:
        play_out(state, [RandomPlay(), SignalsItself(), RandomPlay()], info, rngs, guard=guard)


def test_the_guard_restores_the_signal_handlers():
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGALRM)
    with DecisionGuard(1.0):
        assert signal.getsignal(signal.SIGINT) != before[0]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGALRM)) == before


def test_a_numpy_value_equal_to_a_legal_action_is_that_action():
    spec_numpy = RunSpec.create("sixnimmt", 3, ["tests.reliability.test_game_loop:NumpyChoice"], 4, seed=2,
                                overrides={"max_rounds": "1"})
    spec_plain = RunSpec.create("sixnimmt", 3, ["tests.reliability.test_game_loop:PlainChoice"], 4, seed=2,
                                overrides={"max_rounds": "1"})
    numpy_rows, plain_rows = play_range(spec_numpy, 0, 4), play_range(spec_plain, 0, 4)
    assert numpy_rows.games["forfeit_seat"] == [-1] * 4
    assert numpy_rows.seats["score"] == plain_rows.seats["score"]


@pytest.fixture
def engine_bug(monkeypatch):
    """The toy engine raises KeyError at its third trick in the deals whose seat 0 holds an odd
    lowest card (some games of a batch, not all)."""
    real_apply = HIGHCARD.new_state.apply

    def apply(self, actions):
        if len(self.tricks) == 2 and self.hands[0][0] % 2:
            raise KeyError("engine bug")
        real_apply(self, actions)

    monkeypatch.setattr(HIGHCARD.new_state, "apply", apply)


def test_an_engine_exception_is_recorded_and_the_batch_goes_on(engine_bug):
    chunk = play_range(_spec("tests.highcard:RandomPlay"), 0, 6)
    errors = chunk.games["error"]
    broken = [i for i, e in enumerate(errors) if e]
    assert broken and len(broken) < 6, errors
    for i in broken:
        assert errors[i] == ENGINE_ERROR + "KeyError: 'engine bug'" and chunk.games["forfeit_seat"][i] == -1
        assert all(np.isnan(chunk.seats["win"][3 * i: 3 * i + 3]))
    with pytest.raises(EngineError, match="KeyError: 'engine bug'"):
        play_range(_spec("tests.highcard:RandomPlay", strict=True), 0, 6)


def test_a_strategy_that_corrupts_the_state_is_caught_by_the_audit():
    where = "audit failed at the end (last to act: seat 0, seat 1, seat 2)"
    record, _ = play_game(_spec("tests.reliability.test_game_loop:ForgesACard"), 0)
    assert record.forfeit == -1 and record.error.startswith(ENGINE_ERROR + where)
    assert not any(w > 0 for w in record.wins)
    with pytest.raises(EngineError, match="audit failed"):
        play_game(_spec("tests.reliability.test_game_loop:ForgesACard", strict=True), 0)


def test_under_paranoid_a_strategy_that_corrupts_the_state_forfeits_at_once():
    # --paranoid checks every decision: the change is caught while seat 1 decides (issue 23)
    record, _ = play_game(_spec("tests.reliability.test_game_loop:ForgesACard", paranoid=True), 0)
    assert record.forfeit == 1 and record.error.startswith("StateTampered: seat 1 changed the game")
    assert record.wins[1] == 0


def test_a_game_that_reaches_its_step_cap_is_recorded_not_hung(monkeypatch):
    capped = dataclasses.replace(HIGHCARD, max_steps=lambda config, n: 3)
    monkeypatch.setitem(registry._LOADED, "highcard", capped)
    record, state = play_game(_spec("tests.highcard:RandomPlay"), 0)
    assert record.steps == 3 and not state.is_over()
    assert record.error == (ENGINE_ERROR + "the game did not end within 3 steps "
                            "(its hard step cap, Game.max_steps)")


def test_games_the_engine_could_not_finish_are_counted_and_left_out_of_the_statistics(tmp_path, engine_bug):
    from simkit.engine.runner import load_run, run
    from simkit.report.console import run_summary

    result = run(_spec("tests.highcard:RandomPlay"), tmp_path / "r", jobs=1, progress=False)
    broken = int(result.games["error"].str.startswith(ENGINE_ERROR).sum())
    assert broken and result.engine_errors == broken == load_run(tmp_path / "r").engine_errors
    assert len(result.seats) == 3 * (6 - broken) and not result.seats["win"].isna().any()
    assert f"engine errors: {broken} games the engine could not finish" in run_summary(result, HIGHCARD)


def test_run_takes_decision_timeout_and_paranoid_from_the_command_line(tmp_path):
    import json

    from click.testing import CliRunner

    from simkit.cli import main

    cli = CliRunner()
    out = cli.invoke(main, ["run", "sixnimmt", "-p", "2", "-s", "random",
                            "-s", "tests.reliability.test_game_loop:Sleeps", "-n", "2", "-j", "1",
                            "--seating", "fixed", "--set", "max_rounds=1",
                            "--decision-timeout", "0.3", "--paranoid", "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["decision_timeout"] == 0.3 and manifest["paranoid"] is True
    assert "forfeited games: 2" in out.output
    bad = cli.invoke(main, ["run", "sixnimmt", "--decision-timeout", "-1", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 1 and "--decision-timeout -1.0 is not allowed: seconds above 0" in bad.output


class CompilesSlowly(RandomPlay):
    """Stands for a first decision that compiles a numba kernel: 0.6 s inside numba's compiler
    lock (the event numba fires around compiling or loading a kernel), then a legal card."""

    def act(self, decision):
        from numba.core import event

        with event.trigger_event("numba:compiler_lock"):
            time.sleep(0.6)
        return super().act(decision)


class ThinksSlowly(RandomPlay):
    def act(self, decision):
        time.sleep(0.6)
        return super().act(decision)


@pytest.mark.parametrize("bot, forfeits", [(CompilesSlowly(), False), (ThinksSlowly(), True)],
                         ids=["compiling", "thinking"])
def test_time_spent_compiling_a_kernel_is_not_charged_to_the_decision(bot, forfeits):
    from simkit.engine import compile_clock

    compile_clock.listen()
    state, info, rngs = _table()
    with DecisionGuard(0.2) as guard:
        played = play_out(state, [RandomPlay(), bot, RandomPlay()], info, rngs, guard=guard)
    assert (played.forfeit == 1) is forfeits
    assert not compile_clock.busy()
