"""The 6 nimmt! parts of a search iteration compiled whole (docs/search.md, "Compiled search
iterations"): the game's `determinize`, the searching seat's actions as codes, the reward of a
finished or cut rollout, and a bot that plays the action the tree chose. The iteration loop that
drives them with the tree (simkit/search/kernel_tree.py) is strategies/sixnimmt/kernel_search.py
(the tree is on the bots' floor, above the games).

Action codes: a card is its value (1..104, played or drafted), `TakeRow(r)` is ROW_CODE + r.

`determinize` is `views.determinize` draw for draw: the chance generator's seed is
`integers(2**63)` of the search generator, seeded as `PCG64(seed)` (kernel_rng.seed_row); in the
basic game the unknown cards (the other hands in seat order, then the set-aside cards) are
shuffled as `permutation(len(unknown))` orders them and dealt back in seat order.

`redeal` is the opponent model's `HeuristicModel.resample` (strategies/sixnimmt/model.py, the
search's `infer`) draw for draw: the model is built in Python once per decision and passed as an
allowed mask per seat and the seats in its order (`model_arrays`); each determinization's hidden
cards (the constrained hands in that order, then the set-aside cards) are shuffled as
`permutation` orders them and dealt out as `resample` deals them.

`unknown_order(copy, seat, saved)` recovers the real order of the unknown cards from one Python
determinization made from the generator state `saved` (its permutation replayed and inverted):
the compiled search starts from what the seat can know, and never reads the real state.

Importing this module imports numba (only a compiled search imports it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from simkit.engine import kernel_rng as kr
from simkit.engine.kernel_rng import compiled
from simkit.games.sixnimmt import kernel_layout as L
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.evaluate import RISK_WEIGHT, SCALE
from simkit.games.sixnimmt.kernel_play import BOT_SIG, _results, row_points

#: TakeRow(r) is code ROW_CODE + r (cards are 1..104)
ROW_CODE = L.CARDS
#: rewards as codes (simkit.search.rewards.REWARDS order)
WIN, RANK, MARGIN = 0, 1, 2


def n_codes(rows: int) -> int:
    return ROW_CODE + rows


def code_of(action: Any) -> int:
    return ROW_CODE + action.row if type(action) is TakeRow else int(action)


def action_of(code: int) -> Any:
    return TakeRow(code - ROW_CODE) if code >= ROW_CODE else code


def unknown_order(copy: Any, seat: int, saved: Mapping[str, Any]) -> list[int]:
    """The unknown cards in the real state's order (`views.determinize`'s `unknown`), from
    `copy`, a determinization made from the generator state `saved`: its permutation drawn
    again and undone. Empty in the advanced game (every hand is known, N19)."""
    if copy.config.advanced:
        return []
    shuffled = [c for s, h in enumerate(copy.hands) if s != seat for c in h] + list(copy.aside)
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = saved
    rng.integers(1 << 63)
    order = rng.permutation(len(shuffled)).tolist()
    unknown = [0] * len(shuffled)
    for i, k in enumerate(order):
        unknown[k] = shuffled[i]
    return unknown


@compiled()
def determinize(real, g, me, unknown, count, advanced, search, chance, pool, buf):
    """`views.determinize` into `g`: `real` (the position, write_state) with the other hands
    dealt afresh from `unknown[:count]`; `chance` the new chance generator. Draws from `search`."""
    for i in range(real.size):
        g[i] = real[i]
    kr.seed_row(kr.next64(search) >> np.uint64(1), chance, pool)
    if advanced:
        return
    for i in range(count):
        buf[i] = unknown[i]
    kr.shuffle(search, buf, count)
    k = 0
    hands, lens, hand = g[L.O_HANDS], g[L.O_HAND_LEN], g[L.H]
    for s in range(g[L.N]):
        if s == me:
            continue
        for i in range(g[lens + s]):
            g[hands + s * hand + i] = buf[k + i]
        k += g[lens + s]


def model_arrays(model: Any, allowed: np.ndarray, order: np.ndarray) -> int:
    """`HeuristicModel` (or None) into `allowed` (seat x card: 1 where the seat may hold the
    card) and `order` (the constrained seats, most constrained first); their count."""
    if model is None:
        return 0
    seats = list(model.order)
    for k, s in enumerate(seats):
        allowed[s, :] = 0
        allowed[s, sorted(model.allowed[s])] = 1
        order[k] = s
    return len(seats)


@compiled()
def redeal(g, me, buf, count, allowed, order, n_order, search, hidden, taken):
    """`HeuristicModel.resample` of the determinization in `g` (dealt by `determinize` from
    `buf[:count]`: the other hands in seat order, then the set-aside cards); draws from `search`
    only when a seat is constrained (`n_order`)."""
    if n_order == 0:
        return
    hands, lens, hand = g[L.O_HANDS], g[L.O_HAND_LEN], g[L.H]
    dealt = 0
    for s in range(g[L.N]):
        if s != me:
            dealt += g[lens + s]
    m = 0
    for k in range(n_order):
        at = hands + order[k] * hand
        for i in range(g[lens + order[k]]):
            hidden[m] = g[at + i]
            m += 1
    for i in range(dealt, count):               # the set-aside cards
        hidden[m] = buf[i]
        m += 1
    kr.shuffle(search, hidden, m)
    for i in range(m):
        taken[hidden[i]] = 0
    for k in range(n_order):
        s = order[k]
        need, at, got = g[lens + s], hands + s * hand, 0
        for i in range(m):                      # the cards the seat may hold, in shuffled order
            if got == need:
                break
            c = hidden[i]
            if allowed[s, c] != 0 and taken[c] == 0:
                g[at + got] = c
                taken[c] = 1
                got += 1
        for i in range(m):                      # too few: filled with any
            if got == need:
                break
            c = hidden[i]
            if taken[c] == 0:
                g[at + got] = c
                taken[c] = 1
                got += 1


@compiled()
def acts(g, me):
    """Whether seat `me` acts now (every seat plays a card; one picks a row or drafts)."""
    phase = g[L.PHASE]
    if phase == L.PLAY:
        return True
    if phase == L.ROW_PICK or phase == L.DRAFT:
        return g[L.ACTOR] == me
    return False


@compiled()
def offered(g, me, out):
    """Seat `me`'s legal actions as codes in `legal_actions` order into `out`; their count."""
    phase = g[L.PHASE]
    if phase == L.PLAY:
        count = g[g[L.O_HAND_LEN] + me]
        at = g[L.O_HANDS] + me * g[L.H]
        for i in range(count):
            out[i] = g[at + i]
        return count
    if phase == L.ROW_PICK:
        for r in range(g[L.R]):
            out[r] = ROW_CODE + r
        return g[L.R]
    count = g[L.POOL_LEN]
    for i in range(count):
        out[i] = g[g[L.O_POOL] + i]
    return count


