"""Kernel forms of the Game of Trains bots: compiled functions of the kernel's bot signature
(`simkit.games.trains.kernel_play.BOT_SIG`), each answering what its scalar strategy answers,
decision by decision (tests/trains/test_kernel.py). Declared in kernels.py; imported (and
compiled, or loaded from numba's cache) only when a kernel plays.
"""

from __future__ import annotations

import numpy as np

from simkit.engine.kernel_rng import SCRATCH as ROW_SCRATCH
from simkit.engine.kernel_rng import compiled, next64
from simkit.games.trains import kernel_layout as L
from simkit.games.trains.kernel_play import BOT_SIG, OFFSET, legal_count, removal_slot, turn_action

_DOUBLE = 1.0 / 9007199254740992.0
#: strategies/trains/heuristic.py's WIN
WIN = 10_000
#: greedy params: discard memory (1.0) or not, effects 3/4 by insertion (1.0) or swap
P_MEMORY, P_INSERTION = range(2)
#: the bot's scratch in g
_V, _BEST, _RANK, _COUNTS, _MARK = (L.SCRATCH + 16, L.SCRATCH + 24, L.SCRATCH + 32, L.SCRATCH + 40,
                                    L.SCRATCH + 48)


@compiled()
def buffered_double64(row):
    """A double from a buffer of 64 refilled by `Generator.random(64)` and popped from its end
    (the scalar `random`: `buf += rng.random(64).tolist(); buf.pop()`); the buffer lives in the
    row's words after kernel_rng's (the kernel's rows are GEN_WORDS long)."""
    left = row[ROW_SCRATCH]
    if left == 0:
        for i in range(64):
            row[ROW_SCRATCH + 1 + i] = next64(row)
        left = np.uint64(64)
    left -= np.uint64(1)
    row[ROW_SCRATCH] = left
    return np.float64(row[ROW_SCRATCH + 1 + np.int64(left)] >> np.uint64(11)) * _DOUBLE


@compiled(BOT_SIG)
def random_bot(ask, seat, g, params, gen):
    """`random`: uniform over the legal list, `legal[int(buf.pop() * len(legal))]`."""
    return np.int64(buffered_double64(gen) * legal_count(ask, seat, g))


# ---- greedy (strategies/trains/heuristic.py) ------------------------------------------------------
@compiled()
def sortedness(g, at):
    """32 * LIS - inversions of the 7 values g[at:at+7] (WIN when ascending), as `sortedness`."""
    best = g[_BEST:_BEST + 7]
    inv = 0
    lis = 1
    best[0] = 1
    for j in range(1, 7):
        tj = g[at + j]
        bj = 1
        for i in range(j):
            if g[at + i] < tj:
                if best[i] >= bj:
                    bj = best[i] + 1
            else:
                inv += 1
        best[j] = bj
        if bj > lis:
            lis = bj
    return WIN if inv == 0 else 32 * lis - inv


@compiled()
def _ranks(g, seat):
    """_RANK[j] = 2 * (train cards below slot j's card) + 1: the train's order pattern, with the
    even values 2 * gap free for a card that has `gap` train cards below it (`place_table`)."""
    t = L.TRAINS + 7 * seat
    for j in range(7):
        below = 0
        for i in range(7):
            below += g[t + i] < g[t + j]
        g[_RANK + j] = 2 * below + 1


@compiled()
def _placed(g, k, gap):
    """`place_table`'s table[k][gap]: the sortedness after a card with `gap` train cards below
    it replaces slot k (0-based); _ranks first."""
    for j in range(7):
        g[_V + j] = g[_RANK + j]
    g[_V + k] = 2 * gap
    return sortedness(g, _V)


@compiled()
def _best_place(g, gap):
    """(best score, first best slot 0-based) for a card with `gap` train cards below it."""
    best, slot = _placed(g, 0, gap), 0
    for k in range(1, 7):
        v = _placed(g, k, gap)
        if v > best:
            best, slot = v, k
    return best, slot


