"""The table DP of `dp.TableDP`, compiled with numba: the same recursion, state for state.

`TableDP.solve` runs here unless `dp.USE_KERNEL` is False (the pure-Python reference, kept for
the equivalence tests and the benchmark's before/after ratio). The kernel is a line-by-line port
of `TableDP.best` and `TableDP._close_number` (with `_skip`, `_alive`, `_terminal`, `_settled`
inlined): the same options in the same order, the same bounds, the same memo entries (so the
same state count, which the solver's `STATE_CAP` rule reads) and the same choices, which
`_plan` replays as `TableDP.plan` does. `TableDP.colour_options` is ported too
(`_colour_options`: the same options in the same order), and so are a number's group outcomes
(`dp_parts.group_outcomes`: `_group_outcomes`, the same (cleared bits, room) pairs in the same
order; `plan` asks Python for the groups themselves). Both are pure functions of their cache
keys, so their caches are shared by every DP of the process (`Caches`: rows in pool arrays,
which a frame reads by index). The DP runs on an explicit stack, so that it can stop when a pool
is full (`_run` returns GROW_OPTIONS or GROW_OUTCOMES) and go on exactly where it was once
Python has made room.

The helpers that allocate nothing are compiled without numba's reference counting
(`compiled()`): each call of one with array arguments otherwise counts a reference to each
array in and out (atomic operations: with the per-frame option arrays and stack views the
kernel had before, about a quarter of a game's time).

States are packed in integers: a colour's open runs are its sorted (length, mark) pairs, 6 bits
each (`length << 4 | mark`, marks of at most two joker patterns); the group tiles of a number 2
bits per colour. The memo is an open-addressing hash table in an array, doubled from Python
when it could fill (`_run` returns GROW_MEMO and goes on where it was, as for a pool). numba
is imported with this module, which `dp` imports on the first solve only (so `import simkit`
and `simkit --help` never compile); functions are compiled on first call and cached on disk
(`cache=True`).
"""

from __future__ import annotations

from operator import add
from typing import Any

import numpy as np

from simkit.engine.kernel_arrays import grow_rows, sort_small
from simkit.engine.kernel_rng import compiled
from simkit.games.rummikub import dp_parts as _dp

#: the `dp.TableDP` being solved (named, not imported: dp imports this module on its first solve)
TableDP = Any

NEG = _dp.NEG
POS = _dp.POS
UPPER, EXACT, LOWER = _dp.UPPER, _dp.EXACT, _dp.LOWER
#: the global option caches are emptied past this many entries (pure caches: results unchanged)
CACHE_LIMIT = 200_000

#: the options pool is emptied with the caches past this many rows (80 bytes a row)
POOL_LIMIT = 2_000_000

# the option caches shared by every DP of the process (pure functions of their keys): a colour's
# run options by (runs, number, jokers left, tiles of the face and the next two, flags, pattern
# signature); a number's group outcomes by (group tiles, jokers, pattern signature). Each is an
# index (an open-addressing table of (key, reference) rows, `_find`) of references `first row
# << 16 | rows` into a pool array (`Caches`): the kernel reads its options by index, with no
# array object to count references to (numba's reference counts of cached arrays, taken and
# dropped per child of a state, were a quarter of a game's time) and no typed dict to call.
_SIGS: dict[tuple, int] = {(): 0}


class Caches:
    """The option caches: `option_index` (options key -> reference into `option_rows`, rows of
    OPT_COLS), `outcome_index` (outcomes key + 1 -> reference into `outcome_rows`, one entry
    `cleared << 4 | room << 8` an outcome); `used` counts the rows taken of each pool and the
    entries of each index."""

    def __init__(self) -> None:
        self.option_index = np.zeros((1 << 14, 2), dtype=np.int64)
        self.outcome_index = np.zeros((1 << 10, 2), dtype=np.int64)
        self.option_rows = np.zeros((1 << 12, OPT_COLS), dtype=np.int64)
        self.outcome_rows = np.zeros(1 << 10, dtype=np.int64)
        self.used = np.zeros(4, dtype=np.int64)

    def full(self) -> bool:
        used = self.used
        return used[2] > CACHE_LIMIT or used[3] > CACHE_LIMIT or used[0] > POOL_LIMIT

    def grow_options(self, rows: int) -> None:
        """Room for one more options entry of `rows` rows."""
        self.option_rows = _room(self.option_rows, int(self.used[0]) + rows)
        self.option_index = _index_room(self.option_index, int(self.used[2]) + 1)

    def grow_outcomes(self, rows: int) -> None:
        """Room for one more outcomes entry of `rows` outcomes."""
        self.outcome_rows = _room(self.outcome_rows, int(self.used[1]) + rows)
        self.outcome_index = _index_room(self.outcome_index, int(self.used[3]) + 1)


def _room(pool: np.ndarray, rows: int) -> np.ndarray:
    """`pool`, or a copy doubled until it has `rows` rows."""
    size = pool.shape[0]
    while size < rows:
        size *= 2
    if size == pool.shape[0]:
        return pool
    bigger = np.zeros((size, *pool.shape[1:]), dtype=np.int64)
    bigger[:pool.shape[0]] = pool
    return bigger


def _index_room(index: np.ndarray, entries: int) -> np.ndarray:
    """`index`, or its entries moved to one twice the size when it would be half full."""
    if 2 * entries <= index.shape[0]:
        return index
    bigger = np.zeros((2 * index.shape[0], 2), dtype=np.int64)
    _reindex(index, bigger)
    return bigger


_CACHES: Caches | None = None


def _caches() -> Caches:
    """The process's caches, new when they passed their limits (pure caches: results unchanged)."""
    global _CACHES
    if _CACHES is None or _CACHES.full():
        _CACHES = Caches()
    return _CACHES


def _sig(key: tuple) -> int:
    """A small id per distinct pattern signature (0: no pattern in play)."""
    got = _SIGS.get(key)
    if got is None:
        got = _SIGS[key] = len(_SIGS)
    return got


_GROUP_SIGS: dict[int, tuple] = {0: ((), ())}


#: a number's group patterns as the kernel reads them (`gpat[n, flags]`): the pending group
#: patterns (count, then bit, role colours, mate colours each, colour sets as masks) and the
#: jokers with an old role at n (count, then bit, role colours each)
GP_PATS, GP_KEEPS, GP_COLS = 0, 7, 12


@compiled()
def _cleared_masks(gmask, gjok, ng, gp):
    """`dp_parts._cleared_masks` of the groups (real colours gmask[i], jokers gjok[i]) under the
    patterns `gp` (a `gpat` row): the masks it can clear, as a bit per mask (masks 0-3)."""
    base = 0
    for i in range(ng):
        used_roles = 0
        for t in range(gp[GP_PATS]):
            bit = gp[GP_PATS + 1 + 3 * t]
            if base & bit:
                continue
            if gmask[i] & gp[GP_PATS + 3 + 3 * t]:
                free = gmask[i] & gp[GP_PATS + 2 + 3 * t] & ~used_roles
                if free:
                    used_roles |= free & -free          # the lowest colour
                    base |= bit
    masks = 1 << base
    for i in range(ng):
        for _ in range(gjok[i]):
            grown = masks
            for m in range(4):
                if masks >> m & 1:
                    for t in range(gp[GP_KEEPS]):
                        bit = gp[GP_KEEPS + 1 + 2 * t]
                        if not m & bit and gp[GP_KEEPS + 2 + 2 * t] & ~gmask[i]:
                            grown |= 1 << (m | bit)
            masks = grown
    return masks


