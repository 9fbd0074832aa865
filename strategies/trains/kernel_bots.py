"""Kernel forms of the Game of Trains bots: compiled functions of the kernel's bot signature
(`simkit.games.trains.kernel_play.BOT_SIG`), each answering what its scalar strategy answers
(`random`'s is the game kernel's own `uniform_bot`),
decision by decision (tests/trains/test_kernel.py). Declared in kernels.py; imported (and
compiled, or loaded from numba's cache) only when a kernel plays.

`greedy` and `rival` compute the floats of strategies/trains/heuristic.py in the same order:
every score there is an integer (32 * LIS - inversions, or WIN) and every expectation an integer
sum divided once, so the comparisons come out the same.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from simkit.engine.kernel_rng import compiled
from simkit.games.trains import kernel_layout as L
from simkit.games.trains.kernel_play import (
    BOT_SIG,
    OFFSET,
    legal_count,
    order_code,
    order_code_of,
    removal_slot,
    turn_action,
)
from strategies.trains.heuristic import sortedness as sortedness_of

#: strategies/trains/heuristic.py's WIN
WIN = 10_000
#: greedy / rival params: discard memory (1.0) or not, effects 3/4 by insertion (1.0) or swap;
#: rival's attack and lock_risk
P_MEMORY, P_INSERTION, P_ATTACK, P_LOCK_RISK = range(4)
#: the bots' scratch in g: a train being scored, two rank patterns, two gap count tables, a
#: second train, the sorted unseen cards, card marks, rival's penalties
_V = L.SCRATCH + 16
_RANK, _RANK2 = _V + 8, _V + 16
_COUNTS, _COUNTS2 = _V + 24, _V + 32
_T = _V + 40
_SORTED = _T + 8
_PEN = _SORTED + 8
_UNSEEN = _PEN + 16
_MARK = _UNSEEN + L.CARDS
assert _MARK + L.CARDS <= L.SCRATCH + L.SCRATCH_SIZE, "the bots' scratch outgrew kernel_layout.SCRATCH_SIZE"


# ---- scoring trains (strategies/trains/heuristic.py) --------------------------------------------
#: `sortedness` of every order of 7 values, by `order_code_of` (heuristic.py's own table, rekeyed)
_SCORES = np.zeros(5040, dtype=np.int64)
for _order in permutations(range(7)):
    _SCORES[order_code_of(_order)] = sortedness_of(_order)


@compiled(literals=True)
def sortedness(g, at):
    """32 * LIS - inversions of the 7 values g[at:at+7] (WIN when ascending), as `sortedness`:
    the table, by the values' `order_code`."""
    return _SCORES[order_code(g, at)]


@compiled(literals=True)
def _ranks(g, at, rank):
    """g[rank + j] = 2 * (values of g[at:at+7] below the j-th) + 1: the train's order pattern,
    with the even values 2 * gap free for a card that has `gap` train cards below it."""
    for j in range(7):
        below = 0
        for i in range(7):
            below += g[at + i] < g[at + j]
        g[rank + j] = 2 * below + 1


@compiled()
def _placed(g, rank, k, gap):
    """`place_table`'s table[k][gap] for the pattern at `rank`: the sortedness after a card
    with `gap` train cards below it replaces slot k (0-based)."""
    for j in range(7):
        g[_V + j] = g[rank + j]
    g[_V + k] = 2 * gap
    return sortedness(g, _V)


@compiled()
def _best_place(g, rank, gap):
    """`place_table`'s best[gap]: (best score, first best slot 0-based)."""
    best, slot = _placed(g, rank, 0, gap), 0
    for k in range(1, 7):
        v = _placed(g, rank, k, gap)
        if v > best:
            best, slot = v, k
    return best, slot


@compiled()
def _below(g, at, card):
    below = 0
    for i in range(7):
        below += g[at + i] < card
    return below


