"""The deal of the 6 nimmt! batch engine (simkit/games/sixnimmt/batch.py): its card keys and the
`Dealer` that shuffles every game's deck with that game's own chance stream, as `SixNimmtState`
does, so each game's deal equals the scalar engine's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.random import PCG64, BitGenerator, Generator, RandomState

from simkit.engine.seeding import GeneratorPool, PCG64Words
from simkit.games.sixnimmt.config import DECK_SIZE
from simkit.games.sixnimmt.rules import BH

# A card's key: card << 20 | count << 12 | bullheads << 4 | id, where id is the seat holding it
# (in a hand) or the row's index (on the table), and count and bullheads are those of the row it
# ends (a card in a hand: the row it would start, 1 card). Keys order as cards, so a row's key is
# below a played card's key exactly when its end is (N7), the highest row key below the card is
# its N8 row with that row's count and bullheads, and adding a card to a row is one addition.
END, COUNT, POINTS = 20, 12, 4
ID = 15
LOW = (1 << END) - 1                      # a row key's count, bullheads and row
COUNT_BITS = 0xFF << COUNT
_KEYS = np.array([0] + [(c << END) | (1 << COUNT) | (BH[c] << POINTS)
                        for c in range(1, DECK_SIZE + 1)], dtype=np.int32)
#: the deck as card keys in card order: shuffling the keys moves them as it would the cards, and
#: a deal is then the keys themselves (8-byte items: NumPy's fastest swap)
_DECK = _KEYS[1:].astype(np.int64)
_SHUFFLED = 1024        # decks shuffled between two copies out (their 0.8 MB stays in cache)
_MASK64 = (1 << 64) - 1


def legacy_shuffle_agrees(bits: BitGenerator, legacy: Callable[[np.ndarray], None]) -> bool:
    """Whether `RandomState.shuffle` of a deck swaps as `Generator.permutation` (what the
    scalar state deals with) from the same PCG64 states, including one with a buffered 32-bit
    half, and leaves the same state behind."""
    gen = Generator(bits)
    for seed, has32 in ((1, 0), (2, 1), (3, 0)):
        bits.state = {"bit_generator": "PCG64", "state": PCG64(seed).state["state"],
                      "has_uint32": has32, "uinteger": 12345}
        start = bits.state
        want, after = gen.permutation(_DECK), bits.state
        bits.state = start
        deck = _DECK.copy()
        legacy(deck)
        if not np.array_equal(deck, want) or bits.state != after:
            return False
    return True


class Dealer:
    """Shuffles each game's deck with that game's own chance stream, as `SixNimmtState` does.
    `RandomState.shuffle` of an int64 deck runs NumPy's Fisher-Yates ~1.3x faster than
    `Generator.shuffle` (less overhead per call; 8-byte items take NumPy's specialised swap, ~15 %
    faster than bytes); start-up checks that it draws and swaps the same (else
    `Generator.shuffle` deals)."""

    def __init__(self) -> None:
        bits = self.bits = PCG64(0)
        legacy = RandomState(bits).shuffle
        self.shuffle = legacy if legacy_shuffle_agrees(bits, legacy) else Generator(bits).shuffle
        # the chance stream's increment, as the scalar engine sets it
        self.inc = GeneratorPool().get(0, [0, 0], 0).bit_generator.state["state"]["inc"]
        fast = PCG64Words(bits)     # sets a state in ~0.1 µs instead of ~1.3 µs (checked first)
        self.fast = fast if fast.usable() else None
        bits.state = {"bit_generator": "PCG64", "state": {"state": 0, "inc": self.inc},
                      "has_uint32": 0, "uinteger": 0}
        self.decks = np.empty((_SHUFFLED, DECK_SIZE), dtype=np.int64)
        self.rows = list(self.decks)            # views made once: ~0.1 µs each

    def deal(self, seeds: list, cards: int, keep: bool, first: bool) -> tuple[np.ndarray, list | None]:
        """The keys of the first `cards` cards of one round's deck per game, (cards, games)
        int32, each deck shuffled from its chance stream's state (hi, lo, has_uint32, uinteger),
        or with `first` from its seed words [hi, lo]; with `keep` also the states after the
        shuffles."""
        out = np.empty((cards, len(seeds)), dtype=np.int32)
        after: list | None = [] if keep else None
        for lo in range(0, len(seeds), _SHUFFLED):      # a few decks at a time, in cache
            part = seeds[lo:lo + _SHUFFLED]
            decks = self.decks[:len(part)]
            decks[:] = _DECK
            states = self._shuffle(part, keep, first)
            if after is not None and states is not None:
                after += states
            out[:, lo:lo + len(part)] = decks[:, :cards].T
        return out, after

    def _shuffle(self, seeds: list, keep: bool, first: bool) -> list | None:
        rows = self.rows
        shuffle = self.shuffle
        after: list | None = [] if keep else None
        fast = self.fast
        if fast is not None and first and not keep:      # the common case: single rounds
            words, has32 = fast.words, fast.has32
            for (hi, lo), row in zip(seeds, rows):
                words[0] = lo
                words[1] = hi
                has32.value = 0
                shuffle(row)
            return None
        if fast is not None:
            words, has32, low32 = fast.words, fast.has32, fast.low32
            for seed, row in zip(seeds, rows):
                words[0], words[1] = seed[1], seed[0]
                has32.value, low32.value = (0, 0) if first else seed[2:]
                shuffle(row)
                if after is not None:
                    after.append((words[1], words[0], has32.value, low32.value))
            return after
        bits: np.random.BitGenerator = self.bits      # its state setter takes any mapping
        template: dict[str, Any] = {"bit_generator": "PCG64", "state": {"state": 0, "inc": self.inc},
                          "has_uint32": 0, "uinteger": 0}
        inner = template["state"]
        for seed, row in zip(seeds, rows):
            hi, lo, has_uint32, uinteger = (seed[0], seed[1], 0, 0) if first else seed
            inner["state"] = (hi << 64) | lo
            template["has_uint32"], template["uinteger"] = has_uint32, uinteger
            bits.state = template
            shuffle(row)
            if after is not None:
                now = bits.state
                after.append((now["state"]["state"] >> 64, now["state"]["state"] & _MASK64,
                              now["has_uint32"], now["uinteger"]))
        return after
