"""The parts of the table DP that both its Python form (`dp.py`) and its compiled form
(`dp_kernel.py`) use: the value bounds, the memo entry kinds, the run cap, the group outcomes of
a number and the state-cap signal. Kept apart so that neither form imports the other at load."""

from __future__ import annotations

from functools import cache

NEG = -(1 << 40)
POS = 1 << 40
# memo entry kinds: the stored value is exact, an upper bound (<= the alpha of its search) or a
# lower bound (>= the beta of its search, which stopped at the first child reaching beta)
UPPER, EXACT, LOWER = 0, 1, 2
MAX_RUNS = 4


@cache
def _partitions(units: tuple[int, ...]):
    """All ways to split real group tiles (colours) into groups with distinct colours.
    Returns a list of tuples of groups, each group a sorted tuple of colours."""
    out = []
    n = len(units)

    def rec(i, groups):
        if i == n:
            out.append(tuple(tuple(sorted(g)) for g in groups))
            return
        c = units[i]
        for g in groups:
            if c not in g and len(g) < 4:
                g.append(c)
                rec(i + 1, groups)
                g.pop()
        groups.append([c])
        rec(i + 1, groups)
        groups.pop()

    rec(0, [])
    return list(dict.fromkeys(out))


@cache
def group_outcomes(g: tuple[int, ...], gj: int, pats: tuple, keeps: tuple = ()) -> tuple:
    """Ways to form the groups of one number: real tiles g[c] of colour c plus gj jokers.

    pats: pending group patterns at this number, as (bit, role colours, mate colours).
    keeps: pending jokers with old roles at this number, as (bit, role colours): a joker in a
    group whose real colours leave one of those roles free keeps its role (R15, not retrieved).
    With keeps, groups of 3 may take a 4th joker.
    Returns ((cleared bitmask, room, groups), ...) for the maximal (mask, room) pairs; room is the
    number of groups of 3 (capped at 2: each can take a spare joker); groups is a tuple of
    (colours, jokers). Empty when no valid split exists.
    """
    units = tuple(c for c in range(4) for _ in range(g[c]))
    if not units:
        return ((0, 0, ()),) if gj == 0 else ()
    found: dict[tuple[int, int], tuple] = {}
    for parts in _partitions(units):
        jokers = _group_jokers(parts, gj, bool(keeps))
        if jokers is None:
            continue
        groups = tuple(zip(parts, jokers))
        room = min(2, sum(1 for p, j in groups if len(p) + j == 3))
        for cleared in _cleared_masks(groups, pats, keeps):
            found.setdefault((cleared, room), groups)
    # keep only maximal (mask, room) pairs
    keys = list(found)
    keep = [k for k in keys if not any(o != k and (o[0] & k[0]) == k[0] and o[1] >= k[1] for o in keys)]
    return tuple((k[0], k[1], found[k]) for k in keep)


def _group_jokers(parts: tuple[tuple[int, ...], ...], gj: int, fourth: bool) -> list[int] | None:
    """Jokers per group when gj jokers complete the groups `parts` (real colours): each group
    first filled to 3, then (`fourth`: jokers may keep roles) spare jokers raise groups to 4 in
    order. None when gj jokers cannot do it."""
    need = sum(max(0, 3 - len(p)) for p in parts)
    if need != gj and (not fourth or gj < need or gj > sum(4 - len(p) for p in parts)):
        return None
    extra = gj - need
    jokers = []
    for p in parts:
        add = min(extra, 4 - max(3, len(p)))
        extra -= add
        jokers.append(max(0, 3 - len(p)) + add)
    return jokers


def _cleared_masks(groups: tuple[tuple[tuple[int, ...], int], ...], pats: tuple, keeps: tuple) -> set[int]:
    """The pattern bits these groups can clear: every group pattern whose role colour lands
    beside a mate colour (one role colour per group serving one pattern), plus any choice of
    old roles kept by the groups' jokers (one role per joker)."""
    base = 0
    for p, _ in groups:
        used_roles: set[int] = set()
        for bit, roles, mates in pats:
            if base & bit:
                continue
            if any(c in mates for c in p):
                free = [c for c in p if c in roles and c not in used_roles]
                if free:
                    used_roles.add(free[0])
                    base |= bit
    masks = {base}
    for p, j in groups:
        for _ in range(j):
            grown = set(masks)
            for m in masks:
                for bit, roles in keeps:
                    if not m & bit and any(c not in p for c in roles):
                        grown.add(m | bit)
            masks = grown
    return masks


def _run_actions(runs: tuple[tuple[int, int], ...], n: int, avail: int, jleft: int,
                 bridge: bool) -> list[list[str]] | None:
    """What each open run of a colour may do at number n: "close" (a run of 3+), "real" (a real
    tile of the face continues it) or "joker"; None when some run can do nothing (a dead end)."""
    per_run = []
    for L, _mark in runs:
        acts = []
        if L == 3:
            acts.append("close")
        if n + (2 - L) <= 13 and avail:
            acts.append("real")
        # a joker continues a run to bridge to a real tile, to complete R R J, or to keep an
        # old role (R J J at the end of a lone tile is the group R J J: same tiles)
        if n + (2 - L) <= 13 and jleft and (L == 2 or bridge):
            acts.append("joker")
        if not acts:
            return None
        per_run.append(acts)
    return per_run


class StateCap(Exception):
    """The DP reached its state cap (`TableDP.cap`); its memo stays valid, so `solve` may be
    called again with a higher cap and goes on where it stopped."""
