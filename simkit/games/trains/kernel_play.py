"""The Game of Trains kernel: the rules T1-T25 as numba-compiled functions on the state array
`g` (kernel_layout.py), one decision step at a time (`step`), and a chunk of games
(`play_games`). Imported only when a kernel plays (it imports numba and compiles, or loads the
compiled code from numba's disk cache).

Every chance draw is the scalar engine's (simkit/games/trains/state.py), draw for draw: the deal
`permutation(84)` (T2), the start player `integers(n)` (T4), each T13 reshuffle `permutation`
of the discard pile in its list order. A bot is a compiled function of the signature `BOT_SIG`,
asked with the phase (kernel_layout) and answering a position in the list the scalar engine's
`legal_actions` gives (strategies/trains/kernel_bots.py).
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import types

from simkit.engine import kernel_rng as kr
from simkit.engine import kernel_running as running
from simkit.engine.kernel_games import record_answer, seat_slots
from simkit.engine.kernel_rng import compiled
from simkit.games.trains import kernel_layout as L
from simkit.games.trains.evaluate import in_order as evaluate_in_order

#: a bot: (phase asked, seat, g, params, the seat's generator row) -> position in the legal list
BOT_SIG = types.int64(types.int64, types.int64, types.int64[::1], types.float64[::1], types.uint64[::1])
BOT = types.FunctionType(BOT_SIG)
#: lineup slots a kernel call takes (unused ones hold any bot)
MAX_SLOTS = L.MAX_N
#: words of a generator row: kernel_rng's, then a bot's 64 buffered draws (the scalar `random`)
GEN_WORDS = 96
#: T17-T20: effect e moves the card of slot i to slot i + offset (or swaps those two)
OFFSET = np.array([0, 1, 2, 2, -2], dtype=np.int64)
#: §5: each effect's first parameter and how many there are (1-4)
FIRST_PARAM = np.array([0, 1, 1, 1, 3], dtype=np.int64)
N_PARAMS = np.array([0, 6, 5, 5, 5], dtype=np.int64)


# ---- reading the state (bots use these too) ----------------------------------------------------
@compiled()
def removal_slot(e):
    """T21-T23: the 0-based slot effect 5/6/7 removes."""
    return 0 if e == 5 else (3 if e == 6 else 6)


@compiled()
def removal_hits(g, e):
    """T21-T23: how many players lose a card to effect e (locked slots are skipped)."""
    k = removal_slot(e)
    hits = 0
    for p in range(g[L.N]):
        hits += g[L.LOCKS + 7 * p + k] == 0
    return hits


@compiled()
def lock_free(g, seat, k):
    """T24: effect 8 may lock slot k (0, 3 or 6) of the seat."""
    return g[L.DOUBLE_LOCK] != 0 or g[L.LOCKS + 7 * seat + k] == 0


@compiled(inline=True)
def list_turn(g):
    """T8/T14: the turn's legal actions into LIST, in `legal_actions` order: Draw, then
    Use(e, p) for effects 1-4 by parameter, 5-7 (unless every slot they hit is locked and the
    config forbids that), 8 by free lock slot (T24). Without branches on the display: each
    effect's actions are written at the list's end and counted only when legal (which effects
    are on display is random, so branches on it mispredict; LIST has room for the extra)."""
    d = L.DISPLAY
    g[L.LIST] = 0
    count = 1
    for e in range(1, 5):
        for j in range(N_PARAMS[e]):
            g[L.LIST + count + j] = 16 * e + FIRST_PARAM[e] + j
        count += N_PARAMS[e] * int(g[d + e] != 0)
    for e in range(5, 8):
        g[L.LIST + count] = 16 * e
        count += int(g[d + e] != 0) & int(g[L.ALLOW_ALL] != 0 or removal_hits(g, e) > 0)
    seat = g[L.CUR]
    shown = int(g[d + 8] != 0)
    for k in (0, 3, 6):
        g[L.LIST + count] = 16 * 8 + k + 1
        count += shown & int(lock_free(g, seat, k))
    g[L.LIST_LEN] = count


@compiled(inline=True)
def turn_action(g, pos):
    """The turn's action at position `pos` of its list (`list_turn`): (0, 0) for Draw, else
    (effect, param) with the parameter as §5 numbers it (1-based slots; 0 for effects 5-7)."""
    code = g[L.LIST + pos]
    return code >> 4, code & 15


@compiled(inline=True)
def legal_count(ask, seat, g):
    """How many actions the scalar engine's `legal_actions` lists for this ask."""
    if ask == L.KEEP:
        return g[L.HAND_LEN + seat]
    if ask == L.TURN:
        return g[L.LIST_LEN]
    return 7


