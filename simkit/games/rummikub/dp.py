"""The exact table DP behind the solver (after van Rijn, Takes & Vis, "The complexity of Rummikub
problems", 2015), extended with jokers as units and with joker-retrieval constraints.

Numbers are processed 1..13 and, within a number, colours 0..3. The state holds, per colour,
the open runs as (length class 1/2/3+, mark) and, within a number, the real tiles of each colour
sent to groups so far. At each (number, colour) the tiles of that face are split between
continuing open runs (a run of length 1 or 2 must continue; a 3+ run may end), new runs and
groups; jokers may stand in for a tile of any face in a run, or fill a group. After the last
colour of a number the group tiles must split into valid groups (3-4 tiles, distinct colours,
jokers filling). Forced tiles (the table) must be used, optional ones (the rack) score.

Strict joker retrieval (R15) adds "patterns": retrieved joker i needs a real tile of its old role
in one final meld with a real tile of its old meld. For a run joker (colour c, role v, mates at
numbers X) a run mark records "holds a real mate below v" (A) or "holds the real v" (B); a run
holding both clears the pattern. For a group joker (number v) the group split at v must put a
real tile of a missing colour beside a real tile of an old colour. Pending patterns are a bitmask
in the state; a solution must clear them all.
"""

from __future__ import annotations

from itertools import combinations, product

from simkit.games.rummikub.dp_parts import (
    EXACT,
    LOWER,
    MAX_RUNS,
    NEG,
    POS,
    UPPER,
    StateCap,
    _run_actions,
    group_outcomes,
)

#: run `TableDP.solve` through the numba-compiled port (`dp_kernel`): the same states, values and
#: choices, about 20x faster. False: the pure-Python reference below (tests, benchmark ratios).
USE_KERNEL = True


