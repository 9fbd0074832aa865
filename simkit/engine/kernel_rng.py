"""NumPy's PCG64 Generator, draw for draw, inside numba kernels (compiled on first import).

A kernel that draws the same numbers in the same order as the scalar engine plays the same
games: the proof that it plays the rules is then equality, game by game. This module holds the
generator as a row of uint64 words (`stream_row`) and the draws the games and bots use:

- `next64` / `next32`: PCG64's output (XSL-RR of the 128-bit LCG), `next32` buffered in halves
  exactly as NumPy's `pcg64_next32` (the low half first, the high half at the next call);
- `random_interval(row, max)`: NumPy's `random_interval`, the draw of `Generator.shuffle` and
  `permutation` (masked rejection);
- `bounded(row, n)`: `Generator.integers(n)` for 1 <= n <= 2**32 (Lemire's method on 32 bits);
- `double(row)`: `Generator.random()`;
- `buffered_double(row, size)`: the `random` strategies' buffer of `size` doubles.

A stream's row is what `simkit.engine.seeding.GeneratorPool` sets: the 128-bit state from the
game's stream words and the stream's increment (`_stream_inc`). Columns after `SCRATCH` belong
to whoever owns the row (a bot keeps its draw buffer there, see strategies/sixnimmt/kernels.py).
Every function is tested against NumPy (tests/sixnimmt/test_kernel_rng.py).

Importing this module imports numba and compiles (or loads from numba's disk cache) the
functions: only kernels import it, never the CLI or the scalar engine.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import typeinfer
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic

from simkit.engine import compile_clock, kernel_stamp, seeding
from simkit.engine.seeding import WORDS_PER_STREAM, _stream_inc

compile_clock.listen()    # a decision's clock stops while numba compiles (engine/guard.py)


def _skip_blas_probe() -> None:
    """Import numba's array functions without their BLAS probe. numba's CPU target imports
    `numba.np.arraymath` on its first compile or cache load, which checks for SciPy's BLAS by
    importing `scipy.linalg` (0.25-0.35 s CPU of a kernel run's 1.5-2 s start; issue 21). No
    kernel calls BLAS: without the probe numba's `np.correlate`/`np.convolve` take their plain
    loop, and `np.dot` still imports SciPy's BLAS when a kernel compiles it. Nothing
    changes where SciPy's linalg is already imported (the probe is cheap then)."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg.cython_blas"] = None  # type: ignore[assignment]  # import fails
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg.cython_blas"]


_skip_blas_probe()

_intrinsic: Any = intrinsic


class _Dispatcher(CPUDispatcher):
    """numba's dispatcher, with two changes that save compile time:

    - a call from compiled code compiles the callee for its arguments' plain types. numba
      compiles a callee once per literal argument type it is called with: each constant
      argument (a layout offset, a bot's ask code) and a loop variable's first value (typed
      `Literal[int](0)` in the first typing pass, the loop's type in the next) made a whole
      specialisation of its own, compiled and cached beside the plain one that serves every
      call. The machine code is the same: LLVM folds the constants when it inlines;
    - a declared signature (a bot's) is compiled when the function is first used (`ready`,
      which `kernels.load_function` calls), not when its module is imported: a run compiles
      the bots it plays, not every bot of their module."""

    _declared: tuple = ()
    _literals = False                  # compiled(literals=True): numba's way, per constant

    def ready(self) -> _Dispatcher:
        """Compile the declared signatures (once), then no other; returns the dispatcher."""
        if self._declared:
            signatures, self._declared = self._declared, ()
            with typeinfer.register_dispatcher(self):
                for sig in signatures:
                    self.compile(sig)
            self.disable_compile()
        return self

    def get_call_template(self, args: Any, kws: Any) -> Any:
        self.ready()
        if self._literals:
            return super().get_call_template(args, kws)
        return super().get_call_template(tuple(types.unliteral(a) for a in args),
                                         {k: types.unliteral(v) for k, v in kws.items()})

    def _compile_for_args(self, *args: Any, **kws: Any) -> Any:
        if self._declared:             # called from Python before `ready`: numba calls what
            self.ready()               # this returns, the declared signature's entry point
            return self.get_overload(self.signatures[0])
        return super()._compile_for_args(*args, **kws)    # type: ignore[misc]


def compiled(*signature: Any, inline: bool = False, nrt: bool = False, literals: bool = False) -> Any:
    """numba's `njit` as every kernel function uses it: compiled on first use (a `signature`:
    only that one, also on first use, see `_Dispatcher.ready`) and cached on disk; for its
    arguments' plain types only (`_Dispatcher`), unless `literals`: then once per constant
    argument its callers pass, as numba does (for a hot helper called with constant layout
    offsets that LLVM does not inline: the Trains `rival` bot's scans ran 12 % slower without);
    without numba's reference counting unless `nrt` (`_nrt=False`: a kernel allocates nothing,
    its callers pass every array in, which makes calls and views free); `inline` inlines it
    into its callers (numba IR inlining)."""
    options: dict[str, Any] = {"nopython": True, "boundscheck": None}
    if not nrt:
        options["_nrt"] = False
    if inline:
        options["inline"] = "always"

    def decorate(function: Any) -> Any:
        dispatcher = _Dispatcher(py_func=function, locals={}, targetoptions=options)
        dispatcher.enable_caching()
        _stamp_imports(dispatcher)
        dispatcher._declared = signature
        dispatcher._literals = literals
        return dispatcher
    return decorate


def _stamp_imports(dispatcher: Any) -> None:
    """Key the function's disk cache on the project files it reaches too, not only its own
    (simkit/engine/kernel_stamp.py): a cached kernel never outlives a change to a callee's file."""
    cache_file = dispatcher._cache._cache_file
    source = dispatcher.py_func.__code__.co_filename
    cache_file._source_stamp = (cache_file._source_stamp, kernel_stamp.imports_stamp(source))


#: the row of one stream: state high/low words, increment high/low, a buffered 32-bit half
S_HI, S_LO, I_HI, I_LO, HAS32, U32 = range(6)
#: first column free for the row's owner; ROW_WORDS columns in all
SCRATCH = 6
ROW_WORDS = 32

_U = np.uint64
_M32 = _U(0xFFFFFFFF)
_MUL_HI = _U(2549297995355413924)
_MUL_LO = _U(4865540595714422341)
_S32 = _U(32)
_ONE = _U(1)
_ZERO = _U(0)
_DOUBLE = 1.0 / 9007199254740992.0


def stream_rows(words: np.ndarray, streams: list[int], out: np.ndarray | None = None) -> np.ndarray:
    """Rows for games x streams: `words` (G, 2 * n_streams) uint64 from the games' stream words
    (`seeding.batch_stream_array`); `streams` the stream numbers wanted, in order. Returns
    (G, len(streams), ROW_WORDS) uint64 (scratch columns zero)."""
    games = words.shape[0]
    rows = np.zeros((games, len(streams), ROW_WORDS), dtype=np.uint64) if out is None else out
    for k, stream in enumerate(streams):
        inc = _stream_inc(stream)
        rows[:, k, S_HI] = words[:, WORDS_PER_STREAM * stream]
        rows[:, k, S_LO] = words[:, WORDS_PER_STREAM * stream + 1]
        rows[:, k, I_HI] = inc >> 64
        rows[:, k, I_LO] = inc & 0xFFFFFFFFFFFFFFFF
        rows[:, k, HAS32] = 0
    return rows


@compiled()
def game_rows(gens, count, k, words, chance_words, incs):
    """Set rows 0..count-1 of `gens` to game k's streams at their start (scratch columns zero):
    row 0 its deal's chance stream (chance_words[k], `kernels.GameStreams.chance`), row s its
    stream s (words[k, 2s:2s+2]); `incs` (streams, 2) their increments. A kernel's `play_games`
    calls it before each game."""
    for stream in range(count):
        row = gens[stream]
        row[:] = 0
        if stream == 0:
            row[S_HI] = chance_words[k, 0]
            row[S_LO] = chance_words[k, 1]
        else:
            row[S_HI] = words[k, 2 * stream]
            row[S_LO] = words[k, 2 * stream + 1]
        row[I_HI] = incs[stream, 0]
        row[I_LO] = incs[stream, 1]


@_intrinsic
def _mul_hi(typingctx, a, b):
    """The high 64 bits of the 128-bit product of two uint64 (one machine multiply)."""
    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(product, ir.Constant(wide, 64)), ir.IntType(64))
    return types.uint64(types.uint64, types.uint64), codegen