@compiled(inline=True)
def is_ascending(g, p):
    """T25: slot 1 < slot 2 < ... < slot 7."""
    t = L.TRAINS + 7 * p
    for k in range(6):
        if g[t + k] >= g[t + k + 1]:
            return False
    return True


# ---- the uniform bot (`random`'s kernel form, called directly: no first-class call) ------------
@compiled(inline=True)
def uniform_choice(ask, seat, g, gen):
    """Uniform over the legal list: `legal[int(buf.pop() * len(legal))]`, the buffer of 64
    doubles in the row's words after kernel_rng's (GEN_WORDS long)."""
    return np.int64(kr.buffered_double(gen, 64) * legal_count(ask, seat, g))


@compiled(BOT_SIG)
def uniform_bot(ask, seat, g, params, gen):
    """`random`'s kernel form (strategies/trains/kernels.py); `step` calls `uniform_choice`
    itself for the slots that name it (`direct`)."""
    return uniform_choice(ask, seat, g, gen)


#: the uniform bot's "module:name" (kernel.py marks the slots that name it as `direct`)
UNIFORM = "simkit.games.trains.kernel_play:uniform_bot"


# ---- zones --------------------------------------------------------------------------------------
@compiled(inline=True)
def _discard(g, card):
    g[L.DISCARD + g[L.DISCARD_LEN]] = card
    g[L.DISCARD_LEN] += 1


@compiled()
def _reshuffle(g, chance):
    """T13: the discard pile, permuted (`rng.permutation` of the list), becomes the draw pile;
    the setup discards are no longer known to be there; the discard memory restarts."""
    m = g[L.DISCARD_LEN]
    for i in range(m):
        g[L.DRAW + i] = g[L.DISCARD + i]
    kr.shuffle(chance, g[L.DRAW:L.DRAW + m], m)
    g[L.DRAW_LEN] = m
    g[L.DISCARD_LEN] = 0
    for p in range(g[L.N]):
        g[L.HIDDEN_LEN + p] = 0
    g[L.RESHUFFLES] += 1
    g[L.KNOWN:L.KNOWN + L.CARDS] = 0
    if g[L.PENDING]:
        g[L.KNOWN + g[L.PENDING]] = 1


@compiled(inline=True)
def _draw_card(g, cfg, chance):
    """T9/T13: the top card; a lazy reshuffle first if the pile is empty (eager: after)."""
    if g[L.DRAW_LEN] == 0:
        _reshuffle(g, chance)
    left = g[L.DRAW_LEN] - 1
    card = g[L.DRAW + left]
    g[L.DRAW_LEN] = left
    if left == 0 and cfg[L.C_EAGER] and g[L.DISCARD_LEN] > 0:
        _reshuffle(g, chance)
    return card


@compiled()
def _pair_off(g, first, second):
    """T11: two cards of one effect leave the display for the discard pile, in this order."""
    _discard(g, first)
    _discard(g, second)
    g[L.KNOWN + first] = 1
    g[L.KNOWN + second] = 1


@compiled(inline=True)
def _arrive(g, card):
    """T11 for one arriving card."""
    e = g[L.EFF + card]
    old = g[L.DISPLAY + e]
    if old:
        g[L.DISPLAY + e] = 0
        _pair_off(g, old, card)
    else:
        g[L.DISPLAY + e] = card


