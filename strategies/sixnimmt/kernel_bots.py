"""Kernel forms of the 6 nimmt! bots: compiled functions of the kernel's bot signature
(`simkit.games.sixnimmt.kernel_play.BOT_SIG`), each answering what its scalar strategy answers,
decision by decision (tests/sixnimmt/test_kernel.py). Declared in kernels.py; imported (and
compiled, or loaded from numba's cache) only when a kernel plays.
"""

from __future__ import annotations

import numpy as np

from simkit.engine.kernel_rng import compiled
from simkit.games.sixnimmt import kernel_layout as L
from simkit.games.sixnimmt.kernel_play import BH, BOT_SIG, cheapest_row, legal_card, legal_count, uniform_bot
from simkit.games.sixnimmt.kernel_play import highest_bot as kp_highest
from simkit.games.sixnimmt.kernel_play import lowest_bot as kp_lowest

#: heuristic params: caution, the deck in play D, then where its tables start in params
P_CAUTION, P_DECK, P_TAKE, P_SAVED, P_RANK = range(5)


#: `random` (uniform over the legal list with the strategy's buffered draws; N10 the cheapest row
#: unless params[0], row=uniform), `lowest` and `highest` (the lowest or highest card of the legal
#: list; N10 the cheapest row): the game's kernel holds them (kernel_play.uniform_bot, ...), so
#: its game loop can play them without a function pointer
random_bot = uniform_bot
lowest_bot = kp_lowest
highest_bot = kp_highest


@compiled()
def _least_cost(seat, g, params, m):
    """HeuristicStrategy._choose_card: the same floats in the same order of operations."""
    deck, rows, cap = g[L.DECK], g[L.R], g[L.CAP]
    size = int(params[P_DECK]) + 1
    unseen_total = deck - g[L.N_SEEN] - m
    n_unseen = unseen_total if unseen_total > 1 else 1
    caution = params[P_CAUTION]
    seen = g[L.O_SEEN]
    scratch = g[L.O_SCRATCH]
    below = g[scratch:scratch + deck + 2]           # not-seen cards below each value
    below[0] = 0
    below[1] = 0
    for v in range(1, deck + 1):
        below[v + 1] = below[v] + 1 - g[seen + v]
    at = scratch + deck + 2
    order = g[at:at + rows + 1]                     # rows by end, ascending
    ends = g[at + rows + 1:at + 2 * rows + 2]
    points = g[at + 2 * rows + 2:at + 3 * rows + 2]
    at += 3 * rows + 2
    cheapest = 1 << 30
    for r in range(rows):
        end = g[g[L.O_ROWS] + r * cap + g[g[L.O_ROW_LEN] + r] - 1]
        j = r
        while j > 0 and ends[j - 1] > end:
            ends[j] = ends[j - 1]
            order[j] = order[j - 1]
            j -= 1
        ends[j] = end
        order[j] = r
        total = 0
        for k in range(g[g[L.O_ROW_LEN] + r]):
            total += BH[g[g[L.O_ROWS] + r * cap + k]]
        points[r] = total
        cheapest = min(cheapest, total)
    ends[rows] = 1 << 30
    hand_at = g[L.O_HANDS] + seat * g[L.H]
    held = g[at:at + m]                             # the hand ascending, with list positions
    where = g[at + m:at + 2 * m]
    for i in range(m):
        card = g[hand_at + i]
        j = i
        while j > 0 and held[j - 1] > card:
            held[j] = held[j - 1]
            where[j] = where[j - 1]
            j -= 1
        held[j] = card
        where[j] = i
    take_at = int(params[P_TAKE])
    saved_at = int(params[P_SAVED]) + n_unseen * size
    t, next_end, end_unseen, row = 0, ends[0], 0, -1
    best_pos, best_cost = 0, np.inf
    for own_below in range(m):
        card = held[own_below]
        while card > next_end:                      # the row this card goes to (N8)
            row = order[t]
            end_unseen = below[ends[t]] - own_below
            t += 1
            next_end = ends[t]
        gap = below[card] - own_below - end_unseen
        if row < 0:                                 # below every row (N10)
            p_saved = params[saved_at + gap]
            cost = cheapest * (1 - p_saved) + 0.5 * p_saved
        else:
            free = cap - g[g[L.O_ROW_LEN] + row]
            p_take = params[take_at + (free * size + n_unseen) * size + gap]
            cost = p_take * (points[row] + 1.5) * caution + 0.002 * gap
        cost -= 0.001 * BH[card]
        pos = where[own_below]
        if cost < best_cost or (cost == best_cost and pos < best_pos):
            best_pos, best_cost = pos, cost
    return best_pos


@compiled(BOT_SIG)
def heuristic_bot(ask, seat, g, params, gen):
    """`heuristic` (strategies/sixnimmt/heuristic.py): the card of least expected cost, the
    cheapest row, the draft by bullheads then nearness to the middle (the rank table)."""
    count = legal_count(ask, seat, g)
    if count == 1:
        return 0
    if ask == L.ASK_ROW:
        return cheapest_row(g)
    if ask == L.ASK_DRAFT:
        best, best_rank = 0, params[int(params[P_RANK]) + legal_card(ask, seat, g, 0)]
        for i in range(1, count):
            rank = params[int(params[P_RANK]) + legal_card(ask, seat, g, i)]
            if rank < best_rank:
                best, best_rank = i, rank
        return best
    return _least_cost(seat, g, params, count)