@compiled()
def _outcome_keys(gmask, glen, ng, gj, gp, gjok, keys, nkeys):
    """`group_outcomes`' loop body for one split of the real tiles into groups: the (cleared
    bits, room) pairs it reaches added to keys[:nkeys] (as cleared | room << 4) unless there;
    returns the new count."""
    fourth = gp[GP_KEEPS] > 0
    need = 0
    most = 0
    for i in range(ng):
        need += 3 - glen[i] if glen[i] < 3 else 0
        most += 4 - glen[i]
    if need != gj and (not fourth or gj < need or gj > most):
        return nkeys                      # _group_jokers: None
    extra = gj - need
    room = 0
    for i in range(ng):
        add = min(extra, 4 - max(3, glen[i]))
        extra -= add
        gjok[i] = (3 - glen[i] if glen[i] < 3 else 0) + add
        if glen[i] + gjok[i] == 3:
            room += 1
    room = min(2, room)
    masks = _cleared_masks(gmask, gjok, ng, gp)
    for m in range(4):
        if masks >> m & 1:
            key = m | room << 4
            known = False
            for q in range(nkeys):
                known = known or keys[q] == key
            if not known:
                keys[nkeys] = key
                nkeys += 1
    return nkeys


@compiled(nrt=True)
def _group_outcomes(g, gj, gpat, n, flags):  # noqa: C901
    """`dp_parts.group_outcomes(g, gj, pats, keeps)` for the kernel, the pats and keeps of
    gpat[n, flags]: its (cleared bits, room) pairs in its order, as entries cleared << 4 | room << 8.
    The splits of the real tiles into groups come in `_partitions`' order (each tile, colour by
    colour, joins each earlier group in turn that lacks its colour, then starts a group), a
    split met again skipped."""
    gp = gpat[n, flags]
    units = np.zeros(12, dtype=np.int64)
    nu = 0
    for c in range(4):
        for _ in range((g >> (2 * c)) & 3):
            units[nu] = c
            nu += 1
    if nu == 0:
        return np.zeros(1 if gj == 0 else 0, dtype=np.int64)
    gmask = np.zeros(12, dtype=np.int64)
    glen = np.zeros(12, dtype=np.int64)
    choice = np.full(12, -1, dtype=np.int64)
    started = np.zeros(12, dtype=np.bool_)
    seen = np.zeros(64, dtype=np.int64)
    nseen = 0
    gjok = np.zeros(12, dtype=np.int64)
    keys = np.zeros(12, dtype=np.int64)
    nkeys = 0
    ng = 0
    i = 0
    while i >= 0:
        bit = 1 << units[i]
        k = choice[i]
        if k >= 0:                        # undo this tile's last placement
            if started[i]:
                ng -= 1
            else:
                gmask[k] &= ~bit
                glen[k] -= 1
        k += 1
        while k < ng and (gmask[k] & bit or glen[k] >= 4):
            k += 1
        if k > ng:
            choice[i] = -1
            i -= 1
            continue
        choice[i] = k
        started[i] = k == ng
        if k == ng:
            gmask[ng] = bit
            glen[ng] = 1
            ng += 1
        else:
            gmask[k] |= bit
            glen[k] += 1
        if i + 1 < nu:
            i += 1
            continue
        code = 0
        for q in range(ng):
            code |= gmask[q] << (4 * q)
        known = False
        for q in range(nseen):
            known = known or seen[q] == code
        if known:
            continue
        if nseen == seen.shape[0]:
            bigger = np.zeros(2 * nseen, dtype=np.int64)
            for q in range(nseen):
                bigger[q] = seen[q]
            seen = bigger
        seen[nseen] = code
        nseen += 1
        nkeys = _outcome_keys(gmask, glen, ng, gj, gp, gjok, keys, nkeys)
    # the maximal (mask, room) pairs, in the order met
    out = np.zeros(nkeys, dtype=np.int64)
    nout = 0
    for q in range(nkeys):
        m, r = keys[q] & 15, keys[q] >> 4
        beaten = False
        for o in range(nkeys):
            if o != q and (keys[o] & 15 & m) == m and keys[o] >> 4 >= r:
                beaten = True
        if not beaten:
            out[nout] = m << 4 | r << 8
            nout += 1
    return out[:nout].copy()


def _group_pattern_row(pats: tuple, keeps: tuple) -> list[int]:
    """A `gpat` row: `group_outcomes`' pats and keeps with their colour sets as masks."""
    row = [0] * GP_COLS
    row[GP_PATS] = len(pats)
    for t, (bit, roles, mates) in enumerate(pats):
        row[GP_PATS + 1 + 3 * t:GP_PATS + 4 + 3 * t] = bit, _colour_mask(roles), _colour_mask(mates)
    row[GP_KEEPS] = len(keeps)
    for t, (bit, cols) in enumerate(keeps):
        row[GP_KEEPS + 1 + 2 * t:GP_KEEPS + 3 + 2 * t] = bit, _colour_mask(cols)
    return row


def _colour_mask(colours) -> int:
    return sum(1 << c for c in set(colours))


_GROUPS: dict[int, dict[tuple[int, int], tuple]] = {}


def _groups(g_code: int, gj: int, sig: int) -> dict[tuple[int, int], tuple]:
    """`group_outcomes` for `plan`: its groups per (cleared bits, room), cached by the packed key."""
    key = g_code | gj << 8 | sig << 12
    got = _GROUPS.get(key)
    if got is None:
        if len(_GROUPS) > CACHE_LIMIT:
            _GROUPS.clear()
        g = tuple((g_code >> (2 * i)) & 3 for i in range(4))
        got = _GROUPS[key] = {(m, r): gs for m, r, gs in _dp.group_outcomes(g, gj, *_GROUP_SIGS[sig])}
    return got


@compiled()
def _put(runs, c, x):
    if c == 0:
        return (x, runs[1], runs[2], runs[3])
    if c == 1:
        return (runs[0], x, runs[2], runs[3])
    if c == 2:
        return (runs[0], runs[1], x, runs[3])
    return (runs[0], runs[1], runs[2], x)


@compiled()
def _short(code):
    """Open runs of length 1 or 2 in a colour's runs code."""
    k = 0
    while code:
        if (code & 63) >> 4 < 3:
            k += 1
        code >>= 6
    return k


@compiled()
def _count(code):
    k = 0
    while code:
        k += 1
        code >>= 6
    return k


@compiled()
def _any_short(runs):
    for c in range(4):
        if _short(runs[c]):
            return True
    return False


