"""Seeds: every random draw of game i comes from SeedSequence(master, spawn_key=(i,)).

From that one SeedSequence we take a 128-bit PCG64 state per stream (each stream with its own
odd increment, so streams never coincide):
stream 0 is the game's chance stream (deals, reshuffles), stream 1+s the strategy in seat s,
stream n+1 the seating draw. With `--duplicate`, games i = deal*n + rotation share the chance
stream of SeedSequence(master, spawn_key=(deal,)), so each deal is replayed exactly.

Building a Generator from a SeedSequence costs ~10 µs; setting the state of an existing one
~1 µs. The runner plays one game at a time per process, so it reuses a `GeneratorPool`;
everything else gets fresh Generators. Both give the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.random import PCG64, Generator, SeedSequence

_MASK128 = (1 << 128) - 1
WORDS_PER_STREAM = 2
_INC_STEP = 0x9E3779B97F4A7C15F39CC0605CEDC835  # odd 128-bit constant (golden ratio)


def stream_words(master: int, index: int, n_streams: int) -> list[int]:
    seq = SeedSequence(master, spawn_key=(index,))
    return seq.generate_state(WORDS_PER_STREAM * n_streams, np.uint64).tolist()


def _pcg_state(words: list[int], stream: int) -> dict:
    hi, lo = words[WORDS_PER_STREAM * stream: WORDS_PER_STREAM * (stream + 1)]
    return {"bit_generator": "PCG64",
            "state": {"state": (hi << 64) | lo, "inc": (_INC_STEP * (2 * stream + 1)) & _MASK128 | 1},
            "has_uint32": 0, "uinteger": 0}


class GeneratorPool:
    """Reusable Generators, re-seeded per game (valid until the next game starts)."""

    def __init__(self) -> None:
        self._gens: list[Generator] = []

    def get(self, slot: int, words: list[int], stream: int) -> Generator:
        while len(self._gens) <= slot:
            self._gens.append(Generator(PCG64(0)))
        gen = self._gens[slot]
        gen.bit_generator.state = _pcg_state(words, stream)
        return gen


def _fresh(words: list[int], stream: int) -> Generator:
    gen = Generator(PCG64(0))
    gen.bit_generator.state = _pcg_state(words, stream)
    return gen


@dataclass
class GameStreams:
    chance: Generator
    seats: list[Generator]
    words: list[int]

    def seating_rng(self, n_players: int) -> Generator:
        return _fresh(self.words, n_players + 1)


def game_streams(master: int, index: int, n_players: int, *, duplicate: bool = False,
                 pool: GeneratorPool | None = None) -> GameStreams:
    """The random streams of game `index` of a run with seed `master`."""
    words = stream_words(master, index, n_players + 2)
    chance_words = stream_words(master, index // n_players, 1) if duplicate else words
    if pool is None:
        chance = _fresh(chance_words, 0)
        seats = [_fresh(words, 1 + s) for s in range(n_players)]
    else:
        chance = pool.get(0, chance_words, 0)
        seats = [pool.get(1 + s, words, 1 + s) for s in range(n_players)]
    return GameStreams(chance, seats, words)


def root_seed(seed: int | None) -> int:
    """The run's master seed: the given one, or fresh entropy recorded in the manifest."""
    if seed is not None:
        return int(seed)
    return int(SeedSequence().entropy % (1 << 63))
