"""Move generators for simple bots (spec section 8): new melds from a rack, one-tile extensions."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from simkit.games.rummikub import rules
from simkit.games.rummikub.tiles import GROUP, RUN, Meld


def rack_melds(rack: Sequence[int], jokers: bool = True, max_jokers: int = 2) -> list[Meld]:
    """Every valid meld that can be built from rack tiles alone (one tile id per face,
    jokers filling gaps or the missing colours). Order: runs by colour and start, then groups."""
    by_face: list[int | None] = [None] * 52
    jk = []
    for t in sorted(rack):
        if t >= 104:
            jk.append(t)
        elif by_face[t >> 1] is None:
            by_face[t >> 1] = t
    jk = jk[:max_jokers] if jokers else []
    out: list[Meld] = []
    for c in range(4):
        out += _colour_runs(by_face[c * 13:c * 13 + 13], jk)
    for v in range(1, 14):
        out += _number_groups([t for t in by_face[v - 1::13] if t is not None], jk)
    return out


def _colour_runs(row: list[int | None], jk: list[int]) -> list[Meld]:
    """Runs in one colour (`row`: a tile id or None per number 1..13), by start: from each start
    on, every run of 3+ tiles with at least one real tile, jokers filling the missing numbers."""
    nj = len(jk)
    if nj == 0 and sum(1 for t in row if t is not None) < 3:
        return []
    out = []
    for s in range(11):
        if row[s] is None and nj == 0:
            continue
        tiles: list[int] = []
        used = 0
        for t in row[s:]:
            if t is None:
                if used == nj:
                    break
                t = jk[used]
                used += 1
            tiles.append(t)
            if len(tiles) >= 3 and used < len(tiles):
                out.append(Meld(RUN, tuple(tiles)))
    return out


def _number_groups(present: list[int], jk: list[int]) -> list[Meld]:
    """Groups of 3 and 4 of one number from its real tiles `present` (one per colour), jokers
    filling the rest; at least one real tile."""
    out: list[Meld] = []
    if not present or len(present) + len(jk) < 3:
        return out
    for size in (3, 4):
        for k in range(max(1, size - len(jk)), min(size, len(present)) + 1):
            for reals in combinations(present, k):
                out.append(Meld(GROUP, tuple(reals) + tuple(jk[:size - k])))
    return out


def extension_plays(table: tuple[Meld, ...], rack: Sequence[int]) -> list[tuple[Meld, ...]]:
    """Final tables that add one rack tile to one end of a run or to a group (no other change).
    Each final table once: the table's melds differ (no tile is on it twice, R12.1), so two
    finals are equal only when they extend the same meld to the same tiles."""
    out = []
    seen: set[tuple[int, tuple[int, ...]]] = set()
    rack = sorted(set(rack))
    for i, m in enumerate(table):
        if m.kind == GROUP:
            if len(m.tiles) == 4:
                continue
            num = next((t >> 1) % 13 for t in m.tiles if t < 104)
            cols = {(t >> 1) // 13 for t in m.tiles if t < 104}
            fits = [t for t in rack if t >= 104 or ((t >> 1) % 13 == num and (t >> 1) // 13 not in cols)]
            cands = [Meld(GROUP, m.tiles + (t,)) for t in fits]
        else:
            first, last = _run_ends(m)
            cands = []
            for t in rack:
                f = t >> 1
                if t >= 104 or f == last + 1 and f % 13 != 0:
                    cands.append(Meld(RUN, m.tiles + (t,)))
                if t >= 104 or f == first - 1 and first % 13 != 0:
                    cands.append(Meld(RUN, (t,) + m.tiles))
        for new in cands:
            if rules.meld_error(new) is None and (i, new.tiles) not in seen:
                seen.add((i, new.tiles))
                out.append(table[:i] + (new,) + table[i + 1:])
    return out


def _run_ends(m: Meld) -> tuple[int, int]:
    """Faces that the first and last positions of a valid run stand for."""
    i0, t0 = next((i, t) for i, t in enumerate(m.tiles) if t < 104)
    first = (t0 >> 1) - i0
    return first, first + len(m.tiles) - 1


def disjoint_melds_worth(melds: Sequence[Meld], order: Sequence[int],
                         min_points: int) -> tuple[Meld, ...] | None:
    """Add melds in the given order while they stay disjoint; return them once worth >= min_points."""
    used: set[int] = set()
    chosen, total = [], 0
    for i in order:
        m = melds[i]
        if used.isdisjoint(m.tiles):
            chosen.append(m)
            used.update(m.tiles)
            total += rules.meld_value(m)
            if total >= min_points:
                return tuple(chosen)
    return None
