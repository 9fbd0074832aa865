"""Many random games through the conformance checker: conservation of the 106 tiles, legality,
termination, zero-sum scores (R2, R12, R19-R23), under the default rules and the variants."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.rummikub import GAME, rules
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.state import RummikubState
from simkit.games.rummikub.tiles import N_TILES
from simkit.studies.conformance import check_game
from tests.rummikub.helpers import DrawOrPass


def _extra(state: RummikubState) -> None:
    """R2/R12/R19/R21/R23 invariants between turns, beyond audit()."""
    tiles = [t for r in state.racks for t in r] + state.pool + [t for m in state.table for t in m.tiles]
    assert sorted(tiles) == list(range(N_TILES)), "106 tiles not accounted for"
    assert rules.valid_table(state.table), "table invalid between turns (R12.2)"
    for sc in state.hand_scores:
        assert abs(sum(sc)) < 1e-9, f"hand scores {sc} do not sum to zero"


@pytest.mark.slow
def test_conformance_random_500_games_2_3_4_players():
    report = check_game(GAME, games=170, players=(2, 3, 4), seed=11, strategies=("random",),
                        deep_every=25, extra_check=_extra)
    assert report.games == 510 and set(report.by_players) == {2, 3, 4}


@pytest.mark.slow
def test_conformance_simple_and_variants():
    configs = [RummikubConfig(joker_retrieval="free", end_rule="pool_empty", tie_rule="fewest_tiles"),
               RummikubConfig(joker_in_initial_meld=False, end_rule="one_more_cycle", hands_per_match=3,
                              emulate_start_draw=True, on_illegal="draw1")]
    report = check_game(GAME, games=8, configs=configs, seed=3, strategies=("simple", "random"),
                        deep_every=4, extra_check=_extra)
    assert report.games == 48


def test_clone_is_independent_of_the_original():
    """check_game cannot test this for Rummikub (legal_actions is None), so here by hand."""
    st = GAME.new_state(RummikubConfig(), 3, np.random.default_rng(8))
    info = GameInfo("rummikub", st.config, 3)
    rngs = [np.random.default_rng(s) for s in range(3)]
    play_out(st, [DrawOrPass() for _ in range(3)], info, rngs, max_steps=12)
    before = (repr(st), [st.observe(s) for s in range(3)], len(st.events), st.rng.bit_generator.state)
    clone = st.clone()
    greedy = [parse_strategy("greedy_tiles", "rummikub")] * 3
    played = play_out(clone, greedy, info, [np.random.default_rng(s) for s in range(3)],
                      forfeit_on_error=False, max_steps=60)
    assert played.steps > 0 and len(clone.events) > before[2]
    assert (repr(st), [st.observe(s) for s in range(3)], len(st.events), st.rng.bit_generator.state) == before