@compiled()
def _unseen(g, seat, memory):
    """`_unseen(obs)` sorted into _UNSEEN: the cards a draw may bring (not in a train, a lock or
    the display; with memory, not known to be in the discard pile nor an own setup discard).
    Returns how many."""
    mark = g[_MARK:_MARK + L.CARDS]
    mark[:] = 0
    n = g[L.N]
    for i in range(7 * n):
        mark[g[L.TRAINS + i]] = 1
        mark[g[L.LOCKS + i]] = 1
    for e in range(1, 9):
        mark[g[L.DISPLAY + e]] = 1
    if memory:
        for c in range(1, L.CARDS):
            if g[L.KNOWN + c]:
                mark[c] = 1
        for i in range(g[L.HIDDEN_LEN + seat]):
            mark[g[L.HIDDEN + 3 * seat + i]] = 1
    total = 0
    for c in range(1, L.CARDS):
        if not mark[c]:
            g[_UNSEEN + total] = c
            total += 1
    return total


@compiled(literals=True)
def _gap_counts(g, at, total, counts):
    """`gap_counts(train, unseen)` into g[counts:counts+8]: by `bisect_left`, an unseen card
    equal to a train card (refill_danger's trial card) counts in the gap above it."""
    for gap in range(8):
        g[counts + gap] = 0
    for i in range(total):
        card = g[_UNSEEN + i]
        gap = 0
        for j in range(7):
            gap += g[at + j] <= card
        g[counts + gap] += 1


@compiled()
def _expected_draw(g, rank, counts, total, base):
    """`expected_draw`: the mean best score over the unseen cards (the train's own if none)."""
    if total == 0:
        return np.float64(base)
    acc = 0
    for gap in range(8):
        if g[counts + gap]:
            acc += _best_place(g, rank, gap)[0] * g[counts + gap]
    return acc / total


@compiled()
def _expected_refill(g, rank, k, counts, total, base):
    """`expected_refill` of slot k (0-based)."""
    if total == 0:
        return np.float64(base)
    acc = 0
    for gap in range(8):
        if g[counts + gap]:
            acc += _placed(g, rank, k, gap) * g[counts + gap]
    return acc / total


@compiled()
def _moved_score(g, at, e, i, insertion):
    """The sortedness after effect e (1-4) with parameter i on the train at `at` (`effect_scores`)."""
    for j in range(7):
        g[_V + j] = g[at + j]
    a = i - 1
    b = a + OFFSET[e]
    if e >= 3 and insertion:
        c = g[_V + a]
        if b > a:
            for k in range(a, b):
                g[_V + k] = g[_V + k + 1]
        else:
            for k in range(a, b, -1):
                g[_V + k] = g[_V + k - 1]
        g[_V + b] = c
    else:
        g[_V + a], g[_V + b] = g[_V + b], g[_V + a]
    return sortedness(g, _V)


# ---- greedy ---------------------------------------------------------------------------------------
@compiled()
def _setup_choice(ask, seat, g, count):
    """GreedyStrategy.setup_choice for a keep (the card whose best place scores most); -1 for a
    placement (the strategy's own `place_slot` decides)."""
    _ranks(g, L.TRAINS + 7 * seat, _RANK)
    best, pick = -1, 0
    for i in range(count):
        v, _ = _best_place(g, _RANK, _below(g, L.TRAINS + 7 * seat, g[L.HANDS + 4 * seat + i]))
        if v > best:
            best, pick = v, i
    return pick


@compiled()
def _card_to_place(ask, seat, g):
    return g[L.KEPT + seat] if ask == L.SETUP_PLACE else g[L.DRAWN]


@compiled()
def _greedy_turn(seat, g, params, count):
    """GreedyStrategy.turn_choice: Draw at `expected_draw`, then the first action valued higher."""
    me = L.TRAINS + 7 * seat
    _ranks(g, me, _RANK)
    base = sortedness(g, me)
    total = _unseen(g, seat, params[P_MEMORY] != 0.0)
    _gap_counts(g, me, total, _COUNTS)
    best = _expected_draw(g, _RANK, _COUNTS, total, base)
    pick = 0
    insertion = params[P_INSERTION] != 0.0
    for pos in range(1, count):
        e, p = turn_action(g, pos)
        if e <= 4:
            v = np.float64(_moved_score(g, me, e, p, insertion))
        elif e <= 7:
            k = removal_slot(e)
            v = np.float64(base) if g[L.LOCKS + me - L.TRAINS + k] else \
                _expected_refill(g, _RANK, k, _COUNTS, total, base)
        else:
            v = np.float64(base)
        if v > best:
            best, pick = v, pos
    return pick


