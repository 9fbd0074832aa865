"""An exhaustive reference for the solver: every subset of the rack, every partition of the
tiles into melds, every joker placement, checked by the engine's own validator."""

from __future__ import annotations

from itertools import combinations, permutations

from simkit.games.rummikub import rules
from simkit.games.rummikub.tiles import GROUP, RUN, Meld


def _arrangements(tiles: tuple[int, ...]):
    """Every valid meld (kind and order) made of exactly these tiles."""
    reals = [t for t in tiles if t < 104]
    jokers = [t for t in tiles if t >= 104]
    if not reals or len(tiles) < 3:
        return
    nums = [(t >> 1) % 13 + 1 for t in reals]
    cols = [(t >> 1) // 13 for t in reals]
    if len(tiles) <= 4 and len(set(nums)) == 1 and len(set(cols)) == len(cols):
        yield Meld(GROUP, tuple(reals) + tuple(jokers))
    if len(set(cols)) == 1 and len(set(nums)) == len(nums):
        lo, hi = min(nums), max(nums)
        span = hi - lo + 1
        gaps = span - len(reals)
        extra = len(jokers) - gaps
        if gaps < 0 or extra < 0:
            return
        by_num = dict(zip(nums, reals))
        for below in range(extra + 1):
            start = lo - below
            if start < 1 or start + len(tiles) - 1 > 13:
                continue
            slots = [by_num.get(v) for v in range(start, start + len(tiles))]
            for perm in set(permutations(jokers)):
                it = iter(perm)
                yield Meld(RUN, tuple(t if t is not None else next(it) for t in slots))


def _partitions(tiles: tuple[int, ...]):
    """Every partition of `tiles` (sorted, jokers last) into valid melds."""
    if not tiles:
        yield []
        return
    first, rest = tiles[0], tiles[1:]
    if first >= 104:
        return
    for k in range(2, min(12, len(rest)) + 1):
        for others in combinations(rest, k):
            for meld in _arrangements((first,) + others):
                remaining = tuple(t for t in rest if t not in others)
                for tail in _partitions(remaining):
                    yield [meld] + tail


def _score(placed, objective: str) -> int:
    tiles = len(placed)
    points = sum(30 if t >= 104 else (t >> 1) % 13 + 1 for t in placed)
    return tiles * 1000 + points if objective == "tiles" else points * 1000 + tiles


def best_play(table, rack, objective="tiles", retrieval="strict"):
    """The best score of a legal Play, or 0 when none exists (exhaustive)."""
    base = tuple(t for m in table for t in m.tiles)
    subsets = [s for k in range(1, len(rack) + 1) for s in combinations(sorted(rack), k)]
    subsets.sort(key=lambda s: -_score(s, objective))
    for sub in subsets:
        tiles = tuple(sorted(base + sub))
        for part in _partitions(tiles):
            if rules.check_play(table, part, rack, retrieval=retrieval) is None:
                return _score(sub, objective)
    return 0


def best_initial(rack, objective="tiles", min_points=30, jokers=True):
    """The best score of a legal InitialMeld, or 0 (exhaustive)."""
    subsets = [s for k in range(3, len(rack) + 1) for s in combinations(sorted(rack), k)]
    subsets.sort(key=lambda s: -_score(s, objective))
    for sub in subsets:
        for part in _partitions(tuple(sorted(sub))):
            if rules.check_initial_meld(part, rack, min_points=min_points, jokers_allowed=jokers) is None:
                return _score(sub, objective)
    return 0
