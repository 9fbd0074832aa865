"""Declared clones (simkit/engine/cloning.py): each kind of field is copied as declared, the
clone is independent of the original, and its generator continues the original's stream."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from simkit.engine.cloning import Cloning, copy_generator
from simkit.engine.game import State
from simkit.engine.play import play_out
from simkit.engine.registry import get_game
from simkit.engine.strategy import GameInfo, parse_strategy


def _double(state: State) -> list[int]:
    return [2 * x for x in state.computed]  # type: ignore[attr-defined]


DECLARED = Cloning(lists=("flat",), nested=("deep",), generators=("rng",), reset={"cache": None},
                   computed={"computed": _double})


class DictState(State):
    cloning = DECLARED

    def __init__(self) -> None:
        self.flat = [1, 2]
        self.deep = [[1], [2, 3]]
        self.rng = np.random.default_rng(4)
        self.cache = ("stale",)
        self.computed = [5]
        self.shared = ("a", "b")


class SlotState(State):
    __slots__ = ("flat", "deep", "rng", "cache", "computed", "shared")
    cloning = DECLARED
    __init__ = DictState.__init__


class MixedState(SlotState):
    """Slots from its parent, a __dict__ of its own: both are copied."""

    def __init__(self) -> None:
        super().__init__()
        self.extra = ("x",)


@pytest.mark.parametrize("cls", [DictState, SlotState, MixedState])
def test_each_declared_kind_is_copied_and_independent(cls):
    original = cls()
    clone = original.clone()
    assert type(clone) is cls
    clone.flat.append(9)
    clone.deep[1].append(9)
    clone.deep.append([9])
    assert original.flat == [1, 2] and original.deep == [[1], [2, 3]]
    assert clone.cache is None and original.cache == ("stale",)
    assert clone.computed == [10] and original.computed == [5]
    assert clone.shared is original.shared
    assert clone.rng is not original.rng
    clone.rng.random(5)
    assert original.rng.random() == np.random.default_rng(4).random()


def test_a_slotted_clone_copies_every_slot_and_nothing_else():
    original = SlotState()
    clone = original.clone()
    assert not clone.__dict__
    assert MixedState().clone().extra == ("x",)
    assert {name: getattr(clone, name) is getattr(original, name) for name in SlotState.__slots__} == {
        "flat": False, "deep": False, "rng": False, "cache": False, "computed": False, "shared": True}


def test_the_clone_generator_continues_the_same_stream():
    rng = np.random.default_rng(11)
    rng.integers(10, dtype=np.uint32)   # leaves half a 64-bit word buffered in the bit generator
    copied = copy_generator(rng)
    assert copied.integers(1 << 30, size=6, dtype=np.uint32).tolist() == \
        rng.integers(1 << 30, size=6, dtype=np.uint32).tolist()
    assert copied.random(4).tolist() == rng.random(4).tolist()


def test_a_hand_written_clone_is_kept():
    class Written(DictState):
        def clone(self):
            return "by hand"

    class Below(Written):
        pass

    assert Written().clone() == "by hand" and Below().clone() == "by hand"


def test_a_subclass_gets_a_clone_of_its_own_class():
    class Sub(DictState):
        pass

    assert type(Sub().clone()) is Sub


@pytest.mark.parametrize("cloning, message", [
    (Cloning(lists=("flat",), nested=("flat",)), "declares flat more than once"),
    (Cloning(lists=("missing",)), "names missing, not among its __slots__"),
    (Cloning(lists=("not a name",)), "are not field names"),
])
def test_a_wrong_declaration_fails_when_the_class_is_made(cloning, message):
    with pytest.raises(TypeError, match=message):
        type("Wrong", (State,), {"__slots__": ("flat",), "cloning": cloning})


def _mid_game(name: str, n: int, steps: int) -> Any:
    game = get_game(name)
    config = game.config_cls()
    state = game.new_state(config, n, np.random.default_rng(5))
    spec = parse_strategy("random", name)
    play_out(state, [spec] * n, GameInfo(name, config, n), [np.random.default_rng(10 + s) for s in range(n)],
             max_steps=steps)
    assert not state.is_over()
    return state


@pytest.mark.parametrize("name, n, steps", [("sixnimmt", 4, 20), ("trains", 3, 60), ("rummikub", 3, 30),
                                            ("shipside", 2, 25)])
def test_every_game_declares_its_clone_and_shares_no_list(name, n, steps):
    state = _mid_game(name, n, steps)
    cloning = type(state).cloning
    assert cloning is not None and getattr(type(state).clone, "generated_from", None) is cloning
    clone = state.clone()
    for field in (*cloning.lists, *cloning.nested):
        mine, theirs = getattr(state, field), getattr(clone, field)
        assert mine == theirs and mine is not theirs, field
        if field in cloning.nested:
            assert not any(a is b for a, b in zip(mine, theirs)), field
    assert [clone.observe(s) for s in range(n)] == [state.observe(s) for s in range(n)]
    # the chance generator goes on with the original's stream (6 nimmt! builds it at its first draw)
    assert clone.rng.random(3).tolist() == state.rng.random(3).tolist()


@pytest.mark.parametrize("cls", [DictState, SlotState])
def test_a_reseeded_clone_is_a_clone_whose_generators_are_the_given_one(cls):
    state = cls()
    rng = np.random.default_rng(99)
    copy = state.reseeded_clone(rng)
    plain = state.clone()
    assert copy.rng is rng and plain.rng is not rng
    for name in ("flat", "deep", "cache", "computed", "shared"):
        assert getattr(copy, name) == getattr(plain, name)
    assert copy.flat is not state.flat and copy.deep[0] is not state.deep[0]
    copy.flat.append(9)
    assert state.flat == [1, 2]


@pytest.mark.parametrize("game_name", ["trains", "shipside"])
def test_determinize_hands_the_sample_the_searchers_generator_and_leaves_the_truths_alone(game_name):
    """As before reseeded_clone: the sample's later chance comes from `rng` itself, and the true
    state's generator is neither shared nor advanced."""
    game = get_game(game_name)
    state = game.new_state(game.config_cls(), 2, np.random.default_rng(3))
    truth = state.rng.bit_generator.state
    rng = np.random.default_rng(8)
    sample = state.determinize(0, rng)
    assert sample.rng is rng and state.rng is not rng
    assert state.rng.bit_generator.state == truth