@compiled(BOT_SIG)
def greedy_bot(ask, seat, g, params, gen):
    """`greedy`: the setup keep and every placement by `best_place`; on a turn the action of
    the highest one-ply value, Draw valued by `expected_draw`, effects 5-7 by `expected_refill`."""
    count = legal_count(ask, seat, g)
    if count == 1:
        return 0
    if ask == L.KEEP:
        return _setup_choice(ask, seat, g, count)
    if ask == L.SETUP_PLACE or ask == L.PLACE:
        me = L.TRAINS + 7 * seat
        _ranks(g, me, _RANK)
        return _best_place(g, _RANK, _below(g, me, _card_to_place(ask, seat, g)))[1]
    return _greedy_turn(seat, g, params, count)


# ---- rival ----------------------------------------------------------------------------------------
@compiled()
def _win_penalties(seat, g, insertion):
    """RivalStrategy._win_penalties into g[_PEN + e]: 2000 (the next player) or 600 (later ones)
    for each effect 1-4 an opponent could complete its train with."""
    n = g[L.N]
    for e in range(9):
        g[_PEN + e] = 0
    for j in range(1, n):
        at = L.TRAINS + 7 * ((seat + j) % n)
        if sortedness(g, at) <= 128:
            continue
        for e in range(1, 5):
            first = 3 if e == 4 else 1
            last = 6 if e == 1 else (7 if e == 4 else 5)
            for i in range(first, last + 1):
                if _moved_score(g, at, e, i, insertion) >= WIN:
                    g[_PEN + e] += 2000 if j == 1 else 600
                    break


@compiled()
def _threat(g, skip):
    """RivalStrategy._threat with the display as it is (skipping effect `skip`)."""
    total = 0
    for e in range(1, 5):
        if g[L.DISPLAY + e] and e != skip:
            total += g[_PEN + e]
    return np.float64(total)


@compiled()
def _rival_place(ask, seat, g, insertion):
    """RivalStrategy.place_slot: a winning slot at once, else the best score less 2 for a lock
    given up and less the threat of the display it leaves (position 0..6)."""
    me = L.TRAINS + 7 * seat
    card = _card_to_place(ask, seat, g)
    _win_penalties(seat, g, insertion)
    best, best_slot = -1e18, 0
    for k in range(7):
        for j in range(7):
            g[_T + j] = g[me + j]
        g[_T + k] = card
        v = np.float64(sortedness(g, _T))
        if v >= WIN:
            return k
        if g[L.LOCKS + 7 * seat + k]:
            v -= 2.0
        old = g[me + k]
        e = g[L.EFF + old]
        shown = g[L.DISPLAY + e]
        g[L.DISPLAY + e] = 0 if shown else old          # the display as it would be; restored
        v -= _threat(g, 0)
        g[L.DISPLAY + e] = shown
        if v > best:
            best, best_slot = v, k
    return best_slot


@compiled(literals=True)
def _draw_win_prob(g, at, total):
    """draw_win_prob: the chance that an unseen card, placed best, completes the train at `at`."""
    if sortedness(g, at) <= 160:
        return 0.0
    _gap_counts(g, at, total, _COUNTS2)
    if total == 0:
        return 0.0
    _ranks(g, at, _RANK2)
    wins = 0
    for gap in range(8):
        if g[_COUNTS2 + gap] and _completes(g, _RANK2, gap):
            wins += g[_COUNTS2 + gap]
    return wins / total


