"""Recorded playthroughs: seeded games whose full event transcripts are pinned by hash.

A change here means the engine (or a strategy) behaves differently: if intended, bump
`rules_version` in simkit/games/trains/__init__.py and record the new hashes."""

import hashlib

import pytest

from simkit.core.play import play_game
from simkit.core.spec import RunSpec
from simkit.games.trains import GAME

RECORDED = {
    ("random", 0): "322c6ce19662ed5d",
    ("random", 1): "bae0c189670b896e",
    ("random", 2): "7db675666bbc44bd",
    ("greedy,rival,random", 0): "8fec969504c449ff",
    ("greedy,rival,random", 1): "f16ed6bfdf16ef87",
    ("greedy,rival,random", 2): "c223980070c04628",
}


@pytest.mark.parametrize("lineup,index", sorted(RECORDED))
def test_recorded_playthrough(lineup, index):
    spec = RunSpec.create(game="trains", n_players=3, strategies=lineup.split(","), n_games=5,
                          seed=42, overrides={"max_turns": "200"})
    _, state = play_game(spec, index)
    digest = hashlib.sha256(repr(state.events).encode()).hexdigest()[:16]
    assert digest == RECORDED[(lineup, index)], f"transcript changed ({GAME.rules_version})"
