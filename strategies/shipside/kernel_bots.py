"""Kernel forms of the Shipside bots: compiled functions of the kernel's bot signature
(`simkit.games.shipside.kernel_play.BOT_SIG`), each answering what its scalar strategy answers,
decision by decision (tests/shipside/test_kernel.py). Declared in kernels.py; imported (and
compiled, or loaded from numba's cache) only when a kernel plays.
"""

from __future__ import annotations

import math

import numpy as np

from simkit.engine.kernel_rng import buffered_double, compiled
from simkit.games.shipside import kernel_layout as L
from simkit.games.shipside.kernel_play import (
    BOT_SIG,
    a_card,
    a_dir,
    a_kind,
    a_ship,
    a_side,
    a_src_ship,
    a_src_side,
    action_at,
    move_target,
)


@compiled(BOT_SIG)
def random_bot(ask, seat, g, params, gen):
    """`random`: uniform over the legal list with the strategy's buffered draws (32 doubles in
    the row's scratch columns, kernel_play.ROW_WORDS long)."""
    return np.int64(buffered_double(gen, 32) * g[L.NLEGAL])


# ---- greedy and octopus (strategies/shipside/heuristic.py) ------------------------------------
#: params: threat, chance, rum_min, octopus_cost, use_octopus, then P(card >= gap) for gap -60..79
P_THREAT, P_CHANCE, P_RUM_MIN, P_OCTO_COST, P_USE_OCTO, P_GE = range(6)
GE_LOW, GE_HIGH = -60, 80
CAPTURE = 100.0
WIN = 10_000.0
#: no card in hand (the scalar bot's hand_max None)
NONE = -(1 << 40)
#: scratch of g: the base board by row position (thr, mine, theirs, n mine, n theirs, stake),
#: an action's changes to it (same layout), and which row positions it touched
_B = L.O_SCRATCH
_D = L.O_SCRATCH + 6 * L.MAX_SHIPS
_T = L.O_SCRATCH + 12 * L.MAX_SHIPS


@compiled()
def _f_ge(params, gap):
    if gap <= GE_LOW:
        return 1.0
    if gap >= GE_HIGH:
        return 0.0
    return params[P_GE + gap - GE_LOW]


@compiled()
def _ship_value(g, params, seat, thr, tm, to, nm, no, stake, hand_max):
    """GreedyStrategy._ship_value: the same floats in the same order of operations."""
    incl, maxc, goal = g[L.INCLUSIVE], g[L.MAXC], g[L.GOAL]
    my_score, opp_score = g[L.SCORE + seat], g[L.SCORE + 1 - seat]
    opp_k = g[L.HAND_LEN + 1 - seat]
    if (tm >= thr) if incl else (tm > thr):
        return CAPTURE * stake + (WIN if goal != 0 and my_score + stake >= goal else 0.0)
    if (to >= thr) if incl else (to > thr):
        return -CAPTURE * stake - (WIN if goal != 0 and opp_score + stake >= goal else 0.0)
    if nm >= maxc and no >= maxc:
        return CAPTURE * stake if tm > to else (-CAPTURE * stake if to > tm else 0.0)
    need = 0 if incl else 1
    value = (tm - to) * 0.5
    p_card = 0.0
    if no < maxc:
        gap = thr - to + need
        if nm >= maxc and no == maxc - 1:
            gap = min(gap, tm - to + 1)
        p_card = _f_ge(params, gap)
    elif nm == maxc - 1:
        p_card = 1.0 - _f_ge(params, to - tm)
    if p_card > 0.0:
        p_op = 1.0 - math.pow(1.0 - p_card, np.float64(opp_k)) if opp_k != 0 else 0.0
        lose = CAPTURE * stake + (WIN * 0.5 if goal != 0 and opp_score + stake >= goal else 0.0)
        value -= params[P_THREAT] * p_op * lose
    if nm < maxc:
        gap = thr - tm + need
        if no >= maxc and nm == maxc - 1:
            gap = min(gap, to - tm + 1)
        p_me = 1.0 if hand_max != NONE and hand_max >= gap else 0.25 * _f_ge(params, gap)
        value += params[P_CHANCE] * p_me * CAPTURE * stake
    return value


@compiled()
def _value_at(g, params, seat, r, hand_max, changed):
    at = _B + 6 * r
    d = _D + 6 * r if changed else _B + 6 * r
    k = 1 if changed else 0
    return _ship_value(g, params, seat, g[at] + k * g[d], g[at + 1] + k * g[d + 1], g[at + 2] + k * g[d + 2],
                       g[at + 3] + k * g[d + 3], g[at + 4] + k * g[d + 4], g[at + 5] + k * g[d + 5], hand_max)