@compiled(inline=True)
def _step(hi, lo, inc_hi, inc_lo):
    """PCG64: the LCG's next 128-bit state (hi, lo) and its XSL-RR output."""
    new_hi = _mul_hi(lo, _MUL_LO) + lo * _MUL_HI + hi * _MUL_LO
    new_lo = lo * _MUL_LO
    out_lo = new_lo + inc_lo
    carry = _ONE if out_lo < new_lo else _ZERO
    out_hi = new_hi + inc_hi + carry
    x = out_hi ^ out_lo
    rot = out_hi >> _U(58)
    return out_hi, out_lo, (x >> rot) | (x << ((_U(64) - rot) & _U(63)))


@compiled()
def next64(row):
    """PCG64: step the LCG, then XSL-RR of the new state."""
    hi, lo, out = _step(row[S_HI], row[S_LO], row[I_HI], row[I_LO])
    row[S_HI] = hi
    row[S_LO] = lo
    return out


@compiled()
def next32(row):
    """NumPy's `pcg64_next32`: the low half of a fresh output, then its high half."""
    if row[HAS32] != _ZERO:
        row[HAS32] = _ZERO
        return row[U32]
    value = next64(row)
    row[HAS32] = _ONE
    row[U32] = value >> _S32
    return value & _M32