@compiled()
def _gput(g, c, gr, sort):
    """g (c entries) + (gr,), sorted when `sort`."""
    if not sort or c == 0:
        return g | gr << (2 * c)
    # g's c entries are sorted already (each was put here sorted): insert gr in its place
    out = 0
    j = 0
    for i in range(c):
        x = (g >> (2 * i)) & 3
        if gr < x and j == i:
            out |= gr << (2 * j)
            j += 1
        out |= x << (2 * j)
        j += 1
    if j == c:
        out |= gr << (2 * c)
    return out


@compiled()
def _alive(n, c, runs, ju, flags, jtot, F, O, pats):
    spare = ju < jtot
    for i in range(pats.shape[0]):
        bit = 1 << i
        if not flags & bit:
            continue
        v = pats[i, 2]
        if pats[i, 0] == 0:
            pc = pats[i, 1]
            if n < v or (n == v and c <= pc):
                if spare or F[pc, v] + O[pc, v]:
                    continue
                return False
            if n == v and spare:
                continue
            code = runs[pc]
            found = False
            while code:
                if (((code & 15) >> (2 * i)) & 3) == 2:
                    found = True
                    break
                code >>= 6
            if found:
                continue
            return False
        if n <= v:
            if spare:
                continue
            ok = False
            for rc in range(4):
                if (pats[i, 1] >> rc) & 1 and F[rc, v] + O[rc, v]:
                    ok = True
            if ok:
                continue
        return False
    return True


MAX_RUNS = _dp.MAX_RUNS
#: option row columns: new runs, reals in runs, jokers in runs, cleared bits, runs closed, then the
#: detail `plan` replays: each run's action (2 bits a run: 0 close, 1 real, 2 joker), new runs
#: of real tiles, of jokers, the old-role bits picked, the order
OPT_COLS = 10
ACTS = ("close", "real", "joker")


@compiled()
def _mark(rp, c, n, mark, real, flags, order):
    """`TableDP._mark`: rp[c, j] = (bit, v, mates mask over numbers, top), rp[c, 4, 0] = count."""
    cleared = 0
    used = False
    cnt = rp[c, 4, 0]
    for jj in range(cnt):
        j = cnt - 1 - jj if order else jj
        bit = rp[c, j, 0]
        if not flags & bit:
            continue
        v = rp[c, j, 1]
        top = rp[c, j, 3]
        shift = 0 if bit == 1 else 1
        d = (mark >> (2 * shift)) & 3
        nd = d
        if real:
            if n == v:
                if not used:
                    used = True
                    if d == 1:
                        cleared |= bit
                        nd = 0
                    else:
                        nd = 2
            elif (rp[c, j, 2] >> n) & 1:
                if n < v:
                    nd = 1
                elif d == 2:
                    cleared |= bit
                    nd = 0
        if n >= v and nd == 1:
            nd = 0
        if n >= top and nd == 2:
            nd = 0
        mark = (mark & ~(3 << (2 * shift))) | (nd << (2 * shift))
    return mark, cleared


@compiled(nrt=True)
def _colour_options(c, n, rcode, jleft, flags, F, O, keepm, rp):  # noqa: C901
    """`TableDP.colour_options` for face (c, n): the same options in the same order, as rows."""
    # the runs, in descriptor (sorted) order
    nr = 0
    Ls = np.zeros(4, dtype=np.int64)
    Ms = np.zeros(4, dtype=np.int64)
    code = rcode
    while code:
        Ls[nr] = (code & 63) >> 4
        Ms[nr] = code & 15
        nr += 1
        code >>= 6
    avail = F[c, n] + O[c, n]
    av1 = F[c, n + 1] + O[c, n + 1] if n < 13 else 0
    av2 = F[c, n + 2] + O[c, n + 2] if n < 12 else 0
    nxt1 = av1 > 0
    nxt2 = av2 > 0
    pend = keepm[c, n] & flags if flags else 0
    kept_here = pend != 0
    same_role = 0
    if flags:
        for j in range(rp[c, 4, 0]):
            if rp[c, j, 1] == n and flags & rp[c, j, 0]:
                same_role += 1
    n_orders = 2 if same_role > 1 else 1
    kept_next = jleft >= 2 and n < 13 and flags != 0 and (flags & keepm[c, n + 1]) != 0
    bridge = nxt1 or (jleft >= 2 and nxt2) or kept_here or kept_next
    track = rp[c, 4, 0] > 0 and flags != 0
    # per run: its actions (_run_actions), as codes in order
    acts = np.zeros((4, 3), dtype=np.int64)
    nacts = np.zeros(4, dtype=np.int64)
    for r in range(nr):
        L = Ls[r]
        k = 0
        if L == 3:
            acts[r, k] = 0
            k += 1
        if n + (2 - L) <= 13 and avail:
            acts[r, k] = 1
            k += 1
        if n + (2 - L) <= 13 and jleft and (L == 2 or bridge):
            acts[r, k] = 2
            k += 1
        if k == 0:
            return np.zeros((0, OPT_COLS), dtype=np.int64)
        nacts[r] = k
    total = 1
    for r in range(nr):
        total *= nacts[r]
    pendb = np.zeros(2, dtype=np.int64)
    npend = 0
    for b in (1, 2):
        if pend & b:
            pendb[npend] = b
            npend += 1
    out = np.zeros((64, OPT_COLS), dtype=np.int64)
    nout = 0
    idx = np.zeros(4, dtype=np.int64)
    chosen = np.zeros(4, dtype=np.int64)
    newL = np.zeros(8, dtype=np.int64)
    newM = np.zeros(8, dtype=np.int64)
    picks = np.zeros(3, dtype=np.int64)
    for t in range(total):
        # itertools.product order: the last run varies fastest
        rem = t
        for r in range(nr - 1, -1, -1):
            idx[r] = rem % nacts[r]
            rem //= nacts[r]
        rr = 0
        jr = 0
        closes = 0
        twos = 0
        acode = 0
        for r in range(nr):
            a = acts[r, idx[r]]
            chosen[r] = a
            acode |= a << (2 * r)
            if a == 1:
                rr += 1
            elif a == 2:
                jr += 1
            else:
                closes += 1
            if Ls[r] == 1 and a != 0:
                twos += 1
        if rr > avail or jr > jleft:
            continue
        can_start = n <= 11 and closes == 0
        base = nr - closes
        max_sr = avail - rr if can_start else 0
        max_sj = jleft - jr if can_start and (n == 11 or kept_here or kept_next) and (
            nxt1 or (jleft - jr >= 2 and nxt2)) else 0
        for sr in range(0, max_sr + 1):
            for sj in range(0, max_sj + 1):
                if base + sr + sj > MAX_RUNS:
                    break
                ones = sr + sj
                short = ones + twos
                if (max(0, short - av1) + max(0, ones - av2)) > jleft - jr - sj:
                    continue
                units = jr + sj
                npick = 1
                picks[0] = 0
                if units and npend:
                    size = min(units, npend)
                    if size == 2:
                        picks[0] = pendb[0] | pendb[1]
                    else:
                        npick = npend
                        for q in range(npend):
                            picks[q] = pendb[q]
                for pq in range(npick):
                    pick = picks[pq]
                    for order in range(n_orders):
                        # advance()
                        nn = 0
                        cleared = 0
                        for r in range(nr):
                            a = chosen[r]
                            if a == 0:
                                continue
                            mark = Ms[r]
                            if track:
                                mark, cl = _mark(rp, c, n, mark, a == 1, flags & ~cleared, order)
                                cleared |= cl
                            newL[nn] = min(3, Ls[r] + 1)
                            newM[nn] = mark
                            nn += 1
                        for _ in range(sr):
                            mark = 0
                            if track:
                                mark, cl = _mark(rp, c, n, 0, True, flags & ~cleared, order)
                                cleared |= cl
                            newL[nn] = 1
                            newM[nn] = mark
                            nn += 1
                        cleared |= pick
                        for _ in range(sj):
                            newL[nn] = 1
                            newM[nn] = 0
                            nn += 1
                        vals = np.empty(nn, dtype=np.int64)
                        for q in range(nn):
                            vals[q] = newL[q] << 4 | newM[q]
                        sort_small(vals, nn)
                        ncode = 0
                        for q in range(nn):
                            ncode |= vals[q] << (6 * q)
                        dup = False
                        for q in range(nout):
                            if (out[q, 0] == ncode and out[q, 1] == rr + sr and out[q, 2] == jr + sj
                                    and out[q, 3] == cleared):
                                dup = True
                                break
                        if dup:
                            continue
                        if nout == out.shape[0]:
                            out = grow_rows(out)
                        out[nout, 0] = ncode
                        out[nout, 1] = rr + sr
                        out[nout, 2] = jr + sj
                        out[nout, 3] = cleared
                        out[nout, 4] = closes
                        out[nout, 5] = acode
                        out[nout, 6] = sr
                        out[nout, 7] = sj
                        out[nout, 8] = pick
                        out[nout, 9] = order
                        nout += 1
    return out[:nout].copy()


