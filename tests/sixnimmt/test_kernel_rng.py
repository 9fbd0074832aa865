"""simkit/engine/kernel_rng.py draws NumPy's PCG64 numbers, draw for draw: the ground of the
kernels' game-by-game equality with the scalar engine."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine import kernel_rng as kr
from simkit.engine.seeding import batch_stream_array, batch_stream_words, game_streams


def _rows(seed: int, games: int, n: int) -> np.ndarray:
    return kr.stream_rows(batch_stream_array(seed, 0, games, n + 2), list(range(n + 2)))


def test_the_array_of_stream_words_is_the_list_the_scalar_engine_uses():
    assert batch_stream_array(99, 5, 40, 4).tolist() == batch_stream_words(99, 5, 40, 4)


@pytest.mark.parametrize("seed", [0, 1, 2**40 + 3, (1 << 128) - 1])
def test_the_compiled_stream_words_are_seed_sequences_words(seed):
    """kr.batch_stream_words (seed_words, compiled) gives SeedSequence's words, game by game:
    small and large masters, a chunk near the 2**32 games where the compiled path ends."""
    for start, stop, streams in ((0, 300, 6), (2**32 - 50, 2**32, 3), (17, 18, 1)):
        words = kr.batch_stream_words(seed, start, stop, streams)
        assert words.dtype == np.uint64 and words.shape == (stop - start, 2 * streams)
        assert words.tolist() == batch_stream_array(seed, start, stop, streams).tolist()
    assert kr.batch_stream_words(seed, 3, 5, 2).tolist() == [
        np.random.SeedSequence(seed, spawn_key=(i,)).generate_state(4, np.uint64).tolist() for i in (3, 4)]


@pytest.mark.parametrize("seed", [0, 7, 2**100 + 3])
def test_every_draw_matches_numpy_on_the_games_own_streams(seed):
    rows = _rows(seed, 25, 4)
    for game in range(25):
        streams = game_streams(seed, game, 4)
        chance, row = streams.chance, rows[game, 0]
        deck = list(range(1, 105))
        chance.shuffle(deck)                              # the deal (N1-N3)
        mine = np.arange(1, 105)
        kr.shuffle(row, mine, 104)
        assert mine.tolist() == deck
        # integers(n) after an odd number of 32-bit halves: the buffered half carries over
        limits = [1, 2, 3, 4, 7, 10, 1000, 2**31 + 11, 2**32]
        assert [kr.bounded(row, n) for n in limits] == [int(chance.integers(n)) for n in limits]
        small = list(range(6))                            # random_interval with a small mask
        chance.shuffle(small)
        mine = np.arange(6)
        kr.shuffle(row, mine, 6)
        assert mine.tolist() == small
        seat_row, seat = rows[game, 1], streams.seats[0]
        assert [kr.double(seat_row) for _ in range(5)] == seat.random(5).tolist()
        assert kr.next64(seat_row) == int(seat.bit_generator.random_raw())
        perm_row, perm = rows[game, 5], streams.seating_rng(4)
        slots = np.arange(4)
        kr.shuffle(perm_row, slots, 4)
        assert slots.tolist() == perm.permutation(4).tolist()


def test_the_buffered_doubles_are_the_random_strategys_pops():
    """strategies/sixnimmt/baseline.py RandomStrategy: buf.extend(rng.random(16)); buf.pop()."""
    row = _rows(3, 1, 2)[0, 1]
    gen = game_streams(3, 0, 2).seats[0]
    expected: list[float] = []
    for _ in range(3):
        expected += gen.random(16).tolist()[::-1]
    assert [kr.buffered_double(row) for _ in range(48)] == expected
