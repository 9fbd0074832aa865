"""Seeds: batch words equal numpy's SeedSequence; streams are independent of how games are grouped."""

import numpy as np

from simkit.core.seeding import GeneratorPool, batch_stream_words, game_streams, stream_words


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