# the driver's control vector: stack depth, mode, returned value, then the pending call's arguments
SP, MODE, RET, ARGS = 0, 1, 2, 3
ENTER, RETURN, NEXT = 0, 1, 2
DONE, GROW_OUTCOMES, CAPPED_STATUS, GROW_MEMO, GROW_OPTIONS = 0, 2, 3, 4, 5
# frame fields (K_OKEY: a number's pattern signature; K_OREF: the pool reference of the frame's
# options, of a number's outcomes for its current jokers K_GR)
(K_KIND, K_N, K_C, K_R0, K_G, K_JU, K_FLAGS, K_ROOM, K_ALPHA, K_BETA, K_KEY1, K_KEY2, K_RES, K_CHOICE,
 K_I, K_GR, K_OKEY, K_GAIN, K_STOP, K_OREF) = (0, 1, 2, 3, 7, *range(8, 23))
NF = 23
DEPTH = 160


# the memo: an open-addressing table of (key1, key2) -> (value, choice << 2 | kind), a row of
# four integers a slot; mc[0] counts the states. Tables are reused from DP to DP without being
# cleared (`_take_table`): key2's bits 56-62 hold the generation of the DP that wrote the slot,
# and a slot of another generation is free
MEMO_SIZE = 1 << 15
MAX_GEN = 127
GEN_SHIFT = 56
KEY_BITS = (1 << GEN_SHIFT) - 1
_H1 = np.uint64(0x9E3779B97F4A7C15)
_H2 = np.uint64(0xC2B2AE3D27D4EB4F)


@compiled()
def _find(index, key):
    """The row of `key` (never 0) in an open-addressing index of (key, value) rows, or the empty
    row where it would go."""
    mask = index.shape[0] - 1
    h = np.uint64(key) * _H1
    i = np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))
    while True:
        k = index[i, 0]
        if k == key or k == 0:
            return i
        i = (i + 1) & mask


@compiled()
def _reindex(index, into):
    """Every entry of `index` moved into the (larger, empty) index `into`."""
    for i in range(index.shape[0]):
        if index[i, 0]:
            j = _find(into, index[i, 0])
            into[j, 0] = index[i, 0]
            into[j, 1] = index[i, 1]


@compiled()
def _slot(memo, key1, key2, gen):
    """The slot of (key1, key2) in the memo table as generation `gen` writes it, or the free slot
    where it would go."""
    mask = np.uint64(memo.shape[0] - 1)
    h = np.uint64(key1) * _H1 ^ np.uint64(key2) * _H2
    i = np.int64((h ^ (h >> np.uint64(29))) & mask)
    tagged = key2 | gen << GEN_SHIFT
    while True:
        k2 = memo[i, 1]
        if k2 >> GEN_SHIFT != gen or (k2 == tagged and memo[i, 0] == key1):
            return i
        i = (i + 1) & (memo.shape[0] - 1)


@compiled()
def _keys(runs, n, c, ju, flags, room, g):
    """A state's memo keys: key1 holds the first two colours' runs, the number and colour, the
    jokers used, the flags and the room; key2 the last two colours' runs and the group tiles."""
    return (runs[0] | runs[1] << 24 | n << 48 | c << 52 | ju << 55 | flags << 58 | room << 60,
            runs[2] | runs[3] << 24 | g << 48)


@compiled()
def _found(memo, slot, key1, key2, gen):
    """Whether `slot` holds the state (key1, key2) of generation `gen`."""
    return memo[slot, 1] == key2 | gen << GEN_SHIFT and memo[slot, 0] == key1


@compiled()
def _store(memo, mc, slot, key1, key2, gen, value, choice, kind):
    if not _found(memo, slot, key1, key2, gen):
        mc[0] += 1
        memo[slot, 0] = key1
        memo[slot, 1] = key2 | gen << GEN_SHIFT
    memo[slot, 2] = value
    memo[slot, 3] = choice << 2 | kind


@compiled()
def _rehash(memo, gen, into, into_gen):
    """Every state of generation `gen` in `memo` moved into the table `into`, as `into_gen`."""
    for i in range(memo.shape[0]):
        if memo[i, 1] >> GEN_SHIFT == gen:
            key1 = memo[i, 0]
            key2 = memo[i, 1] & KEY_BITS
            j = _slot(into, key1, key2, into_gen)
            into[j, 0] = key1
            into[j, 1] = key2 | into_gen << GEN_SHIFT
            into[j, 2] = memo[i, 2]
            into[j, 3] = memo[i, 3]


#: memo tables left by finished DPs, each with the last generation written in it
_SPARE_TABLES: list[tuple[np.ndarray, int]] = []
SPARE_TABLES = 4
#: larger tables are not kept (one giant DP would hold its memory)
SPARE_MAX_SIZE = 1 << 20


