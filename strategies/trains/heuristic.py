"""Heuristic Game of Trains strategies: `greedy` (one ply, own train only) and `rival`
(greedy plus play against the leading opponents: effects 5-7 valued by how much they cut the
opponents' chance to complete their train on a draw, denial of display effects an opponent could
win with, and locks when the matching removal effect is in the display).

Both score a train by how sorted it is: the longest increasing subsequence first, then the
fewest inversions (`sortedness`); an ascending train scores WIN. A draw is valued by the exact
expectation, over the cards the seat has not seen, of the best slot for the drawn card: only the
rank of the drawn card among the 7 train cards matters, so 8 intervals cover every card.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import permutations

from simkit.engine.strategy import Decision, Strategy
from simkit.games.trains.actions import DRAW, PLACE
from simkit.games.trains.config import TrainsConfig
from simkit.games.trains.discards import read_discards
from simkit.games.trains.rules import (
    KEEP_PHASE,
    REMOVAL_SLOT,
    SETUP_PLACE,
    TURN,
    apply_order_effect,
    moved_slots,
)

WIN = 10_000.0
_PARAMS = {1: (1, 2, 3, 4, 5, 6), 2: (1, 2, 3, 4, 5), 3: (1, 2, 3, 4, 5), 4: (3, 4, 5, 6, 7)}
_RANGE7 = range(7)


def _pattern_score(t) -> float:
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
    return WIN if inv == 0 else 32.0 * max(best) - inv


#: score of every order pattern of 7 distinct values, keyed by the pattern's argsort (a
#: permutation and its inverse share LIS length and inversion count, so either key works)
_SCORES = {p: _pattern_score(p) for p in permutations(_RANGE7)}


def sortedness(t) -> float:
    """32 * LIS - inversions of a train of 7 distinct values (WIN if ascending).
    LIS >= k exactly when the score is above 32 * (k - 1), since inversions are at most 21."""
    return _SCORES[tuple(sorted(_RANGE7, key=t.__getitem__))]


def unseen_cards(obs, known_discards=()) -> list[int]:
    """Sorted card numbers a drawn card may be: not in any train, lock or the display, and
    not known to lie in the discard pile (`known_discards`, see `DiscardMemory`)."""
    seen = set(known_discards)
    for t in obs.trains:
        seen.update(t)
    for lk in obs.locks:
        seen.update(lk)
    seen.update(obs.display)
    return [c for c in range(1, 85) if c not in seen]


class DiscardMemory:
    """The cards known to be in the discard pile, read from the public log (§8 [CHOICE]: bots
    reconstruct the face-down pile from the log). Unknown: other players' setup discards."""

    def __init__(self, used_after: bool = True) -> None:
        self.pos = 0
        self.cards: set[int] = set()
        self.used_after = used_after

    def update(self, obs) -> set[int]:
        log = obs.log
        cards = self.cards
        read_discards(log[self.pos:], cards, 0, self.used_after)
        self.pos = len(log)
        return cards | set(obs.own_setup_discards)


_PLACE_TABLES: dict = {}


def place_table(train) -> tuple:
    """(table, best): table[k][g] is the sortedness after a card with g of the 7 train cards
    below it replaces slot k+1; best[g] = (max over slots, first best slot). Only the order
    pattern of the train matters, so tables are shared by the 5040 patterns."""
    key = tuple(sorted(_RANGE7, key=train.__getitem__))
    hit = _PLACE_TABLES.get(key)
    if hit is not None:
        return hit
    ranks = [0] * 7
    for i, k in enumerate(key):
        ranks[k] = 2 * i + 1                 # train values 1, 3, ..., 13
    table = []
    for k in _RANGE7:
        row = []
        t = ranks[:]
        for g in range(8):
            t[k] = 2 * g                     # a card with g train cards below it
            row.append(sortedness(t))
        table.append(row)
    best = []
    for g in range(8):
        col = [table[k][g] for k in _RANGE7]
        m = max(col)
        best.append((m, col.index(m) + 1))
    hit = (table, best)
    _PLACE_TABLES[key] = hit
    return hit


_EFFECT_TABLES: dict = {}


