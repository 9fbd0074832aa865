"""Seeds: every random draw of game i comes from SeedSequence(master, spawn_key=(i,)).

From that one SeedSequence we take a 128-bit PCG64 state per stream (each stream with its own
odd increment, so streams never coincide):
stream 0 is the game's chance stream (deals, reshuffles), stream 1+s the strategy in seat s,
stream n+1 the seating draw. With `--duplicate`, games i = deal*n + rotation share the chance
stream of SeedSequence(master, spawn_key=(deal,)), so each deal is replayed exactly.

Deal numbers: deal D is the chance stream of SeedSequence(master, spawn_key=(D,)), the deal of
game D of a plain run. A run on listed deals (`RunSpec.deal_numbers`, from a deals file) plays
its k-th deal from the k-th listed deal number; the seats' streams and the seating draw stay
those of the game's own index. `deal_numbers` and `deal_stream_words` resolve a chunk's deals
at once (the runner calls them per chunk, never per step); `deal_number` one game's (replay).

Building a Generator from a SeedSequence costs ~10 µs; setting the state of an existing one
~1.3 µs through `bit_generator.state`, ~0.2 µs through its state words (`PCG64Words`). The
runner plays one game at a time per process, so it reuses a `GeneratorPool` (one Generator per
stream for a whole chunk, re-seeded per game); everything else gets fresh Generators. Both give
the same numbers.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.random import PCG64, Generator, SeedSequence

from simkit.engine.errors import ConfigError

_MASK128 = (1 << 128) - 1
_MASK64 = (1 << 64) - 1
WORDS_PER_STREAM = 2
_INC_STEP = 0x9E3779B97F4A7C15F39CC0605CEDC835  # odd 128-bit constant (golden ratio)


def stream_words(master: int, index: int, n_streams: int) -> list[int]:
    seq = SeedSequence(master, spawn_key=(index,))
    return seq.generate_state(WORDS_PER_STREAM * n_streams, np.uint64).tolist()


# numpy's SeedSequence constants (numpy/random/bit_generator.pyx); batch_stream_words
# reproduces SeedSequence(master, spawn_key=(i,)).generate_state(...) for many i at once.
_INIT_A, _MULT_A = 0x43B0D7E5, 0x931E8875
_INIT_B, _MULT_B = 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_M32 = 0xFFFFFFFF
_POOL = 4


def _uint32_words(value: int) -> list[int]:
    words = [value & _M32]
    value >>= 32
    while value:
        words.append(value & _M32)
        value >>= 32
    return words


def batch_stream_words(master: int, start: int, stop: int, n_streams: int) -> list[list[int]]:
    """`stream_words(master, i, n_streams)` for every i in start..stop-1, vectorised over i.

    Bit-for-bit the same as numpy's SeedSequence (a test checks it); ~20x cheaper per game.
    """
    if stop > 1 << 32:
        return [stream_words(master, i, n_streams) for i in range(start, stop)]
    return batch_stream_array(master, start, stop, n_streams).tolist()


def batch_stream_array(master: int, start: int, stop: int, n_streams: int) -> np.ndarray:
    """`batch_stream_words` as a (stop - start, 2 * n_streams) uint64 array (for kernels)."""
    if stop > 1 << 32:
        return np.array([stream_words(master, i, n_streams) for i in range(start, stop)],
                        dtype=np.uint64).reshape(stop - start, WORDS_PER_STREAM * n_streams)
    u32 = np.uint32
    run = _uint32_words(master)
    run += [0] * (_POOL - len(run))
    entropy = [np.full(stop - start, w, dtype=u32) for w in run]
    entropy.append(np.arange(start, stop, dtype=np.uint64).astype(u32))
    h = _INIT_A

    def hashmix(value):
        nonlocal h
        value = value ^ u32(h)
        h = (h * _MULT_A) & _M32
        value = value * u32(h)
        return value ^ (value >> u32(16))

    def mix(x, y):
        result = u32(_MIX_L) * x - u32(_MIX_R) * y
        return result ^ (result >> u32(16))

    with np.errstate(over="ignore"):
        pool = [hashmix(entropy[i]) for i in range(_POOL)]
        for i_src in range(_POOL):
            for i_dst in range(_POOL):
                if i_src != i_dst:
                    pool[i_dst] = mix(pool[i_dst], hashmix(pool[i_src]))
        for i_src in range(_POOL, len(entropy)):
            for i_dst in range(_POOL):
                pool[i_dst] = mix(pool[i_dst], hashmix(entropy[i_src]))
        hb = _INIT_B
        n32 = 2 * WORDS_PER_STREAM * n_streams
        out = np.empty((stop - start, n32), dtype=u32)
        for k in range(n32):
            value = pool[k % _POOL] ^ u32(hb)
            hb = (hb * _MULT_B) & _M32
            value = value * u32(hb)
            out[:, k] = value ^ (value >> u32(16))
    return out.astype("<u4").view("<u8").astype(np.uint64)


#: listed deal numbers: sorted, disjoint (low, high) ranges, both ends included
DealRanges = tuple[tuple[int, int], ...]


def deal_number(ranges: DealRanges | None, k: int) -> int:
    """The deal number of a run's k-th deal: k itself without a list."""
    if ranges is None:
        return k
    for low, high in ranges:
        if k <= high - low:
            return low + k
        k -= high - low + 1
    raise IndexError(f"the deal list has no deal {k} beyond its end")


