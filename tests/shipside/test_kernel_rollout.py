"""Shipside search rollouts in the kernel (simkit/games/shipside/kernel_rollout.py) against the
Python path they replace (`Simulator._play` after `start()`): from positions met along seeded
games (the main phase S15-S18, rum after the action S17, the owner's direction choice inside a
placement S25, the variant's mark and picks S56-S57; true states and the acting seat's
determinizations), for every rollout bot with a kernel form, with 1, a few and unlimited steps,
every field of the state (the ships captured and removed, the cards and crew out of the game
included, S35-S38), the outcome or `Game.evaluate`, and every generator end up the same.
"""

from __future__ import annotations

import pytest

from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.shipside.config import ShipsideConfig
from simkit.games.trains.config import TrainsConfig
from tests.kernel_rollouts import carried_differences, differences, kernel_rollout, positions

#: (config overrides, seed) of the seeded `random` games the positions come from
CONFIGS = [
    # the defaults (S1-S55)
    ({}, 1),
    # S25 the owner chooses the direction (a step inside the placement), S11 another empty ship,
    # S30 crew moves after the check
    ({"movement.chooser": "owner", "setup.crew_start": "28-empty", "movement.before_scoring": "false"}, 2),
    # §10 the variant: S56 random marks, S57 picks, S58 own piles
    ({"variant.enabled": "true"}, 3),
    # S56 the chooser takes a mark, one shared pile
    ({"variant.enabled": "true", "variant.mark_assignment": "chooser", "variant.personal_decks": "false"}, 4),
    # S41, S44 octopus readings, S17 rum only before
    ({"octopus.reuse": "free", "octopus.draw": "true", "rum.timing": "before"}, 5),
    ({"octopus.reuse": "once", "octopus.as_placement": "false", "octopus.check_origin": "false"}, 6),
    # S32, S34 a full tie stays, S53-S55
    ({"scoring.threshold_inclusive": "false", "scoring.full_tie": "stay", "scoring.ship_points": "2",
      "end.points_to_win": "0", "end.tie_result": "tiebreak"}, 7),
    # S38, S47, S48, S52 rum readings
    ({"rum.defense_bonus": "10", "rum.uses_per_player": "3", "rum.max_per_ship": "2",
      "rum.on_scored": "returned"}, 8),
    # S10, S12, S14, S18-S20
    ({"rules.max_cards_per_side": "3", "rules.play_on_any_side": "false", "rules.pass_when_stuck": "false",
      "setup.hand_size": "6", "setup.first_player": "1", "setup.ship_order": "ascending"}, 9),
    # S11, S26 two tokens a ship, S25 the owner chooses, S26-S29 movement readings
    ({"setup.crew_start": "#1:captain+#1:mate+#2:sailor+#5:sailor", "crew.max_per_ship": "2",
      "movement.chooser": "owner", "movement.wrap_around": "false", "movement.skip_occupied": "false",
      "movement.freeze_when_full": "false"}, 10),
]
BOTS = ["random", "greedy", "octopus", "octopus:octopus_cost=5,rum_min=5,threat=1.2,chance=0.1"]
LEFTS = (1, 2, 5, 10**6)
#: seeds of configs whose games under octopus stall until the 400-turn cap (S41, S44 the octopus
#: free to reuse, drawing after it): each rollout to the end is ~400 Python steps from any
#: position, so their positions are the game's first 4 steps (not 12: no setup phase in them,
#: S56-S57 are off) and every 15th step; 24 positions, still above the 20 the test asks
STALLING = {5}


def _positions(overrides, seed):
    first = 4 if seed in STALLING else 12
    return list(positions("shipside", 2, overrides, ["random"], seed, every=15, first=first))


@pytest.mark.parametrize("overrides,seed", CONFIGS)
@pytest.mark.parametrize("bot", BOTS)
def test_kernel_rollouts_leave_what_the_python_rollouts_leave(overrides, seed, bot):
    checked = 0
    for i, (info, kind, state) in enumerate(_positions(overrides, seed)):
        for left in LEFTS:
            bad = differences(info, state, bot, left, round_cut=bool(i % 2), seed=seed * 1000 + i)
            assert not bad, f"{kind} position {i} ({state.phase}), left={left}: {bad} differ"
            checked += 1
    assert checked >= 20 * len(LEFTS)