@compiled()
def _below(g, seat, card):
    t = L.TRAINS + 7 * seat
    below = 0
    for i in range(7):
        below += g[t + i] < card
    return below


@compiled()
def _gap_counts(g, seat, memory):
    """`gap_counts(me, unseen)`: per gap, the cards a draw may bring (not in a train, a lock or
    the display; with memory, not known to be in the discard pile nor an own setup discard).
    Returns their number."""
    mark = g[_MARK:_MARK + L.CARDS]
    mark[:] = 0
    n = g[L.N]
    for i in range(7 * n):
        mark[g[L.TRAINS + i]] = 1
        mark[g[L.LOCKS + i]] = 1
    for e in range(1, 9):
        mark[g[L.DISPLAY + e]] = 1
    if memory:
        for c in range(1, L.CARDS):
            if g[L.KNOWN + c]:
                mark[c] = 1
        for i in range(g[L.HIDDEN_LEN + seat]):
            mark[g[L.HIDDEN + 3 * seat + i]] = 1
    counts = g[_COUNTS:_COUNTS + 8]
    counts[:] = 0
    total = 0
    for c in range(1, L.CARDS):
        if not mark[c]:
            counts[_below(g, seat, c)] += 1
            total += 1
    return total


@compiled()
def _moved_score(g, seat, e, i, insertion):
    """The sortedness after effect e (1-4) with parameter i on the own train (`effect_scores`)."""
    t = L.TRAINS + 7 * seat
    for j in range(7):
        g[_V + j] = g[t + j]
    a = i - 1
    b = a + OFFSET[e]
    if e >= 3 and insertion:
        c = g[_V + a]
        if b > a:
            for k in range(a, b):
                g[_V + k] = g[_V + k + 1]
        else:
            for k in range(a, b, -1):
                g[_V + k] = g[_V + k - 1]
        g[_V + b] = c
    else:
        g[_V + a], g[_V + b] = g[_V + b], g[_V + a]
    return sortedness(g, _V)


@compiled(BOT_SIG)
def greedy_bot(ask, seat, g, params, gen):
    """`greedy`: the setup keep and every placement by `best_place`; on a turn the action of
    the highest one-ply value, Draw valued by `expected_draw`, effects 5-7 by `expected_refill`."""
    count = legal_count(ask, seat, g)
    if count == 1:
        return 0
    _ranks(g, seat)
    if ask == L.KEEP:
        best, pick = -1, 0
        for i in range(count):
            v, _ = _best_place(g, _below(g, seat, g[L.HANDS + 4 * seat + i]))
            if v > best:
                best, pick = v, i
        return pick
    if ask == L.SETUP_PLACE or ask == L.PLACE:
        card = g[L.KEPT + seat] if ask == L.SETUP_PLACE else g[L.DRAWN]
        return _best_place(g, _below(g, seat, card))[1]
    base = sortedness(g, L.TRAINS + 7 * seat)
    total = _gap_counts(g, seat, params[P_MEMORY] != 0.0)
    if total == 0:
        best = np.float64(base)
    else:
        acc = 0
        for gap in range(8):
            if g[_COUNTS + gap]:
                acc += _best_place(g, gap)[0] * g[_COUNTS + gap]
        best = acc / total
    pick = 0
    insertion = params[P_INSERTION] != 0.0
    for pos in range(1, count):
        e, p = turn_action(g, pos)
        if e <= 4:
            v = np.float64(_moved_score(g, seat, e, p, insertion))
        elif e <= 7:
            k = removal_slot(e)
            if g[L.LOCKS + 7 * seat + k] or total == 0:
                v = np.float64(base)
            else:
                acc = 0
                for gap in range(8):
                    if g[_COUNTS + gap]:
                        acc += _placed(g, k, gap) * g[_COUNTS + gap]
                v = acc / total
        else:
            v = np.float64(base)
        if v > best:
            best, pick = v, pos
    return pick
