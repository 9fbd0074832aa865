"""Game of Trains' part of a compiled ISMCTS iteration (issue 21; docs/search.md, "Compiled
search iterations"): numba functions on the kernel array `g` (kernel_layout.py), driven by the
search loop of strategies/trains/kernel_search.py, each equal to what the Python search does
with a `TrainsState`, draw for draw:

- `determinize`: `views.determinize` (the cards unknown to the seat, in `unknown_to`'s zone
  order: the draw pile, then every other seat's setup discards still in the discard pile, its
  undecided setup draw and its kept card, then another seat's drawn card; shuffled with the swaps
  of `rng.permutation` from the search's generator and dealt back in that order, the discard
  pile's entries of the replaced setup discards renamed);
- `offered` / `position_of`: the seat's legal actions as tree codes in `legal_actions` order (a
  turn's action is kernel_play's LIST code, 16 * effect + param, Draw 0; Place(slot) is
  PLACE_CODE + slot - 1; Keep(card) is KEEP_CODE + card), and a code's position in that list;
- `bot_step`: kernel_play's `step` with the discard memories the Python bots keep (below);
- `reward_of`: the seat's reward (simkit/search/rewards.py) of a finished game (T25 win, T15
  cap), or the cut value of `Game.evaluate` (evaluate.py), the same float operations.

**The discard memories.** The kernel keeps one discard memory (KNOWN, PENDING) for every seat,
as if each bot read every event as it happened. A `greedy`/`rival` bot's `DiscardMemory` reads
the log at its own turns, and each read starts with no used card pending (heuristic.py): where a
bot is asked for its turn right after another seat used an effect (T10, the used card pending)
and its Draw then reshuffles the discard pile (T13), the Python bot forgets that card while the
kernel remembers it (tests/trains/test_kernel_rollout.py). A search asks the same bots at the
tree's steps and in the rollout, so this happens inside an iteration; `bot_step` repeats it
exactly: the drawer's forgotten card is kept in `forgot[seat]` until the next reshuffle, and
while that card lies in the draw pile (where only the memory knows it) it is hidden from that
seat's bot during its turn (elsewhere the card is either in plain sight, which the bots see
anyway, or back in the discard pile through an event both memories read). `forgot[MAX_N]`
counts these cases (tests).

`real_position(sample, seat, rng, before, to_kernel)`: the kernel array of the REAL position from
a sample `decision.sample_state()` drew with `rng` from state `before`: the determinization's
permutation is drawn again and undone, which gives the unknown cards in their true order (what
the next determinizations permute). A search sees the real state only through its `Decision`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from simkit.engine import kernel_rng as kr
from simkit.engine.game import Action
from simkit.engine.kernel_rng import compiled
from simkit.games.trains import kernel_layout as L
from simkit.games.trains.actions import DRAW, KEEP, PLACE, USE_ONE
from simkit.games.trains.evaluate import INVERSION_WEIGHT, SCALE
from simkit.games.trains.kernel_play import in_order, list_turn, step, step_with
from simkit.games.trains.views import unknown_to

#: rewards (simkit.search.rewards.REWARDS order: the search floor is above this one)
WIN, RANK, MARGIN = range(3)
#: tree codes: a turn's action 0..135 (LIST's), Place(slot) PLACE_CODE + slot - 1, Keep(card)
#: KEEP_CODE + card
PLACE_CODE = 16 * 8 + 8
KEEP_CODE = PLACE_CODE + 7
N_CODES = KEEP_CODE + L.CARDS
#: the most codes one node can be offered over its visits: every turn action (1 + 6 + 5 + 5 + 5 +
#: 3 + 3), a placement's 7 slots, a setup draw's 4 cards (a node's decisions share one phase;
#: the sum is a safe bound)
MAX_OFFERED = 28 + 7 + 4


def code_of(action: Action) -> int:
    """The tree code of a Game of Trains action (a tagged tuple, actions.py)."""
    fields: Any = action
    kind = fields[0]
    if kind == "draw":
        return 0
    if kind == "use":
        return 16 * fields[1] + (fields[2] or 0)
    if kind == "place":
        return PLACE_CODE + fields[1] - 1
    return KEEP_CODE + fields[1]


def action_of(code: int) -> Action:
    """The action of a tree code (`code_of`'s inverse)."""
    if code >= KEEP_CODE:
        return KEEP[code - KEEP_CODE]
    if code >= PLACE_CODE:
        return PLACE[code - PLACE_CODE + 1]
    if code == 0:
        return DRAW
    e, p = code >> 4, code & 15
    return USE_ONE[(e, p if p or e == 8 else None)]


# ---- the determinization ----------------------------------------------------------------------
@compiled()
def _gather(real, seat, pool):
    """The cards unknown to `seat` into `pool`, in `unknown_to`'s order; returns how many."""
    count = 0
    for i in range(real[L.DRAW_LEN]):
        pool[count] = real[L.DRAW + i]
        count += 1
    for p in range(real[L.N]):
        if p == seat:
            continue
        for i in range(real[L.HIDDEN_LEN + p]):
            pool[count] = real[L.HIDDEN + 3 * p + i]
            count += 1
        for i in range(real[L.HAND_LEN + p]):
            pool[count] = real[L.HANDS + 4 * p + i]
            count += 1
        if real[L.KEPT + p]:
            pool[count] = real[L.KEPT + p]
            count += 1
    if real[L.DRAWN] != 0 and real[L.CUR] != seat:
        pool[count] = real[L.DRAWN]
        count += 1
    return count


@compiled()
def _rename(g, real, card, new):
    """The discard pile's entry of setup discard `card` becomes `new` (`mapping` in views)."""
    for j in range(real[L.DISCARD_LEN]):
        if real[L.DISCARD + j] == card:
            g[L.DISCARD + j] = new


@compiled()
def determinize(g, real, row, seat, pool):
    """g = `views.determinize(real, seat, rng)` with `row` as rng (`pool`: L.CARDS ints)."""
    for i in range(real.size):
        g[i] = real[i]
    count = _gather(real, seat, pool)
    if count == 0:
        return
    kr.shuffle(row, pool, count)
    at = real[L.DRAW_LEN]
    for i in range(at):
        g[L.DRAW + i] = pool[i]
    for p in range(real[L.N]):
        if p == seat:
            continue
        for i in range(real[L.HIDDEN_LEN + p]):
            g[L.HIDDEN + 3 * p + i] = pool[at]
            _rename(g, real, real[L.HIDDEN + 3 * p + i], pool[at])
            at += 1
        for i in range(real[L.HAND_LEN + p]):
            g[L.HANDS + 4 * p + i] = pool[at]
            at += 1
        if real[L.KEPT + p]:
            g[L.KEPT + p] = pool[at]
            at += 1
    if real[L.DRAWN] != 0 and real[L.CUR] != seat:
        g[L.DRAWN] = pool[at]


# ---- actions as tree codes --------------------------------------------------------------------
@compiled()
def acts(g, seat):
    """Whether `seat` is among the seats to act."""
    for i in range(g[L.N_ACTING]):
        if g[L.ACTING + i] == seat:
            return True
    return False


@compiled()
def offered(g, seat, codes):
    """The seat's legal actions now as tree codes, in `legal_actions` order; returns how many."""
    phase = g[L.PHASE]
    if phase == L.TURN:
        list_turn(g)
        count = g[L.LIST_LEN]
        for i in range(count):
            codes[i] = g[L.LIST + i]
        return count
    if phase == L.KEEP:
        count = g[L.HAND_LEN + seat]
        for i in range(count):
            codes[i] = KEEP_CODE + g[L.HANDS + 4 * seat + i]
        return count
    for k in range(7):
        codes[k] = PLACE_CODE + k
    return 7


@compiled()
def position_of(g, seat, code):
    """The position of tree code `code` in the seat's legal list now (-1: not there)."""
    phase = g[L.PHASE]
    if phase == L.TURN:
        list_turn(g)
        for i in range(g[L.LIST_LEN]):
            if g[L.LIST + i] == code:
                return i
        return -1
    if phase == L.KEEP:
        for i in range(g[L.HAND_LEN + seat]):
            if KEEP_CODE + g[L.HANDS + 4 * seat + i] == code:
                return i
        return -1
    return code - PLACE_CODE if PLACE_CODE <= code < KEEP_CODE else -1


# ---- steps with the bots' own discard memories ------------------------------------------------
@compiled()
def _in_draw(g, card):
    for i in range(g[L.DRAW_LEN]):
        if g[L.DRAW + i] == card:
            return True
    return False


@compiled()
def _after(g, forgot, asked, pending, reshuffles, masked):
    """After a step: a reshuffle ends every forgotten card; the drawer asked with a used card
    pending forgets it at that reshuffle (see the module doc); else a hidden card comes back."""
    if g[L.RESHUFFLES] != reshuffles:
        forgot[:L.MAX_N] = 0
        if asked >= 0 and pending != 0 and g[L.PHASE] == L.PLACE:       # its answer was Draw
            forgot[asked] = pending
            forgot[L.MAX_N] += 1
    elif masked:
        g[L.KNOWN + masked] = 1


@compiled()
def bot_step(g, cfg, gens, slot_of, fns, params, direct, trace, memory, forgot):
    """kernel_play `step` (every acting seat's bot answers) with each bot's own discard memory
    when `memory` (greedy/rival reading the log): -1 or the seat whose bot answered outside its
    list."""
    asked, masked = -1, 0
    pending, reshuffles = g[L.PENDING], g[L.RESHUFFLES]
    if memory and g[L.PHASE] == L.TURN:
        list_turn(g)
        if g[L.LIST_LEN] > 1:                         # the bot reads the log (one action: it is not asked)
            asked = g[L.CUR]
            card = forgot[asked]
            if card != 0 and _in_draw(g, card):
                masked = card
                g[L.KNOWN + card] = 0
    bad = step(g, cfg, gens, slot_of, fns, params, direct, trace)
    _after(g, forgot, asked, pending, reshuffles, masked)
    return bad


@compiled()
def seat_step(g, cfg, gens, slot_of, fns, params, direct, trace, seat, answer, forgot):
    """`Simulator.step`: `seat` plays the action at `answer` of its list, every other acting
    seat its bot's answer (their bots are asked only outside turns: no memory read)."""
    reshuffles = g[L.RESHUFFLES]
    bad = step_with(g, cfg, gens, slot_of, fns, params, direct, trace, seat, answer)
    _after(g, forgot, -1, 0, reshuffles, 0)
    return bad


# ---- rewards ----------------------------------------------------------------------------------
@compiled()
def _progress(g, p):
    """evaluate.progress: slots in order less INVERSION_WEIGHT per pair out of order."""
    t = L.TRAINS + 7 * p
    inv = 0
    for i in range(7):
        for j in range(i + 1, 7):
            inv += g[t + i] > g[t + j]
    return in_order(g, p) - INVERSION_WEIGHT * inv


@compiled()
def reward_of(g, seat, reward):
    """The seat's reward in [0, 1] (rewards.py): of the finished game (T25: the winner scores 1,
    ranks 1, the others 2; T15 cap: all level at 0), else `cut_value` of `evaluate`."""
    n = g[L.N]
    if g[L.PHASE] != L.OVER:
        mine = _progress(g, seat)
        total = 0.0
        for other in range(n):
            if other != seat:
                x = 1.0 * (mine - _progress(g, other)) / SCALE
                total += 1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0
        standing = total / (n - 1)
        return standing * 2.0 / n if reward == WIN else standing
    w = g[L.WINNER]
    if reward == WIN:
        return 1.0 if w == seat else 0.0
    if reward == RANK:
        if w < 0:
            return (0 + 0.5 * (n - 1)) / (n - 1)
        if w == seat:
            return (n - 1 + 0.5 * 0) / (n - 1)
        return (0 + 0.5 * (n - 2)) / (n - 1)
    mine = 1.0 if w == seat else 0.0
    others = ((1.0 if w >= 0 else 0.0) - mine) / (n - 1)
    size = abs(mine) + abs(others)
    if not size > 0:
        return 0.5
    return 0.5 + 0.5 * ((mine - others) / size)


# ---- the real position ------------------------------------------------------------------------
def real_position(sample: Any, seat: int, rng: np.random.Generator, before: Mapping[str, Any],
                  to_kernel: Callable[[Any], np.ndarray]) -> np.ndarray:
    """The real position's kernel array, from `sample` (`views.determinize(real, seat, rng)` drawn
    from generator state `before`); `rng` is left as it was."""
    dealt = unknown_to(sample, seat)
    if dealt:
        now = rng.bit_generator.state
        rng.bit_generator.state = before
        try:
            order = rng.permutation(len(dealt)).tolist()
        finally:
            rng.bit_generator.state = now
        pool = [0] * len(dealt)
        for i, j in enumerate(order):
            pool[j] = dealt[i]
        at = len(sample.draw)
        sample.draw = pool[:at]
        renamed: dict[int, int] = {}
        for p in range(sample.n):
            if p == seat:
                continue
            k = len(sample.hidden[p])
            renamed.update(zip(sample.hidden[p], pool[at:at + k]))
            sample.hidden[p] = pool[at:at + k]
            at += k
            k = len(sample.hands[p])
            sample.hands[p] = pool[at:at + k]
            at += k
            if sample.kept[p]:
                sample.kept[p] = pool[at]
                at += 1
        if sample.drawn and sample.cur != seat:
            sample.drawn = pool[at]
        if renamed:
            sample.discard = [renamed.get(c, c) for c in sample.discard]
    return to_kernel(sample)
