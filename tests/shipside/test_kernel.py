"""The Shipside kernel (simkit/games/shipside/kernel.py) against the scalar engine: the same
games, game by game, every column of both tables, for every bot with a kernel form (random
ones too: the kernel draws the scalar engine's numbers in its order and lists each decision's
actions in its order), under every config field of the §12 table, the variant (§10) and every
seating.

The kernel compiles once per machine (numba's disk cache); the first test of a session pays
that (or loads it from the cache) and the rest reuse it.
"""

from __future__ import annotations

import pytest

from simkit.engine.play import play_range
from simkit.engine.spec import RunSpec
from simkit.games.shipside.kernel import kernel_supported, play_range_kernel
from tests.kernel_tables import assert_same_tables

CASES = [
    # the defaults (S1-S55), the benchmark lineup
    (["random"], {}, {}, 300),
    (["greedy", "random"], {}, {}, 150),
    (["octopus", "greedy"], {}, {"seating": "random"}, 100),
    (["random", "octopus:octopus_cost=5,rum_min=5,threat=1.2,chance=0.1"], {}, {}, 80),
    # S25 owner chooses (a separate direction step), S11 another empty ship, S30 after the check
    (["octopus", "random"], {"movement.chooser": "owner", "setup.crew_start": "28-empty",
                  "movement.before_scoring": "false"}, {}, 120),
    # §10 the variant: S56 random marks, S57 picks, S58 own piles; the chooser and a shared pile
    (["random"], {"variant.enabled": "true"}, {}, 80),
    (["greedy", "octopus"], {"variant.enabled": "true", "variant.mark_assignment": "chooser",
                  "variant.personal_decks": "false"}, {"seating": "random"}, 80),
    # S41, S44 octopus readings, S17 rum only before
    (["random"], {"octopus.reuse": "free", "octopus.draw": "true", "rum.timing": "before"}, {}, 100),
    (["octopus", "greedy"], {"octopus.reuse": "free", "octopus.draw": "true", "rum.timing": "before"},
     {}, 60),
    (["random", "octopus"], {"octopus.reuse": "once", "octopus.as_placement": "false",
                             "octopus.check_origin": "false"}, {}, 100),
    # S26-S29 movement readings
    (["greedy", "octopus"], {"movement.wrap_around": "false", "movement.skip_occupied": "false",
                  "movement.freeze_when_full": "false"}, {}, 100),
    # S32, S34, S53-S55 scoring and end readings
    (["octopus", "random"], {"scoring.threshold_inclusive": "false", "scoring.full_tie": "stay",
                             "scoring.ship_points": "2", "end.points_to_win": "0",
                             "end.tie_result": "tiebreak"}, {}, 100),
    # S38, S47, S48, S52 rum readings
    (["greedy", "random"], {"rum.defense_bonus": "10", "rum.uses_per_player": "3", "rum.max_per_ship": "2",
                  "rum.on_scored": "returned"}, {"duplicate": True}, 60),
    # S10, S12, S14, S18, S19, S20
    (["random", "octopus"], {"rules.max_cards_per_side": "3", "rules.play_on_any_side": "false",
                  "rules.pass_when_stuck": "false", "setup.hand_size": "6", "setup.first_player": "1",
                  "setup.ship_order": "ascending"}, {}, 100),
    # S1, S11 general forms, S26 two tokens a ship
    (["random"], {"setup.crew_start": "empty:#3", "crew.max_per_ship": "2",
                  "ships.defenses": "[20,25,30,35,40,45,50]"}, {"seating": "random"}, 100),
    (["octopus", "greedy"], {"setup.crew_start": "#1:captain+#1:mate+#2:sailor+#5:sailor",
                             "crew.max_per_ship": "2", "movement.chooser": "owner"},
     {"seating": "fixed"}, 100),
    # S3, S5, S6 another deck and symbol cards, S54 crew points, the turn cap
    (["greedy", "random"], {"deck.values": "{\"-3\": 3, \"2\": 10, \"5\": 9, \"9\": 5}",
                            "deck.move_symbol": "[2, 9]", "end.max_turns": "20",
                            "crew.points": "{\"captain\": 3, \"mate\": 2, \"sailor\": 0}"}, {}, 50),
]


@pytest.mark.parametrize("strategies,overrides,options,games", CASES)
def test_the_kernel_plays_the_scalar_engines_games(strategies, overrides, options, games):
    spec = RunSpec.create("shipside", 2, strategies, games + 5, seed=11, overrides=overrides, **options)
    assert_same_tables(play_range(spec, 5, 5 + games), play_range_kernel(spec, 5, 5 + games))


def test_listed_deals_and_a_chunk_anywhere_in_the_run_give_the_same_games():
    spec = RunSpec.create("shipside", 2, ["random"], 40, seed=5, duplicate=True,
                          deal_numbers=[(900, 905), (70_000, 70_020)])
    assert_same_tables(play_range(spec, 13, 37), play_range_kernel(spec, 13, 37))
    whole = play_range_kernel(spec, 0, 40)
    part = play_range_kernel(spec, 13, 37)
    assert whole.seats["score"][13 * 2:37 * 2].tolist() == part.seats["score"].tolist()


def test_a_strategy_parameter_its_kernel_form_cannot_take_is_a_reason():
    spec = RunSpec.create("shipside", 2, ["greedy"], 10, seed=1)
    entry = spec.strategies[0]
    bad = RunSpec(**{**spec.__dict__, "strategies": (entry.__class__(
        "greedy:depth=3", entry.target, (("depth", 3),)),) * 2})
    reason = kernel_supported(bad)
    assert reason is not None and "greedy:depth=3" in reason and "kernel form cannot play" in reason