def deal_pieces(ranges: DealRanges | None, start: int, stop: int) -> list[tuple[int, int]]:
    """The deal numbers of a run's deals start..stop-1, as (first, stop) pieces of consecutive
    numbers, in the run's order."""
    if ranges is None:
        return [(start, stop)] if start < stop else []
    pieces, offset = [], 0
    for low, high in ranges:
        size = high - low + 1
        a, b = max(start, offset), min(stop, offset + size)
        if a < b:
            pieces.append((low + a - offset, low + b - offset))
        offset += size
    return pieces


def deal_numbers(ranges: DealRanges | None, start: int, stop: int) -> list[int]:
    """The deal numbers of a run's deals start..stop-1."""
    return [d for a, b in deal_pieces(ranges, start, stop) for d in range(a, b)]


def deal_stream_words(master: int, ranges: DealRanges | None, start: int, stop: int) -> list[list[int]]:
    """The chance stream's words (stream 0) of a run's deals start..stop-1."""
    return [words for a, b in deal_pieces(ranges, start, stop)
            for words in batch_stream_words(master, a, b, 1)]


def _stream_inc(stream: int) -> int:
    return (_INC_STEP * (2 * stream + 1)) & _MASK128 | 1


_INCS = [_stream_inc(stream) for stream in range(64)]


def _inc(stream: int) -> int:
    return _INCS[stream] if stream < len(_INCS) else _stream_inc(stream)


def _pcg_state(words: list[int], stream: int) -> dict:
    hi, lo = words[WORDS_PER_STREAM * stream: WORDS_PER_STREAM * (stream + 1)]
    return {"bit_generator": "PCG64",
            "state": {"state": (hi << 64) | lo, "inc": _stream_inc(stream)},
            "has_uint32": 0, "uinteger": 0}