@compiled()
def _base_total(g, params, seat, hand_max):
    total = 0.0
    for r in range(g[L.ROW_LEN]):
        total += _value_at(g, params, seat, r, hand_max, False)
    return total


@compiled()
def _total(g, params, seat, hand_max, base):
    """GreedyStrategy._total of the base board with the changes in _D: the changed ships'
    differences added in row order."""
    total = base
    for r in range(g[L.ROW_LEN]):
        if g[_T + r]:
            new = _value_at(g, params, seat, r, hand_max, True)
            total += new - _value_at(g, params, seat, r, hand_max, False)
    return total


@compiled()
def _clear(g):
    for i in range(6 * L.MAX_SHIPS):
        g[_D + i] = 0
    for r in range(L.MAX_SHIPS):
        g[_T + r] = 0


@compiled()
def _change(g, s, field, delta):
    """_mut: ship s's entry `field` changes by delta (the ship counts as changed)."""
    for r in range(g[L.ROW_LEN]):
        if g[L.O_ROW + r] == s:
            g[_D + 6 * r + field] += delta
            g[_T + r] = 1


@compiled()
def _board(g, seat):
    """GreedyStrategy._board: each ship in play, in row order, from the seat's side."""
    for r in range(g[L.ROW_LEN]):
        s = g[L.O_ROW + r]
        stake = g[L.SHIP_POINTS]
        for i in range(g[L.O_CREW_LEN + s]):
            stake += g[L.O_CREW_PTS + g[L.O_CREW + s * L.MAX_CREW + i]]
        at = _B + 6 * r
        g[at] = g[L.O_DEF + s] + g[L.BONUS] * g[L.O_MUG_LEN + s]
        g[at + 1], g[at + 2] = g[L.O_TOT + 2 * s + seat], g[L.O_TOT + 2 * s + 1 - seat]
        g[at + 3], g[at + 4] = g[L.O_SIDE_LEN + 2 * s + seat], g[L.O_SIDE_LEN + 2 * s + 1 - seat]
        g[at + 5] = stake


@compiled()
def _crew_target(g, s, d):
    if d == 0:
        return -1
    return move_target(g, s, -1 if d == 1 else 1)


@compiled()
def _apply_move(g, s, d):
    """GreedyStrategy._apply_move: the first token's points go from ship s to its target."""
    target = _crew_target(g, s, d)
    if target < 0:
        return
    points = g[L.O_CREW_PTS + g[L.O_CREW + s * L.MAX_CREW]]
    _change(g, s, 5, -points)
    _change(g, target, 5, points)


@compiled()
def _place(g, seat, value, s, side, sym, d):
    if sym and g[L.BEFORE]:
        _apply_move(g, s, d)
    if side == seat:
        _change(g, s, 1, value)
        _change(g, s, 3, 1)
    else:
        _change(g, s, 2, value)
        _change(g, s, 4, 1)


@compiled()
def _remove(g, seat, s, side, value):
    if side == seat:
        _change(g, s, 1, -value)
        _change(g, s, 3, -1)
    else:
        _change(g, s, 2, -value)
        _change(g, s, 4, -1)


@compiled()
def _value_rum(g, params, seat, s, hand_max, base):
    _clear(g)
    _change(g, s, 0, g[L.BONUS])
    return _total(g, params, seat, hand_max, base)


@compiled()
def _value_octopus(g, params, seat, act, hand_max, base):
    """GreedyStrategy._value_octopus."""
    c = a_card(act)
    value = g[L.O_VALUE + c]
    sym = g[L.O_SYM + c] != 0 and g[L.AS_PLACEMENT] != 0
    s, side, src, src_side = a_ship(act), a_side(act), a_src_ship(act), a_src_side(act)
    d = a_dir(act) if sym and g[L.BEFORE] else 0
    target = _crew_target(g, s, d)
    if src != s and src != target:
        _clear(g)
        _remove(g, seat, src, src_side, value)
        d1 = _total(g, params, seat, hand_max, base) - base
        _clear(g)
        _place(g, seat, value, s, side, sym, a_dir(act))
        d2 = _total(g, params, seat, hand_max, base) - base
        return base + d1 + d2 - params[P_OCTO_COST]
    _clear(g)
    _remove(g, seat, src, src_side, value)
    _place(g, seat, value, s, side, sym, a_dir(act))
    return _total(g, params, seat, hand_max, base) - params[P_OCTO_COST]


