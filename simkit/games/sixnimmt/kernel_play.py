"""The 6 nimmt! kernel: the rules N1-N19 as numba-compiled functions on the state array `g`
(kernel_layout.py), one decision step at a time (`step`), and a whole chunk of games
(`play_games`). Imported only when a kernel plays (it imports numba and compiles, or loads the
compiled code from numba's disk cache).

The chance draws are the scalar engine's, draw for draw (simkit/engine/kernel_rng.py): the deal
is the same Fisher-Yates shuffle of 1..104 (N1-N3), the advanced game's first drafter the same
`integers(n)` (N19). A bot is a compiled function of the signature `BOT_SIG`, asked with one of
kernel_layout's ASK_* and answering a position in the list the scalar engine's `legal_actions`
gives (strategies/sixnimmt/kernels.py; docs/strategies.md, "Kernel forms").
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types

from simkit.engine import kernel_rng as kr
from simkit.engine.kernel_games import record_answer, seat_slots
from simkit.engine.kernel_rng import compiled
from simkit.games.sixnimmt import kernel_layout as L
from simkit.games.sixnimmt.rules import BH as _BH

#: a bot: (ask, seat, g, params, the seat's generator row) -> position in the legal list
BOT_SIG = types.int64(types.int64, types.int64, types.int64[::1], types.float64[::1], types.uint64[::1])
BOT = types.FunctionType(BOT_SIG)
#: lineup slots a kernel call takes (unused ones hold any bot)
MAX_SLOTS = 10
BOTS = types.UniTuple(BOT, MAX_SLOTS)
#: the `direct` codes of a lineup whose every bot is called through its pointer (`step`)
POINTERS = (0,) * MAX_SLOTS
PARAMS = types.UniTuple(types.float64[::1], MAX_SLOTS)

BH = np.array(_BH, dtype=np.int64)


# ---- reading the state (bots use these too) ----------------------------------------------------
@compiled(inline=True)
def _row_sum(g, at, length):
    """The bullheads of the `length` cards from g[at] (N13)."""
    total = 0
    for j in range(length):
        total += BH[g[at + j]]
    return total


@compiled()
def row_points(g, r):
    """N13: the bullheads of row r."""
    return _row_sum(g, g[L.O_ROWS] + r * g[L.CAP], g[g[L.O_ROW_LEN] + r])


@compiled()
def row_end(g, r):
    return g[g[L.O_ROWS] + r * g[L.CAP] + g[g[L.O_ROW_LEN] + r] - 1]


@compiled()
def cheapest_row(g):
    """The N10 pick of the baselines: fewest bullheads, lowest index on ties. The rows' sums in
    this loop, not by a call of `row_points` per row (those calls took ~9 % of a `random`
    round's samples under perf, scripts/bench_kernel_phases.py)."""
    cells, lens, cap = g[L.O_ROWS], g[L.O_ROW_LEN], g[L.CAP]
    best, best_points = 0, _row_sum(g, cells, g[lens])
    for r in range(1, g[L.R]):
        points = _row_sum(g, cells + r * cap, g[lens + r])
        if points < best_points:
            best, best_points = r, points
    return best


@compiled()
def legal_count(ask, seat, g):
    """How many actions the scalar engine's `legal_actions` lists for this ask."""
    if ask == L.ASK_CARD:
        return g[g[L.O_HAND_LEN] + seat]
    if ask == L.ASK_ROW:
        return g[L.R]
    return g[L.POOL_LEN]


@compiled()
def legal_card(ask, seat, g, i):
    """The card at position i of the seat's hand (ASK_CARD) or of the pool (ASK_DRAFT)."""
    if ask == L.ASK_CARD:
        return g[g[L.O_HANDS] + seat * g[L.H] + i]
    return g[g[L.O_POOL] + i]


# ---- the simple bots, called directly ---------------------------------------------------------
#: `direct` codes (`direct_slots`): which simple bot the game loop plays itself for a slot; 0 (POINTER):
#: the slot's bot through its function pointer
POINTER, UNIFORM, LOWEST, HIGHEST = range(4)


@compiled()
def uniform_choice(ask, seat, g, params, gen):
    """`random`'s answer: uniform over the legal list with the strategy's buffered draws (16,
    `kernel_rng.buffered_double`); N10 the cheapest row unless params[0] (row=uniform)."""
    if ask == L.ASK_ROW and params[0] == 0.0:
        return cheapest_row(g)
    return np.int64(kr.buffered_double(gen) * legal_count(ask, seat, g))


@compiled()
def extreme_choice(ask, seat, g, sign):
    """`lowest` (sign 1) and `highest` (sign -1): the position of the lowest or highest card in
    the legal list (the hand, or the pool in a draft); N10 the cheapest row."""
    if ask == L.ASK_ROW:
        return cheapest_row(g)
    best, best_value = 0, sign * legal_card(ask, seat, g, 0)
    for i in range(1, legal_count(ask, seat, g)):
        value = sign * legal_card(ask, seat, g, i)
        if value < best_value:
            best, best_value = i, value
    return best


# the kernel forms of `random`, `lowest` and `highest` (strategies/sixnimmt/kernel_bots.py names
# them): the game loop plays them itself where `direct_slots` marks their slots, and calls them
# through their function pointers elsewhere (a search rollout)
@compiled(BOT_SIG)
def uniform_bot(ask, seat, g, params, gen):
    return uniform_choice(ask, seat, g, params, gen)


@compiled(BOT_SIG)
def lowest_bot(ask, seat, g, params, gen):
    return extreme_choice(ask, seat, g, 1)


@compiled(BOT_SIG)
def highest_bot(ask, seat, g, params, gen):
    return extreme_choice(ask, seat, g, -1)


def direct_slots(fns: tuple[Any, ...]) -> np.ndarray:
    """The `direct` code of each lineup slot (int64): UNIFORM, LOWEST or HIGHEST where it holds
    that bot's kernel form, else POINTER. The loop plays those bots without a function pointer
    (a sixth of a 4-player `random` round) and without a specialisation of the loop per bot (its
    type would be the bot's dispatcher's, whose text holds an address: a cache key a later
    process cannot find). The same answers, the same draws either way."""
    codes = ((uniform_bot, UNIFORM), (lowest_bot, LOWEST), (highest_bot, HIGHEST))
    return np.array([next((code for bot, code in codes if fn is bot), POINTER) for fn in fns],
                    dtype=np.int64)


# ---- setting up -------------------------------------------------------------------------------
def new_layout(cfg: np.ndarray) -> np.ndarray:
    """A fresh state array for the run's sizes, header and offsets set (NumPy: the compiled
    functions allocate nothing)."""
    n, rows, cap, hand = (int(v) for v in cfg[[L.C_N, L.C_R, L.C_CAP, L.C_H]])
    g = np.zeros(L.state_size(n, rows, cap, hand), dtype=np.int64)
    g[L.N], g[L.R], g[L.CAP], g[L.H], g[L.DECK] = n, rows, cap, hand, cfg[L.C_DECK]
    sizes = [rows, rows * cap, n, n * hand, n, n, L.CARDS, L.CARDS, 2 * n, n, L.SCRATCH, n, n * L.CARDS]
    names = [L.O_ROW_LEN, L.O_ROWS, L.O_HAND_LEN, L.O_HANDS, L.O_TOTALS, L.O_POINTS, L.O_SEEN,
             L.O_POOL, L.O_PENDING, L.O_LAST, L.O_SCRATCH, L.O_PILE_LEN, L.O_PILES]
    at = L.HEADER
    for name, size in zip(names, sizes):
        g[name] = at
        at += size
    return g


@compiled()
def new_match(g, cfg, chance):
    """Round 1 dealt (or its draft begun): `new_state`."""
    n = g[L.N]
    for s in range(n):
        g[g[L.O_TOTALS] + s] = 0
        g[g[L.O_LAST] + s] = 0
    g[L.ROUND] = 0
    g[L.FIRST_ONE] = -1
    _start_round(g, cfg, chance)


@compiled()
def _start_round(g, cfg, chance):
    """N1-N4, or N18-N19's open draft."""
    n, rows, hand = g[L.N], g[L.R], g[L.H]
    g[L.ROUND] += 1
    g[L.TURN] = 0
    seen, pool = g[L.O_SEEN], g[L.O_POOL]
    g[seen:seen + L.CARDS] = 0
    for s in range(n):
        g[g[L.O_POINTS] + s] = 0
        g[g[L.O_PILE_LEN] + s] = 0
    if cfg[L.C_ADVANCED]:
        deck = g[L.DECK]
        for i in range(deck):
            g[pool + i] = i + 1
        g[L.POOL_LEN] = deck
        g[L.N_SEEN] = 0
        for s in range(n):
            g[g[L.O_HAND_LEN] + s] = 0
        for r in range(rows):
            g[g[L.O_ROW_LEN] + r] = 0
        rule = cfg[L.C_FIRST]
        if g[L.FIRST_ONE] < 0 and rule == 0:
            g[L.FIRST_ONE] = kr.bounded(chance, n)
        if rule == 1:
            first = 0
        elif rule == 2:
            first, top = 0, g[g[L.O_TOTALS]]
            for s in range(1, n):
                if g[g[L.O_TOTALS] + s] > top:
                    first, top = s, g[g[L.O_TOTALS] + s]
        else:
            first = (g[L.FIRST_ONE] + g[L.ROUND] - 1) % n
        g[L.FIRST] = first
        g[L.DRAFT_I] = 0
        g[L.ACTOR] = first
        g[L.PHASE] = L.DRAFT
        return
    deck = g[pool:pool + 104]           # the pool's room holds the shuffled deck
    for i in range(104):
        deck[i] = i + 1
    kr.shuffle(chance, deck, 104)
    hands = g[L.O_HANDS]
    for s in range(n):
        g[g[L.O_HAND_LEN] + s] = hand
        for i in range(hand):
            g[hands + s * hand + i] = deck[s * hand + i]
    dealt = n * hand
    for r in range(rows):
        card = deck[dealt + r]
        g[g[L.O_ROWS] + r * g[L.CAP]] = card
        g[g[L.O_ROW_LEN] + r] = 1
        g[seen + card] = 1
    g[L.N_SEEN] = rows
    g[L.POOL_LEN] = 0
    g[L.PHASE] = L.PLAY


# ---- one decision step ------------------------------------------------------------------------
@compiled(inline=True)
def _ask(ask, seat, g, gens, fns, params, direct, k):
    """The answer of lineup slot k's bot for `seat`: the simple bot `direct[k]` names, played
    here, or the slot's bot through its function pointer."""
    code = direct[k]
    if code == UNIFORM:
        return uniform_choice(ask, seat, g, params[k], gens[1 + seat])
    if code == LOWEST:
        return extreme_choice(ask, seat, g, 1)
    if code == HIGHEST:
        return extreme_choice(ask, seat, g, -1)
    return fns[k](ask, seat, g, params[k], gens[1 + seat])


@compiled(inline=True)
def step(g, cfg, gens, slot_of, fns, params, trace):
    """One decision step (the scalar engine's `apply` with its decisions): every seat's card
    (N5-N9), a row pick (N10) or a draft pick (N19). `gens`: the chance row, then a row per seat;
    `slot_of[seat]`: the lineup slot whose bot `fns[slot]` decides (through its pointer); `trace`
    (when not empty) records every answer after the ones it holds (trace[0] of them). Returns -1,
    or the seat whose bot answered outside its legal list (the state is then left mid-step)."""
    return _step(g, cfg, gens, slot_of, fns, params, POINTERS, trace)


@compiled(inline=True)
def _step(g, cfg, gens, slot_of, fns, params, direct, trace):
    """`step`, where `direct[slot]` (`direct_slots`) names the simple bot the loop plays itself."""
    phase = g[L.PHASE]
    if phase == L.PLAY:
        return _play_cards(g, cfg, gens, slot_of, fns, params, direct, trace)
    if phase == L.ROW_PICK:
        seat = g[L.ACTOR]
        k = slot_of[seat]
        r = _ask(L.ASK_ROW, seat, g, gens, fns, params, direct, k)
        record_answer(trace, r)
        if r < 0 or r >= g[L.R]:
            return seat
        _take(g, seat, r, g[L.CARD])
        g[L.PENDING_AT] += 1
        g[L.PHASE] = L.PLAY
        _resolve(g, cfg, gens[0])
        return -1
    if phase == L.DRAFT:
        return _draft(g, gens, slot_of, fns, params, direct, trace)
    return -1




@compiled(inline=True)
def _play_cards(g, cfg, gens, slot_of, fns, params, direct, trace):
    """N5 every seat chooses a card; N6 they are revealed in ascending order; then placed."""
    n, hand = g[L.N], g[L.H]
    pending, hands, lens = g[L.O_PENDING], g[L.O_HANDS], g[L.O_HAND_LEN]
    for seat in range(n):
        k = slot_of[seat]
        pos = _ask(L.ASK_CARD, seat, g, gens, fns, params, direct, k)
        record_answer(trace, pos)
        count = g[lens + seat]
        if pos < 0 or pos >= count:
            return seat
        at = hands + seat * hand
        card = g[at + pos]
        for i in range(pos, count - 1):         # list.remove: the rest keep their order
            g[at + i] = g[at + i + 1]
        g[lens + seat] = count - 1
        g[pending + 2 * seat] = card
        g[pending + 2 * seat + 1] = seat
    seen = g[L.O_SEEN]
    for seat in range(n):                       # seen after every seat chose (N6)
        g[seen + g[pending + 2 * seat]] = 1
    g[L.N_SEEN] += n
    for i in range(1, n):                       # ascending by card (cards are distinct)
        card, seat = g[pending + 2 * i], g[pending + 2 * i + 1]
        j = i - 1
        while j >= 0 and g[pending + 2 * j] > card:
            g[pending + 2 * j + 2] = g[pending + 2 * j]
            g[pending + 2 * j + 3] = g[pending + 2 * j + 1]
            j -= 1
        g[pending + 2 * j + 2] = card
        g[pending + 2 * j + 3] = seat
    g[L.PENDING_AT] = 0
    _resolve(g, cfg, gens[0])
    return -1


@compiled(inline=True)
def _resolve(g, cfg, chance):
    """N7-N9 from the pending card on, pausing for an N10 row pick; then the turn ends."""
    n, rows, cap = g[L.N], g[L.R], g[L.CAP]
    pending, lens, cells = g[L.O_PENDING], g[L.O_ROW_LEN], g[L.O_ROWS]
    for i in range(g[L.PENDING_AT], n):
        card, seat = g[pending + 2 * i], g[pending + 2 * i + 1]
        best, best_end = -1, 0
        for r in range(rows):                   # N8: the highest end below the card
            end = g[cells + r * cap + g[lens + r] - 1]
            better = (end > best_end) & (end < card)    # no branch: which row wins is random
            best = r if better else best
            best_end = end if better else best_end
        if best < 0:                            # N10: below every end
            g[L.PENDING_AT] = i
            g[L.PHASE] = L.ROW_PICK
            g[L.ACTOR] = seat
            g[L.CARD] = card
            return
        length = g[lens + best]
        if length < cap:
            g[cells + best * cap + length] = card
            g[lens + best] = length + 1
        else:                                   # N9: the full row is taken
            _take(g, seat, best, card)
    g[L.PENDING_AT] = n
    g[L.TURN] += 1
    g[L.PHASE] = L.PLAY
    if g[L.TURN] == g[L.H]:
        _end_round(g, cfg, chance)


@compiled()
def _take(g, seat, r, card):
    """N9/N10/N11: the seat takes row r into its penalty pile (its bullheads, N13); the card
    starts the row."""
    g[g[L.O_POINTS] + seat] += row_points(g, r)
    at, pile = g[L.O_ROWS] + r * g[L.CAP], g[L.O_PILES] + seat * L.CARDS + g[g[L.O_PILE_LEN] + seat]
    length = g[g[L.O_ROW_LEN] + r]
    for j in range(length):
        g[pile + j] = g[at + j]
    g[g[L.O_PILE_LEN] + seat] += length
    g[g[L.O_ROWS] + r * g[L.CAP]] = card
    g[g[L.O_ROW_LEN] + r] = 1


@compiled()
def _end_round(g, cfg, chance):
    """N13 round scores; N15-N16 (with N17's play_on) end of match, else the next round."""
    n = g[L.N]
    totals, points, last = g[L.O_TOTALS], g[L.O_POINTS], g[L.O_LAST]
    top = -1
    for s in range(n):
        g[totals + s] += g[points + s]
        g[last + s] = g[points + s]
        top = max(top, g[totals + s])
    over = cfg[L.C_MAX_ROUNDS] > 0 and g[L.ROUND] >= cfg[L.C_MAX_ROUNDS]
    if not over:
        reached = top >= cfg[L.C_THRESHOLD] if cfg[L.C_INCLUSIVE] else top > cfg[L.C_THRESHOLD]
        if reached and cfg[L.C_TIE] == 2:
            low = g[totals]
            for s in range(1, n):
                low = min(low, g[totals + s])
            ties = 0
            for s in range(n):
                ties += g[totals + s] == low
            reached = ties == 1
        over = reached
    if over:
        g[L.PHASE] = L.OVER
    else:
        _start_round(g, cfg, chance)


@compiled(inline=True)
def _draft(g, gens, slot_of, fns, params, direct, trace):
    """N19: the actor takes a card of the pool; after the last pick the rest start the rows."""
    seat = g[L.ACTOR]
    k = slot_of[seat]
    pos = _ask(L.ASK_DRAFT, seat, g, gens, fns, params, direct, k)
    record_answer(trace, pos)
    count = g[L.POOL_LEN]
    if pos < 0 or pos >= count:
        return seat
    pool = g[L.O_POOL]
    card = g[pool + pos]
    for i in range(pos, count - 1):
        g[pool + i] = g[pool + i + 1]
    g[L.POOL_LEN] = count - 1
    lens = g[L.O_HAND_LEN]
    g[g[L.O_HANDS] + seat * g[L.H] + g[lens + seat]] = card
    g[lens + seat] += 1
    n = g[L.N]
    g[L.DRAFT_I] += 1
    if g[L.DRAFT_I] < n * g[L.H]:
        g[L.ACTOR] = (g[L.FIRST] + g[L.DRAFT_I]) % n
        return -1
    seen = g[L.O_SEEN]
    for r in range(g[L.R]):                     # the pool stays ascending: the rows in order
        card = g[pool + r]
        g[g[L.O_ROWS] + r * g[L.CAP]] = card
        g[g[L.O_ROW_LEN] + r] = 1
        g[seen + card] = 1
    g[L.N_SEEN] = g[L.R]
    g[L.POOL_LEN] = 0
    g[L.PHASE] = L.PLAY
    return -1


# ---- whole games ------------------------------------------------------------------------------
@compiled()
def play_on(g, cfg, gens, slot_of, fns, params, direct, max_steps, log, logged, trace):
    """Steps until the match is over or `max_steps` steps (-1: no limit); returns (steps, bad
    seat or -1, entries logged). Each finished round's points go to `log[logged:]` (n each)."""
    steps = 0
    n = g[L.N]
    while g[L.PHASE] != L.OVER and steps != max_steps:
        round_no = g[L.ROUND]
        bad = _step(g, cfg, gens, slot_of, fns, params, direct, trace)
        if bad >= 0:
            return steps, bad, logged
        steps += 1
        if g[L.ROUND] != round_no or g[L.PHASE] == L.OVER:
            if logged + n > log.size:
                return steps, -2, logged
            for s in range(n):
                log[logged + s] = g[g[L.O_LAST] + s]
            logged += n
    return steps, -1, logged




@compiled()
def _results(g, cfg, ranks, wins):
    """N17: competition ranks on the totals (then the last round under last_round), win shares."""
    n = g[L.N]
    totals, last = g[L.O_TOTALS], g[L.O_LAST]
    by_last = cfg[L.C_TIE] == 1
    firsts = 0
    for s in range(n):
        rank = 1
        for o in range(n):
            a, b = g[totals + o], g[totals + s]
            if a < b or (by_last and a == b and g[last + o] < g[last + s]):
                rank += 1
        ranks[s] = rank
        firsts += rank == 1
    share = 1.0 / firsts
    for s in range(n):
        wins[s] = share if ranks[s] == 1 else 0.0


@compiled()
def play_games(g, gens, cfg, index, words, chance_words, incs, fns, params, direct, slots, rotation,
               totals, ranks, wins, rounds, steps, failed, log, trace):
    """Games `index` of a run, one after another. `words` (G, 2(n+2)): each game's stream words
    (seats 1..n, seating n+1); `chance_words` (G, 2): its deal's chance stream; `incs` (n+2, 2):
    each stream's increment; `g` (new_layout) and `gens` ((n + 2, ROW_WORDS) uint64) scratch.
    Fills the per-game outputs; `log` takes each finished round's points
    (n per round, games in order); `fns`, `params`, `direct` (`direct_slots`): the lineup slots'
    bots. Returns (games played, entries logged, bad seat or -1): it stops early when a bot
    answers outside its legal list (the bad seat) or `log` is full (-2). `trace`: see `step` (for
    one game: every answer of its bots, in order)."""
    n = cfg[L.C_N]
    logged = 0
    for k in range(index.size):
        kr.game_rows(gens, n + 2, k, words, chance_words, incs)
        rotation[k] = seat_slots(n, cfg[L.C_SEATING], cfg[L.C_DUPLICATE], index[k], gens[n + 1], slots[k])
        new_match(g, cfg, gens[0])
        done, bad, now = play_on(g, cfg, gens, slots[k], fns, params, direct, cfg[L.C_STEP_CAP], log,
                                 logged, trace)
        if bad != -1:
            return k, logged, bad
        if g[L.PHASE] != L.OVER:                # the step cap: no result (as the scalar engine)
            failed[k] = True
            steps[k] = done
            continue
        logged = now
        steps[k] = done
        rounds[k] = g[L.ROUND]
        for s in range(n):
            totals[k, s] = g[g[L.O_TOTALS] + s]
        _results(g, cfg, ranks[k], wins[k])
    return index.size, logged, -1


# ---- search rollouts from a scalar position (kernel_rollout.py) ------------------------------
@compiled()
def play_rollout(g, cfg, gens, slot_of, bot, params, max_steps, round_cut, seen, log, trace):
    """A search rollout, `bot` (one kernel bot, params its parameters) in every seat (`slot_of`
    all zero): steps until the match is over, `max_steps` steps, or (`round_cut`) the step after
    which the round changed. Besides `g` it keeps what the scalar state holds and `g` does not:
    `seen[1:1 + seen[0]]`, the seen cards in the scalar engine's order (the row starts, then each
    turn's cards in seat order, N6), and each finished round's points in `log` (n per round);
    `trace` as for `step`. Returns (steps, bad seat or -1 or -2 when `log` is full, entries
    logged). One bot, not a lineup's tuple: a call from Python then costs microseconds."""
    fns = (bot, bot, bot, bot, bot, bot, bot, bot, bot, bot)            # MAX_SLOTS
    params = (params, params, params, params, params, params, params, params, params, params)
    steps, logged = 0, 0
    n, rows = g[L.N], g[L.R]
    start = g[L.ROUND]
    pending = g[L.O_PENDING]
    while g[L.PHASE] != L.OVER and steps != max_steps:
        if logged + n > log.size:
            return steps, -2, logged
        phase, round_no = g[L.PHASE], g[L.ROUND]
        bad = step(g, cfg, gens, slot_of, fns, params, trace)
        if bad >= 0:
            return steps, bad, logged
        steps += 1
        if phase == L.PLAY:                     # this turn's cards, in seat order
            k = seen[0]
            for i in range(n):
                seen[1 + k + g[pending + 2 * i + 1]] = g[pending + 2 * i]
            seen[0] = k + n
        if g[L.ROUND] != round_no or g[L.PHASE] == L.OVER:
            for s in range(n):
                log[logged + s] = g[g[L.O_LAST] + s]
            logged += n
        if (g[L.ROUND] != round_no or phase == L.DRAFT) and g[L.PHASE] == L.PLAY:
            for r in range(rows):               # a new deal or the draft's end: the row starts
                seen[1 + r] = g[g[L.O_ROWS] + r * g[L.CAP]]
            seen[0] = rows
        elif g[L.PHASE] == L.DRAFT:
            seen[0] = 0
        if round_cut and g[L.ROUND] != start:
            break
    return steps, -1, logged


assert MAX_SLOTS == 10, "play_rollout spells out a lineup of MAX_SLOTS"