#: (face index (n - 1) * 4 + c, number n, colour c) from the last face down
_FACES_DOWN = tuple((idx, idx // 4 + 1, idx % 4) for idx in range(13 * 4 - 1, -1, -1))


class TableDP:
    """One exact optimisation. F, O: [colour][number] counts of forced and optional tiles
    (numbers 1..13, index 0 unused); w: [colour][number] weight of an optional tile; fj/oj:
    forced and optional jokers; jw: weight of an optional joker; patterns: list of
    ("run", colour, v, mate numbers) or ("group", v, role colours, mate colours)."""

    def __init__(self, F, O, w, fj, oj, jw, patterns=()):
        self.F, self.O, self.w = F, O, w
        self.fj, self.jtot, self.jw = fj, fj + oj, jw
        self.patterns = list(patterns)
        self.memo: dict = {}
        self.copt: dict = {}
        self.cap: int | None = None                  # most memo entries before StateCap
        self.kernel = None                           # dp_kernel.Kernel once solve runs compiled
        # run patterns per colour: list of (bit, v, mates set, last mate)
        self.run_pats: list[list[tuple[int, int, frozenset[int], int]]] = [[] for _ in range(4)]
        self.group_pats: dict[int, list] = {}
        for i, p in enumerate(self.patterns):
            bit = 1 << i
            if p[0] == "run":
                _, c, v, mates = p
                self.run_pats[c].append((bit, v, frozenset(mates), max(mates)))
            else:
                _, v, roles, mates = p
                self.group_pats.setdefault(v, []).append((bit, frozenset(roles), frozenset(mates)))
        self.all_flags = (1 << len(self.patterns)) - 1
        # keep[(c, n)]: bits of jokers whose old role-set holds face (c, n); keeps_at[n]: (bit, colours)
        self.keep: dict[tuple[int, int], list[int]] = {}
        self.keeps_at: dict[int, list] = {}
        for i, p in enumerate(self.patterns):
            bit = 1 << i
            if p[0] == "run":
                _, c, v, _ = p
                cols = (c,)
            else:
                _, v, cols, _ = p
            for c in cols:
                self.keep.setdefault((c, v), []).append(bit)
            self.keeps_at.setdefault(v, []).append((bit, tuple(cols)))
        # suffix[(n - 1) * 4 + c]: total weight of the rack tiles from face (n, c) on; last: the
        # last number with anything to place, for an early finish
        self.suffix = suffix = [0] * (13 * 4 + 1)
        self.last = 0
        total = 0
        for idx, n, c in _FACES_DOWN:
            o = O[c][n]
            if o:
                total += o * w[c][n]
            suffix[idx] = total
            if not self.last and (o or F[c][n]):
                self.last = n

    # ------------------------------------------------------------------ one colour at one number
    def _mark(self, c: int, n: int, mark: int, real: bool, flags: int, order: int = 0) -> tuple[int, int]:
        """Update a run's mark for a unit at number n; returns (mark, cleared bits).

        A real tile at an old role v is the replacement of one joker only (distinct
        replacements, R15): the first pending pattern in `order` (0 = as listed, 1 = reversed)
        that it can serve."""
        cleared = 0
        used = False
        pats = self.run_pats[c] if not order else self.run_pats[c][::-1]
        for bit, v, mates, top in pats:
            if not flags & bit:
                continue
            shift = bit.bit_length() - 1
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
                elif n in mates:
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

    def advance(self, runs, acts, sr, sj, c, n, flags, payloads, pick=(), order=0):
        """Apply one colour step to runs (in descriptor order). With payloads (parallel list of
        unit lists) the units are recorded too. Returns (new descriptors, cleared bits) and, with
        payloads, fills payloads in place in the order of the new descriptors."""
        track = bool(self.run_pats[c]) and flags
        new = []
        newp = []
        cleared = 0
        for i, ((L, mark), a) in enumerate(zip(runs, acts)):
            if a == "close":
                if payloads is not None:
                    self.closed.append((c, payloads[i]))
                continue
            if track:
                mark, cl = self._mark(c, n, mark, a == "real", flags & ~cleared, order)
                cleared |= cl

            new.append((min(3, L + 1), mark))
            if payloads is not None:
                payloads[i].append((a, n))
                newp.append(payloads[i])
        for _ in range(sr):
            mark = 0
            if track:
                mark, cl = self._mark(c, n, 0, True, flags & ~cleared, order)
                cleared |= cl
            new.append((1, mark))
            newp.append([("real", n)])
        for bit in pick:                       # joker units here that keep an old role
            cleared |= bit
        for _ in range(sj):
            new.append((1, 0))
            newp.append([("joker", n)])
        if payloads is not None:
            payloads[:] = newp
        return new, cleared

    def colour_options(self, runs: tuple, c: int, n: int, jleft: int, flags: int):
        """Options for face (c, n): (new runs, reals in runs, jokers in runs, cleared bits, detail)."""
        key = (runs, c, n, jleft, flags)
        got = self.copt.get(key)
        if got is not None:
            return got
        avail = self.F[c][n] + self.O[c][n]
        nxt1 = n < 13 and self.F[c][n + 1] + self.O[c][n + 1] > 0
        nxt2 = n < 12 and self.F[c][n + 2] + self.O[c][n + 2] > 0
        pend = [b for b in self.keep.get((c, n), ()) if flags & b] if flags else []
        kept_here = bool(pend)
        # two pending run jokers of this colour with the same old role: try both as the one
        # a real tile here replaces
        orders = (0, 1) if sum(1 for b, v, _, _ in self.run_pats[c] if v == n and flags & b) > 1 else (0,)
        # a second joker may have to stand at an old role just above this face
        kept_next = jleft >= 2 and n < 13 and flags and any(flags & b for b in self.keep.get((c, n + 1), ()))
        bridge = bool(nxt1 or (jleft >= 2 and nxt2) or kept_here or kept_next)
        out: dict[tuple, tuple] = {}
        per_run = _run_actions(runs, n, avail, jleft, bridge)
        if per_run is None:
            self.copt[key] = ()
            return ()
        av1 = self.F[c][n + 1] + self.O[c][n + 1] if n < 13 else 0
        av2 = self.F[c][n + 2] + self.O[c][n + 2] if n < 12 else 0
        for acts in product(*per_run):
            rr = acts.count("real")
            jr = acts.count("joker")
            if rr > avail or jr > jleft:
                continue
            # runs still short after this step (1 or 2 units) each need a unit of their own at
            # n + 1, and runs of 1 unit one at n + 2 as well: real tiles there or jokers
            twos = sum(1 for (L, _m), a in zip(runs, acts) if L == 1 and a != "close")
            can_start = n <= 11 and "close" not in acts
            base = len(runs) - acts.count("close")
            max_sr = avail - rr if can_start else 0
            # a run opened by jokers is only needed when it ends at 13 (J R12 R13, J J R13):
            # elsewhere the same tiles form the run with the jokers at its top end
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
                    picks: list[tuple[int, ...]] = [()]
                    if units and pend:
                        picks = list(combinations(pend, min(units, len(pend))))
                    for pick in picks:
                        for order in orders:
                            new, cleared = self.advance(list(runs), acts, sr, sj, c, n, flags, None,
                                                        pick, order)
                            k = (tuple(sorted(new)), rr + sr, jr + sj, cleared)
                            if k not in out:
                                out[k] = (acts, sr, sj, pick, order)
        res = tuple((k[0], k[1], k[2], k[3], d) for k, d in out.items())
        self.copt[key] = res
        return res

    # ------------------------------------------------------------------ the recursion
    @staticmethod
    def _room_of_close(e: int) -> int:
        """Spare-joker room of a run whose last tile is at number e (a joker can go above it,
        or below it when it ends at 13; runs of 12+ tiles ending at 13 are assumed not to occur)."""
        return 1 if e == 12 else 2

    def _terminal(self, n: int, runs: tuple, ju: int, flags: int, room: int) -> int:
        if flags or any(L < 3 for cr in runs for L, _ in cr):
            return NEG
        if any(cr for cr in runs):
            room = min(2, room + self._room_of_close(n - 1))
        rf = max(0, self.fj - ju)                    # forced jokers still to place
        ro = self.jtot - ju - rf                     # optional jokers left
        if rf > room:
            return NEG
        return self.jw * min(ro, room - rf)

    def _skip(self, n: int, c: int, runs: tuple, g: tuple, ju: int, flags: int):
        """Pass over colours with nothing at number n: no open run, no tile, no joker to open."""
        F, O = self.F, self.O
        while c < 4 and not runs[c] and F[c][n] + O[c][n] == 0 and (
                ju == self.jtot or n != 11
                and not (flags and any(flags & b for b in self.keep.get((c, n), ())))):
            g = self._g(n, g, 0)
            c += 1
        return c, g

    def _alive(self, n: int, c: int, runs: tuple, ju: int, flags: int) -> bool:
        """Can every pending joker flag still be cleared? (keep: a joker left and its old face not
        yet passed; replacement: a real tile of its old role not yet passed, or a run holding one)"""
        spare = ju < self.jtot
        F, O = self.F, self.O
        for i, p in enumerate(self.patterns):
            bit = 1 << i
            if not flags & bit:
                continue
            if p[0] == "run":
                _, pc, v, _ = p
                if n < v or (n == v and c <= pc):
                    if spare or F[pc][v] + O[pc][v]:
                        continue
                    return False
                if n == v and spare:
                    continue                      # a group at v may still keep the role
                if any((m >> (2 * i)) & 3 == 2 for _, m in runs[pc]):
                    continue                      # a run holds the real v, a mate may follow
                return False
            _, v, roles, _ = p
            if n < v or n == v:
                if spare or any(F[rc][v] + O[rc][v] for rc in roles):
                    continue
            return False
        return True

    def _settled(self, runs: tuple, ju: int, flags: int) -> bool:
        """Past the last tile: nothing is left to decide when no flag is pending and no joker
        is left that a short open run could still take."""
        return not flags and (ju == self.jtot or not any(L < 3 for cr in runs for L, _ in cr))

    # Above C901's 15 on purpose: the group-tile bound below, moved into a method, made the DP 2-5 %
    # slower on the solver's 40 heaviest DP inputs (one more call per state expanded): it stays inline.
    def best(self, n: int, c: int, runs: tuple, g: tuple, ju: int, flags: int, room: int,  # noqa: C901
             alpha: int = NEG, beta: int = POS) -> int:
        """Best value still to come from this state. Branch and bound: a result strictly between
        `alpha` and `beta` is exact; a result <= alpha is only an upper bound, a result >= beta
        only a lower bound (the caller needs no more in either case)."""
        if c == 0 and (n == 14 or n > self.last and self._settled(runs, ju, flags)):
            return self._terminal(n, runs, ju, flags, room)
        if c < 4 and not runs[c] and self.F[c][n] + self.O[c][n] == 0:
            c, g = self._skip(n, c, runs, g, ju, flags)
        if c == 4:
            return self._close_number(n, runs, g, ju, flags, room, alpha, beta)
        jleft = self.jtot - ju
        room = jleft if room > jleft else room      # room beyond the spare jokers is irrelevant
        key = (n, c, runs, g, ju, flags, room)
        hit = self.memo.get(key)
        if hit is not None and (hit[2] == EXACT or (hit[0] <= alpha if hit[2] == UPPER else hit[0] >= beta)):
            return hit[0]
        if self.cap is not None and len(self.memo) >= self.cap:
            raise StateCap
        ub = self.suffix[(n - 1) * 4 + c] + self.jw * (self.jtot - (ju if ju > self.fj else self.fj))
        if ub <= alpha:
            return ub
        if flags and not self._alive(n, c, runs, ju, flags):
            self.memo[key] = (NEG, None, True)
            return NEG
        F_ = self.F
        if g:
            mx = max(g)
            if mx:
                # each colour still to come gives at most mx group tiles, less the tiles its
                # short runs (1 or 2 units) must take at n; a joker gives at most one unit
                rest = 0
                for cc in range(c, 4):
                    free = F_[cc][n] + self.O[cc][n]
                    if free:
                        for L, _ in runs[cc]:
                            if L < 3:
                                free -= 1
                        if free > 0:
                            rest += mx if free > mx else free
                if sum(g) + rest + (self.jtot - ju) < 3 * mx:
                    self.memo[key] = (NEG, None, True)
                    return NEG
        F, O = self.F[c][n], self.O[c][n]
        wt = self.w[c][n]
        res, choice = NEG, None
        fj = self.fj
        sort_g = n not in self.group_pats and n not in self.keeps_at
        # each option: the face's tiles in runs (rr real, jr jokers), the rest of its reals in
        # groups (gr, from the most down to the forced ones) or left on the rack
        for new_cr, rr, jr, cleared, detail in self.colour_options(runs[c], c, n, jleft, flags):
            lo = F - rr if F > rr else 0
            hi = F + O - rr
            nruns = runs[:c] + (new_cr,) + runs[c + 1:]
            nju = ju + jr
            jgain = (nju - fj - (ju - fj if ju > fj else 0)) * self.jw if jr and nju > fj else 0
            closes = detail[0].count("close") if room < 2 else 0
            nroom = room if not closes else min(2, room + closes * self._room_of_close(n - 1))
            nflags = flags & ~cleared
            for gr in range(hi if hi < 3 else 3, lo - 1, -1):
                gain = (rr + gr - F) * wt + jgain
                need = (res if res > alpha else alpha) - gain
                ng = tuple(sorted(g + (gr,))) if sort_g and g else g + (gr,)
                sub = self.best(n, c + 1, nruns, ng, nju, nflags, nroom, need, beta - gain)
                if sub <= NEG // 2:
                    continue
                val = sub + gain
                if val > res:
                    res, choice = val, (new_cr, rr, jr, cleared, detail, gr)
                    if res >= beta:
                        break
            if res >= beta:
                break
        self.memo[key] = (res, choice, LOWER if res >= beta else EXACT if res > alpha else UPPER)
        return res

    def _g(self, n: int, g: tuple, gr: int) -> tuple:
        """Group tiles so far at number n; sorted (colours are symmetric) unless a group
        pattern at n needs the colours."""
        g = g + (gr,)
        return g if n in self.group_pats or n in self.keeps_at else tuple(sorted(g))

    def _close_number(self, n, runs, g, ju, flags, room, alpha=NEG, beta=POS) -> int:
        if room > self.jtot - ju:
            room = self.jtot - ju
        key = (n, 4, runs, g, ju, flags, room)
        hit = self.memo.get(key)
        if hit is not None and (hit[2] == EXACT or (hit[0] <= alpha if hit[2] == UPPER else hit[0] >= beta)):
            return hit[0]
        if self.cap is not None and len(self.memo) >= self.cap:
            raise StateCap
        ub = self.suffix[n * 4] + self.jw * (self.jtot - (ju if ju > self.fj else self.fj))
        if ub <= alpha:
            return ub
        pats = tuple((bit, roles, mates) for bit, roles, mates in self.group_pats.get(n, ()) if flags & bit)
        keeps = tuple((bit, cols) for bit, cols in self.keeps_at.get(n, ()) if flags & bit)
        res, choice = NEG, None
        for gj in range(0, self.jtot - ju + 1):
            outs = group_outcomes(g, gj, pats, keeps)
            if not outs:
                continue
            nju = ju + gj
            jgain = (max(0, nju - self.fj) - max(0, ju - self.fj)) * self.jw
            for cleared, groom, _ in outs:
                need = (res if res > alpha else alpha) - jgain
                sub = self.best(n + 1, 0, runs, (), nju, flags & ~cleared, min(2, room + groom), need,
                                beta - jgain)
                if sub <= NEG // 2:
                    continue
                if sub + jgain > res:
                    res, choice = sub + jgain, (gj, cleared, groom)
                    if res >= beta:
                        break
            if res >= beta:
                break
        self.memo[key] = (res, choice, LOWER if res >= beta else EXACT if res > alpha else UPPER)
        return res

    def solve(self, alpha: int = 0, beta: int = POS) -> int:
        """The optimum if it lies in (alpha, beta); otherwise a bound (<= alpha or >= beta)."""
        if self.kernel is None and USE_KERNEL and not self.memo:
            from simkit.games.rummikub import dp_kernel  # numba: imported on the first solve only
            from simkit.games.rummikub.solver_compile import first_use

            first_use("dp")

            if dp_kernel.supported(self):
                self.kernel = dp_kernel.Kernel(self)
                self.memo = dp_kernel.MemoView(self.kernel)  # type: ignore[assignment]
        if self.kernel is not None:
            return self.kernel.solve(alpha, beta, self.cap)
        start = ((), (), (), ())
        return self.best(1, 0, start, (), 0, self.all_flags, 0, alpha, beta)

    # ------------------------------------------------------------------ reconstruction
    def plan(self) -> tuple[list, list]:
        """Replay the optimal choices. Returns (runs, groups): runs as (colour, unit list of
        ("real"|"joker", number)), groups as (number, real colours, jokers)."""
        runs_state = ((), (), (), ())
        live: list[list] = [[], [], [], []]           # per colour: (descriptor, units) pairs
        self.closed = []
        groups = []
        g: tuple = ()
        real_g: tuple = ()
        if self.kernel is not None:
            return self.kernel.plan()
        ju, flags, room = 0, self.all_flags, 0
        n, c = 1, 0
        while True:
            room = min(room, self.jtot - ju)
            if c < 4 and n <= 13 and not (c == 0 and n > self.last and self._settled(runs_state, ju, flags)):
                c2, g = self._skip(n, c, runs_state, g, ju, flags)
                real_g = real_g + (0,) * (c2 - c)
                c = c2
            if c == 4:
                gj, cleared, groom = self.memo[(n, 4, runs_state, g, ju, flags, room)][1]
                pats = tuple(p for p in self.group_pats.get(n, ()) if flags & p[0])
                keeps = tuple((b, cols) for b, cols in self.keeps_at.get(n, ()) if flags & b)
                grp = {(m, r): gs for m, r, gs in group_outcomes(real_g, gj, pats, keeps)}[(cleared, groom)]
                room = min(2, room + groom)
                for colours, jk in grp:
                    groups.append((n, colours, jk))
                ju += gj
                flags &= ~cleared
                n, c, g, real_g = n + 1, 0, (), ()
                continue
            if c == 0 and (n == 14 or n > self.last and self._settled(runs_state, ju, flags)):
                break
            new_cr, rr, jr, cleared, detail, gr = self.memo[(n, c, runs_state, g, ju, flags, room)][1]
            acts, sr, sj, pick, order = detail
            closes = acts.count("close")
            if closes:
                room = min(2, room + closes * self._room_of_close(n - 1))
            cur = sorted(live[c], key=lambda r: r[0])
            payloads = [list(u) for _, u in cur]
            new, cl = self.advance([d for d, _ in cur], acts, sr, sj, c, n, flags, payloads, pick, order)
            assert tuple(sorted(new)) == new_cr and cl == cleared
            live[c] = list(zip(new, payloads))
            runs_state = runs_state[:c] + (new_cr,) + runs_state[c + 1:]
            g = self._g(n, g, gr)
            real_g = real_g + (gr,)
            ju += jr
            flags &= ~cleared
            c += 1
        for c in range(4):
            for _, units in live[c]:
                self.closed.append((c, units))
        return list(self.closed), groups