@compiled()
def _arrive_many(g, cfg, cards, count):
    """T11 for cards arriving together (effects 5-7) in order; pair_keep=first keeps the
    earliest card of an odd group (the groups discarded in the order their effects first arrive)."""
    if not cfg[L.C_FIRST] or count == 1:
        for i in range(count):
            _arrive(g, cards[i])
        return
    for i in range(count):
        e = g[L.EFF + cards[i]]
        seen = False
        for j in range(i):
            if g[L.EFF + cards[j]] == e:
                seen = True
        if seen:
            continue
        existing = g[L.DISPLAY + e]
        total = 1 if existing else 0
        for j in range(i, count):
            total += g[L.EFF + cards[j]] == e
        keep = total % 2 == 1
        stay = 0
        skip = keep
        if existing:
            if skip:
                stay, skip = existing, False
            else:
                _discard(g, existing)
                g[L.KNOWN + existing] = 1
        for j in range(i, count):
            c = cards[j]
            if g[L.EFF + c] != e:
                continue
            if skip:
                stay, skip = c, False
            else:
                _discard(g, c)
                g[L.KNOWN + c] = 1
        g[L.DISPLAY + e] = stay


@compiled()
def _void(g, p, k):
    """T24: the owner changed the card above a lock: the lock card is discarded face down."""
    card = g[L.LOCKS + 7 * p + k]
    g[L.LOCKS + 7 * p + k] = 0
    _discard(g, card)
    g[L.KNOWN + card] = 1


# ---- setup (T1-T7) ------------------------------------------------------------------------------
def new_layout(cfg: np.ndarray, effects: np.ndarray) -> np.ndarray:
    """A fresh state array (NumPy: the compiled functions allocate nothing); `effects` the
    number -> effect table (85 entries)."""
    g = np.zeros(L.SIZE, dtype=np.int64)
    g[L.N] = cfg[L.C_N]
    g[L.EFF:L.EFF + L.CARDS] = effects
    g[L.ALLOW_ALL], g[L.DOUBLE_LOCK] = cfg[L.C_ALLOW_ALL], cfg[L.C_DOUBLE]
    return g


@compiled()
def new_game(g, cfg, chance):
    """T1-T4 and the first setup step (`TrainsState.__init__`)."""
    n = g[L.N]
    g[L.HEADER:L.EFF] = 0
    g[L.CUR:L.N_ACTING + 5] = 0
    g[L.WINNER] = -1
    running.reset(g, L.RUNNING)
    deck = g[L.SCRATCH:L.SCRATCH + 84]
    for i in range(84):
        deck[i] = i
    kr.shuffle(chance, deck, 84)                    # T2: permutation(84) + 1
    for p in range(n):                              # T3: descending from slot 1
        t = L.TRAINS + 7 * p
        for k in range(7):
            card = deck[7 * p + k] + 1
            j = k
            while j > 0 and g[t + j - 1] < card:
                g[t + j] = g[t + j - 1]
                j -= 1
            g[t + j] = card
    left = 84 - 7 * n
    for i in range(left):
        g[L.DRAW + i] = deck[7 * n + i] + 1
    g[L.DRAW_LEN] = left
    start = kr.bounded(chance, n) if cfg[L.C_START_SEAT] < 0 else cfg[L.C_START_SEAT]   # T4
    g[L.START] = start
    g[L.CUR] = start
    if cfg[L.C_SIMULTANEOUS]:
        for idx in range(n):
            _setup_draw(g, cfg, chance, idx)
        g[L.PHASE] = L.KEEP
        acting = 0
        for idx in range(n):
            p = (start + idx) % n
            if g[L.HAND_LEN + p] > 1:
                g[L.ACTING + acting] = p
                acting += 1
        g[L.N_ACTING] = acting
    else:
        _begin_setup(g, cfg, chance, 0)