@compiled()
def random_interval(row, top):
    """NumPy's `random_interval(max)`: uniform in 0..top by masked rejection (top < 2**32)."""
    if top == 0:
        return 0
    mask = _U(top)
    mask |= mask >> _U(1)
    mask |= mask >> _U(2)
    mask |= mask >> _U(4)
    mask |= mask >> _U(8)
    mask |= mask >> _U(16)
    limit = _U(top)
    value = next32(row) & mask
    while value > limit:
        value = next32(row) & mask
    return np.int64(value)


@compiled()
def bounded(row, n):
    """`Generator.integers(n)` (int64, 1 <= n <= 2**32): Lemire's method on 32-bit draws."""
    if n == 1:
        return 0
    excl = _U(n)
    m = next32(row) * excl
    leftover = m & _M32
    if leftover < excl:
        threshold = (_M32 - (excl - _ONE)) % excl
        while leftover < threshold:
            m = next32(row) * excl
            leftover = m & _M32
    return np.int64(m >> _S32)


@compiled()
def double(row):
    """`Generator.random()`: 53 random bits as a float in [0, 1)."""
    return np.float64(next64(row) >> _U(11)) * _DOUBLE


@compiled()
def shuffle(row, values, count):
    """`Generator.shuffle` of values[:count] (a list or a 1-d array: the same swaps). The
    generator's words stay in registers for the whole shuffle (`random_interval` inlined)."""
    hi, lo, inc_hi, inc_lo = row[S_HI], row[S_LO], row[I_HI], row[I_LO]
    has32, half = row[HAS32], row[U32]
    for i in range(count - 1, 0, -1):
        mask = _U(i)
        mask |= mask >> _U(1)
        mask |= mask >> _U(2)
        mask |= mask >> _U(4)
        mask |= mask >> _U(8)
        mask |= mask >> _U(16)
        while True:
            if has32 != _ZERO:
                has32 = _ZERO
                value = half
            else:
                hi, lo, out = _step(hi, lo, inc_hi, inc_lo)
                has32 = _ONE
                half = out >> _S32
                value = out & _M32
            value &= mask
            if value <= _U(i):
                break
        j = np.int64(value)
        values[i], values[j] = values[j], values[i]
    row[S_HI], row[S_LO], row[HAS32], row[U32] = hi, lo, has32, half


@compiled()
def refill(row, size):
    """Fill the buffer of `buffered_double`: `size` fresh 64-bit outputs after SCRATCH."""
    for i in range(size):
        row[SCRATCH + 1 + i] = next64(row)


@compiled(inline=True)
def buffered_double(row, size=16):
    """A double from a buffer of `size` refilled by `Generator.random(size)` and popped from its
    end (the scalar `random` strategies' draws: `buf.extend(rng.random(size).tolist());
    buf.pop()`; 6 nimmt! 16, Shipside 32, Game of Trains 64). The buffer lives in the row's
    scratch columns: its fill at SCRATCH, the raw draws after (a row of at least
    SCRATCH + 1 + size words: a game whose bot buffers more than ROW_WORDS allows makes its
    rows longer). Inlined into its callers: the pop, most draws, costs no call; the refill, one
    draw in `size`, stays a call (`refill`)."""
    left = row[SCRATCH]
    if left == _ZERO:
        refill(row, size)
        left = _U(size)
    left -= _ONE
    row[SCRATCH] = left
    return np.float64(row[SCRATCH + 1 + np.int64(left)] >> _U(11)) * _DOUBLE



#: SeedSequence's constants (simkit.engine.seeding's, as uint64 holding 32-bit words)
_SS_INIT_A, _SS_MULT_A = _U(seeding._INIT_A), _U(seeding._MULT_A)
_SS_INIT_B, _SS_MULT_B = _U(seeding._INIT_B), _U(seeding._MULT_B)
_SS_MIX_L, _SS_MIX_R = _U(seeding._MIX_L), _U(seeding._MIX_R)
_SS_POOL = seeding._POOL
_S16 = _U(16)


@compiled(inline=True)
def _hashmix(value, h):
    """SeedSequence's hashmix on 32-bit words (held in uint64): (hashed value, next h)."""
    value = value ^ h
    h = (h * _SS_MULT_A) & _M32
    value = (value * h) & _M32
    return value ^ (value >> _S16), h


