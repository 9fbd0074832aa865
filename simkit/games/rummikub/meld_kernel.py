"""The solver's rack-only search (`solver._Search` for an initial meld or an empty table),
compiled with numba: the same recursion, option for option.

`solver._Search` is the readable reference; it stays in use when `dp.USE_KERNEL` is False or when
a search has table tiles, table jokers or joker patterns (the solver never builds such a search
today). Here the counts are the rack's only: per solver face k = (number - 1) * 4 + colour, 0-2
copies, packed 2 bits a face in two integers (faces 0-31 and 32-51) with the face index, the
jokers left and the points reached; faces below the current one are always empty in a state (a
face is left behind only by keeping its copies), so the packed counts are the key's suffix
`O[k:]`. `_options` lists a face's melds in the reference's order (runs in its stack order, then
groups), so the first strictly better option is the same choice, and `_plan` replays the choices
as `_Search.reconstruct` does. The memo is shared by every search with the same weights and
threshold, as the reference's is (`solver._search_memo`): a state's value and choice are
functions of its key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import types
from numba.typed import Dict

from simkit.engine.kernel_arrays import grow_rows
from simkit.engine.kernel_rng import compiled

NEG = -(1 << 40)
#: option row columns: kind (0 run, 1 group), jokers, lowest number, last real number, jokers
#: beyond the last real (runs), number of faces, then the faces
KIND, NJ, LO, LAST, X, NFACES, FACES = 0, 1, 2, 3, 4, 5, 6
ROW = FACES + 13
_KEY = types.UniTuple(types.int64, 2)
_VAL = types.UniTuple(types.int64, 2)
_NO_ENTRY = (0, -2)


@compiled(nrt=True)
def _options(k, O, jav):  # noqa: C901
    """`_Search._options(k)` without table tiles: rows of (kind, jokers, n, last, x, faces)."""
    n = k // 4 + 1
    c = k % 4
    out = np.zeros((64, ROW), dtype=np.int64)
    nout = 0
    # runs of colour c whose lowest real tile is (c, n): the reference's stack (last in, first out)
    st = np.zeros((64, 16), dtype=np.int64)          # last, gaps, number of faces, faces
    st[0, 0] = n
    st[0, 1] = 0
    st[0, 2] = 1
    st[0, 3] = k
    sp = 1
    while sp:
        sp -= 1
        last = st[sp, 0]
        gaps = st[sp, 1]
        nf = st[sp, 2]
        span = last - n + 1
        for x in range(0, jav - gaps + 1):
            L = span + x
            if 3 <= L <= 13:
                if nout == out.shape[0]:
                    out = grow_rows(out)
                out[nout, KIND] = 0
                out[nout, NJ] = gaps + x
                out[nout, LO] = n
                out[nout, LAST] = last
                out[nout, X] = x
                out[nout, NFACES] = nf
                for q in range(nf):
                    out[nout, FACES + q] = st[sp, 3 + q]
                nout += 1
        # the row at sp is read: pushes may overwrite it from here on
        base = st[sp].copy()
        for m in range(last + 1, 14):
            g = gaps + (m - last - 1)
            if g > jav:
                break
            km = (m - 1) * 4 + c
            if O[km] > 0:
                if sp == st.shape[0]:
                    st = grow_rows(st)
                st[sp, 0] = m
                st[sp, 1] = g
                st[sp, 2] = nf + 1
                for q in range(nf):
                    st[sp, 3 + q] = base[3 + q]
                st[sp, 3 + nf] = km
                sp += 1
    # groups at number n whose lowest real colour is c
    others = np.zeros(3, dtype=np.int64)
    no = 0
    for d in range(1, 4 - c):
        if O[k + d] > 0:
            others[no] = k + d
            no += 1
    for mask in range(1 << no):
        r = 1
        for i in range(no):
            if mask >> i & 1:
                r += 1
        for j in range(max(0, 3 - r), min(4 - r, jav) + 1):
            if nout == out.shape[0]:
                out = grow_rows(out)
            out[nout, KIND] = 1
            out[nout, NJ] = j
            out[nout, LO] = n
            out[nout, NFACES] = r
            out[nout, FACES] = k
            q = 1
            for i in range(no):
                if mask >> i & 1:
                    out[nout, FACES + q] = others[i]
                    q += 1
            nout += 1
    return out[:nout]


@compiled(nrt=True)
def _meld_value(row):
    """`_Search._meld_value`: the points of an option's meld (jokers at their role's value)."""
    nf = row[NFACES]
    nj = row[NJ]
    if row[KIND] == 1:
        return (nf + nj) * (row[FACES] // 4 + 1)
    n = row[LO]
    last = row[LAST]
    x = row[X]
    up = min(x, 13 - last)
    L = last - n + 1 + x
    s = n - (x - up)
    return L * s + L * (L - 1) // 2


@compiled(nrt=True)
def _key(O, k, j, val):
    a = 0
    for f in range(k, 32):
        a |= O[f] << (2 * f)
    b = 0
    for f in range(max(k, 32), 52):
        b |= O[f] << (2 * (f - 32))
    return (a, b | k << 40 | j << 46 | val << 50)


@compiled(nrt=True)
def _best(k, val, O, j, w, jw, min_value, memo):
    """`_Search.best(k, 0, val)` with no table tiles, no table jokers and no patterns."""
    while k < 52 and O[k] == 0:
        k += 1
    if k == 52:
        return 0 if val >= min_value else NEG
    key = _key(O, k, j, val)
    hv, hc = memo.get(key, _NO_ENTRY)
    if hc != -2:
        return hv
    res = NEG
    choice = -1
    save = O[k]
    O[k] = 0
    r = _best(k + 1, val, O, j, w, jw, min_value, memo)
    O[k] = save
    if r > res:
        res = r
    opts = _options(k, O, j)
    for i in range(opts.shape[0]):
        row = opts[i]
        nj = row[NJ]
        if nj > j:
            continue
        gain = 0
        for q in range(row[NFACES]):
            f = row[FACES + q]
            O[f] -= 1
            gain += w[f]
        gain += nj * jw
        nval = val
        if nval < min_value:
            nval = min(min_value, val + _meld_value(row))
        r = _best(k, nval, O, j - nj, w, jw, min_value, memo)
        for q in range(row[NFACES]):
            O[row[FACES + q]] += 1
        if r > NEG and r + gain > res:
            res = r + gain
            choice = i
    memo[key] = (res, choice)
    return res


@compiled(nrt=True)
def _plan(O, j, min_value, memo):
    """`_Search.reconstruct(0, 0)`: the chosen option rows from the root, in order."""
    O = O.copy()
    out = np.zeros((64, ROW), dtype=np.int64)
    nout = 0
    val = 0
    k = 0
    while True:
        while k < 52 and O[k] == 0:
            k += 1
        if k == 52:
            break
        choice = memo[_key(O, k, j, val)][1]
        if choice < 0:
            O[k] = 0
            k += 1
            continue
        row = _options(k, O, j)[choice]
        for q in range(row[NFACES]):
            O[row[FACES + q]] -= 1
        j -= row[NJ]
        if val < min_value:
            val = min(min_value, val + _meld_value(row))
        for q in range(row.shape[0]):
            out[nout, q] = row[q]
        nout += 1
    return out[:nout]


@compiled(nrt=True)
def _new_memo():
    return Dict.empty(_KEY, _VAL)


@compiled(nrt=True)
def _memo_size(memo):
    """`len(memo)`, cached on disk (numba's Python-side `len` compiles in every process)."""
    return len(memo)


_MEMOS: dict[tuple, Any] = {}
#: the shared memos are emptied past this many entries (as `solver.SEARCH_MEMO_LIMIT`)
MEMO_LIMIT = 400_000


def supported(O: list[int], oj: int, min_value: int) -> bool:
    """Whether the packed key holds this search (always, for racks of the real tile set)."""
    return oj <= 7 and 0 <= min_value < 1 << 13 and max(O) <= 3


def search(O: list[int], oj: int, w: Sequence[int], jw: int, min_value: int, memo_key: tuple):
    """The best value of the rack search and its plan as `_Search.reconstruct` gives it:
    (value, [(faces, jokers, layout, 0, kinds), ...]); the plan is None when value <= 0. The
    weights `w` (and `jw`, `min_value`) must be the same for every call with one `memo_key`."""
    from simkit.games.rummikub.tiles import GROUP, RUN

    got = _MEMOS.get(memo_key)
    if got is None or _memo_size(got[0]) > MEMO_LIMIT:
        got = _MEMOS[memo_key] = (_new_memo(), np.array(w, dtype=np.int64))
    memo, weights = got
    counts = np.array(O[:52], dtype=np.int64)
    value = int(_best(0, 0, counts, oj, weights, jw, min_value, memo))
    if value <= 0:
        return value, None
    plan = []
    for row in _plan(counts, oj, min_value, memo).tolist():
        faces = row[FACES:FACES + row[NFACES]]
        layout = (GROUP,) if row[KIND] else (RUN, row[LO], row[LAST], row[X])
        plan.append((faces, row[NJ], layout, 0, [1] * len(faces)))
    return value, plan