@compiled()
def _setup_draw(g, cfg, chance, idx):
    """T5: the idx-th player in order draws idx+1 cards; a single card is kept at once (T6)."""
    p = (g[L.START] + idx) % g[L.N]
    for i in range(idx + 1):
        g[L.HANDS + 4 * p + i] = _draw_card(g, cfg, chance)
    if idx == 0:
        g[L.KEPT + p] = g[L.HANDS + 4 * p]
        g[L.HAND_LEN + p] = 0
    else:
        g[L.HAND_LEN + p] = idx + 1


@compiled()
def _begin_setup(g, cfg, chance, idx):
    p = (g[L.START] + idx) % g[L.N]
    g[L.CUR] = p
    _setup_draw(g, cfg, chance, idx)
    g[L.PHASE] = L.SETUP_PLACE if g[L.KEPT + p] else L.KEEP
    g[L.N_ACTING] = 1
    g[L.ACTING] = p


@compiled()
def _keep(g, p, pos):
    """T6: keep one drawn card, discard the others face down (known to the seat only)."""
    hand = L.HANDS + 4 * p
    card = g[hand + pos]
    for i in range(g[L.HAND_LEN + p]):
        c = g[hand + i]
        if c != card:
            _discard(g, c)
            g[L.HIDDEN + 3 * p + g[L.HIDDEN_LEN + p]] = c
            g[L.HIDDEN_LEN + p] += 1
    g[L.HAND_LEN + p] = 0
    g[L.KEPT + p] = card


@compiled()
def _setup_place(g, p, k):
    """T7: the kept card replaces slot k; the replaced card enters the display (T11)."""
    card = g[L.KEPT + p]
    g[L.KEPT + p] = 0
    old = g[L.TRAINS + 7 * p + k]
    g[L.TRAINS + 7 * p + k] = card
    g[L.PENDING] = 0
    _arrive(g, old)


@compiled()
def _start_turns(g):
    g[L.PHASE] = L.TURN
    g[L.CUR] = g[L.START]
    g[L.N_ACTING] = 1
    g[L.ACTING] = g[L.START]


# ---- turns (T8-T25) -----------------------------------------------------------------------------
@compiled(inline=True)
def _place_drawn(g, k):
    """T9: the drawn card replaces slot k (voiding a lock there, T24); the replaced card enters
    the display (T11); then T25."""
    p = g[L.CUR]
    card = g[L.DRAWN]
    g[L.DRAWN] = 0
    old = g[L.TRAINS + 7 * p + k]
    g[L.TRAINS + 7 * p + k] = card
    g[L.PENDING] = 0
    if g[L.LOCKS + 7 * p + k]:
        _void(g, p, k)
    _arrive(g, old)
    if is_ascending(g, p):
        g[L.WINNER] = p


@compiled()
def _reorder(g, cfg, p, e, i, card):
    """T17-T20 on p's own train; the locks of the moved cards are voided first (T24)."""
    if cfg[L.C_BEFORE]:
        _discard(g, card)
    a = i - 1
    b = a + OFFSET[e]
    insertion = e >= 3 and not cfg[L.C_SWAP]
    lo, hi = min(a, b), max(a, b)
    for k in range(lo, hi + 1):                     # the moved slots, ascending (rules.moved_slots)
        moved = k == a or k == b or (insertion and not cfg[L.C_CHOSEN])
        if insertion and cfg[L.C_CHOSEN]:
            moved = k == a
        if moved and g[L.LOCKS + 7 * p + k]:
            _void(g, p, k)
    t = L.TRAINS + 7 * p
    if insertion:
        c = g[t + a]
        if b > a:
            for k in range(a, b):
                g[t + k] = g[t + k + 1]
        else:
            for k in range(a, b, -1):
                g[t + k] = g[t + k - 1]
        g[t + b] = c
    else:
        g[t + a], g[t + b] = g[t + b], g[t + a]
    if not cfg[L.C_BEFORE]:
        _discard(g, card)
    if is_ascending(g, p):
        g[L.WINNER] = p