def effect_scores(train, insertion: bool = True) -> tuple[dict, frozenset]:
    """({(effect, i): sortedness after effect 1-4 with parameter i}, effects that complete the
    train), memoised by the train's order pattern."""
    key = (tuple(sorted(_RANGE7, key=train.__getitem__)), insertion)
    hit = _EFFECT_TABLES.get(key)
    if hit is not None:
        return hit
    ranks = [0] * 7
    for i, k in enumerate(key[0]):
        ranks[k] = i
    scores = {}
    wins = set()
    for e in (1, 2, 3, 4):
        for p in _PARAMS[e]:
            v = sortedness(apply_order_effect(ranks, e, p, insertion))
            scores[(e, p)] = v
            if v >= WIN:
                wins.add(e)
    hit = (scores, frozenset(wins))
    _EFFECT_TABLES[key] = hit
    return hit


def gap_counts(train, unseen: list[int]) -> list[int]:
    """counts[g]: unseen cards with exactly g of the train's cards below them."""
    counts = []
    prev = 0
    for v in sorted(train):
        i = bisect_left(unseen, v)
        counts.append(i - prev)
        prev = i
    counts.append(len(unseen) - prev)
    return counts


def below(train, card) -> int:
    return sum(1 for c in train if c < card)


def best_place(train, card) -> tuple[float, int]:
    """(score, slot) of the best slot for `card` (first best slot on ties)."""
    return place_table(train)[1][below(train, card)]


def expected_draw(train, counts) -> float:
    """Expected score after drawing a uniformly random unseen card and placing it best."""
    total = sum(counts)
    if not total:
        return sortedness(train)
    best = place_table(train)[1]
    return sum(best[g][0] * n for g, n in enumerate(counts) if n) / total


def expected_refill(train, slot: int, counts) -> float:
    """Expected score after slot `slot` is refilled with a uniformly random unseen card."""
    total = sum(counts)
    if not total:
        return sortedness(train)
    row = place_table(train)[0][slot - 1]
    return sum(row[g] * n for g, n in enumerate(counts) if n) / total