@compiled(BOT_SIG)
def chosen_bot(ask, seat, g, params, gen):
    """The action the tree chose (its code in params[0]) as a position in the legal list."""
    code = np.int64(params[0])
    if ask == L.ASK_ROW:
        return code - ROW_CODE
    if ask == L.ASK_CARD:
        at = g[L.O_HANDS] + seat * g[L.H]
        count = g[g[L.O_HAND_LEN] + seat]
    else:
        at = g[L.O_POOL]
        count = g[L.POOL_LEN]
    for i in range(count):
        if g[at + i] == code:
            return i
    return -1


@compiled()
def _bullheads(g, s, row_bh):
    """evaluate.bullheads for seat s (row_bh: scratch of the rows' bullheads, filled here)."""
    rows, cap = g[L.R], g[L.CAP]
    base = g[g[L.O_TOTALS] + s] + g[g[L.O_POINTS] + s]
    if g[g[L.O_ROW_LEN]] == 0:                  # advanced game before the rows are laid
        return np.float64(base)
    cheapest = row_points(g, 0)
    for r in range(rows):
        row_bh[r] = row_points(g, r)
        cheapest = min(cheapest, row_bh[r])
    full = cap - 1
    risk = 0
    at = g[L.O_HANDS] + s * g[L.H]
    lens, cells = g[L.O_ROW_LEN], g[L.O_ROWS]
    for i in range(g[g[L.O_HAND_LEN] + s]):
        card = g[at + i]
        best, best_end = -1, 0
        for r in range(rows):                   # the row with the highest end below the card
            end = g[cells + r * cap + g[lens + r] - 1]
            if end < card and end > best_end:
                best, best_end = r, end
        if best < 0:
            risk += cheapest
        elif g[lens + best] >= full:
            risk += row_bh[best]
    return base + RISK_WEIGHT * risk


@compiled()
def evaluate(g, me, values, row_bh):
    """evaluate.evaluate: the standing of `me` from the bullhead margins (fewest wins)."""
    n = g[L.N]
    for s in range(n):
        values[s] = _bullheads(g, s, row_bh)
    mine = values[me]
    total = 0.0
    for other in range(n):
        if other != me:
            x = -1.0 * (mine - values[other]) / SCALE
            total += 1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0
    return total / (n - 1) if n > 1 else 0.5


@compiled()
def reward(g, cfg, me, kind, ranks, wins, values, row_bh):
    """simkit.search.rewards for `me`: of the outcome when the match is over, else the cut
    value from `evaluate` (Simulator.rollout)."""
    n = g[L.N]
    if g[L.PHASE] != L.OVER:
        standing = evaluate(g, me, values, row_bh)
        return standing * 2.0 / n if kind == WIN else standing
    _results(g, cfg, ranks, wins)
    if kind == WIN:
        return wins[me]
    if n < 2:
        return 1.0
    if kind == RANK:
        beaten, tied = 0, -1
        for s in range(n):
            beaten += ranks[s] > ranks[me]
            tied += ranks[s] == ranks[me]
        return (beaten + 0.5 * tied) / (n - 1)
    totals = g[L.O_TOTALS]
    mine = np.float64(g[totals + me])
    scores = 0.0
    for s in range(n):
        scores += np.float64(g[totals + s])
    others = (scores - mine) / (n - 1)
    size = abs(mine) + abs(others)
    if not size > 0:
        return 0.5
    lead = (mine - others) / size
    return 0.5 + 0.5 * -lead