def _take_table(size: int) -> tuple[np.ndarray, int]:
    """A memo table of at least `size` slots (the smallest spare one, else a new one) and a
    generation no slot of it holds."""
    fits = [i for i, (t, _) in enumerate(_SPARE_TABLES) if t.shape[0] >= size]
    if fits:
        table, gen = _SPARE_TABLES.pop(min(fits, key=lambda i: _SPARE_TABLES[i][0].shape[0]))
    else:
        table, gen = np.zeros((size, 4), dtype=np.int64), 0
    gen += 1
    if gen > MAX_GEN:
        table[:, 1] = 0
        gen = 1
    return table, gen


def _give_back(table: np.ndarray, gen: int) -> None:
    """Keep a table no DP uses any more for the next ones (the largest few)."""
    if table.shape[0] <= SPARE_MAX_SIZE:
        _SPARE_TABLES.append((table, gen))
        if len(_SPARE_TABLES) > SPARE_TABLES:
            _SPARE_TABLES.remove(min(_SPARE_TABLES, key=lambda tg: tg[0].shape[0]))


@compiled()
def _push(stack, sp, kind, n, c, runs, g, ju, flags, room, alpha, beta, key1, key2, okey, oref):
    """A new frame at stack[sp] for a call of best() (kind 0) or _close_number (kind 1), before its
    first child."""
    stack[sp, K_KIND] = kind
    stack[sp, K_N] = n
    stack[sp, K_C] = c
    stack[sp, K_R0] = runs[0]
    stack[sp, K_R0 + 1] = runs[1]
    stack[sp, K_R0 + 2] = runs[2]
    stack[sp, K_R0 + 3] = runs[3]
    stack[sp, K_G] = g
    stack[sp, K_JU] = ju
    stack[sp, K_FLAGS] = flags
    stack[sp, K_ROOM] = room
    stack[sp, K_ALPHA] = alpha
    stack[sp, K_BETA] = beta
    stack[sp, K_KEY1] = key1
    stack[sp, K_KEY2] = key2
    stack[sp, K_RES] = NEG
    stack[sp, K_CHOICE] = -1
    stack[sp, K_I] = -1
    stack[sp, K_GR] = 0
    stack[sp, K_OKEY] = okey
    stack[sp, K_STOP] = 0
    stack[sp, K_OREF] = oref


@compiled()
def _frame_runs(stack, top):
    """The open runs of the frame at stack[top]."""
    return stack[top, K_R0], stack[top, K_R0 + 1], stack[top, K_R0 + 2], stack[top, K_R0 + 3]


@compiled()
def _groups_short(g, c, n, runs, jleft, F, O):
    """`TableDP.best`'s group-tile bound: can the colours still to come (each giving at most as
    many group tiles as the colour with the most so far, less the tiles its short runs must
    take at n) and the jokers left not fill the groups that colour needs?"""
    mx = 0
    tot = 0
    for i in range(c):
        x = (g >> (2 * i)) & 3
        tot += x
        if x > mx:
            mx = x
    if not mx:
        return False
    rest = 0
    for cc in range(c, 4):
        free = F[cc, n] + O[cc, n]
        if free:
            free -= _short(runs[cc])
            if free > 0:
                rest += mx if free > mx else free
    return tot + rest + jleft < 3 * mx


@compiled()
def _options_key(c, n, rcode, jleft, flags, F, O, csig):
    """The key of face (c, n)'s options in the shared cache: all `_colour_options` reads."""
    av1 = F[c, n + 1] + O[c, n + 1] if n < 13 else 0
    av2 = F[c, n + 2] + O[c, n + 2] if n < 12 else 0
    return (rcode | n << 24 | jleft << 28 | (F[c, n] + O[c, n]) << 31 | av1 << 34 | av2 << 37
            | flags << 40 | (csig[c, n] if flags else 0) << 42)


