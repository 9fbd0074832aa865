"""Scalar positions into a kernel and back: what every game's kernel rollout shares (issue 21
item 4, the kernel rollout contract).

A kernel rollout plays a scalar state on in the game's kernel: the state's generators become
kernel generator rows (simkit/engine/kernel_rng.py) and, after the kernel has played, the rows'
PCG64 states go back into the same generators, so they continue exactly where the scalar path
would leave them. Only kernel rollouts import this module (it imports numba through kernel_rng).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba.core.types import WrapperAddressProtocol

from simkit.engine import kernel_rng as kr

_LOW = (1 << 64) - 1


def generator_rows(rngs: Sequence[np.random.Generator], width: int) -> np.ndarray:
    """(len(rngs), width) uint64 kernel rows continuing each generator (PCG64 only); the columns
    after kernel_rng's are zero (a bot's draw buffer starts empty, as after `Strategy.setup`)."""
    rows = np.zeros((len(rngs), width), dtype=np.uint64)
    for row, rng in zip(rows, rngs):
        bits = rng.bit_generator.state
        if bits["bit_generator"] != "PCG64":
            raise ValueError(f"a kernel draws from PCG64 generators only, not {bits['bit_generator']}")
        inner = bits["state"]
        state, inc = inner["state"], inner["inc"]
        row[:kr.SCRATCH] = (state >> 64, state & _LOW, inc >> 64, inc & _LOW, bits["has_uint32"],
                            bits["uinteger"])
    return rows


def restore_generators(rngs: Sequence[np.random.Generator], rows: np.ndarray) -> None:
    """Set each generator to its kernel row's PCG64 state (the draws the kernel made)."""
    for rng, words in zip(rngs, rows[:, :kr.SCRATCH].tolist()):
        hi, lo, inc_hi, inc_lo, has32, half = words
        rng.bit_generator.state = {"bit_generator": "PCG64",
                                   "state": {"state": hi << 64 | lo, "inc": inc_hi << 64 | inc_lo},
                                   "has_uint32": has32, "uinteger": half}


#: a double of a `random` bot's buffer is (word >> 11) / 2**53 (`kernel_rng.buffered_double`):
#: the word back from the double
_DOUBLE_BITS = float(1 << 53)


def buffer_fits(width: int, size: int) -> None:
    """ValueError unless kernel rows of `width` words hold a draw buffer of `size` (its fill at
    kernel_rng.SCRATCH, the draws after)."""
    if width < kr.SCRATCH + 1 + size:
        raise ValueError(f"kernel rows of {width} words cannot hold a buffer of {size} draws")


def buffers_in(rows: np.ndarray, bots: Sequence[Any], size: int) -> None:
    """Each Python bot's part-used draw buffer (`bot._buf`, doubles popped from its end, at most
    `size`) into its kernel row's scratch columns, where `kernel_rng.buffered_double(row, size)`
    goes on popping it; a bot without a buffer leaves the row's empty. Rows as wide as
    `buffer_fits` asks."""
    for row, bot in zip(rows, bots):
        buf = getattr(bot, "_buf", None) or ()
        row[kr.SCRATCH] = len(buf)
        if buf:
            row[kr.SCRATCH + 1:kr.SCRATCH + 1 + len(buf)] = [int(x * _DOUBLE_BITS) << 11 for x in buf]


def buffers_out(rows: np.ndarray, bots: Sequence[Any], size: int) -> None:
    """The draws left in each kernel row's buffer back into its bot's `_buf` (bots without one
    are left alone): the Python bot then continues where the kernel form stopped."""
    for row, bot in zip(rows, bots):
        if hasattr(bot, "_buf"):
            words = row[kr.SCRATCH:kr.SCRATCH + 1 + size].tolist()
            bot._buf = [(w >> 11) / _DOUBLE_BITS for w in words[1:1 + words[0]]]


def rows_in(chance: np.random.Generator, rngs: Sequence[np.random.Generator], width: int,
            bots: Sequence[Any] | None, buffer: int) -> tuple[list[np.random.Generator], np.ndarray]:
    """A rollout's generators as kernel rows: the state's chance generator first, then each
    seat's; with `bots` (the Python rollout bots as the search left them) and a `buffer` size
    (0: their forms keep none), their part-used draw buffers carried in. `rows_out` undoes it."""
    generators = [chance, *rngs]
    rows = generator_rows(generators, width)
    if bots is not None and buffer:
        buffers_in(rows[1:], bots, buffer)
    return generators, rows


def rows_out(generators: Sequence[np.random.Generator], rows: np.ndarray, bots: Sequence[Any] | None,
             buffer: int) -> None:
    """The kernel rows' states back into the generators of `rows_in`, and the draw buffers into
    the bots."""
    restore_generators(generators, rows)
    if bots is not None and buffer:
        buffers_out(rows[1:], bots, buffer)


def answered_outside(text: str, seat: int) -> RuntimeError:
    """The error of a kernel form that answered an index outside its legal list."""
    return RuntimeError(f"the kernel form of {text!r} (seat {seat}) answered outside its legal list")


def put(g: np.ndarray, at: int, values: Sequence[int]) -> None:
    """g[at:at + len(values)] = values (a list of ints; nothing for an empty one)."""
    if values:
        g[at:at + len(values)] = values



class _Bot(WrapperAddressProtocol):
    """A compiled bot handed to a kernel by the address of its compiled code (numba's wrapper
    address protocol): numba types and unboxes it in a few µs, where a dispatcher in a tuple
    costs hundreds of µs per call (numba looks its signature up again each time)."""

    def __init__(self, function: Any, signature: Any) -> None:
        result = function.get_compile_result(signature)
        self.address = result.library.get_pointer_to_function(result.fndesc.llvm_cfunc_wrapper_name)
        self.sig = signature

    def __wrapper_address__(self) -> int:
        return self.address

    def signature(self) -> Any:
        return self.sig


def bot_handles(functions: Sequence[Any], signature: Any) -> tuple:
    """A lineup's compiled bots (numba dispatchers of `signature`) as cheap kernel arguments."""
    handles: dict[int, _Bot] = {}
    for function in functions:
        if id(function) not in handles:
            handles[id(function)] = _Bot(function, signature)
    return tuple(handles[id(function)] for function in functions)


def entry_point(kernel: Any, *args: Any) -> Any:
    """The compiled code of numba dispatcher `kernel` for the types of `args` (compiling or
    loading it from the cache now): called without the dispatcher's typing of every argument on
    each call, which costs more than a short rollout. Later calls must pass the same types."""
    from simkit.engine.kernels import quiet_numba

    with quiet_numba():
        types = tuple(kernel.typeof_pyval(arg) for arg in args)
        kernel.compile(types)
    return kernel.overloads[types].entry_point
