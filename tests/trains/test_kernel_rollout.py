"""Game of Trains search rollouts in the kernel (simkit/games/trains/kernel_rollout.py) against
the Python path they replace (`Simulator._play` after `start()`): from positions met along seeded
games (setup T5-T7, turns T8, a drawn card waiting to be placed T9; true states and the acting
seat's determinizations), for every rollout bot with a kernel form, with 1, a few and unlimited
steps, the state, the outcome or `Game.evaluate`, and every generator end up the same.

Known exception (not the rollout's, the game kernel's bots): the kernel keeps one discard memory
for all seats, the Python `DiscardMemory` one per bot, read at the bot's own turns; a used card
(T10) followed at once by a T13 reshuffle at the next player's draw is remembered by the kernel
for every seat and by the Python bots for every seat but the drawer. Long `greedy`/`rival`
rollouts can then differ (3 of 33,000 comparisons in a probe). Where a comparison differs, the
test requires that Python bots reading the log as the kernel does (`SharedMemory`) give exactly
the kernel's result, and that this happens rarely.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.registry import get_game
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.trains.config import TrainsConfig
from simkit.search.simulator import Simulator
from strategies.trains import heuristic
from tests.kernel_rollouts import carried_differences, differences, kernel_rollout, positions


class SharedMemory(heuristic.DiscardMemory):
    """`DiscardMemory` read as the kernel reads it: a used card stays pending across reads (one
    memory for all seats, as if every bot read every event at once)."""

    def __init__(self, used_after: bool = True) -> None:
        super().__init__(used_after)
        self.pending = None

    def update(self, obs) -> set[int]:
        log = obs.log
        cards = self.cards
        for ev in log[self.pos:]:
            kind = ev[0]
            if kind == "use":
                self.pending = None
                if ev[2] != 8:
                    cards.add(ev[4])
                    if self.used_after:
                        self.pending = ev[4]
            elif kind == "pairs":
                cards.update(ev[2])
            elif kind == "void" or kind == "wasted_lock":
                cards.add(ev[3])
            elif kind == "reshuffle":
                cards.clear()
                if self.pending is not None:
                    cards.add(self.pending)
            elif kind == "draw" or kind == "place":
                self.pending = None
        self.pos = len(log)
        return cards | set(obs.own_setup_discards)

#: (players, config overrides, seed, steps between positions) of the seeded `random` games the
#: positions come from
CONFIGS = [
    # the defaults (T1-T25), 4 players
    (4, {}, 3, 50),
    # T5-T7 simultaneous setup, T13 eager reshuffle, T10 used card discarded before
    (2, {"setup_order": "simultaneous", "reshuffle": "eager", "used_card": "before"}, 5, 40),
    # T19/T20 swap, T21-T23 complete refills and no all-locked removal, T11 pair_keep=first with
    # the used card staying, T24 chosen voiding and double locks, §1.2 periodic table
    (3, {"move_semantics": "swap", "refill_stop": "complete", "pair_keep": "first", "used_card_stays": "true",
         "lock_voiding": "chosen", "double_lock": "true", "allow_all_locked_removal": "false",
         "effect_table": "periodic"}, 7, 40),
]
BOTS = ["random", "greedy", "rival", "greedy:memory=false", "rival:attack=40,lock_risk=0.5"]
LEFTS = (1, 3, 12, 10**6)


def _positions(n, overrides, seed, every):
    return list(positions("trains", n, overrides, ["random"], seed, every=every, first=2 * n + 1))


@pytest.mark.parametrize("n,overrides,seed,every", CONFIGS)
@pytest.mark.parametrize("bot", BOTS)
def test_kernel_rollouts_leave_what_the_python_rollouts_leave(n, overrides, seed, every, bot):
    checked = shared = 0
    for i, (info, kind, state) in enumerate(_positions(n, overrides, seed, every)):
        for left in LEFTS:
            bad = differences(info, state, bot, left, round_cut=bool(i % 2), seed=seed * 1000 + i)
            if bad:
                with pytest.MonkeyPatch.context() as patch:
                    patch.setattr(heuristic, "DiscardMemory", SharedMemory)
                    bad = differences(info, state, bot, left, round_cut=bool(i % 2), seed=seed * 1000 + i)
                shared += 1
            assert not bad, f"{kind} position {i} ({state.phase}), left={left}: {bad} differ"
            checked += 1
    assert checked >= 40 * len(LEFTS)
    assert shared <= checked // 20


@pytest.mark.parametrize("n,overrides,seed,every", CONFIGS)
def test_the_positions_cover_every_phase_and_reach_the_end(n, overrides, seed, every):
    """The comparison above meets setup (T6 keep, T7 place), turns (T8), a drawn card to place
    (T9), states after a T13 reshuffle, and rollouts that end the game (T25 or T15)."""
    found = _positions(n, overrides, seed, every)
    assert {state.phase for _, _, state in found} == {"keep", "setup_place", "turn", "place"}
    assert any(state.reshuffles for _, _, state in found)
    assert {kind for _, kind, _ in found} == {"true", "sampled"}
    info, _, state = found[len(found) // 2]
    sim = Simulator(get_game("trains"), info, parse_strategy("random", "trains"), np.random.default_rng(1),
                    "win", None)
    sim.start()
    sim._play(state, 10**6)
    assert state.is_over()


def test_the_comparison_can_fail():
    """Control: the kernel's seat generators started elsewhere give a different rollout."""
    found = _positions(*CONFIGS[0])
    bad = [differences(info, state, "random", 10**6, False, seed=i, kernel_seed=99 + i)
           for i, (info, _, state) in enumerate(found[:10])]
    assert all("seat rng 0" in b for b in bad)
    assert any({"trains", "draw"} & set(b) for b in bad)


def test_what_the_kernel_cannot_roll_out_is_refused_with_a_reason():
    rollout = kernel_rollout("trains")
    info = GameInfo("trains", TrainsConfig(), 3)
    with pytest.raises(ValueError, match="no kernel form"):
        rollout(info, parse_strategy("ismcts", "trains"))
    with pytest.raises(ValueError, match="attack and lock_risk"):
        rollout(info, parse_strategy("rival:attack=-1", "trains"))
    with pytest.raises(ValueError, match="not a Game of Trains config"):
        rollout(GameInfo("trains", SixNimmtConfig(), 3), parse_strategy("random", "trains"))


def test_a_random_bot_asked_in_the_tree_continues_in_the_kernel(monkeypatch):
    """`carries_bots`: after tree steps `random`'s buffer (64 draws) is part used; the kernel takes
    it over and hands it back, so state, generators and buffers end as in Python. Control: the
    same comparison without the buffer carried in differs."""
    from simkit.engine import kernel_positions

    found = _positions(*CONFIGS[0])[::3][:12]
    for i, (info, kind, state) in enumerate(found):
        for used in (1, 3):
            bad = carried_differences(info, state, "random", used, seed=i)
            assert not bad, f"{kind} position {i} ({state.phase}), {used} tree steps: {bad} differ"
    assert not kernel_rollout("trains")(found[0][0], parse_strategy("greedy", "trains")).carries_bots
    monkeypatch.setattr(kernel_positions, "buffers_in", lambda rows, bots, size: None)
    assert any(carried_differences(info, state, "random", 1, seed=i)
               for i, (info, _, state) in enumerate(found))