@compiled(nrt=True)
def _run(ctl, stack, A, memo, mc, oidx, opool, gidx, gpool, used, miss):  # noqa: C901
    """`TableDP.best` as a loop over an explicit stack, so that it can stop when an option set
    is missing from the caches or a pool is full (`miss` names what; Python fills it and calls
    again: the pending call is entered again from the start, which reads only) and go on
    exactly where it was."""
    F, O, W, suffix, keepm, sortg, pats, csig, gsig, ints, rp, gpat = A
    fj = ints[0]
    jtot = ints[1]
    jw = ints[2]
    last = ints[3]
    cap = ints[4]
    gen = ints[5]
    sp = ctl[SP]
    mode = ctl[MODE]
    ret = ctl[RET]
    n = ctl[ARGS]
    c = ctl[ARGS + 1]
    runs = (ctl[ARGS + 2], ctl[ARGS + 3], ctl[ARGS + 4], ctl[ARGS + 5])
    g = ctl[ARGS + 6]
    ju = ctl[ARGS + 7]
    flags = ctl[ARGS + 8]
    room = ctl[ARGS + 9]
    alpha = ctl[ARGS + 10]
    beta = ctl[ARGS + 11]
    while True:
        if mode == ENTER:
            # ---------------------------------------------------------------- a call of best()
            if c == 0 and (n == 14 or (n > last and not flags and (ju == jtot or not _any_short(runs)))):
                # _terminal
                mode = RETURN
                if flags or _any_short(runs):
                    ret = NEG
                    continue
                if runs[0] or runs[1] or runs[2] or runs[3]:
                    room = min(2, room + (1 if n - 1 == 12 else 2))
                rf = fj - ju if fj > ju else 0
                ro = jtot - ju - rf
                ret = NEG if rf > room else jw * min(ro, room - rf)
                continue
            # the call as entered, kept for a miss (entering again reads only)
            ctl[ARGS] = n
            ctl[ARGS + 1] = c
            ctl[ARGS + 6] = g
            ctl[ARGS + 9] = room
            ctl[ARGS + 2] = runs[0]
            ctl[ARGS + 3] = runs[1]
            ctl[ARGS + 4] = runs[2]
            ctl[ARGS + 5] = runs[3]
            ctl[ARGS + 7] = ju
            ctl[ARGS + 8] = flags
            ctl[ARGS + 10] = alpha
            ctl[ARGS + 11] = beta
            if 2 * (mc[0] + DEPTH + 2) > memo.shape[0]:
                # the memo table could fill before the next call: Python doubles it, calls again
                ctl[SP] = sp
                ctl[MODE] = ENTER
                return GROW_MEMO
            if c < 4 and runs[c] == 0 and F[c, n] + O[c, n] == 0:
                # _skip
                while c < 4 and runs[c] == 0 and F[c, n] + O[c, n] == 0 and (
                        ju == jtot or (n != 11 and not (flags & keepm[c, n]))):
                    g = _gput(g, c, 0, sortg[n])
                    c += 1
            # _close_number (c == 4) or one colour's options (c < 4): the same probe and bounds
            if room > jtot - ju:
                room = jtot - ju          # room beyond the spare jokers is irrelevant
            key1, key2 = _keys(runs, n, c, ju, flags, room, g)
            slot = _slot(memo, key1, key2, gen)
            if _found(memo, slot, key1, key2, gen):
                hv = memo[slot, 2]
                hk = memo[slot, 3] & 3
                if hk == EXACT or ((hv <= alpha) if hk == UPPER else (hv >= beta)):
                    ret = hv
                    mode = RETURN
                    continue
            if cap >= 0 and mc[0] >= cap:
                ctl[SP] = 0
                return CAPPED_STATUS
            ub = suffix[(n - 1) * 4 + c] + jw * (jtot - (ju if ju > fj else fj))
            if ub <= alpha:
                ret = ub
                mode = RETURN
                continue
            if c == 4:
                okey = gsig[n, flags]
                for gj in range(0, jtot - ju + 1):
                    gkey = (g | gj << 8 | okey << 12) + 1
                    row = _find(gidx, gkey)
                    if gidx[row, 0] == 0:
                        outs = _group_outcomes(g, gj, gpat, n, flags)
                        start = used[1]
                        if start + outs.shape[0] > gpool.shape[0] or 2 * (used[3] + 1) > gidx.shape[0]:
                            ctl[SP] = sp
                            ctl[MODE] = ENTER
                            miss[3] = outs.shape[0]
                            return GROW_OUTCOMES
                        for i in range(outs.shape[0]):
                            gpool[start + i] = outs[i]
                        used[1] = start + outs.shape[0]
                        used[3] += 1
                        gidx[row, 0] = gkey
                        gidx[row, 1] = start << 16 | outs.shape[0]
                oref = gidx[_find(gidx, (g | okey << 12) + 1), 1]
            else:
                if (flags != 0 and not _alive(n, c, runs, ju, flags, jtot, F, O, pats)) or (
                        c > 0 and _groups_short(g, c, n, runs, jtot - ju, F, O)):
                    _store(memo, mc, slot, key1, key2, gen, NEG, -1, EXACT)
                    ret = NEG
                    mode = RETURN
                    continue
                okey = _options_key(c, n, runs[c], jtot - ju, flags, F, O, csig)
                row = _find(oidx, okey)
                oref = oidx[row, 1]
                if oidx[row, 0] == 0:
                    rows = _colour_options(c, n, runs[c], jtot - ju, flags, F, O, keepm, rp)
                    nrow = rows.shape[0]
                    start = used[0]
                    if start + nrow > opool.shape[0] or 2 * (used[2] + 1) > oidx.shape[0]:
                        ctl[SP] = sp
                        ctl[MODE] = ENTER
                        miss[3] = nrow
                        return GROW_OPTIONS
                    for i in range(nrow):
                        for j in range(OPT_COLS):
                            opool[start + i, j] = rows[i, j]
                    used[0] = start + nrow
                    used[2] += 1
                    oref = start << 16 | nrow
                    oidx[row, 0] = okey
                    oidx[row, 1] = oref
            _push(stack, sp, 1 if c == 4 else 0, n, c, runs, g, ju, flags, room, alpha, beta, key1, key2,
                  okey, oref)
            sp += 1
            mode = NEXT
            continue
        if mode == RETURN:
            # ---------------------------------------------------------------- a child returned ret
            if sp == 0:
                ctl[SP] = 0
                ctl[RET] = ret
                return DONE
            top = sp - 1
            if ret > NEG // 2:
                val = ret + stack[top, K_GAIN]
                if val > stack[top, K_RES]:
                    stack[top, K_RES] = val
                    if stack[top, K_KIND] == 0:
                        stack[top, K_CHOICE] = stack[top, K_I] * 8 + stack[top, K_GR]
                    else:
                        outcome = gpool[(stack[top, K_OREF] >> 16) + stack[top, K_I]]
                        stack[top, K_CHOICE] = stack[top, K_GR] | outcome
                    if val >= stack[top, K_BETA]:
                        stack[top, K_STOP] = 1
            mode = NEXT
            continue
        # -------------------------------------------------------------------- the top frame's next child
        top = sp - 1
        fn = stack[top, K_N]
        fc = stack[top, K_C]
        fju = stack[top, K_JU]
        res = stack[top, K_RES]
        falpha = stack[top, K_ALPHA]
        child = False
        if not stack[top, K_STOP]:
            if stack[top, K_KIND] == 0:
                o0 = stack[top, K_OREF] >> 16
                nopts = stack[top, K_OREF] & 0xFFFF
                Fc = F[fc, fn]
                Oc = O[fc, fn]
                i = stack[top, K_I]
                gr = stack[top, K_GR] - 1
                while True:
                    if i >= 0:
                        lo = Fc - opool[o0 + i, 1]
                        if gr >= (lo if lo > 0 else 0):
                            child = True
                            break
                    i += 1
                    if i >= nopts:
                        break
                    hi = Fc + Oc - opool[o0 + i, 1]
                    gr = hi if hi < 3 else 3
                if child:
                    stack[top, K_I] = i
                    stack[top, K_GR] = gr
                    rr = opool[o0 + i, 1]
                    jr = opool[o0 + i, 2]
                    froom = stack[top, K_ROOM]
                    nju = fju + jr
                    jgain = (nju - fj - (fju - fj if fju > fj else 0)) * jw if jr and nju > fj else 0
                    closes = opool[o0 + i, 4] if froom < 2 else 0
                    gain = (rr + gr - Fc) * W[fc, fn] + jgain
                    stack[top, K_GAIN] = gain
                    n = fn
                    c = fc + 1
                    runs = _put(_frame_runs(stack, top), fc, opool[o0 + i, 0])
                    g = _gput(stack[top, K_G], fc, gr, sortg[fn])
                    ju = nju
                    flags = stack[top, K_FLAGS] & ~opool[o0 + i, 3]
                    room = froom if not closes else min(2, froom + closes * (1 if fn - 1 == 12 else 2))
                    alpha = (res if res > falpha else falpha) - gain
                    beta = stack[top, K_BETA] - gain
            else:
                gj = stack[top, K_GR]
                i = stack[top, K_I] + 1
                oref = stack[top, K_OREF]
                while True:
                    if i < (oref & 0xFFFF):
                        child = True
                        break
                    gj += 1
                    i = 0
                    if gj > jtot - fju:
                        break
                    oref = gidx[_find(gidx, (stack[top, K_G] | gj << 8 | stack[top, K_OKEY] << 12) + 1), 1]
                if child:
                    stack[top, K_I] = i
                    stack[top, K_GR] = gj
                    stack[top, K_OREF] = oref
                    out = gpool[(oref >> 16) + i]
                    nju = fju + gj
                    jgain = ((nju - fj if nju > fj else 0) - (fju - fj if fju > fj else 0)) * jw
                    stack[top, K_GAIN] = jgain
                    n = fn + 1
                    c = 0
                    runs = _frame_runs(stack, top)
                    g = 0
                    ju = nju
                    flags = stack[top, K_FLAGS] & ~((out >> 4) & 15)
                    room = min(2, stack[top, K_ROOM] + (out >> 8))
                    alpha = (res if res > falpha else falpha) - jgain
                    beta = stack[top, K_BETA] - jgain
        if child:
            mode = ENTER
            continue
        # the frame is done: store it, return its value
        key1 = stack[top, K_KEY1]
        key2 = stack[top, K_KEY2]
        _store(memo, mc, _slot(memo, key1, key2, gen), key1, key2, gen, res, stack[top, K_CHOICE],
               LOWER if res >= stack[top, K_BETA] else EXACT if res > falpha else UPPER)
        ret = res
        sp -= 1
        mode = RETURN


