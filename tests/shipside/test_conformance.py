"""check_game over thousands of random games, basic and variant, with Shipside's own invariants:
52 cards always accounted for (S2), at most one crew token per ship (S26), the game always ends
by S53 (4 points or every ship scored), and scores as the spec counts them (S54)."""

from __future__ import annotations

from collections import Counter

import pytest

from simkit.games.shipside import GAME
from simkit.games.shipside.rules import OVER
from simkit.studies.conformance import check_game

from .helpers import ALTERNATIVES, config


class Invariants:
    def __init__(self):
        self.ends = Counter()
        self.games = 0

    def __call__(self, st) -> None:
        T = st.T
        cards = list(st.out) + [c for h in st.hands for c in h] + [c for p in st.piles for c in p]
        cards += [c for s in range(len(T.defense)) for side in st.sides[s] for c in side]
        if st.own is not None:
            cards += [c for o in st.own for c in o]
        assert len(cards) == 52 and set(cards) == set(range(52)), "S2: 52 cards not accounted for"
        assert all(len(st.crew[s]) <= 1 for s in range(len(T.defense))), "S26: two crew on a ship"
        for p in (0, 1):
            expect = len(st.captured[p]) + len(st.crew_won[p])      # S54: 1 per ship, 1 per crew
            assert st.score[p] == expect, f"S54: score {st.score[p]} != {expect}"
        if st.phase == OVER:
            self.games += 1
            self.ends[st.reason] += 1
            if st.reason == "points":
                assert max(st.score) >= 4 and min(st.score) < 4
            else:
                assert st.reason == "all scored" and not st.row, st.reason


@pytest.mark.slow
@pytest.mark.parametrize("label, overrides, games", [
    ("basic", {}, 2000),
    ("variant", {"variant__enabled": "true"}, 1600),
    ("variant-chooser-shared", {"variant__enabled": "true", "variant__mark_assignment": "chooser",
                                "variant__personal_decks": "false"}, 400),
])
def test_check_game_random(label, overrides, games):
    inv = Invariants()
    report = check_game(GAME, games=games, configs=[config(**overrides)] if overrides else None,
                        seed=11, deep_every=40, extra_check=inv)
    assert report.games == games and inv.games == games
    assert set(inv.ends) <= {"points", "all scored"}     # S53: never a cap, a stall or a stuck end
    assert inv.ends["points"] > 0


#: the free octopus lists hundreds of moves a turn: over 2 s
SLOW_ALTERNATIVES = (ALTERNATIVES[1],)


@pytest.mark.parametrize("overrides", [pytest.param(o, marks=pytest.mark.slow) if o in SLOW_ALTERNATIVES
                                       else o for o in ALTERNATIVES])
def test_check_game_alternative_rules(overrides):
    report = check_game(GAME, games=60, configs=[config(**overrides)], seed=5, deep_every=10)
    assert report.games == 60
