"""Heuristic Game of Trains strategies: `greedy` (one ply, own train only) and `rival`
(greedy plus attacks on the leading opponent with effects 5-7, denial of winning effects, and
locks).

Both score a train by how sorted it is: the longest increasing subsequence first, then the
fewest inversions (`sortedness`); an ascending train scores WIN. A draw is valued by the exact
expectation, over the cards the seat has not seen, of the best slot for the drawn card: only the
rank of the drawn card among the 7 train cards matters, so 8 intervals cover every card.
"""

from __future__ import annotations

from bisect import bisect_left

from simkit.core.strategy import Decision, Strategy
from simkit.games.trains.actions import DRAW, PLACE
from simkit.games.trains.rules import REMOVAL_SLOT, apply_order_effect, moved_slots

WIN = 10_000.0
_CACHE: dict = {}


def sortedness(t) -> float:
    """32 * LIS - inversions of a 7-card train (WIN if ascending). Memoised."""
    v = _CACHE.get(t)
    if v is not None:
        return v
    best = [1] * 7
    inv = 0
    for j in range(1, 7):
        tj = t[j]
        bj = 1
        for i in range(j):
            if t[i] < tj:
                if best[i] >= bj:
                    bj = best[i] + 1
            else:
                inv += 1
        best[j] = bj
    v = WIN if inv == 0 else 32.0 * max(best) - inv
    if len(_CACHE) > 500_000:
        _CACHE.clear()
    _CACHE[t] = v
    return v


def unseen_cards(obs) -> list[int]:
    """Sorted card numbers not visible in any train, lock or the display (a drawn card's
    possible values; it ignores the discard pile, which the public log could reconstruct)."""
    seen = set()
    for t in obs.trains:
        seen.update(t)
    for lk in obs.locks:
        seen.update(lk)
    seen.update(obs.display)
    return [c for c in range(1, 85) if c not in seen]


def intervals(train, unseen: list[int]) -> list[tuple[float, int]]:
    """(representative value, number of unseen cards) for each gap between sorted train cards."""
    vals = sorted(train)
    out = []
    lo_idx = 0
    lo_val = 0.5
    for v in vals:
        hi_idx = bisect_left(unseen, v)
        if hi_idx > lo_idx:
            out.append((lo_val, hi_idx - lo_idx))
        lo_idx = hi_idx
        lo_val = v + 0.5
    if len(unseen) > lo_idx:
        out.append((lo_val, len(unseen) - lo_idx))
    return out


def best_place(train, card) -> tuple[float, int]:
    """(score, slot) of the best slot for `card` (first best slot on ties)."""
    best, best_slot = -1e9, 1
    t = list(train)
    for k in range(7):
        old = t[k]
        t[k] = card
        v = sortedness(tuple(t))
        t[k] = old
        if v > best:
            best, best_slot = v, k + 1
    return best, best_slot


def expected_draw(train, gaps) -> float:
    total = sum(n for _, n in gaps)
    if not total:
        return sortedness(tuple(train))
    return sum(best_place(train, c)[0] * n for c, n in gaps) / total


def expected_refill(train, slot: int, gaps) -> float:
    total = sum(n for _, n in gaps)
    if not total:
        return sortedness(tuple(train))
    t = list(train)
    acc = 0.0
    for c, n in gaps:
        t[slot - 1] = c
        acc += sortedness(tuple(t)) * n
    return acc / total


class GreedyStrategy(Strategy):
    name = "greedy"
    description = "one ply: the action (and slot) that makes its own train most sorted (LIS, then inversions)"

    def __init__(self) -> None:
        pass

    # -- shared pieces -------------------------------------------------------------------

    def setup_choice(self, obs, legal):
        me = obs.trains[obs.seat]
        if obs.phase == "keep":
            best, pick = -1e9, legal[0]
            for a in legal:
                v, _ = best_place(me, a[1])
                if v > best:
                    best, pick = v, a
            return pick
        card = obs.kept if obs.phase == "setup_place" else obs.drawn
        return PLACE[self.place_slot(obs, card)]

    def place_slot(self, obs, card) -> int:
        return best_place(obs.trains[obs.seat], card)[1]

    def act(self, decision: Decision):
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        obs = decision.observation
        if obs.phase != "turn":
            return self.setup_choice(obs, legal)
        return self.turn_choice(obs, legal)

    def turn_choice(self, obs, legal):
        me = obs.trains[obs.seat]
        locks = obs.locks[obs.seat]
        base = sortedness(me)
        gaps = intervals(me, unseen_cards(obs))
        best, pick = expected_draw(me, gaps), DRAW
        for a in legal:
            if a is DRAW:
                continue
            e, p = a[1], a[2]
            if e <= 4:
                v = sortedness(tuple(apply_order_effect(me, e, p)))
            elif e <= 7:
                s = REMOVAL_SLOT[e]
                v = base if locks[s - 1] else expected_refill(me, s, gaps)
            else:
                v = base
            if v > best:
                best, pick = v, a
        return pick