@compiled()
def _pick(seat, g, count):
    """GreedyStrategy._pick: the strongest kinds, and the lowest jellyfish as the last pick."""
    if g[L.HAND_LEN + seat] == g[L.HAND_SIZE] - 1:
        best, low = -1, 0
        for i in range(count):
            v = g[L.O_VALUE + a_card(action_at(L.ASK_PICK, seat, g, i))]
            if v < 0 and (best < 0 or v < low):
                best, low = i, v
        if best >= 0:
            return best
    best, high = 0, g[L.O_VALUE + a_card(action_at(L.ASK_PICK, seat, g, 0))]
    for i in range(1, count):
        v = g[L.O_VALUE + a_card(action_at(L.ASK_PICK, seat, g, i))]
        if v > high:
            best, high = i, v
    return best


@compiled()
def _greedy_dir(g, params, seat, count, top, base):
    """A crew direction (movement.chooser=owner): the first of the best boards."""
    best, best_v = 0, -np.inf
    for i in range(count):
        _clear(g)
        _apply_move(g, g[L.PEND_S], a_dir(action_at(L.ASK_DIR, seat, g, i)))
        v = _total(g, params, seat, top, base)
        if v > best_v:
            best, best_v = i, v
    return best


@compiled()
def _greedy_rum(g, params, seat, ask, first, count, top, base):
    """GreedyStrategy._rum_choice over positions first..count-1: -1 (decline) unless a mug
    gains more than rum_min."""
    best, best_v = -1, base + params[P_RUM_MIN]
    for i in range(first, count):
        v = _value_rum(g, params, seat, a_ship(action_at(ask, seat, g, i)), top, base)
        if v > best_v:
            best, best_v = i, v
    return best


@compiled()
def _greedy_move(g, params, seat, top, tops, second, base):
    """The best play (then octopus move, for `octopus` or without a play); -1 when none."""
    moves = g[L.NMOVES]
    rest = top if tops > 1 else second
    base_rest = _base_total(g, params, seat, rest)
    best, best_v = -1, -1e18
    for i in range(moves):
        act = action_at(L.ASK_MAIN, seat, g, i)
        if a_kind(act) != L.A_PLAY:
            break
        c = a_card(act)
        value = g[L.O_VALUE + c]
        _clear(g)
        _place(g, seat, value, a_ship(act), a_side(act), g[L.O_SYM + c] != 0, a_dir(act))
        if value == top:
            v = _total(g, params, seat, rest, base_rest)
        else:
            v = _total(g, params, seat, top, base)
        if v > best_v:
            best, best_v = i, v
    if params[P_USE_OCTO] != 0.0 or best < 0:
        for i in range(moves):
            act = action_at(L.ASK_MAIN, seat, g, i)
            if a_kind(act) != L.A_OCTOPUS:
                continue
            v = _value_octopus(g, params, seat, act, top, base)
            if v > best_v:
                best, best_v = i, v
    return best


@compiled(BOT_SIG)
def greedy_bot(ask, seat, g, params, gen):
    """`greedy` (params[P_USE_OCTO] = 0) and `octopus` (1): GreedyStrategy.act, decision by
    decision: every action valued by the board it leaves, the first of the best kept."""
    count = g[L.NLEGAL]
    if ask == L.ASK_MARK:
        return 0
    if ask == L.ASK_PICK:
        return _pick(seat, g, count)
    _board(g, seat)
    hand = L.O_HANDS + seat * L.MAX_CARDS
    top, tops, second = NONE, 0, NONE           # the highest card, its copies, the next value
    for i in range(g[L.HAND_LEN + seat]):
        v = g[L.O_VALUE + g[hand + i]]
        if v > top:
            second, top, tops = top, v, 1
        elif v == top:
            tops += 1
        elif v > second:
            second = v
    base = _base_total(g, params, seat, top)
    if ask == L.ASK_DIR:
        return _greedy_dir(g, params, seat, count, top, base)
    if ask == L.ASK_RUM:
        return max(0, _greedy_rum(g, params, seat, ask, 1, count, top, base))
    if g[L.NRS] > 0 and not g[L.RUM_EITHER]:           # rum before (rum.timing=before)
        best = _greedy_rum(g, params, seat, ask, count - g[L.NRS], count, top, base)
        if best >= 0 and _value_rum(g, params, seat, a_ship(action_at(ask, seat, g, best)), top, base) \
                - base >= params[P_RUM_MIN]:
            return best
    best = _greedy_move(g, params, seat, top, tops, second, base)
    return best if best >= 0 else 0     # else the pass (first when no card or octopus move is listed)