@compiled(nrt=True)
def _plan(A, memo, oidx, opool, all_flags, runs_out, groups_out, counts):  # noqa: C901
    """`TableDP.plan` from the memo: the optimal choices replayed from the root. Runs go to
    `runs_out` as (colour, first number, length, joker positions mask) in `plan`'s order (as they
    close, then the open ones colour by colour); the groups of each number with group tiles or
    jokers to `groups_out` as (number, real tiles per colour, jokers, cleared bits, room, flags
    before), for `group_outcomes`."""
    F, O, W, suffix, keepm, sortg, pats, csig, gsig, ints, rp, gpat = A
    jtot = ints[1]
    last = ints[3]
    gen = ints[5]
    runs = (0, 0, 0, 0)
    g = 0
    real_g = 0
    ju = 0
    flags = all_flags
    room = 0
    n = 1
    c = 0
    # live runs per colour: descriptor (length class << 4 | mark), first number, length, joker mask
    ld = np.zeros((4, 8), dtype=np.int64)
    ls = np.zeros((4, 8), dtype=np.int64)
    ll = np.zeros((4, 8), dtype=np.int64)
    lj = np.zeros((4, 8), dtype=np.int64)
    ln = np.zeros(4, dtype=np.int64)
    nd = np.zeros(8, dtype=np.int64)
    ns = np.zeros(8, dtype=np.int64)
    nl = np.zeros(8, dtype=np.int64)
    nj = np.zeros(8, dtype=np.int64)
    nruns = 0
    ngroups = 0
    while True:
        if room > jtot - ju:
            room = jtot - ju
        settled = not flags and (ju == jtot or not _any_short(runs))
        if c < 4 and n <= 13 and not (c == 0 and n > last and settled):
            while c < 4 and runs[c] == 0 and F[c, n] + O[c, n] == 0 and (
                    ju == jtot or (n != 11 and not (flags & keepm[c, n]))):
                g = _gput(g, c, 0, sortg[n])
                c += 1
        if c == 4:
            key1, key2 = _keys(runs, n, 4, ju, flags, room, g)
            ch = memo[_slot(memo, key1, key2, gen), 3] >> 2
            if real_g or ch & 15:       # else no group at n
                groups_out[ngroups, 0] = n
                groups_out[ngroups, 1] = real_g
                groups_out[ngroups, 2] = ch & 15
                groups_out[ngroups, 3] = (ch >> 4) & 15
                groups_out[ngroups, 4] = ch >> 8
                groups_out[ngroups, 5] = flags
                ngroups += 1
            room = min(2, room + (ch >> 8))
            ju += ch & 15
            flags &= ~((ch >> 4) & 15)
            n += 1
            c = 0
            g = 0
            real_g = 0
            continue
        if c == 0 and (n == 14 or (n > last and settled)):
            break
        key1, key2 = _keys(runs, n, c, ju, flags, room, g)
        ch = memo[_slot(memo, key1, key2, gen), 3] >> 2
        okey = _options_key(c, n, runs[c], jtot - ju, flags, F, O, csig)
        row = _find(oidx, okey)
        oref = oidx[row, 1]
        if oidx[row, 0] == okey:
            opt = opool[(oref >> 16) + (ch >> 3)]
        else:                           # the caches were emptied since the solve
            opt = _colour_options(c, n, runs[c], jtot - ju, flags, F, O, keepm, rp)[ch >> 3]
        gr = ch & 7
        closes = opt[4]
        if closes:
            room = min(2, room + closes * (1 if n - 1 == 12 else 2))
        # advance() with payloads: the live runs in descriptor order (a stable sort)
        cnt = ln[c]
        for i in range(1, cnt):
            j = i
            while j > 0 and ld[c, j - 1] > ld[c, j]:
                for arr in (ld, ls, ll, lj):
                    tmp = arr[c, j - 1]
                    arr[c, j - 1] = arr[c, j]
                    arr[c, j] = tmp
                j -= 1
        track = rp[c, 4, 0] > 0 and flags != 0
        order = opt[9]
        cleared = 0
        m = 0
        for r in range(cnt):
            a = (opt[5] >> (2 * r)) & 3
            if a == 0:
                runs_out[nruns, 0] = c
                runs_out[nruns, 1] = ls[c, r]
                runs_out[nruns, 2] = ll[c, r]
                runs_out[nruns, 3] = lj[c, r]
                nruns += 1
                continue
            mark = ld[c, r] & 15
            if track:
                mark, cl = _mark(rp, c, n, mark, a == 1, flags & ~cleared, order)
                cleared |= cl
            nd[m] = min(3, (ld[c, r] >> 4) + 1) << 4 | mark
            ns[m] = ls[c, r]
            nl[m] = ll[c, r] + 1
            nj[m] = lj[c, r] | ((1 << ll[c, r]) if a == 2 else 0)
            m += 1
        for _ in range(opt[6]):
            mark = 0
            if track:
                mark, cl = _mark(rp, c, n, 0, True, flags & ~cleared, order)
                cleared |= cl
            nd[m] = 1 << 4 | mark
            ns[m] = n
            nl[m] = 1
            nj[m] = 0
            m += 1
        for _ in range(opt[7]):
            nd[m] = 1 << 4
            ns[m] = n
            nl[m] = 1
            nj[m] = 1
            m += 1
        for i in range(m):
            ld[c, i] = nd[i]
            ls[c, i] = ns[i]
            ll[c, i] = nl[i]
            lj[c, i] = nj[i]
        ln[c] = m
        runs = _put(runs, c, opt[0])
        g = _gput(g, c, gr, sortg[n])
        real_g |= gr << (2 * c)
        ju += opt[2]
        flags &= ~opt[3]
        c += 1
    for c in range(4):
        for r in range(ln[c]):
            runs_out[nruns, 0] = c
            runs_out[nruns, 1] = ls[c, r]
            runs_out[nruns, 2] = ll[c, r]
            runs_out[nruns, 3] = lj[c, r]
            nruns += 1
    counts[0] = nruns
    counts[1] = ngroups


def supported(table_dp: TableDP) -> bool:
    """Whether the packed state can hold this DP (always, for positions of the real tile set:
    at most two jokers, two copies of a face)."""
    return (len(table_dp.patterns) <= 2 and table_dp.jtot <= 7
            and max(max(map(add, f, o)) for f, o in zip(table_dp.F, table_dp.O)) <= 7)


_NO_PATTERNS = (np.zeros((4, 16), dtype=np.int64), np.ones(16, dtype=np.bool_),
                np.zeros((0, 3), dtype=np.int64), np.zeros((4, 16), dtype=np.int64),
                np.zeros((16, 4), dtype=np.int64), np.zeros((4, 5, 4), dtype=np.int64),
                np.zeros((16, 4, GP_COLS), dtype=np.int64))
