"""Parts of the batch engine (simkit/games/sixnimmt/batch*.py) checked on their own: the dealer
against NumPy's official shuffle, the sorting network, the array forms' helpers."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numpy.random import PCG64, Generator

from simkit.games.sixnimmt import batch, batch_deal
from simkit.games.sixnimmt.arrays import cheapest_rows
from simkit.games.sixnimmt.batch import sorting_network
from simkit.games.sixnimmt.batch_deal import Dealer, legacy_shuffle_agrees
from simkit.games.sixnimmt.batch_draws import CARD, ROW, RoundDraws, seat_keys

_MASK64 = (1 << 64) - 1


def _official(dealer: Dealer, state: tuple[int, int, int, int]) -> tuple[np.ndarray, tuple]:
    """The scalar engine's deal from a chance-stream state: Generator.permutation of 1..104,
    and the state after it."""
    hi, lo, has32, low32 = state
    bits = PCG64(0)
    bits.state = {"bit_generator": "PCG64", "state": {"state": (hi << 64) | lo, "inc": dealer.inc},
                  "has_uint32": has32, "uinteger": low32}
    deck = Generator(bits).permutation(np.arange(1, 105))
    after = bits.state
    s = after["state"]["state"]
    return deck, (s >> 64, s & _MASK64, after["has_uint32"], after["uinteger"])


def _states(count: int, seed: int) -> list[tuple[int, int, int, int]]:
    rng = np.random.default_rng(seed)
    words = rng.integers(0, 1 << 63, size=(count, 3), dtype=np.int64).tolist()
    return [(hi * 2 + (low & 1), lo * 2 + 1, k % 2, low & 0xFFFFFFFF)     # half with a buffered 32-bit
            for k, (hi, lo, low) in enumerate(words)]


@pytest.mark.parametrize("fast", [True, False])
def test_the_dealer_deals_as_generator_permutation_from_2000_states(monkeypatch, fast):
    if not fast:
        monkeypatch.setattr(batch_deal.PCG64Words, "usable", lambda self: False)
    dealer = Dealer()
    assert (dealer.fast is not None) == fast
    states = _states(2000, seed=7)
    decks, after = dealer.deal(states, 104, keep=True, first=False)
    decks >>= batch_deal.END                            # card keys -> cards
    for k, state in enumerate(states):
        deck, state_after = _official(dealer, state)
        assert np.array_equal(decks[:, k], deck), f"state {k}: a different deck"
        assert after is not None and tuple(after[k]) == state_after, f"state {k}: a different state after"


def test_first_deals_from_seed_words_as_from_a_state_without_a_buffered_half():
    dealer = Dealer()
    seeds = [[hi, lo] for hi, lo, _, _ in _states(300, seed=8)]
    decks, after = dealer.deal(seeds, 44, keep=False, first=True)
    assert after is None and decks.shape == (44, 300)
    decks >>= batch_deal.END
    for k, (hi, lo) in enumerate(seeds):
        assert np.array_equal(decks[:, k], _official(dealer, (hi, lo, 0, 0))[0][:44])


def test_the_start_up_check_refuses_a_shuffle_that_differs_and_the_dealer_falls_back(monkeypatch):
    bits = PCG64(0)
    legacy = np.random.RandomState(bits).shuffle
    assert legacy_shuffle_agrees(bits, legacy)

    def reversed_shuffle(deck):
        legacy(deck)
        deck[:] = deck[::-1].copy()

    def one_draw_short(deck):
        legacy(deck[1:])

    assert not legacy_shuffle_agrees(bits, reversed_shuffle)
    assert not legacy_shuffle_agrees(bits, one_draw_short)
    monkeypatch.setattr(batch_deal, "legacy_shuffle_agrees", lambda bits, legacy: False)
    dealer = Dealer()
    assert dealer.shuffle.__self__.__class__ is Generator
    states = _states(200, seed=9)
    decks, _ = dealer.deal(states, 104, keep=True, first=False)
    for k, state in enumerate(states):
        assert np.array_equal(decks[:, k] >> batch_deal.END, _official(dealer, state)[0])


@pytest.mark.parametrize("n", range(1, 11))
def test_the_sorting_network_sorts_every_zero_one_input(n):
    """By the 0-1 principle a comparator network that sorts every 0/1 input sorts every input."""
    inputs = np.array(list(itertools.product([0, 1], repeat=n)), dtype=np.int32).T    # (n, 2**n)
    out = np.stack(batch._sort(list(inputs), sorting_network(n)))
    assert np.array_equal(out, np.sort(inputs, axis=0))


def test_the_sorting_network_is_not_longer_than_batchers():
    assert len(sorting_network(4)) == 5
    assert len(sorting_network(8)) == 19
    assert all(i < j < n for n in range(1, 11) for i, j in sorting_network(n))


def test_cheapest_rows_is_argmin_with_the_lowest_index_on_ties():
    rng = np.random.default_rng(3)
    for rows in (1, 4, 10):
        points = rng.integers(0, 6, size=(500, rows)).astype(np.int32)     # many ties
        assert np.array_equal(cheapest_rows(points), points.argmin(axis=1))
        assert np.array_equal(cheapest_rows(points.T.copy().T), points.argmin(axis=1))


def test_an_array_forms_answer_is_checked():
    ok = batch._checked(np.array([0, 2, 1]), 3, 3, "bad")
    assert ok.dtype == np.intp and ok.tolist() == [0, 2, 1]
    with pytest.raises(ValueError, match="bad"):
        batch._checked(np.array([0, 3, 1]), 3, 3, "bad")
    with pytest.raises(ValueError, match="bad"):
        batch._checked(np.array([-1, 0, 1]), 3, 3, "bad")
    with pytest.raises(ValueError, match="3 ints"):
        batch._checked(np.array([0, 1]), 3, 3, "bad")
    with pytest.raises(ValueError, match="3 ints"):
        batch._checked(np.array([0.0, 1.0, 2.0]), 3, 3, "bad")


@pytest.mark.parametrize("kind, pairs", [(CARD, None), (CARD, np.array([7, 3, 400, 3])),
                                         (ROW, np.arange(0, 800, 3))])
def test_random_below_is_floor_of_random_times_the_limit_call_by_call(kind, pairs):
    keys = seat_keys(12345, 1000, 1200, 4)
    for turn in (0, 1, 2, 5):
        for limit in (3, 10, 104, 1 << 21):
            drawn, floats = (RoundDraws(keys, 2).source(pairs, turn, kind) for _ in range(2))
            for _ in range(2):                  # a card view's first draw, then a hashed one
                below = drawn.below(limit)
                assert below.dtype == np.intp
                assert np.array_equal(below, np.floor(floats.random() * limit).astype(np.intp))
                assert 0 <= below.min() and below.max() < limit
            assert np.array_equal(drawn.random(), floats.random())      # the same call count
