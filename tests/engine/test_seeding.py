"""Seeds: batch words equal numpy's SeedSequence; streams are independent of how games are grouped."""

import numpy as np
import pytest

from simkit.engine.errors import ConfigError
from simkit.engine.seeding import (
    MAX_SEED,
    GeneratorPool,
    batch_stream_words,
    game_streams,
    root_seed,
    stream_words,
)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 2.5, True])
def test_a_seed_outside_0_to_2_pow_128_is_refused_in_one_line(seed):
    with pytest.raises(ConfigError, match=r"--seed .* is not allowed: a whole number from 0 to 2\*\*128 - 1"):
        root_seed(seed)


def test_the_largest_seed_is_accepted_and_a_missing_one_is_drawn():
    assert root_seed(MAX_SEED) == MAX_SEED and root_seed(0) == 0
    assert 0 <= root_seed(None) < 1 << 63


def test_batch_words_match_numpy_seedsequence_bit_for_bit():
    for master in (0, 1, 2**31 - 1, 2**40 + 7, 2**100 + 3):
        for start, stop in ((0, 40), (123_456, 123_470)):
            batch = batch_stream_words(master, start, stop, 5)
            for i in range(start, stop):
                expected = np.random.SeedSequence(master, spawn_key=(i,)).generate_state(10, np.uint64)
                assert batch[i - start] == expected.tolist()


def test_pooled_and_fresh_generators_give_the_same_numbers():
    pool = GeneratorPool()
    a = game_streams(7, 3, 4, pool=pool)
    draws_a = [a.chance.random(3).tolist()] + [g.random(3).tolist() for g in a.seats]
    b = game_streams(7, 3, 4)
    draws_b = [b.chance.random(3).tolist()] + [g.random(3).tolist() for g in b.seats]
    assert draws_a == draws_b


def test_streams_differ_between_games_and_seats():
    s = game_streams(7, 3, 3)
    t = game_streams(7, 4, 3)
    firsts = [s.chance.random(), *(g.random() for g in s.seats), t.chance.random()]
    assert len(set(firsts)) == len(firsts)


def test_duplicate_games_share_the_deal_stream():
    n = 3
    deals = [game_streams(9, i, n, duplicate=True).chance.random(4).tolist() for i in range(6)]
    assert deals[0] == deals[1] == deals[2] and deals[3] == deals[4] == deals[5]
    assert deals[0] != deals[3]
    assert stream_words(9, 1, 1) != stream_words(9, 0, 1)
