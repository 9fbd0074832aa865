"""The random draws of the 6 nimmt! batch engine's array strategies (simkit/games/sixnimmt/batch.py).

A random array strategy does not draw from its seat's `Generator`: each draw is a counter-based
hash (SplitMix64) of the run's seed, the game's index, the seat, the round, the turn, the
decision kind and the call, so a game's draws never depend on the other games of its block or
on the chunking. `RoundDraws` holds one round's draws of a block; its `source` is the `Draws` a
view hands its strategy (the protocol in simkit/games/sixnimmt/arrays.py).
"""

from __future__ import annotations

import numpy as np

_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser (a bijection of uint64 with full avalanche), in place on `z`."""
    t = np.empty_like(z)
    for shift, factor in ((30, _M1), (27, _M2)):
        np.right_shift(z, np.uint64(shift), out=t)
        z ^= t
        z *= np.uint64(factor)
    np.right_shift(z, np.uint64(31), out=t)
    z ^= t
    return z


def _mix_int(x: int) -> int:
    """`_mix` of one Python int (mod 2**64)."""
    x &= _MASK64
    x = ((x ^ (x >> 30)) * _M1) & _MASK64
    x = ((x ^ (x >> 27)) * _M2) & _MASK64
    return x ^ (x >> 31)


def _unit(z: np.ndarray) -> np.ndarray:
    """uint64 -> float64 uniform in [0, 1) (the top 53 bits)."""
    return (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


#: decision kinds in a draw's counter
CARD, ROW, _CARD_PAIR = 0, 1, 2


def _counter(round_no: int, turn: int, kind: int, call: int) -> np.uint64:
    """The hashed counter of one draw: a game's round and turn, the decision kind, the call."""
    return np.uint64(_mix_int(((round_no << 20) + (turn << 8) + (kind << 6) + call) * _GOLDEN))


def seat_keys(seed: int, lo: int, hi: int, n: int) -> np.ndarray:
    """(n, G) the 64-bit draw key of each seat in games lo..hi-1: SplitMix64 hashes of the run's
    seed, the game's index and the seat."""
    run = _mix_int(_mix_int(seed & _MASK64) ^ (seed >> 64) ^ _mix_int(n))
    with np.errstate(over="ignore"):
        games = _mix(np.arange(lo, hi, dtype=np.uint64) * np.uint64(_GOLDEN) + np.uint64(run))
        seats = np.arange(1, n + 1, dtype=np.uint64)[:, None] * np.uint64(_GOLDEN)
        return _mix(games + seats)


class RoundDraws:
    """The uniform draws of the array strategies in one round of a block. keys: (n, G), one
    64-bit key per seat and game. The first card draw of turns 2p and 2p + 1 are the low and
    high 32 bits of `_mix(key ^ _counter(round, p, _CARD_PAIR, 0))` (the common case, `random`,
    computed for every seat and game at once); any other draw (call c of a decision of kind k in
    turn t) is `_unit(_mix(key ^ _counter(round, t, k, c)))`. Each is a function of the seed and
    the game's index, never of the other games in the block."""

    def __init__(self, keys: np.ndarray, round_no: int):
        self.keys = keys.reshape(-1)
        self.round_no = round_no
        self._turn = -1
        self._first: np.ndarray = np.empty(0)
        self._bits: np.ndarray = self._first

    def first_cards(self, turn: int) -> np.ndarray:
        """The first card draw of every seat and game in `turn` as 32-bit ints (uint64), flat
        (n * G,) seat-major."""
        if turn != self._turn:
            if turn % 2 == 0 or self._turn != turn - 1:
                with np.errstate(over="ignore"):
                    self._bits = _mix(self.keys ^ _counter(self.round_no, turn // 2, _CARD_PAIR, 0))
            self._first = self._bits >> np.uint64(32) if turn % 2 else self._bits & np.uint64(_MASK32)
            self._turn = turn
        return self._first

    def source(self, pairs: np.ndarray | None, turn: int, kind: int) -> _Source:
        """The draws of a view of the decisions `pairs` (flat seat * G + game; None: all)."""
        return _Source(self, pairs, turn, kind)


class _Source:
    """One view's draws (`simkit.games.sixnimmt.arrays.Draws`): call c of the view is its
    decisions' draw c."""

    def __init__(self, draws: RoundDraws, pairs: np.ndarray | None, turn: int, kind: int):
        self.draws, self.pairs, self.turn, self.kind = draws, pairs, turn, kind
        self.calls = 0

    def random(self) -> np.ndarray:
        return self._uniform(self._next_first())

    def below(self, limit: int) -> np.ndarray:
        first = self._next_first()
        if first is None or limit >= 1 << 21:
            return (self._uniform(first) * limit).astype(np.intp)
        # floor(first / 2**32 * limit) exactly: first * limit < 2**53 is exact as a float too
        return ((first * np.uint64(limit)) >> np.uint64(32)).view(np.intp)

    def _next_first(self) -> np.ndarray | None:
        """Counts a call; the 32-bit first card draws if it is the first of a card view."""
        self.calls += 1
        if self.kind != CARD or self.calls > 1:
            return None
        first = self.draws.first_cards(self.turn)
        return first if self.pairs is None else first[self.pairs]

    def _uniform(self, first: np.ndarray | None) -> np.ndarray:
        """The uniforms of the call just counted (`first`: its first card draws, if it is one)."""
        if first is not None:
            return first * 2.0 ** -32
        draws = self.draws
        keys = draws.keys if self.pairs is None else draws.keys[self.pairs]
        with np.errstate(over="ignore"):
            return _unit(_mix(keys ^ _counter(draws.round_no, self.turn, self.kind, self.calls - 1)))