@compiled()
def _completes(g, rank, gap):
    """`place_table`'s best[gap] is WIN: some slot takes a card with `gap` train cards below it
    and the train is then ascending (the same test, without scoring every slot)."""
    card = 2 * gap
    for k in range(7):
        prev = -1
        ok = True
        for j in range(7):
            x = card if j == k else g[rank + j]
            if x <= prev:
                ok = False
                break
            prev = x
        if ok:
            return True
    return False


@compiled()
def _refill_danger(g, at, k, total):
    """refill_danger: the mean `draw_win_prob` of the train at `at` after slot k is refilled
    with the middle unseen card of each gap (1 if the refill completes it)."""
    if sortedness(g, at) <= 128:
        return 0.0
    counts = _SORTED            # this train's gap counts (draw_win_prob uses _COUNTS2)
    _gap_counts(g, at, total, counts)
    if total == 0:
        return 0.0
    for j in range(7):
        g[_T + j] = g[at + j]
    acc = 0.0
    start = 0
    for gap in range(8):
        c = g[counts + gap]
        if c:
            g[_T + k] = g[_UNSEEN + start + c // 2]
            acc += c * (1.0 if sortedness(g, _T) >= WIN else _draw_win_prob(g, _T, total))
        start += c
    return acc / total


@compiled()
def _rival_turn(seat, g, params, count):
    """RivalStrategy.turn_choice (strategies/trains/heuristic.py), term by term."""
    n = g[L.N]
    me = L.TRAINS + 7 * seat
    locks = L.LOCKS + 7 * seat
    insertion = params[P_INSERTION] != 0.0
    base = sortedness(g, me)
    total = _unseen(g, seat, params[P_MEMORY] != 0.0)
    _gap_counts(g, me, total, _COUNTS)
    _win_penalties(seat, g, insertion)
    _ranks(g, me, _RANK)
    best = _expected_draw(g, _RANK, _COUNTS, total, base) - _threat(g, 0)
    pick = 0
    for pos in range(1, count):
        e, p = turn_action(g, pos)
        attack = 0.0
        if e <= 4:
            v = np.float64(_moved_score(g, me, e, p, insertion))
            if v >= WIN:
                return pos
            a = p - 1
            moved = 0               # rules.moved_slots(e, p) with its defaults (range, insertion)
            for s in (a, a + 1, a + 2) if e != 4 else (a - 2, a - 1, a):
                if e == 1 and s == a + 2 or e == 2 and s == a + 1:
                    continue
                moved += g[locks + s] != 0
            v -= 2.0 * moved
        elif e <= 7:
            k = removal_slot(e)
            _ranks(g, me, _RANK)
            v = np.float64(base) if g[locks + k] else _expected_refill(g, _RANK, k, _COUNTS, total, base)
            for j in range(1, n):
                q = (seat + j) % n
                if g[L.LOCKS + 7 * q + k]:
                    continue
                at = L.TRAINS + 7 * q
                attack += _draw_win_prob(g, at, total) - _refill_danger(g, at, k, total)
        else:
            _ranks(g, me, _RANK)
            loss = base - _expected_refill(g, _RANK, p - 1, _COUNTS, total, base)
            removal = 5 if p == 1 else (6 if p == 4 else 7)
            risk = params[P_LOCK_RISK] if g[L.DISPLAY + removal] else 0.0
            v = base + max(0.0, loss) * risk
        v += params[P_ATTACK] * attack - _threat(g, e)
        if v > best:
            best, pick = v, pos
    return pick


@compiled(BOT_SIG)
def rival_bot(ask, seat, g, params, gen):
    """`rival`: greedy's keep; its own placement (`_rival_place`) and turn (`_rival_turn`)."""
    count = legal_count(ask, seat, g)
    if count == 1:
        return 0
    if ask == L.KEEP:
        return _setup_choice(ask, seat, g, count)
    if ask == L.SETUP_PLACE or ask == L.PLACE:
        return _rival_place(ask, seat, g, params[P_INSERTION] != 0.0)
    return _rival_turn(seat, g, params, count)
