"""The engine's shortcuts against the rules they stand for, at every step of random games: the
memoised turn listing (T8, T14, §5), the in-place reorders (T17-T20, rules.apply_order_effect)
with their inlined T25 test, the placement's inlined T11 (rules.resolve_pairs) and the public log
derived from the events when observed (§8)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.trains import GAME, TrainsConfig
from simkit.games.trains.actions import DRAW, USE, USE_ONE
from simkit.games.trains.rules import (
    PLACE_PHASE,
    TURN,
    apply_order_effect,
    is_ascending,
    lock_params,
    removal_hits,
    resolve_pairs,
)
from simkit.games.trains.state import public_event

from .helpers import play_random

ALTERNATIVES = TrainsConfig(
    effect_table="periodic", setup_order="simultaneous", used_card="before", pair_keep="first",
    reshuffle="eager", move_semantics="swap", refill_stop="complete",
    allow_all_locked_removal=False, lock_voiding="chosen", double_lock=True, max_turns=300)
CONFIGS = [TrainsConfig(max_turns=300), ALTERNATIVES, TrainsConfig(used_card_stays=True, max_turns=300)]


def reference_turn_actions(state) -> tuple:
    """T8/T14 and §5 from the display and the locks alone, without any memo."""
    cfg = state.config
    acts = [DRAW]
    for e in range(1, 9):
        if not state.display[e]:
            continue
        if e <= 4:
            acts += USE[e]
        elif e <= 7:
            if cfg.allow_all_locked_removal or removal_hits(state.locks, e):
                acts.append(USE[e][0])
        else:
            acts += [USE_ONE[(8, s)] for s in lock_params(state.locks[state.cur], cfg.double_lock)]
    return tuple(acts)


def _new(cfg: TrainsConfig, n: int, seed: int):
    return GAME.new_state(cfg, n, np.random.default_rng(seed))


@pytest.mark.parametrize("cfg", CONFIGS, ids=["default", "alternatives", "used_card_stays"])
def test_turn_listing_equals_the_reference_at_every_turn(cfg):
    turns = []

    def check(state, step, seats):
        if state.phase == TURN:
            assert state.legal_actions(seats[0]) == reference_turn_actions(state), step
            assert all(state.legal_actions(s) == () for s in range(state.n) if s != seats[0])
            turns.append(step)

    for seed, n in ((1, 2), (2, 3), (3, 4)):
        play_random(_new(cfg, n, seed), seed, before=check)
    assert len(turns) > 300


@pytest.mark.parametrize("cfg", CONFIGS[:2], ids=["insert", "swap"])
def test_reorders_equal_the_rules_function(cfg):
    """T17-T20: the engine reorders a train in place; the result is rules.apply_order_effect's."""
    insertion = cfg.move_semantics == "insert"
    before_use: dict = {}
    checked = []

    def remember(state, step, seats):
        before_use["train"] = state.trains[state.cur][:]

    def check(state, step, seats, joint):
        action = joint[0]
        if action[0] == "use" and action[1] <= 4:
            expected = apply_order_effect(before_use["train"], action[1], action[2], insertion)
            assert state.trains[seats[0]] == expected, (step, action)
            assert (state.winner == seats[0]) == is_ascending(expected), (step, action)   # T25
            checked.append(action)

    for seed in range(3):
        play_random(_new(cfg, 4, seed), seed, before=remember, after=check)
    assert {a[1] for a in checked} == {1, 2, 3, 4}


@pytest.mark.parametrize("cfg", CONFIGS[:2], ids=["last", "first"])
def test_placement_display_equals_resolve_pairs(cfg):
    """T9/T11: the replaced card of a placement enters the display as rules.resolve_pairs says."""
    keep = cfg.pair_keep
    before: dict = {}
    pairs = []

    def remember(state, step, seats):
        before["phase"] = state.phase
        before["display"] = state.display[:]

    def check(state, step, seats, joint):
        if before["phase"] != PLACE_PHASE:
            return
        old = next(ev for ev in reversed(state.events) if ev[0] == "place")[4]
        e = state.eff[old]
        stay, gone = resolve_pairs(before["display"][e], [old], keep)
        assert state.display[e] == stay and state.discard[len(state.discard) - len(gone):] == gone
        pairs.append(bool(gone))

    for seed in range(3):
        play_random(_new(cfg, 4, seed), seed, before=remember, after=check)
    assert True in pairs and False in pairs


def test_public_log_hides_exactly_the_private_cards():
    """§8: the log is the events with drawn cards hidden and setup draws and discards counted;
    it stays in step as the game goes on and carries over to a determinized copy."""
    state = _new(TrainsConfig(max_turns=200), 3, 5)
    lengths = []

    def check(st, step, seats):
        log = st.observe(0).log
        assert list(log) == [public_event(ev) for ev in st.events]
        lengths.append(len(log))

    play_random(state, 5, before=check)
    assert lengths == sorted(lengths) and lengths[-1] > lengths[0]
    log = state.observe(1).log
    draws = [ev for ev in state.events if ev[0] == "draw"]
    assert draws and all(ev[2] for ev in draws)
    assert [ev for ev in log if ev[0] == "draw"] == [("draw", ev[1], None) for ev in draws]
    setup = [ev for ev in log if ev[0] == "setup_draw"]
    assert [ev[2] for ev in setup] == [1, 2, 3]
    det = state.determinize(1, np.random.default_rng(0))
    assert det.events == list(log) and det.observe(1).log == log
