"""Rummikub rules as pure functions. Rule numbers refer to docs/rummikub-rules.md."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from simkit.games.rummikub.tiles import GROUP, RUN, Meld, face_of, tile_text, tile_value

#: phases of a match: a seat is to move (R8), or the match has ended (R13, R21, R23)
PLAY = "play"
OVER = "over"


@dataclass(frozen=True)
class Violation:
    """Why a submission fails: the spec rule, the meld (index into the submitted melds, or None)
    and a message a person can act on."""

    rule: str
    meld: int | None
    message: str

    def __str__(self) -> str:
        where = f" (meld {self.meld})" if self.meld is not None else ""
        return f"{self.rule}{where}: {self.message}"


# --------------------------------------------------------------------------- melds (R3-R7)

#: analyse_meld's answers by meld (a pure function, asked again and again for the same table
#: melds by the validator, the move generators and the solver); emptied past MELD_CACHE_LIMIT
_MELD_CACHE: dict[Meld, tuple[str | None, int, dict[int, frozenset[int]]]] = {}
MELD_CACHE_LIMIT = 200_000


def analyse_meld(meld: Meld) -> tuple[str | None, int, dict[int, frozenset[int]]]:
    """(error, value, joker roles) of one meld (R3-R7).

    error is None for a valid meld, else "R<n>: reason". value is the sum of role numbers (R7).
    roles maps each joker id to its role-set of faces: a singleton in a run, the missing colours
    of the group's number in a group (R7). The answer is cached and shared: read it, never
    change the roles dict.
    """
    got = _MELD_CACHE.get(meld)
    if got is None:
        if len(_MELD_CACHE) >= MELD_CACHE_LIMIT:
            _MELD_CACHE.clear()
        got = _MELD_CACHE[meld] = _analyse_meld(meld)
    return got


def _analyse_meld(meld: Meld) -> tuple[str | None, int, dict[int, frozenset[int]]]:
    tiles = meld.tiles
    n = len(tiles)
    if n < 3:
        return f"R3: a meld needs at least 3 tiles, this one has {n}", 0, {}
    reals = [(i, t) for i, t in enumerate(tiles) if t < 104]
    if not reals:
        return "R6: a meld needs at least one real tile", 0, {}
    if meld.kind == RUN:
        if n > 13:
            return f"R5: a run has at most 13 tiles, this one has {n}", 0, {}
        i0, t0 = reals[0]
        col = (t0 >> 1) // 13
        start = (t0 >> 1) % 13 + 1 - i0
        for i, t in reals:
            if (t >> 1) // 13 != col:
                return f"R5: a run is one colour; {tile_text(t)} differs from {tile_text(t0)}", 0, {}
            if (t >> 1) % 13 + 1 != start + i:
                return (f"R5: run numbers must be consecutive in the given order; "
                        f"{tile_text(t)} cannot stand at position {i + 1}"), 0, {}
        if start < 1:
            return f"R5: the run would start at {start} (numbers start at 1)", 0, {}
        if start + n - 1 > 13:
            return (f"R5: the run would reach {start + n - 1}; 13 is the top and there is no "
                    f"wrap-around"), 0, {}
        roles = {t: frozenset((face_of(col, start + i),)) for i, t in enumerate(tiles) if t >= 104}
        return None, n * start + n * (n - 1) // 2, roles
    if meld.kind == GROUP:
        if n > 4:
            return f"R4: a group has at most 4 tiles (one per colour), this one has {n}", 0, {}
        num = (reals[0][1] >> 1) % 13 + 1
        cols = set()
        for _, t in reals:
            if (t >> 1) % 13 + 1 != num:
                return (f"R4: a group is one number; {tile_text(t)} differs from "
                        f"{tile_text(reals[0][1])}"), 0, {}
            c = (t >> 1) // 13
            if c in cols:
                return f"R4: colours in a group must differ; {tile_text(t)} repeats a colour", 0, {}
            cols.add(c)
        free = frozenset(face_of(c, num) for c in range(4) if c not in cols)
        roles = {t: free for t in tiles if t >= 104}
        return None, n * num, roles
    return f"R7: unknown meld kind {meld.kind!r} (allowed: run, group)", 0, {}


def meld_error(meld: Meld) -> str | None:
    return analyse_meld(meld)[0]


def meld_value(meld: Meld) -> int:
    err, value, _ = analyse_meld(meld)
    if err:
        raise ValueError(err)
    return value


def valid_table(table: Iterable[Meld]) -> bool:
    return all(analyse_meld(m)[0] is None for m in table)


# --------------------------------------------------------------------------- submissions

def _tiles_of(melds: Sequence[Meld]) -> list[int]:
    return [t for m in melds for t in m.tiles]


def check_initial_meld(melds: Sequence[Meld], rack: Iterable[int], *, min_points: int = 30,
                       jokers_allowed: bool = True) -> Violation | None:
    """R11 and R16: new valid melds from the rack only, worth >= `min_points` together."""
    if not melds:
        return Violation("R11", None, "an initial meld needs at least one meld")
    rack = set(rack)
    seen: set[int] = set()
    total = 0
    for i, m in enumerate(melds):
        for t in m.tiles:
            if t in seen:
                return Violation("R11", i, f"tile {tile_text(t)} is used twice")
            seen.add(t)
            if t not in rack:
                return Violation("R11", i, f"tile {tile_text(t)} is not on your rack: the initial meld "
                                           f"uses only rack tiles and cannot touch the table")
            if t >= 104 and not jokers_allowed:
                return Violation("R16", i, "jokers may not be part of the initial meld "
                                           "(joker_in_initial_meld=False)")
        err, value, _ = analyse_meld(m)
        if err:
            return Violation("R11", i, f"{m} is not a valid meld: {err}")
        total += value
    if total < min_points:
        return Violation("R11", None,
                         f"the initial meld is worth {total}, it must be worth at least {min_points}")
    return None


def check_play(table0: Sequence[Meld], final: Sequence[Meld], rack: Iterable[int], *,
               retrieval: str = "strict") -> Violation | None:
    """R12 (1-4) and R15: is `final` a legal end-of-turn table after `table0`?"""
    rack = set(rack)
    before = set(_tiles_of(table0))
    seen: set[int] = set()
    for i, m in enumerate(final):
        for t in m.tiles:
            if t in seen:
                return Violation("R12.1", i, f"tile {tile_text(t)} appears twice")
            seen.add(t)
            if t not in before and t not in rack:
                return Violation("R12.1", i, f"tile {tile_text(t)} is neither on the table nor on your rack")
    missing = before - seen
    if missing:
        names = " ".join(tile_text(t) for t in sorted(missing))
        return Violation("R12.3", None, f"table tiles {names} are missing: no table tile goes back to a rack")
    if len(seen) == len(before):
        return Violation("R12.1", None,
                         "no rack tile is added: re-arranging alone is not a play (draw or pass)")
    for i, m in enumerate(final):
        err = analyse_meld(m)[0]
        if err:
            return Violation("R12.2", i, f"{m} is not a valid meld: {err}")
    if retrieval == "strict" and (104 in before or 105 in before):
        return check_retrieval(table0, final)
    return None


def check_retrieval(table0: Sequence[Meld], final: Sequence[Meld]) -> Violation | None:
    """R15 strict: every retrieved table joker has its own replacement among its old meld-mates.

    A joker is retrieved iff its final role-set misses every role it had at turn start. Its
    replacement is a real tile whose face was one of those roles and whose final meld holds a
    real tile of the joker's start meld. Replacements are distinct tiles.
    """
    start: dict[int, tuple[frozenset[int], frozenset[int], int]] = {}
    for k, m in enumerate(table0):
        if 104 in m.tiles or 105 in m.tiles:
            _, _, roles = analyse_meld(m)
            mates = frozenset(t for t in m.tiles if t < 104)
            for j, r in roles.items():
                start[j] = (r, mates, k)
    if not start:
        return None
    where: dict[int, int] = {}
    roles1: dict[int, frozenset[int]] = {}
    for i, m in enumerate(final):
        for t in m.tiles:
            where[t] = i
        if 104 in m.tiles or 105 in m.tiles:
            roles1.update(analyse_meld(m)[2])
    retrieved = [j for j, (r0, _, _) in start.items() if not (r0 & roles1.get(j, frozenset()))]
    if not retrieved:
        return None
    cands = []
    for j in retrieved:
        r0, mates, _ = start[j]
        mate_melds = {where[t] for t in mates}
        cands.append({t for t, i in where.items() if t < 104 and (t >> 1) in r0 and i in mate_melds})
    for j, c in zip(retrieved, cands):
        if not c:
            r0, _, k = start[j]
            faces = "/".join(tile_text(f * 2) for f in sorted(r0))
            return Violation("R15", where.get(j),
                             f"joker {tile_text(j)} (was {faces} in meld {k}) is retrieved without a "
                             f"replacement {faces} beside its old meld-mates")
    if len(retrieved) == 2 and not any(a != b for a in cands[0] for b in cands[1]):
        return Violation("R15", where.get(retrieved[1]), "both jokers are retrieved but only one replacement "
                                                        "tile is beside their old meld-mates")
    return None


# --------------------------------------------------------------------------- scoring (R19-R22)

def rack_value(rack: Iterable[int], joker_points: int = 30) -> int:
    """R20: the sum of face numbers, a joker `joker_points` (R17)."""
    return sum(tile_value(t, joker_points) for t in rack)


def score_going_out(values: Sequence[int], winner: int) -> list[float]:
    """R19: each loser scores -value, the winner the sum of the losers' values."""
    scores = [float(-v) for v in values]
    scores[winner] = float(sum(v for i, v in enumerate(values) if i != winner))
    return scores


def score_exhausted(values: Sequence[int], tiles: Sequence[int], start: int,
                    tie_rule: str = "split") -> tuple[list[float], tuple[int, ...]]:
    """R21/R22: the lowest total m wins; losers pay v - m, paid to the winner(s).

    Returns (scores, winners). With tie_rule 'split' all seats tied at m share the winnings;
    with 'fewest_tiles' the tie goes to fewer tiles, then to the earlier seat from `start` on.
    """
    n = len(values)
    m = min(values)
    tied = [i for i in range(n) if values[i] == m]
    if tie_rule == "fewest_tiles" and len(tied) > 1:
        tied = [min(tied, key=lambda i: (tiles[i], (i - start) % n))]
    pot = float(sum(v - m for v in values))
    scores = [float(-(v - m)) for v in values]
    for i in tied:
        scores[i] = pot / len(tied)
    return scores, tuple(tied)