@compiled()
def _remove_and_refill(g, cfg, chance, actor, k):
    """T21-T23: clockwise from the actor every unlocked slot k loses its card to the display
    (T11 on the batch), then the holes are refilled clockwise; T25 after each refill."""
    n = g[L.N]
    removed = g[L.SCRATCH:L.SCRATCH + 4]
    holes = g[L.SCRATCH + 4:L.SCRATCH + 8]
    count = 0
    q = actor
    for _ in range(n):
        if not g[L.LOCKS + 7 * q + k]:
            removed[count] = g[L.TRAINS + 7 * q + k]
            g[L.TRAINS + 7 * q + k] = 0
            holes[count] = q
            count += 1
        q += 1                                      # clockwise, without a division
        if q == n:
            q = 0
    if count:
        _arrive_many(g, cfg, removed, count)
    first = -1
    for j in range(count):
        q = holes[j]
        g[L.TRAINS + 7 * q + k] = _draw_card(g, cfg, chance)
        if first < 0 and is_ascending(g, q):
            first = q
            if not cfg[L.C_COMPLETE]:
                break
    if first >= 0:
        g[L.WINNER] = first


@compiled()
def _use(g, cfg, chance, e, param):
    """T10: the display card leaves at once, resolves, then is discarded (8: becomes a lock);
    with used_card_stays it waits in the display during effects 5-7 (T11 may pair it)."""
    p = g[L.CUR]
    card = g[L.DISPLAY + e]
    g[L.DISPLAY + e] = 0
    if e != 8:                                      # the discard memory's "use" event
        g[L.KNOWN + card] = 1
        g[L.PENDING] = 0 if cfg[L.C_BEFORE] else card
    else:
        g[L.PENDING] = 0
    if e <= 4:
        _reorder(g, cfg, p, e, param, card)
    elif e <= 7:
        if cfg[L.C_STAYS]:
            g[L.DISPLAY + e] = card
            _remove_and_refill(g, cfg, chance, p, removal_slot(e))
            if g[L.DISPLAY + e] == card:
                g[L.DISPLAY + e] = 0
                _discard(g, card)
            return
        if cfg[L.C_BEFORE]:
            _discard(g, card)
        _remove_and_refill(g, cfg, chance, p, removal_slot(e))
        if not cfg[L.C_BEFORE]:
            _discard(g, card)
    else:
        at = L.LOCKS + 7 * p + param - 1
        if g[at]:                                   # double_lock: a wasted lock
            _discard(g, card)
            g[L.KNOWN + card] = 1
        else:
            g[at] = card


def order_code_of(values) -> int:
    """The Lehmer code of 7 values (0..5039): digit i counts the later values at or below the
    i-th (mixed radix 7, 6, ..., 1). Equal values count as if the earlier were larger: that order
    keeps every strictly ascending run and every pair i < j with v[i] >= v[j], so tables of
    runs and inversions keyed by it serve ties too."""
    code = 0
    for i in range(7):
        code = code * (7 - i) + sum(values[j] <= values[i] for j in range(i + 1, 7))
    return code


@compiled(inline=True)
def order_code(g, at):
    """`order_code_of` the 7 values g[at:at+7], in 21 comparisons without branches (the
    values' order is random, so branches on it mispredict)."""
    code = 0
    for i in range(7):
        below = 0
        for j in range(i + 1, 7):
            below += int(g[at + j] <= g[at + i])
        code = code * (7 - i) + below
    return code


#: the longest strictly ascending run (evaluate.in_order) of every order of 7 values
LONGEST = np.zeros(5040, dtype=np.int64)
for _order in permutations(range(7)):
    LONGEST[order_code_of(_order)] = evaluate_in_order(_order)