class RivalStrategy(GreedyStrategy):
    name = "rival"
    description = ("greedy, and also plays against the leading opponent: effects 5-7 on the leader, "
                   "denies effects an opponent could win with, locks a well-placed slot")

    def __init__(self, attack: float = 0.6, lock_risk: float = 0.3) -> None:
        if attack < 0 or lock_risk < 0:
            raise ValueError("attack and lock_risk must be >= 0")
        self.attack = attack
        self.lock_risk = lock_risk

    def _threat(self, obs, display, skip_effect: int = 0) -> float:
        """Penalty when an opponent could complete its train with an effect 1-4 of `display`."""
        n = obs.n_players
        penalty = 0.0
        for j in range(1, n):
            q = (obs.seat + j) % n
            t = obs.trains[q]
            for e in (1, 2, 3, 4):
                if e == skip_effect or not display[e]:
                    continue
                for p in ((1, 2, 3, 4, 5, 6) if e == 1 else (1, 2, 3, 4, 5) if e < 4 else (3, 4, 5, 6, 7)):
                    if sortedness(tuple(apply_order_effect(t, e, p))) >= WIN:
                        penalty += 2000.0 if j == 1 else 600.0
                        break
        return penalty

    def place_slot(self, obs, card) -> int:
        me = list(obs.trains[obs.seat])
        locks = obs.locks[obs.seat]
        eff = obs.effects
        best, best_slot = -1e18, 1
        for k in range(7):
            old = me[k]
            me[k] = card
            v = sortedness(tuple(me))
            me[k] = old
            if v >= WIN:
                return k + 1
            if locks[k]:
                v -= 2.0
            disp = list(obs.display)
            e = eff[old]
            disp[e] = 0 if disp[e] else old
            v -= self._threat(obs, disp)
            if v > best:
                best, best_slot = v, k + 1
        return best_slot

    def turn_choice(self, obs, legal):
        seat = obs.seat
        n = obs.n_players
        me = obs.trains[seat]
        locks = obs.locks[seat]
        base = sortedness(me)
        unseen = unseen_cards(obs)
        gaps = intervals(me, unseen)
        opp = [(seat + j) % n for j in range(1, n)]
        scores = {q: sortedness(obs.trains[q]) for q in opp}
        leader = max(opp, key=lambda q: scores[q])
        lead_t = obs.trains[leader]
        lead_now = scores[leader]
        threat_now = self._threat(obs, obs.display)
        best, pick = expected_draw(me, gaps) - self.attack * lead_now - threat_now, DRAW
        for a in legal:
            if a is DRAW:
                continue
            e, p = a[1], a[2]
            lead_after = lead_now
            if e <= 4:
                v = sortedness(tuple(apply_order_effect(me, e, p)))
                if v >= WIN:
                    return a
                v -= 2.0 * sum(1 for s in moved_slots(e, p) if locks[s - 1])
            elif e <= 7:
                s = REMOVAL_SLOT[e]
                v = base if locks[s - 1] else expected_refill(me, s, gaps)
                if not obs.locks[leader][s - 1]:
                    lead_after = expected_refill(lead_t, s, intervals(lead_t, unseen))
            else:
                loss = base - expected_refill(me, p, gaps)
                risk = self.lock_risk * (2.0 if obs.display[REMOVAL_SLOT_OF_LOCK[p]] else 1.0)
                v = base + max(0.0, loss) * risk
            v -= self.attack * lead_after + self._threat(obs, obs.display, skip_effect=e)
            if v > best:
                best, pick = v, a
        return pick


#: the removal effect that hits each lockable slot
REMOVAL_SLOT_OF_LOCK = {s: e for e, s in REMOVAL_SLOT.items()}
