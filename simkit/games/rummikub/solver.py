"""An exact move solver: the legal end-of-turn table that places the most rack tiles (or points).

`solve(table, rack, ...)` returns a `Solution` (the action to submit, with explicit melds and tile
ids) or None when no legal play exists. Two exact methods, chosen after measuring (docs/rummikub.md):

- Initial meld (R11/R16; rack tiles only, new melds worth >= `initial_points`, jokers counting
  their best role, jokers only if allowed) and plays onto an empty table: `_Search`, a search over
  melds with memoisation. Faces are taken in (number, colour) order; the lowest face with tiles
  left either keeps its remaining rack copies on the rack or puts one copy into a meld in which it
  is the lowest real tile. The state (counts from that face on, jokers left, points reached capped
  at the threshold) is memoised, so the answer is a proven optimum.
- After the initial meld (R12, R15): the table DP of `dp.TableDP` (van Rijn, Takes & Vis style:
  numbers 1..13, open runs per colour, groups per number), with jokers as units, strict joker
  retrieval as pending flags, and branch and bound. All table tiles stay on the table; >= 1 rack
  tile is added. Past `STATE_CAP` states the mirrored position (numbers n -> 14 - n) takes turns
  with it (`_table_dp`): the same optimum, in a fraction of the time on the positions where the
  forward DP explodes.

Objectives: 'tiles' = number of rack tiles placed; 'points' = rack value placed (R20: numbers, a
joker `joker_points`). Ties are broken towards the other objective. The DP works on faces; tile ids
are assigned afterwards (`_fix_identities` swaps copies and jokers until the engine's validator
accepts the table under R15). `Solution.proven` is False only when no assignment of the DP's optimum
met R15 (two table jokers sharing an old role) and the solver fell back to keeping both jokers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import permutations, product

from simkit.games.rummikub import dp, rules
from simkit.games.rummikub.actions import InitialMeld, Play
from simkit.games.rummikub.dp import StateCap, TableDP
from simkit.games.rummikub.tiles import GROUP, RUN, Meld

NEG = -(1 << 40)
#: the default `state_cap` (about 0.15 s of DP): memo states of the forward table DP before the
#: solver turns to the mirrored position (numbers n -> 14 - n, an isomorphic problem the DP often
#: finds far easier, or far harder); the two then take turns with caps growing fourfold, each
#: going on from its own memo. Every position the forward DP solves within the cap gets exactly
#: the forward DP's play; past it, a play of the same optimal value (docs/rummikub.md).
STATE_CAP = 20_000
#: tests only: solve every table position through the mirrored DP
FORCE_MIRROR = False
#: strict rule: first try the free optimum and keep it if some tile assignment meets R15.
#: Measured slower on game positions (median 13 ms vs 10 ms before the dead-flag pruning), so off.
FREE_FIRST = False
# face index in the search order: k = (number - 1) * 4 + colour; tiles use face = colour * 13 + number - 1


def _k(tile: int) -> int:
    f = tile >> 1
    return (f % 13) * 4 + f // 13


@dataclass(frozen=True)
class Solution:
    """A solver answer: the melds to submit, as an action, with what it places."""

    action: InitialMeld | Play
    placed: tuple[int, ...]
    tiles: int
    points: int
    proven: bool

    @property
    def melds(self) -> tuple[Meld, ...]:
        return self.action.melds if isinstance(self.action, InitialMeld) else self.action.table


class _Search:
    """One exact search over counts. F: forced (table) units per solver face, O: optional (rack)."""

    def __init__(self, F, O, fj, oj, w, jw, patterns, min_value, memo: dict | None = None):
        self.F = F
        self.O = O
        self.J = [fj, oj]
        self.w = w
        self.jw = jw
        self.patterns = patterns          # list of (role faces set, mate faces set) per retrieved joker
        self.min_value = min_value
        self.memo: dict = {} if memo is None else memo

    # options at solver face k: (faces, n_jokers, layout)
    def _options(self, k: int):
        F, O = self.F, self.O
        jav = self.J[0] + self.J[1]
        n = k // 4 + 1
        c = k % 4
        out: list[tuple[list[int], int, tuple]] = []
        # runs of colour c whose lowest real tile is (c, n)
        # walk upward choosing real or joker at each number; emit at each real end
        stack = [(n, [k], 0)]            # (last real number, faces, gaps used)
        while stack:
            last, faces, gaps = stack.pop()
            span = last - n + 1
            for x in range(0, jav - gaps + 1):
                L = span + x
                if 3 <= L <= 13:
                    out.append((faces, gaps + x, (RUN, n, last, x)))
            # extend to a next real number m > last with (m - last - 1) gaps
            for m in range(last + 1, 14):
                g = gaps + (m - last - 1)
                if g > jav:
                    break
                km = (m - 1) * 4 + c
                if F[km] + O[km] > 0:
                    stack.append((m, faces + [km], g))
        # groups at number n whose lowest real colour is c
        others = [k + d for d in range(1, 4 - c) if F[k + d] + O[k + d] > 0]
        for mask in range(1 << len(others)):
            faces = [k] + [others[i] for i in range(len(others)) if mask >> i & 1]
            r = len(faces)
            for j in range(max(0, 3 - r), min(4 - r, jav) + 1):
                out.append((faces, j, (GROUP,)))
        return out

    def _meld_value(self, faces, nj, layout) -> int:
        if layout[0] == GROUP:
            return (len(faces) + nj) * (faces[0] // 4 + 1)
        _, n, last, x = layout
        up = min(x, 13 - last)
        L = last - n + 1 + x
        s = n - (x - up)
        return L * s + L * (L - 1) // 2

    def _flags_after(self, flags: int, faces) -> int:
        if not flags:
            return flags
        fs = set(faces)
        hit = []
        for i, (roles, mates) in enumerate(self.patterns):
            if flags >> i & 1 and fs & roles and fs & mates:
                hit.append(i)
        if len(hit) == 2:
            r0 = fs & self.patterns[hit[0]][0]
            r1 = fs & self.patterns[hit[1]][0]
            if not any(a != b for a in r0 for b in r1):
                hit = hit[:1]
        for i in hit:
            flags &= ~(1 << i)
        return flags

    def best(self, k: int, flags: int, val: int) -> int:
        F, O, J = self.F, self.O, self.J
        while k < 52 and F[k] == 0 and O[k] == 0:
            k += 1
        if k == 52:
            return 0 if (J[0] == 0 and flags == 0 and val >= self.min_value) else NEG
        key = (k, bytes(F[k:]), bytes(O[k:]), J[0], J[1], flags, val)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        res, choice = NEG, None
        if F[k] == 0:
            save = O[k]
            O[k] = 0
            r = self.best(k + 1, flags, val)
            O[k] = save
            if r > res:
                res, choice = r, None
        w, jw = self.w, self.jw
        for faces, nj, layout in self._options(k):
            if nj > J[0] + J[1]:
                continue
            gain = 0
            taken = []
            for f in faces:
                if F[f]:
                    F[f] -= 1
                    taken.append(0)
                else:
                    O[f] -= 1
                    gain += w[f]
                    taken.append(1)
            jf = min(nj, J[0])
            J[0] -= jf
            J[1] -= nj - jf
            gain += (nj - jf) * jw
            nval = val
            if nval < self.min_value:
                nval = min(self.min_value, val + self._meld_value(faces, nj, layout))
            r = self.best(k, self._flags_after(flags, faces), nval)
            J[0] += jf
            J[1] += nj - jf
            for f, t in zip(faces, taken):
                if t:
                    O[f] += 1
                else:
                    F[f] += 1
            if r > NEG and r + gain > res:
                res, choice = r + gain, (faces, nj, layout)
        self.memo[key] = (res, choice)
        return res

    def reconstruct(self, flags: int, val: int) -> list[tuple]:
        """Replay the memoised choices: a list of (faces, n_jokers, layout, joker kinds, unit kinds)."""
        F, O, J = self.F, self.O, self.J
        saveF, saveO, saveJ = list(F), list(O), list(J)
        melds = []
        k = 0
        while True:
            while k < 52 and F[k] == 0 and O[k] == 0:
                k += 1
            if k == 52:
                break
            key = (k, bytes(F[k:]), bytes(O[k:]), J[0], J[1], flags, val)
            _, choice = self.memo[key]
            if choice is None:
                O[k] = 0
                k += 1
                continue
            faces, nj, layout = choice
            kinds = []
            for f in faces:
                if F[f]:
                    F[f] -= 1
                    kinds.append(0)
                else:
                    O[f] -= 1
                    kinds.append(1)
            jf = min(nj, J[0])
            J[0] -= jf
            J[1] -= nj - jf
            if val < self.min_value:
                val = min(self.min_value, val + self._meld_value(faces, nj, layout))
            flags = self._flags_after(flags, faces)
            melds.append((faces, nj, layout, jf, kinds))
        F[:], O[:], J[:] = saveF, saveO, saveJ
        return melds


#: rack-only searches (openings, an empty table) share their memo across calls with the same
#: weights and threshold: a state's value depends only on its key (the counts from its face on,
#: the jokers, the points reached), so the rack of the next turn, one tile more, finds the
#: states above that tile already solved. Emptied past `SEARCH_MEMO_LIMIT` entries.
_SEARCH_MEMOS: dict[tuple, dict] = {}
SEARCH_MEMO_LIMIT = 400_000


def _search_memo(objective: str, joker_points: int, min_value: int) -> dict:
    memo = _SEARCH_MEMOS.setdefault((objective, joker_points, min_value), {})
    if len(memo) > SEARCH_MEMO_LIMIT:
        memo.clear()
    return memo


def _rack_search(O: list[int], oj: int, w: Sequence[int], jw: int, min_value: int, objective: str,
                 joker_points: int) -> list[tuple] | None:
    """The optimal plan of rack tiles alone (`_Search.reconstruct`'s form), new melds worth >=
    `min_value`; None when no play places a tile. Compiled (`meld_kernel`, the same search)
    unless `dp.USE_KERNEL` is off."""
    if dp.USE_KERNEL:
        from simkit.games.rummikub import meld_kernel  # numba: imported on the first search only
        from simkit.games.rummikub.solver_compile import first_use

        first_use("meld")

        if meld_kernel.supported(O, oj, min_value):
            value, plan = meld_kernel.search(O, oj, w, jw, min_value, (objective, joker_points, min_value))
            return plan
    s = _Search([0] * 56, O, 0, oj, w, jw, [], min_value, _search_memo(objective, joker_points, min_value))
    if s.best(0, 0, 0) <= 0:
        return None
    return s.reconstruct(0, 0)


@cache
def _weights(objective: str, joker_points: int) -> tuple[tuple[int, ...], int]:
    if objective == "tiles":
        # primary: tiles; ties broken by points (scaled so they never outweigh one tile)
        return tuple(1000 + (k // 4 + 1) for k in range(52)), 1000 + joker_points
    if objective == "points":
        return tuple((k // 4 + 1) * 1000 + 1 for k in range(52)), joker_points * 1000 + 1
    raise ValueError(f"objective={objective!r} is not allowed: use 'tiles' or 'points'")


@cache
def _row_weights(objective: str, joker_points: int) -> tuple[list[list[int]], int]:
    """`_weights` as the table DP reads them: [colour][number] (index 0 unused). Shared: read only."""
    w1, jw = _weights(objective, joker_points)
    return [[0] + [w1[(n - 1) * 4 + c] for n in range(1, 14)] for c in range(4)], jw


def _build_melds(plan, table_ids, rack_ids, virtual, wild_table, wild_rack) -> list[Meld]:
    """Give every unit of the plan a tile id. table_ids/rack_ids: solver face -> ids (consumed);
    virtual: solver face -> joker ids kept in that role; wild_*: joker ids."""
    melds = []
    wild_table = list(wild_table)
    wild_rack = list(wild_rack)
    for faces, nj, layout, jf, kinds in plan:
        ids = []
        for f, kind in zip(faces, kinds):
            if kind:
                ids.append(rack_ids[f].pop())
            elif table_ids.get(f):
                ids.append(table_ids[f].pop())
            else:
                ids.append(virtual[f].pop())
        jokers = [wild_table.pop() for _ in range(jf)] + [wild_rack.pop() for _ in range(nj - jf)]
        if layout[0] == GROUP:
            melds.append(Meld(GROUP, tuple(ids + jokers)))
            continue
        _, n, last, x = layout
        seq: list[int | None] = [None] * (last - n + 1)
        for f, t in zip(faces, ids):
            seq[f // 4 + 1 - n] = t
        it = iter(jokers)
        seq = [t if t is not None else next(it) for t in seq]
        up = min(x, 13 - last)
        below = [next(it) for _ in range(x - up)]
        above = [next(it) for _ in range(up)]
        melds.append(Meld(RUN, tuple(below + seq + above)))
    return melds


def solve(table: Sequence[Meld], rack: Sequence[int], *, opened: bool = True, objective: str = "tiles",
          retrieval: str = "strict", initial_points: int = 30, jokers_in_initial: bool = True,
          joker_points: int = 30, state_cap: int | None = STATE_CAP) -> Solution | None:
    """The best legal submission for a player with `rack` facing `table`, or None if no legal
    play exists (then the player must draw or pass). See the module docstring for the method.

    `state_cap` bounds the tail after the initial meld: once the forward table DP passes that
    many states, the mirrored position (numbers n -> 14 - n) is solved too, the two taking turns
    under fourfold caps. Below the cap the answer is the forward DP's own; past it, it is the
    same optimum, but where several plays share it possibly another of them (still a function
    of the position alone). None: the forward DP alone, however long it takes."""
    w, jw = _weights(objective, joker_points)
    rack = list(rack)
    O = [0] * 56
    rack_ids: dict[int, list[int]] = {}
    rack_jokers = []
    for t in rack:
        if t >= 104:
            rack_jokers.append(t)
        else:
            k = _k(t)
            O[k] += 1
            rack_ids.setdefault(k, []).append(t)
    if not opened:
        oj = len(rack_jokers) if jokers_in_initial else 0
        plan = _rack_search(O, oj, w, jw, initial_points, objective, joker_points)
        if plan is None:
            return None
        melds = _build_melds(plan, {}, {k: list(v) for k, v in rack_ids.items()}, {}, [], rack_jokers[:oj])
        bad = rules.check_initial_meld(melds, rack, min_points=initial_points,
                                       jokers_allowed=jokers_in_initial)
        if bad is not None:
            raise SolverError(f"the solver built an invalid initial meld ({bad}) from rack {rack}")
        return _finish(InitialMeld(tuple(melds)), melds, set(), True)

    if not table:
        plan = _rack_search(O, len(rack_jokers), w, jw, 0, objective, joker_points)
        if plan is None:
            return None
        melds = _build_melds(plan, {}, {k: list(v) for k, v in rack_ids.items()}, {}, [], rack_jokers)
        if rules.check_play((), melds, rack, retrieval=retrieval) is not None:
            raise SolverError(f"the solver built an invalid table from rack {rack}")
        return _finish(Play(tuple(melds)), melds, set(), True)
    return _solve_table(table, rack, objective, retrieval, joker_points, state_cap)


class _TablePosition:
    """A position after the initial meld in the table DP's terms: forced (table) and optional
    (rack) tiles per [colour][number], their weights, the jokers on each side, the tile ids of
    every face, and each table joker's old role (R15)."""

    def __init__(self, table: Sequence[Meld], rack: Sequence[int], objective: str, retrieval: str,
                 joker_points: int, state_cap: int | None):
        self.table, self.rack, self.retrieval, self.state_cap = table, rack, retrieval, state_cap
        self.w, self.jw = _row_weights(objective, joker_points)
        self.F0 = [[0] * 15 for _ in range(4)]
        self.O = [[0] * 15 for _ in range(4)]
        self.ids: dict[int, list[int]] = {}     # tile face -> table ids
        for m in table:
            for t in m.tiles:
                if t < 104:
                    self.F0[(t >> 1) // 13][(t >> 1) % 13 + 1] += 1
                    self.ids.setdefault(t >> 1, []).append(t)
        for t in rack:
            if t < 104:
                self.O[(t >> 1) // 13][(t >> 1) % 13 + 1] += 1
        self.rack_jokers = [t for t in rack if t >= 104]
        self.table_jokers = [t for m in table for t in m.tiles if t >= 104]
        self.table_tiles = {t for m in table for t in m.tiles}
        self.patterns, self.roles = _old_roles(table)

    def attempt(self, keep: dict[int, int], retrieved: list[int]) -> tuple[int, list[Meld]] | None:
        """The DP's best play (value, melds) with the jokers of `keep` fixed in their old role
        (joker -> tile face), and, under the strict rule, a pending pattern per `retrieved` joker;
        None when no play places a rack tile."""
        F = [list(row) for row in self.F0]
        for f in keep.values():
            F[f // 13][f % 13 + 1] += 1
        patterns = [self.patterns[j] for j in retrieved] if self.retrieval == "strict" else []
        wild = len(self.table_jokers) - len(keep)
        val, runs, groups = _table_dp(F, self.O, self.w, wild, len(self.rack_jokers), self.jw, patterns,
                                      self.state_cap)
        if val <= 0:
            return None
        return val, self._melds(keep, runs, groups)

    def _melds(self, keep: dict[int, int], runs: list, groups: list) -> list[Meld]:
        """The DP's runs and groups with tile ids: table ids of a face before rack ids, kept
        jokers as tiles of their face; free jokers fill the joker units, spare ones extend a meld."""
        face_ids = {f: list(v) for f, v in self.ids.items()}
        for j, f in keep.items():
            face_ids.setdefault(f, []).append(j)
        for t in sorted(self.rack):
            if t < 104:
                face_ids.setdefault(t >> 1, []).append(t)
        for v in face_ids.values():
            v.reverse()                         # pop() takes table ids first
        jokers = [j for j in self.table_jokers if j not in keep] + self.rack_jokers
        jokers.reverse()
        melds = []
        for c, units in runs:
            melds.append(Meld(RUN, tuple(face_ids[c * 13 + n - 1].pop() if kind == "real" else jokers.pop()
                                         for kind, n in units)))
        for n, colours, jk in groups:
            melds.append(Meld(GROUP, tuple(face_ids[c * 13 + n - 1].pop() for c in colours)
                              + tuple(jokers.pop() for _ in range(jk))))
        while jokers:                           # spare jokers extend a run or a group of 3
            j = jokers.pop()
            try:
                melds = _extend_with_joker(melds, j)
            except SolverError:
                if j in self.table_tiles:
                    raise
        return melds

    def finish(self, melds: list[Meld], proven: bool = True) -> Solution:
        return _finish(Play(tuple(melds)), melds, self.table_tiles, proven)


#: `_old_roles` by the table's melds with jokers (tables change little from turn to turn)
_OLD_ROLES: dict[tuple[Meld, ...], tuple[dict[int, tuple], dict[int, frozenset[int]]]] = {}


def _old_roles(table: Sequence[Meld]) -> tuple[dict[int, tuple], dict[int, frozenset[int]]]:
    """Per table joker: its R15 pattern for the DP (("run", colour, role number, mate numbers) or
    ("group", number, role colours, mate colours)) and its role-set of faces. Shared: read only."""
    joker_melds = tuple(m for m in table if 104 in m.tiles or 105 in m.tiles)
    got = _OLD_ROLES.get(joker_melds)
    if got is None:
        if len(_OLD_ROLES) > 10_000:
            _OLD_ROLES.clear()
        got = _OLD_ROLES[joker_melds] = _joker_roles(joker_melds)
    return got


def _joker_roles(joker_melds: tuple[Meld, ...]) -> tuple[dict[int, tuple], dict[int, frozenset[int]]]:
    patterns: dict[int, tuple] = {}
    roles: dict[int, frozenset[int]] = {}
    for m in joker_melds:
        _, _, meld_roles = rules.analyse_meld(m)
        roles.update(meld_roles)
        reals = [t >> 1 for t in m.tiles if t < 104]
        for j, r in meld_roles.items():
            if m.kind == RUN:
                (f,) = r
                patterns[j] = ("run", f // 13, f % 13 + 1, tuple(sorted(x % 13 + 1 for x in reals)))
            else:
                v = reals[0] % 13 + 1
                patterns[j] = ("group", v, tuple(sorted(f // 13 for f in r)),
                               tuple(sorted(x // 13 for x in reals)))
    return patterns, roles


def _solve_table(table: Sequence[Meld], rack: Sequence[int], objective: str, retrieval: str,
                 joker_points: int, state_cap: int | None = None) -> Solution | None:
    """After the initial meld: the exact table DP (module `dp`) under R12 and R15."""
    pos = _TablePosition(table, rack, objective, retrieval, joker_points, state_cap)
    if retrieval == "free" or not pos.table_jokers:
        got = pos.attempt({}, list(pos.table_jokers))
        if got is None:
            return None
        bad = rules.check_play(table, got[1], rack, retrieval=retrieval)
        if bad is not None:
            raise SolverError(f"the solver built an invalid table ({bad}): please report this position: "
                              f"table {list(table)} rack {list(rack)}")
        return pos.finish(got[1])
    return _solve_strict(pos)


def _solve_strict(pos: _TablePosition) -> Solution | None:
    """Strict joker retrieval (R15) with jokers on the table: one DP in which every table joker
    is wild but owes a pending flag, cleared when it keeps an old role (a joker unit at an
    old-role face) or when a real tile of its old role lands beside a real old meld-mate (its
    replacement); then tile ids that meet R15 (`_fix_identities`)."""
    if FREE_FIRST:
        # the free optimum bounds the strict one: if some tile assignment of it meets R15, done
        free = pos.attempt({}, [])
        if free is None:
            return None
        fixed = _fix_identities(pos.table, free[1], pos.rack)
        if fixed is not None:
            return pos.finish(fixed)
    got = pos.attempt({}, list(pos.table_jokers))
    if got is None:
        return None
    fixed = _fix_identities(pos.table, got[1], pos.rack)
    if fixed is not None:
        return pos.finish(fixed)
    # no tile assignment of the optimum meets R15 (a corner case of two jokers with one role):
    # fall back to the best play that keeps every table joker where it is
    keep_all = pos.attempt({j: min(pos.roles[j]) for j in pos.table_jokers}, [])
    if keep_all is None:
        return None
    fixed = _fix_identities(pos.table, keep_all[1], pos.rack)
    if fixed is None:
        return None
    return pos.finish(fixed, proven=False)


def _mirror_rows(rows):
    return [[r[0]] + r[13:0:-1] + r[14:] for r in rows]


def _mirror_pattern(p):
    if p[0] == "run":
        _, c, v, mates = p
        return ("run", c, 14 - v, tuple(sorted(14 - m for m in mates)))
    _, v, roles, mates = p
    return ("group", 14 - v, roles, mates)


def _table_dp(F, O, w, fj, oj, jw, patterns, state_cap=None):
    """The exact table DP: (value, runs, groups) as `TableDP.plan` gives them (runs and groups
    empty when the value is <= 0). The position is solved as given; only when its DP passes
    `state_cap` states is the mirrored position tried as well, so answers below the cap are the
    forward DP's own."""
    dps: list[TableDP | None] = [None, None]
    cap = state_cap
    while True:
        for mirrored in ((True,) if FORCE_MIRROR else (False,) if state_cap is None else (False, True)):
            dp = dps[mirrored]
            if dp is None:
                if mirrored:
                    dp = TableDP(_mirror_rows(F), _mirror_rows(O), _mirror_rows(w), fj, oj, jw,
                                 [_mirror_pattern(p) for p in patterns])
                else:
                    dp = TableDP(F, O, w, fj, oj, jw, patterns)
                dps[mirrored] = dp
            dp.cap = None if FORCE_MIRROR or state_cap is None else cap
            try:
                val = dp.solve()
            except StateCap:
                continue
            dp.cap = None
            if val <= 0:
                return val, [], []
            runs, groups = dp.plan()
            if mirrored:
                runs = [(c, [(kind, 14 - n) for kind, n in reversed(units)]) for c, units in runs]
                groups = [(14 - n, colours, jk) for n, colours, jk in groups]
            return val, runs, groups
        cap = 4 * max(cap or 0, 1)


def _extend_with_joker(melds: list[Meld], j: int) -> list[Meld]:
    for i, m in enumerate(melds):
        if m.kind == RUN and len(m.tiles) < 13:
            k0, t0 = next((k, t) for k, t in enumerate(m.tiles) if t < 104)
            start = (t0 >> 1) % 13 + 1 - k0
            new = m.tiles + (j,) if start + len(m.tiles) - 1 < 13 else (j,) + m.tiles
            return melds[:i] + [Meld(RUN, new)] + melds[i + 1:]
    for i, m in enumerate(melds):
        if m.kind == GROUP and len(m.tiles) == 3:
            return melds[:i] + [Meld(GROUP, m.tiles + (j,))] + melds[i + 1:]
    raise SolverError("no meld has room for a spare joker")


class SolverError(RuntimeError):
    """The solver built a table the engine's validator rejects (a bug: please report it)."""


def _fix_identities(table: Sequence[Meld], melds: list[Meld], rack: Sequence[int]) -> list[Meld] | None:
    """Swap copies of the same face between melds until R15 strict holds (or give up)."""
    if rules.check_play(table, melds, rack, retrieval="strict") is None:
        return melds
    slots = _swap_slots(melds, _r15_faces(table))
    multi = [f for f, sl in slots.items() if len(sl) > 1]
    if not multi:
        return None
    base = [list(m.tiles) for m in melds]
    choices = []
    for f in multi:
        ids = [base[i][p] for i, p in slots[f]]
        choices.append([(f, perm) for perm in permutations(ids)])
    for tries, combo in enumerate(product(*choices)):
        if tries > 500:
            break
        cur = [list(t) for t in base]
        for f, perm in combo:
            for (i, p), t in zip(slots[f], perm):
                cur[i][p] = t
        cand = [Meld(m.kind, tuple(c)) for m, c in zip(melds, cur)]
        if rules.check_play(table, cand, rack, retrieval="strict") is None:
            return cand
    return None


def _r15_faces(table: Sequence[Meld]) -> set[int]:
    """Faces that matter for R15: the real tiles and joker roles of the table jokers' old melds."""
    faces: set[int] = set()
    for m in table:
        if any(t >= 104 for t in m.tiles):
            faces.update(t >> 1 for t in m.tiles if t < 104)
            _, _, roles = rules.analyse_meld(m)
            for r in roles.values():
                faces.update(r)
    return faces


def _swap_slots(melds: list[Meld], faces: set[int]) -> dict[int, list[tuple[int, int]]]:
    """Per face of `faces` (52: any joker), the (meld, position) slots holding a copy of it:
    the tiles `_fix_identities` may swap."""
    slots: dict[int, list[tuple[int, int]]] = {}
    for i, m in enumerate(melds):
        for p, t in enumerate(m.tiles):
            if t >= 104:
                slots.setdefault(52, []).append((i, p))       # jokers may swap places too
            elif (t >> 1) in faces:
                slots.setdefault(t >> 1, []).append((i, p))
    return slots


def _finish(action, melds, table_tiles, proven) -> Solution:
    placed = tuple(t for m in melds for t in m.tiles if t not in table_tiles)
    points = sum(30 if t >= 104 else (t >> 1) % 13 + 1 for t in placed)
    return Solution(action, placed, len(placed), points, proven)


def solve_observation(obs, config, objective: str = "tiles",
                      state_cap: int | None = STATE_CAP) -> Solution | None:
    """`solve` for a seat's Observation under a RummikubConfig."""
    return solve(obs.table, obs.rack, opened=obs.opened[obs.seat], objective=objective,
                 retrieval=config.joker_retrieval, initial_points=config.initial_meld_points,
                 jokers_in_initial=config.joker_in_initial_meld, joker_points=config.joker_points,
                 state_cap=state_cap)


def warm_table_dp() -> tuple:
    """One small table DP solved and planned (`solver_compile`: compiles or loads `dp_kernel`):
    R1 R2 R3 on the table, R4 K4 O4 and a joker on the rack."""
    w, jw = _row_weights("tiles", 30)
    F = [[0] * 15 for _ in range(4)]
    O = [[0] * 15 for _ in range(4)]
    F[0][1] = F[0][2] = F[0][3] = 1
    O[0][4] = O[1][4] = O[2][4] = 1
    return _table_dp(F, O, w, 0, 1, jw, [])


def warm_rack_search() -> list[tuple] | None:
    """One rack search of an initial meld (`solver_compile`: compiles or loads `meld_kernel`):
    the four 10s and a joker, for 30 points."""
    w, jw = _weights("tiles", 30)
    O = [0] * 52
    for c in range(4):
        O[9 * 4 + c] = 1
    return _rack_search(O, 1, w, jw, 30, "tiles", 30)