@compiled(inline=True)
def in_order(g, p):
    """`evaluate.standings` of seat p: the longest ascending run of its train's cards (a
    subsequence; an empty slot left out): by the order's table, or (an empty slot, left by a
    win) each card's longest run ending at it, 4 bits per slot in one register."""
    t = L.TRAINS + 7 * p
    empty = 0
    for j in range(7):
        empty |= int(g[t + j] == 0)
    if empty == 0:
        return LONGEST[order_code(g, t)]
    runs = 0
    length = 0
    for j in range(7):
        card = g[t + j]
        run = 1
        for i in range(j):      # an empty slot's run is 0: it adds nothing
            run = max(run, int(g[t + i] < card) * (((runs >> (4 * i)) & 15) + 1))
        run *= int(card != 0)
        runs |= run << (4 * j)
        length = max(length, run)
    return length


@compiled()
def _record_standings(g, closing):
    """The running score (simkit/engine/running.py): every seat's cards in order, as a point
    after a round of turns or (`closing`) as the final one."""
    at = running.slot(g, L.RUNNING, L.MAX_N)
    n = g[L.N]
    for p in range(n):
        g[at + p] = in_order(g, p)
    if closing:
        running.closed(g, L.RUNNING)
    else:
        running.pushed(g, L.RUNNING, L.MAX_N, n)


@compiled(inline=True)
def _end_action(g, cfg):
    """T8/T15/T25: one action done; the game ends on a win or at the turn cap (a draw)."""
    g[L.TURNS] += 1
    cur = g[L.CUR] + 1
    if cur == g[L.N]:
        cur = 0
    if running.turn_end(g, L.RUNNING, cur == g[L.START]):     # a round of turns is done
        _record_standings(g, False)
    if g[L.WINNER] >= 0:
        g[L.PHASE] = L.OVER
        g[L.N_ACTING] = 0
    elif g[L.TURNS] >= cfg[L.C_MAX_TURNS]:
        g[L.PHASE] = L.OVER
        g[L.CAPPED] = 1
        g[L.N_ACTING] = 0
    else:
        g[L.CUR] = cur
        g[L.PHASE] = L.TURN
        g[L.ACTING] = cur




@compiled(inline=True)
def step(g, cfg, gens, slot_of, fns, params, direct, trace):
    """One decision step (the scalar engine's `apply` with its decisions): every acting seat
    answers first (on the same state), then the answers are applied in `to_act` order.
    `gens`: the chance row, then a row per seat. Returns -1, or the seat whose bot answered
    outside its legal list. `direct[slot]`: 1 when the slot's bot is the uniform one (called
    directly)."""
    return step_with(g, cfg, gens, slot_of, fns, params, direct, trace, -1, 0)


@compiled(inline=True)
def step_with(g, cfg, gens, slot_of, fns, params, direct, trace, fixed, fixed_answer):
    """`step` in which seat `fixed` (if acting; -1: none) answers `fixed_answer` (a position in
    its legal list) instead of asking its bot (a search's own seat: `Simulator.step`)."""
    phase = g[L.PHASE]
    acting = g[L.N_ACTING]
    answers = g[L.ANSWERS:L.ANSWERS + L.MAX_N]
    if phase == L.TURN:
        list_turn(g)
    for i in range(acting):
        seat = g[L.ACTING + i]
        k = slot_of[seat]
        if seat == fixed:
            answer = fixed_answer
        elif direct[k]:
            answer = uniform_choice(phase, seat, g, gens[1 + seat])
        else:
            answer = fns[k](phase, seat, g, params[k], gens[1 + seat])
        record_answer(trace, answer)
        if answer < 0 or answer >= legal_count(phase, seat, g):
            return seat
        answers[i] = answer
    apply_answers(g, cfg, gens[0])
    return -1