class PCG64Words:
    """Direct access to a PCG64's 128-bit state through NumPy's documented ctypes interface
    (`BitGenerator.ctypes.state_address`, a `pcg64_state {pcg64_random_t *; int has_uint32;
    uint32 uinteger}`). The struct layout is NumPy's, not a public promise, so `usable()`
    checks it against the official `state` property; callers fall back to the property."""

    def __init__(self, bits: Any):
        address = bits.ctypes.state_address
        inner = ctypes.c_void_p.from_address(address).value or 0
        self.words = (ctypes.c_uint64 * 4).from_address(inner)   # state lo, hi, inc lo, hi
        self.has32 = ctypes.c_int.from_address(address + 8)
        self.low32 = ctypes.c_uint32.from_address(address + 12)
        self.both32 = (ctypes.c_uint64 * 1).from_address(address + 8)   # has32 and low32 at once
        self.bits = bits

    def usable(self) -> bool:
        """Whether the words are where this class expects them (the bit generator's state is
        left arbitrary: set it afterwards)."""
        bits, w = self.bits, self.words
        state, inc = (0x0123456789ABCDEF << 64) | 0xFEDCBA9876543210, (0x55 << 64) | 0x77
        bits.state = {"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                      "has_uint32": 1, "uinteger": 42}
        if list(w) != [state & _MASK64, state >> 64, 0x77, 0x55] or self.has32.value != 1 \
                or self.low32.value != 42:
            return False
        w[0], w[1], self.has32.value = 7, 9, 0
        got = bits.state
        return got["state"]["state"] == (9 << 64) | 7 and got["has_uint32"] == 0

    def seed(self, hi: int, lo: int, inc: int) -> None:
        """Set the 128-bit state and increment, and drop a buffered 32-bit half."""
        w = self.words
        w[0] = lo
        w[1] = hi
        w[2] = inc & _MASK64
        w[3] = inc >> 64
        self.both32[0] = 0


class GeneratorPool:
    """Reusable Generators, one per slot, re-seeded per game (valid until the next game starts)."""

    def __init__(self) -> None:
        self._gens: list[Generator] = []
        self._words: list[PCG64Words | None] = []

    def get(self, slot: int, words: list[int], stream: int) -> Generator:
        while len(self._gens) <= slot:
            self._add()
        gen = self._gens[slot]
        fast = self._words[slot]
        if fast is None:
            gen.bit_generator.state = _pcg_state(words, stream)
        else:
            k = WORDS_PER_STREAM * stream
            fast.seed(words[k], words[k + 1], _inc(stream))
        return gen

    def _add(self) -> None:
        gen = Generator(PCG64(0))
        fast = PCG64Words(gen.bit_generator)
        self._gens.append(gen)
        self._words.append(fast if fast.usable() else None)


def generator_state(gen: Generator) -> tuple[type, Any]:
    """A snapshot of `gen` from which `generator_from_state` builds an independent copy."""
    bits = gen.bit_generator
    return type(bits), bits.state


def generator_from_state(snapshot: tuple[type, Any]) -> Generator:
    kind, state = snapshot
    bits = kind(0)
    bits.state = state
    return Generator(bits)


def _fresh(words: list[int], stream: int) -> Generator:
    gen = Generator(PCG64(0))
    gen.bit_generator.state = _pcg_state(words, stream)
    return gen


@dataclass
class GameStreams:
    chance: Generator
    seats: list[Generator]
    words: list[int]
    pool: GeneratorPool | None = None

    def seating_rng(self, n_players: int) -> Generator:
        if self.pool is not None:
            return self.pool.get(n_players + 1, self.words, n_players + 1)
        return _fresh(self.words, n_players + 1)


def game_streams(master: int, index: int, n_players: int, *, duplicate: bool = False,
                 pool: GeneratorPool | None = None, words: list[int] | None = None,
                 chance_words: list[int] | None = None, deals: DealRanges | None = None) -> GameStreams:
    """The random streams of game `index` of a run with seed `master` (on the listed `deals`).

    `words` / `chance_words` may be passed in when precomputed by batch_stream_words.
    """
    if words is None:
        words = stream_words(master, index, n_players + 2)
    if chance_words is None:
        if duplicate or deals is not None:
            k = index // n_players if duplicate else index
            chance_words = stream_words(master, deal_number(deals, k), 1)
        else:
            chance_words = words
    if pool is None:
        return GameStreams(_fresh(chance_words, 0), [_fresh(words, 1 + s) for s in range(n_players)], words)
    seats = [pool.get(1 + s, words, 1 + s) for s in range(n_players)]
    return GameStreams(pool.get(0, chance_words, 0), seats, words, pool)


MAX_SEED = (1 << 128) - 1


def root_seed(seed: int | None) -> int:
    """The run's master seed: the given one (0 to 2**128 - 1), or fresh entropy recorded in the manifest."""
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ConfigError(f"--seed {seed} is not allowed: a whole number from 0 to 2**128 - 1 "
                              f"(or leave it out for fresh entropy)")
        return seed
    entropy = SeedSequence().entropy
    assert isinstance(entropy, int)
    return entropy % (1 << 63)