def test_the_positions_cover_every_phase():
    """The comparison above meets every phase: mark and picks (S56-S57), the main phase, rum
    after the action (S17) and the owner's direction choice (S25)."""
    phases = {state.phase for overrides, seed in CONFIGS for _, _, state in _positions(overrides, seed)}
    assert phases == {"mark", "pick", "main", "rum", "dir"}


def test_rollouts_score_ships_every_way():
    """Python rollouts from the positions capture ships (S32, S33), remove them on a full tie
    (S34) and keep them on one (S34 alternative): the lists the kernel rollout fills are tested."""
    import numpy as np

    from simkit.engine.registry import get_game
    from simkit.search.simulator import Simulator

    seen = set()
    for overrides, seed in (CONFIGS[0], CONFIGS[6], CONFIGS[8]):
        for i, (info, _, state) in enumerate(_positions(overrides, seed)[:30]):
            sim = Simulator(get_game("shipside"), info, parse_strategy("random", "shipside"),
                            np.random.default_rng(i), "win", None)
            sim.start()
            before = (len(state.out), len(state.captured[0]) + len(state.captured[1]), len(state.ships_out))
            sim._play(state, 10**6)
            gained = [len(state.out) - before[0],
                      len(state.captured[0]) + len(state.captured[1]) - before[1],
                      len(state.ships_out) - before[2]]
            seen.update(name for name, g in zip(("out", "captured", "removed"), gained) if g)
            if any(state.crew_won) or state.crew_out:
                seen.add("crew")
    assert seen == {"out", "captured", "removed", "crew"}


def test_the_comparison_can_fail():
    """Control: the kernel's seat generators started elsewhere give a different rollout."""
    found = _positions(*CONFIGS[0])
    bad = [differences(info, state, "random", 10**6, False, seed=i, kernel_seed=99 + i)
           for i, (info, _, state) in enumerate(found[12:22])]
    assert all("seat rng 0" in b for b in bad)
    assert any({"hands", "sides", "score"} & set(b) for b in bad)


def test_what_the_kernel_cannot_roll_out_is_refused_with_a_reason():
    rollout = kernel_rollout("shipside")
    info = GameInfo("shipside", ShipsideConfig(), 2)
    with pytest.raises(ValueError, match="no kernel form"):
        rollout(info, parse_strategy("ismcts", "shipside"))
    with pytest.raises(ValueError, match="not a Shipside config"):
        rollout(GameInfo("shipside", TrainsConfig(), 2), parse_strategy("random", "shipside"))


@pytest.mark.parametrize("overrides,seed", [CONFIGS[0], CONFIGS[1], CONFIGS[2]])
@pytest.mark.parametrize("bot", BOTS)
def test_bots_asked_in_the_tree_continue_in_the_kernel(overrides, seed, bot):
    """`carries_bots`: after tree steps `random`'s buffer (32 draws) is part used and goes into
    the kernel and back; greedy and octopus keep nothing between decisions. State, generators
    and buffers end as in Python."""
    for i, (info, kind, state) in enumerate(_positions(overrides, seed)[::2]):
        for used in (1, 3):
            bad = carried_differences(info, state, bot, used, seed=seed * 1000 + i)
            assert not bad, f"{kind} position {i} ({state.phase}), {used} tree steps: {bad} differ"


def test_the_carry_comparison_fails_without_the_buffer(monkeypatch):
    """Control: a kernel that starts with empty buffers after tree steps ends elsewhere."""
    from simkit.engine import kernel_positions

    monkeypatch.setattr(kernel_positions, "buffers_in", lambda rows, bots, size: None)
    found = _positions(*CONFIGS[0])[:10]
    assert any(carried_differences(info, state, "random", 1, seed=i)
               for i, (info, _, state) in enumerate(found))