@compiled(inline=True)
def apply_answers(g, cfg, chance):
    """The step's rules part: the answers in ANSWERS (positions in each acting seat's legal list,
    in `to_act` order; LIST listed for a turn) applied as the scalar engine's `apply` does."""
    phase = g[L.PHASE]
    acting = g[L.N_ACTING]
    answers = g[L.ANSWERS:L.ANSWERS + L.MAX_N]
    if phase == L.TURN:
        e, param = turn_action(g, answers[0])
        if e == 0:                                  # T9: the card is placed next
            g[L.DRAWN] = _draw_card(g, cfg, chance)
            g[L.PENDING] = 0
            g[L.PHASE] = L.PLACE
            return
        _use(g, cfg, chance, e, param)
        _end_action(g, cfg)
    elif phase == L.PLACE:
        _place_drawn(g, answers[0])
        _end_action(g, cfg)
    elif phase == L.KEEP:
        for i in range(acting):
            _keep(g, g[L.ACTING + i], answers[i])
        g[L.PHASE] = L.SETUP_PLACE
        if cfg[L.C_SIMULTANEOUS]:
            n = g[L.N]
            for i in range(n):
                g[L.ACTING + i] = (g[L.START] + i) % n
            g[L.N_ACTING] = n
    elif phase == L.SETUP_PLACE:
        for i in range(acting):
            _setup_place(g, g[L.ACTING + i], answers[i])
        n = g[L.N]
        idx = (g[L.CUR] - g[L.START] + n) % n
        if not cfg[L.C_SIMULTANEOUS] and idx + 1 < n:
            _begin_setup(g, cfg, chance, idx + 1)
        else:
            _start_turns(g)


# ---- whole games --------------------------------------------------------------------------------
@compiled()
def play_on(g, cfg, gens, slot_of, fns, params, direct, max_steps, trace):
    """Steps until the game is over or `max_steps` steps (-1: no limit); returns (steps, bad
    seat or -1)."""
    steps = 0
    while g[L.PHASE] != L.OVER and steps != max_steps:
        bad = step(g, cfg, gens, slot_of, fns, params, direct, trace)
        if bad >= 0:
            return steps, bad
        steps += 1
    return steps, -1




@compiled()
def play_games(g, gens, cfg, index, words, chance_words, incs, fns, params, direct, slots, rotation,
               winner, turns, start, reshuffles, capped, steps, failed, trace, run_len, run_flat, run_at):
    """Games `index` of a run, one after another. `words` (G, 2(n+2)): each game's stream words
    (seats 1..n, seating n+1); `chance_words` (G, 2): its deal's chance stream; `incs` (n+2, 2):
    each stream's increment; `g` (new_layout) and `gens` ((n + 2, GEN_WORDS) uint64) scratch.
    Fills the per-game outputs. Returns (games played, bad seat or -1): it stops early when a
    bot answers outside its legal list. `trace`: every answer of one game's bots (see `_record`).
    `run_len` (G,), `run_flat`, `run_at` (1,): each game's running score (simkit/engine/running.py;
    its points seat by seat from run_flat[run_at[0]], see `kernel_running.copy_out`)."""
    n = cfg[L.C_N]
    for k in range(index.size):
        kr.game_rows(gens, n + 2, k, words, chance_words, incs)
        rotation[k] = seat_slots(n, cfg[L.C_SEATING], cfg[L.C_DUPLICATE], index[k], gens[n + 1], slots[k])
        new_game(g, cfg, gens[0])
        done, bad = play_on(g, cfg, gens, slots[k], fns, params, direct, cfg[L.C_STEP_CAP], trace)
        if bad != -1:
            return k, bad
        steps[k] = done
        if g[L.PHASE] != L.OVER:                    # the step cap: no result (as the scalar engine)
            failed[k] = True
            continue
        winner[k] = g[L.WINNER]
        turns[k] = g[L.TURNS]
        start[k] = g[L.START]
        reshuffles[k] = g[L.RESHUFFLES]
        capped[k] = g[L.CAPPED] != 0
        if running.wants_close(g, L.RUNNING):
            _record_standings(g, True)
        running.copy_out(g, L.RUNNING, L.MAX_N, n, run_len[k:k + 1], run_flat, run_at)
    return index.size, -1