@compiled(inline=True)
def _fill_pool(pool, w0, w1, w2, w3):
    """SeedSequence's pool from its first four entropy words (zeros past the entropy's end);
    returns the hash constant the mixing goes on with."""
    h = _SS_INIT_A
    pool[0], h = _hashmix(w0, h)
    pool[1], h = _hashmix(w1, h)
    pool[2], h = _hashmix(w2, h)
    pool[3], h = _hashmix(w3, h)
    return h


@compiled(inline=True)
def _mix_word(pool, i_src, word, h):
    """SeedSequence's mix of entropy word i_src (`word`: pool[i_src] for the pool's own words)
    into every pool word but its own; returns the next hash constant."""
    for i_dst in range(_SS_POOL):
        if i_dst != i_src:
            hashed, h = _hashmix(word, h)
            mixed = (_SS_MIX_L * pool[i_dst] - _SS_MIX_R * hashed) & _M32
            pool[i_dst] = mixed ^ (mixed >> _S16)
    return h


@compiled(inline=True)
def _state_pair(pool, w, hb):
    """Word w of SeedSequence's `generate_state(..., uint64)` (two 32-bit outputs, the low one
    first); returns (the word, the next hash constant)."""
    pair = _ZERO
    for half in range(2):
        value = pool[(2 * w + half) % _SS_POOL] ^ hb
        hb = (hb * _SS_MULT_B) & _M32
        value = (value * hb) & _M32
        pair |= (value ^ (value >> _S16)) << _U(32 * half)
    return pair, hb


@compiled()
def seed_words(run, start, out, pool):
    """`seeding.batch_stream_array` compiled: out[k] (2 * streams uint64) gets the words of game
    start + k, NumPy's SeedSequence(master, spawn_key=(start + k,)).generate_state, its hash
    steps in the same order (`run`: the master's 32-bit words, padded to the pool's 4, as
    uint64; start + k < 2**32; `pool`: 4 uint64 of scratch). Tested against NumPy
    (tests/sixnimmt/test_kernel_rng.py)."""
    size = run.size + 1
    for k in range(out.shape[0]):
        last = _U(start + k)
        h = _fill_pool(pool, run[0], run[1], run[2], run[3])
        for i_src in range(size):
            if i_src < _SS_POOL:
                word = pool[i_src]
            elif i_src < run.size:
                word = run[i_src]
            else:
                word = last
            h = _mix_word(pool, i_src, word, h)
        hb = _SS_INIT_B
        for w in range(out.shape[1]):
            out[k, w], hb = _state_pair(pool, w, hb)


@compiled()
def seed_row(seed, row, pool):
    """`Generator(PCG64(seed))` into `row`, for 0 <= seed < 2**64 (a search's determinization
    draws `integers(2**63)` and seeds its chance generator so): NumPy's SeedSequence(seed)
    .generate_state(4, uint64) (the hash steps of `seed_words`, no spawn key) as the LCG's seed
    and increment, then PCG64's srandom; the 32-bit buffer empty. `pool`: 4 uint64 of scratch."""
    s = _U(seed)
    h = _fill_pool(pool, s & _M32, s >> _S32, _ZERO, _ZERO)
    for i_src in range(_SS_POOL):
        h = _mix_word(pool, i_src, pool[i_src], h)
    hb = _SS_INIT_B
    w0, hb = _state_pair(pool, 0, hb)
    w1, hb = _state_pair(pool, 1, hb)
    w2, hb = _state_pair(pool, 2, hb)
    w3, hb = _state_pair(pool, 3, hb)
    inc_hi = (w2 << _ONE) | (w3 >> _U(63))
    inc_lo = (w3 << _ONE) | _ONE
    hi, lo, _ = _step(_ZERO, _ZERO, inc_hi, inc_lo)
    new_lo = lo + w1
    carry = _ONE if new_lo < lo else _ZERO
    hi, lo, _ = _step(hi + w0 + carry, new_lo, inc_hi, inc_lo)
    row[S_HI], row[S_LO], row[I_HI], row[I_LO] = hi, lo, inc_hi, inc_lo
    row[HAS32], row[U32] = _ZERO, _ZERO


def batch_stream_words(master: int, start: int, stop: int, n_streams: int) -> np.ndarray:
    """`seeding.batch_stream_array(master, start, stop, n_streams)`, the same words computed by
    `seed_words` (a few times cheaper per game than NumPy's column passes)."""
    if stop > 1 << 32:
        return seeding.batch_stream_array(master, start, stop, n_streams)
    run = seeding._uint32_words(master)
    run += [0] * (_SS_POOL - len(run))
    out = np.empty((stop - start, WORDS_PER_STREAM * n_streams), dtype=np.uint64)
    seed_words(np.array(run, dtype=np.uint64), start, out, np.zeros(_SS_POOL, dtype=np.uint64))
    return out