class GreedyStrategy(Strategy[TrainsConfig]):
    name = "greedy"
    description = "one ply: the action (and slot) that makes its own train most sorted (LIS, then inversions)"
    kernel_form = "strategies.trains.kernels:GREEDY"

    def __init__(self, memory: bool = True) -> None:
        self.memory = memory
        self._memory: DiscardMemory | None = None

    def setup(self, info, seat, rng) -> None:
        super().setup(info, seat, rng)
        self._memory = None          # a new game (or a search's next rollout): read its log afresh

    def _unseen(self, obs) -> list[int]:
        """Cards a draw may bring; with `memory`, minus the discards read from the log."""
        if not self.memory:
            return unseen_cards(obs)
        if self._memory is None:
            info = getattr(self, "info", None)
            after = info is None or getattr(info.config, "used_card", "after") == "after"
            self._memory = DiscardMemory(after)
        return unseen_cards(obs, self._memory.update(obs))

    # -- shared pieces -------------------------------------------------------------------

    def setup_choice(self, obs, legal):
        me = obs.trains[obs.seat]
        if obs.phase == KEEP_PHASE:
            best, pick = -1e9, legal[0]
            for a in legal:
                v, _ = best_place(me, a[1])
                if v > best:
                    best, pick = v, a
            return pick
        card = obs.kept if obs.phase == SETUP_PLACE else obs.drawn
        return PLACE[self.place_slot(obs, card)]

    def _insertion(self) -> bool:
        """Effects 3/4 follow the game's config (insertion by default)."""
        info = getattr(self, "info", None)
        return info is None or getattr(info.config, "move_semantics", "insert") == "insert"

    def place_slot(self, obs, card) -> int:
        return best_place(obs.trains[obs.seat], card)[1]

    def act(self, decision: Decision):
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        obs = decision.observation
        if obs.phase != TURN:
            return self.setup_choice(obs, legal)
        return self.turn_choice(obs, legal)

    def turn_choice(self, obs, legal):
        me = obs.trains[obs.seat]
        locks = obs.locks[obs.seat]
        base = sortedness(me)
        gaps = gap_counts(me, self._unseen(obs))
        moves = effect_scores(me, self._insertion())[0]
        best, pick = expected_draw(me, gaps), DRAW
        for a in legal:
            if a == DRAW:           # by value: an action that crossed a pipe is a copy
                continue
            e, p = a[1], a[2]
            if e <= 4:
                v = moves[(e, p)]
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
    description = ("greedy, and also plays against the leading opponents: effects 5-7 that cut their "
                   "chance to win, denial of effects they could win with, locks against a shown removal")
    kernel_form = "strategies.trains.kernels:RIVAL"

    def __init__(self, attack: float = 150.0, lock_risk: float = 0.15, memory: bool = True) -> None:
        super().__init__(memory)
        if attack < 0 or lock_risk < 0:
            raise ValueError("attack and lock_risk must be >= 0")
        self.attack = attack
        self.lock_risk = lock_risk

    def _win_penalties(self, obs) -> list[float]:
        """pen[e]: penalty for leaving effect e (1-4) in the display, because an opponent could
        complete its train with it (the next player to act weighs most)."""
        n = obs.n_players
        pen = [0.0] * 9
        insertion = self._insertion()
        for j in range(1, n):
            t = obs.trains[(obs.seat + j) % n]
            if sortedness(t) <= 32.0 * 4:     # one reordering never sorts a train with LIS < 5
                continue
            for e in effect_scores(t, insertion)[1]:
                pen[e] += 2000.0 if j == 1 else 600.0
        return pen

    @staticmethod
    def _threat(pen, display, skip_effect: int = 0) -> float:
        return sum(pen[e] for e in (1, 2, 3, 4) if display[e] and e != skip_effect)

    def place_slot(self, obs, card) -> int:
        me = list(obs.trains[obs.seat])
        locks = obs.locks[obs.seat]
        eff = obs.effects
        best, best_slot = -1e18, 1
        pen = self._win_penalties(obs)
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
            v -= self._threat(pen, disp)
            if v > best:
                best, best_slot = v, k + 1
        return best_slot

    def turn_choice(self, obs, legal):
        seat = obs.seat
        n = obs.n_players
        me = obs.trains[seat]
        locks = obs.locks[seat]
        base = sortedness(me)
        unseen = self._unseen(obs)
        gaps = gap_counts(me, unseen)
        opp = [(seat + j) % n for j in range(1, n)]
        pen = self._win_penalties(obs)
        moves = effect_scores(me, self._insertion())[0]
        best, pick = expected_draw(me, gaps) - self._threat(pen, obs.display), DRAW
        danger_now = {}
        for a in legal:
            if a == DRAW:
                continue
            e, p = a[1], a[2]
            attack = 0.0
            if e <= 4:
                v = moves[(e, p)]
                if v >= WIN:
                    return a
                v -= 2.0 * sum(1 for s in moved_slots(e, p) if locks[s - 1])
            elif e <= 7:
                s = REMOVAL_SLOT[e]
                v = base if locks[s - 1] else expected_refill(me, s, gaps)
                for q in opp:
                    if obs.locks[q][s - 1]:
                        continue
                    t = obs.trains[q]
                    if q not in danger_now:
                        danger_now[q] = draw_win_prob(t, unseen)
                    attack += danger_now[q] - refill_danger(t, s, unseen)
            else:
                loss = base - expected_refill(me, p, gaps)
                risk = self.lock_risk if obs.display[REMOVAL_SLOT_OF_LOCK[p]] else 0.0
                v = base + max(0.0, loss) * risk
            v += self.attack * attack - self._threat(pen, obs.display, skip_effect=e)
            if v > best:
                best, pick = v, a
        return pick


def draw_win_prob(train, unseen: list[int]) -> float:
    """Chance that a uniformly random unseen card, placed best, completes `train`."""
    if sortedness(train) <= 32.0 * 5:       # one card can only complete a train with LIS 6
        return 0.0
    counts = gap_counts(train, unseen)
    total = sum(counts)
    if not total:
        return 0.0
    best = place_table(train)[1]
    return sum(c for g, c in enumerate(counts) if c and best[g][0] >= WIN) / total


def refill_danger(train, slot: int, unseen: list[int]) -> float:
    """Expected `draw_win_prob` of `train` after slot `slot` is refilled with a random unseen
    card (1 if the refill itself completes it); each gap is represented by its middle card."""
    if sortedness(train) <= 32.0 * 4:       # two card changes need LIS >= 5
        return 0.0
    counts = gap_counts(train, unseen)
    total = sum(counts)
    if not total:
        return 0.0
    t = list(train)
    acc = 0.0
    start = 0
    for c in counts:
        if c:
            t[slot - 1] = unseen[start + c // 2]
            acc += c * (1.0 if sortedness(t) >= WIN else draw_win_prob(t, unseen))
        start += c
    return acc / total


#: the removal effect that hits each lockable slot
REMOVAL_SLOT_OF_LOCK = {s: e for e, s in REMOVAL_SLOT.items()}