_PATTERN_ARRAYS: dict[tuple, tuple] = {}


def _pattern_arrays(key: tuple, t: TableDP) -> tuple:
    """The kernel's arrays for the joker patterns of `t` (the same for every DP with these
    patterns: kept, as table jokers stay from turn to turn)."""
    got = _PATTERN_ARRAYS.get(key)
    if got is not None:
        return got
    keepm = np.zeros((4, 16), dtype=np.int64)
    for (c, n), bits in t.keep.items():
        for b in bits:
            keepm[c, n] |= b
    sortg = np.array([n not in t.group_pats and n not in t.keeps_at for n in range(16)], dtype=np.bool_)
    pats = np.zeros((len(t.patterns), 3), dtype=np.int64)
    for i, p in enumerate(t.patterns):
        if p[0] == "run":
            pats[i] = (0, p[1], p[2])
        else:
            pats[i] = (1, sum(1 << rc for rc in p[2]), p[1])
    csig = np.zeros((4, 16), dtype=np.int64)
    gsig = np.zeros((16, 4), dtype=np.int64)
    gpat = np.zeros((16, 4, GP_COLS), dtype=np.int64)
    for c in range(4):
        if not t.run_pats[c] and not any(cc == c for cc, _ in t.keep):
            continue                      # signature 0: colour_options reads no pattern here
        for n in range(1, 14):
            # what colour_options reads of the patterns at (c, n): where n stands to each run
            # pattern of colour c, and the jokers with an old role here or at n + 1
            runp = tuple((b, n == v, n in m, n < v, n >= top) for b, v, m, top in t.run_pats[c])
            csig[c, n] = _sig((runp, tuple(t.keep.get((c, n), ())), tuple(t.keep.get((c, n + 1), ()))))
    for n in sorted(v for v in {*t.group_pats, *t.keeps_at} if 1 <= v <= 13):
        for flags in range(4):
            pk = (tuple((bit, roles, mates) for bit, roles, mates in t.group_pats.get(n, ()) if flags & bit),
                  tuple((bit, cols) for bit, cols in t.keeps_at.get(n, ()) if flags & bit))
            if pk != ((), ()):
                s = _sig(("group", pk))
                _GROUP_SIGS[s] = pk
                gsig[n, flags] = s
                gpat[n, flags] = _group_pattern_row(*pk)
    rp = np.zeros((4, 5, 4), dtype=np.int64)
    for c in range(4):
        rp[c, 4, 0] = len(t.run_pats[c])
        for j, (b, v, mates, top) in enumerate(t.run_pats[c]):
            rp[c, j] = (b, v, sum(1 << m for m in mates), top)
    if len(_PATTERN_ARRAYS) > 10_000:
        _PATTERN_ARRAYS.clear()
    got = _PATTERN_ARRAYS[key] = (keepm, sortg, pats, csig, gsig, rp, gpat)
    return got


#: the control vector, stack and pool request of the DP being solved (one at a time: a solve
#: starts from the root, each DP's progress is in its memo)
_SCRATCH = (np.zeros(ARGS + 12, dtype=np.int64), np.zeros((DEPTH, NF), dtype=np.int64),
            np.zeros(6, dtype=np.int64))


class Kernel:
    """The compiled DP of one `TableDP`: its arrays, its memo table (`memo`, `mc`: see `_slot`;
    given back for the next DPs when the kernel goes) and a `MemoView`."""

    def __init__(self, t: TableDP):
        self.all_flags = t.all_flags
        F = np.array(t.F, dtype=np.int64)
        O = np.array(t.O, dtype=np.int64)
        W = np.array(t.w, dtype=np.int64)
        if t.patterns:
            keepm, sortg, pats, csig, gsig, rp, gpat = _pattern_arrays(tuple(t.patterns), t)
        else:
            keepm, sortg, pats, csig, gsig, rp, gpat = _NO_PATTERNS
        self.csig = csig
        self.memo, gen = _take_table(MEMO_SIZE)
        self.ints = np.array([t.fj, t.jtot, t.jw, t.last, -1, gen], dtype=np.int64)
        suffix = np.array(t.suffix, dtype=np.int64)
        self.arrays = (F, O, W, suffix, keepm, sortg, pats, csig, gsig, self.ints, rp, gpat)
        self.mc = np.zeros(1, dtype=np.int64)

    def solve(self, alpha: int, beta: int, cap: int | None) -> int:
        caches = _caches()
        self.ints[4] = -1 if cap is None else cap
        ctl, stack, miss = _SCRATCH
        ctl[:] = 0
        ctl[MODE] = ENTER
        ctl[ARGS:ARGS + 12] = (1, 0, 0, 0, 0, 0, 0, 0, self.all_flags, 0, alpha, beta)
        while True:
            status = _run(ctl, stack, self.arrays, self.memo, self.mc, caches.option_index,
                          caches.option_rows, caches.outcome_index, caches.outcome_rows, caches.used, miss)
            if status == DONE:
                return int(ctl[RET])
            if status == CAPPED_STATUS:
                raise _dp.StateCap
            if status == GROW_MEMO:
                self._grow_memo()
                continue
            if status == GROW_OPTIONS:
                caches.grow_options(int(miss[3]))
                continue
            caches.grow_outcomes(int(miss[3]))

    def _grow_memo(self) -> None:
        """The states moved to a memo table twice the size."""
        bigger, gen = _take_table(2 * self.memo.shape[0])
        _rehash(self.memo, self.ints[5], bigger, gen)
        _give_back(self.memo, int(self.ints[5]))
        self.memo = bigger
        self.ints[5] = gen

    def __del__(self) -> None:
        if hasattr(self, "ints"):
            _give_back(self.memo, int(self.ints[5]))

    def plan(self) -> tuple[list, list]:
        """`TableDP.plan`: (runs, groups) in its form and order."""
        runs_out = np.zeros((64, 4), dtype=np.int64)
        groups_out = np.zeros((16, 6), dtype=np.int64)
        counts = np.zeros(2, dtype=np.int64)
        caches = _caches()
        _plan(self.arrays, self.memo, caches.option_index, caches.option_rows, self.all_flags, runs_out,
              groups_out, counts)
        runs = [(c, [("joker" if mask >> j & 1 else "real", start + j) for j in range(length)])
                for c, start, length, mask in runs_out[:counts[0]].tolist()]
        gsig = self.arrays[8]
        groups = []
        for n, real_g, gj, cleared, groom, flags in groups_out[:counts[1]].tolist():
            chosen = _groups(real_g, gj, int(gsig[n, flags]))[cleared, groom]
            groups += [(n, colours, jk) for colours, jk in chosen]
        return runs, groups


class MemoView:
    """`TableDP.memo` when the kernel runs: its size (the state count the solver's cap reads)."""

    def __init__(self, kernel: Kernel):
        self.kernel = kernel

    def __len__(self) -> int:
        return int(self.kernel.mc[0])
