"""The running score's record in compiled code: `simkit/engine/running.py`'s `Running`, word for
word, kept in a region of a kernel's state array `g` (so the kernels write the same
`running_score` column as the scalar engine). Importing this module imports numba.

The region at `base` (a game's layout reserves `region_size(MAX_N)` words): COUNT points kept,
SHIFT (the stride is 1 << SHIFT rounds), ROUNDS completed, FRESH (the last turn recorded a
point), then the points, `max_n` words each (seat order). All zero is a new game's record.
"""

from __future__ import annotations

from simkit.engine.kernel_rng import compiled
from simkit.engine.running import CAP, Running

COUNT, SHIFT, ROUNDS, FRESH = range(4)
HEAD = 4


def region_size(max_n: int) -> int:
    """Words of `g` the record takes for games of up to `max_n` seats."""
    return HEAD + CAP * max_n


@compiled(inline=True)
def reset(g, base):
    """A new game: an empty record."""
    g[base + COUNT] = 0
    g[base + SHIFT] = 0
    g[base + ROUNDS] = 0
    g[base + FRESH] = 0


@compiled(inline=True)
def turn_end(g, base, round_end):
    """`Running.turn_end`: True when the caller must write the standing at `slot` and `pushed`."""
    if round_end:
        rounds = g[base + ROUNDS] + 1
        g[base + ROUNDS] = rounds
        if rounds & ((1 << g[base + SHIFT]) - 1) == 0:
            return True
    g[base + FRESH] = 0
    return False


@compiled(inline=True)
def slot(g, base, max_n):
    """Where the next point's values go (seat s at slot + s)."""
    return base + HEAD + g[base + COUNT] * max_n


@compiled()
def pushed(g, base, max_n, n):
    """`Running.push` after the values were written at `slot`: thinning at CAP."""
    count = g[base + COUNT] + 1
    g[base + FRESH] = 1
    if count == CAP:
        points = base + HEAD
        for j in range(CAP // 2):
            for s in range(n):
                g[points + j * max_n + s] = g[points + (2 * j + 1) * max_n + s]
        count = CAP // 2
        g[base + SHIFT] += 1
    g[base + COUNT] = count


@compiled(inline=True)
def wants_close(g, base):
    """`Running.close`: True when the final standing must still be written at `slot` and
    `closed` (the last turn recorded no point)."""
    return g[base + FRESH] == 0


@compiled(inline=True)
def closed(g, base):
    g[base + COUNT] += 1
    g[base + FRESH] = 1


@compiled()
def copy_out(g, base, max_n, n, count_out, flat, cursor):
    """The finished record into the run's outputs: `count_out[0]` points, and each seat's
    points in a row at flat[cursor[0]:] (seat by seat: the list column's values as they are)."""
    count = g[base + COUNT]
    count_out[0] = count
    points = base + HEAD
    at = cursor[0]
    for s in range(n):
        for j in range(count):
            flat[at] = g[points + j * max_n + s]
            at += 1
    cursor[0] = at


def put_record(g, base: int, record: Running, max_n: int) -> None:
    """A scalar `Running` into the region at `base` (Python; a search rollout starts from it)."""
    g[base + COUNT] = len(record.points)
    g[base + SHIFT] = record.stride.bit_length() - 1
    g[base + ROUNDS] = record.rounds
    g[base + FRESH] = int(record.fresh)
    for j, point in enumerate(record.points):
        at = base + HEAD + j * max_n
        g[at:at + len(point)] = point


def take_record(g, base: int, max_n: int, n: int) -> Running:
    """The region at `base` as a scalar `Running` (Python; the record a rollout leaves)."""
    head = g[base:base + HEAD].tolist()
    record = Running()
    record.stride = 1 << head[SHIFT]
    record.rounds, record.fresh = head[ROUNDS], head[FRESH] != 0
    values = g[base + HEAD:base + HEAD + head[COUNT] * max_n].tolist()
    record.points = [tuple(map(float, values[j * max_n:j * max_n + n])) for j in range(head[COUNT])]
    return record
