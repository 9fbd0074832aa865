"""A kernel's first compile split over two processes (simkit/engine/compile_aside.py): when it is
used, what the child does, and that nothing depends on it. The end-to-end check (the loop
compiled by the child, loaded from the cache by the run) is in test_kernel_cache.py."""

from __future__ import annotations

import pytest

from simkit.engine import compile_aside
from simkit.engine.compile_aside import Aside, loop_aside, uncached
from simkit.engine.spec import RunSpec


class _Index:
    def __init__(self, entries: dict):
        self.entries = entries

    def _load_index(self) -> dict:
        return self.entries


class _Function:
    """A compiled function as `uncached` sees it: its numba cache index."""

    def __init__(self, cached: bool):
        self._cache = type("Cache", (), {"_cache_file": _Index({"signature": 0} if cached else {})})()


class _Started:
    def __init__(self, target: str, args: tuple):
        self.target, self.args = target, args
        self.waited = self.stopped = False

    def wait(self) -> bool:
        self.waited = True
        return True

    def stop(self) -> None:
        self.stopped = True


@pytest.fixture
def started(monkeypatch):
    """The children `compile_aside` starts, recorded, not run; two cores, the switch unset."""
    children: list[_Started] = []
    monkeypatch.setattr(compile_aside, "Aside", lambda target, args: children.append(_Started(target, args))
                        or children[-1])
    monkeypatch.setattr(compile_aside, "_STARTED", {})
    monkeypatch.setattr(compile_aside, "_free_cores", lambda: 2)
    monkeypatch.delenv(compile_aside.SWITCH, raising=False)
    return children


def _loop_aside(monkeypatch, loop: _Function, bots: list[_Function]):
    monkeypatch.setattr(compile_aside, "lineup_bots", lambda spec: bots)
    monkeypatch.setattr(compile_aside, "game_loop", lambda spec: loop)
    return loop_aside(SPEC)


SPEC = RunSpec.create("shipside", 2, ["greedy", "random"], 1, seed=1)


def test_the_loop_goes_aside_when_it_and_a_bot_would_both_compile(started, monkeypatch):
    bots = [_Function(cached=True), _Function(cached=False)]
    with _loop_aside(monkeypatch, _Function(cached=False), bots) as child:
        assert child is started[0] and not child.waited
    assert child.waited and not child.stopped                 # the block waits for it at the end
    assert child.target == "simkit.engine.compile_aside:play_one_random_game"
    assert child.args == ("shipside", 2, SPEC.config)


@pytest.mark.parametrize("loop, bots, cores, switch", [
    (True, [False], 2, None),          # the loop is cached: nothing to put aside
    (False, [True], 2, None),          # every bot is cached: nothing to do meanwhile
    (False, [], 2, None),              # only `random` (the child's own bot) in the lineup
    (False, [False], 1, None),         # one core: the child would only take turns with the run
    (False, [False], 2, "0"),          # switched off
])
def test_no_child_when_it_would_not_help(started, monkeypatch, loop, bots, cores, switch):
    monkeypatch.setattr(compile_aside, "_free_cores", lambda: cores)
    if switch is not None:
        monkeypatch.setenv(compile_aside.SWITCH, switch)
    with _loop_aside(monkeypatch, _Function(cached=loop), [_Function(cached=b) for b in bots]) as child:
        assert child is None
    assert started == []


def test_a_failing_block_stops_the_child(started, monkeypatch):
    with pytest.raises(KeyboardInterrupt):
        with _loop_aside(monkeypatch, _Function(cached=False), [_Function(cached=False)]):
            raise KeyboardInterrupt
    assert started[0].stopped and not started[0].waited


def test_uncached_reads_numba_s_index():
    assert uncached(_Function(cached=False)) and not uncached(_Function(cached=True))
    assert not uncached(object())                   # not a cached compiled function: not ours to judge


def test_the_child_calls_its_target_and_says_whether_it_worked(tmp_path):
    made = tmp_path / "made"
    assert Aside("os:mkdir", (str(made),)).wait() is True
    assert made.is_dir()
    assert Aside("os:mkdir", (str(made),)).wait() is False      # FileExistsError in the child
    assert Aside("no_such_module_here:f", ()).wait() is False


def test_a_child_past_its_patience_is_stopped():
    child = Aside("time:sleep", (60,))
    assert child.wait(timeout=0.5) is False
    assert child.process.poll() is not None


def test_a_child_starts_no_child_of_its_own(tmp_path):
    """The child's own first compiles stay in it (a child of a child compiled the same parts
    again: the Rummikub solver's two parts each start the other's)."""
    seen = tmp_path / "switch"
    assert Aside("os:system", (f"printf %s \"${compile_aside.SWITCH}\" > {seen}",)).wait() is True
    assert seen.read_text() == "0"


def test_start_once_per_key_and_wait_for_it(started, monkeypatch):
    children = started
    assert compile_aside.start("dp", "module:warm") is True
    assert compile_aside.start("dp", "module:warm") is False           # one child per key
    compile_aside.wait_for("meld")                                      # none started: no wait
    assert not children[0].waited
    compile_aside.wait_for("dp")
    assert children[0].waited and len(children) == 1
    monkeypatch.setenv(compile_aside.SWITCH, "0")
    assert compile_aside.start("meld", "module:warm") is False


def test_waiting_for_the_child_is_compile_time_to_a_decision_s_clock(monkeypatch):
    """The Rummikub solver's first use of a part may wait inside a decision: `DecisionGuard`
    does not charge compile time (`compile_clock.busy()`) to the seat."""
    from simkit.engine import compile_clock

    child = Aside("time:sleep", (0,))
    seen = []
    wait = child.process.wait

    def watched(timeout):
        seen.append(compile_clock.busy())
        return wait(timeout)
    monkeypatch.setattr(child.process, "wait", watched)
    assert not compile_clock.busy()
    assert child.wait() is True
    assert seen == [True] and not compile_clock.busy()


def test_compiles_first_looks_at_the_game_loop_and_the_lineup_s_bots(monkeypatch):
    """The run's header says a kernel run compiles first when its loop or a bot is not cached."""
    from simkit.games.shipside.kernel_play import play_games
    from strategies.shipside.kernel_bots import greedy_bot

    missing: set = set()
    monkeypatch.setattr(compile_aside, "uncached", lambda function: function in missing)
    assert not compile_aside.compiles_first(SPEC)
    missing.add(play_games)
    assert compile_aside.compiles_first(SPEC)
    missing.clear()
    missing.add(greedy_bot)
    assert compile_aside.compiles_first(SPEC)
    only_random = RunSpec.create("shipside", 2, ["random"], 1, seed=1)
    assert not compile_aside.compiles_first(only_random)       # random comes with the loop
