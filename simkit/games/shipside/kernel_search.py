"""Shipside's part of a compiled ISMCTS iteration (issue 21; docs/search.md, "Compiled search
iterations"): numba functions on the kernel array `g` (kernel_layout.py), driven by the search
loop of strategies/shipside/kernel_search.py, each equal to what the Python search does with a
`ShipsideState`, draw for draw:

- `determinize`: `views.determinize` (the other hand pooled with the draw pile, or with its own
  deck while the variant's opening hands are picked; personal piles: the seat's own pile
  reshuffled first), shuffled with the swaps of `rng.permutation` from the search's generator;
- `listing`: the seat's legal actions in the scalar engine's order, encoded (kernel_play's
  `encode`) and keyed as the Python tree keys its edges (`key_of`: a scalar action names its card
  by kind, (value, symbol), and a rum mug by when it is taken);
- `reward_of`: the seat's reward (simkit/search/rewards.py) of a finished game, or the cut value
  of `Game.evaluate` (evaluate.py), the same float operations in the same order.

`real_position(sample, seat, rng, before, to_kernel)`: the kernel array of the REAL position, from
a sample `decision.sample_state()` drew with `rng` from state `before`: the determinization's
permutations are drawn again and undone, which gives the hidden cards in their true order (what
the next determinizations permute). A search sees the real state only through its `Decision`;
this reads no more than the sample and the generator the search owns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from simkit.engine import kernel_rng as kr
from simkit.engine.kernel_arrays import sort_small
from simkit.engine.kernel_rng import compiled
from simkit.games.shipside import kernel_layout as L
from simkit.games.shipside import rules
from simkit.games.shipside.evaluate import BOARD_WEIGHT, SCALE
from simkit.games.shipside.kernel_play import a_card, a_kind, action_at, prepare, threshold

#: rewards (simkit.search.rewards.REWARDS order: the search floor is above this one)
WIN, RANK, MARGIN = range(3)
#: a rum mug's key: taken after the action (phase rum, `Rum.when == "after"`)
_AFTER = 1 << 26


# ---- the determinization ----------------------------------------------------------------------
@compiled()
def _redeal(g, row, seat, rest, n_rest, pool, sort_rest):
    """The seat's hand and the `n_rest` cards at `rest` pooled (hand first), shuffled as
    `rng.permutation(len(pool))` orders them, dealt back: the hand's count, then the rest
    (sorted when `sort_rest`: the variant's own deck)."""
    at = L.O_HANDS + seat * L.MAX_CARDS
    k = g[L.HAND_LEN + seat]
    for i in range(k):
        pool[i] = g[at + i]
    for i in range(n_rest):
        pool[k + i] = g[rest + i]
    kr.shuffle(row, pool, k + n_rest)
    for i in range(k):
        g[at + i] = pool[i]
    for i in range(n_rest):
        g[rest + i] = pool[k + i]
    if sort_rest:
        sort_small(g[rest:rest + n_rest], n_rest)


@compiled()
def determinize(g, real, row, seat, pool):
    """g = `views.determinize(real, seat, rng)` with `row` as rng (`pool`: 2 * MAX_CARDS ints)."""
    for i in range(real.size):
        g[i] = real[i]
    o = 1 - seat
    phase = g[L.PHASE]
    if phase == L.PICK or phase == L.MARK:
        if g[L.STARSEAT] >= 0:                           # the decks are the seats' own
            _redeal(g, row, o, L.O_OWN + o * L.MAX_CARDS, g[L.OWN_LEN + o], pool, True)
        return
    if g[L.NPILES] == 1:
        _redeal(g, row, o, L.O_PILES, g[L.PILE_LEN], pool, False)
        return
    mine = L.O_PILES + seat * L.MAX_CARDS
    kr.shuffle(row, g[mine:mine + g[L.PILE_LEN + seat]], g[L.PILE_LEN + seat])
    _redeal(g, row, o, L.O_PILES + o * L.MAX_CARDS, g[L.PILE_LEN + o], pool, False)


# ---- actions as the tree keys them ------------------------------------------------------------
@compiled()
def key_of(g, act):
    """The tree's key of encoded action `act` now: the card id replaced by its kind (a scalar
    Play, Octopus or Pick names (value, symbol)); a rum mug taken after the action set apart
    (`Rum.when`). Equal keys <=> equal scalar actions."""
    kind = a_kind(act)
    if kind == L.A_PLAY or kind == L.A_OCTOPUS or kind == L.A_PICK:
        return (act & ~(255 << 3)) | (g[L.O_KIND + a_card(act)] << 3)
    if kind == L.A_RUM and g[L.PHASE] == L.RUM:
        return act | _AFTER
    return act


@compiled()
def listing(g, seat, keys, acts):
    """The seat's legal actions now, in the scalar engine's order: encoded in `acts`, keyed in
    `keys`; returns their count."""
    ask = g[L.PHASE]
    n = prepare(ask, seat, g)
    for i in range(n):
        act = action_at(ask, seat, g, i)
        acts[i] = act
        keys[i] = key_of(g, act)
    return n


@compiled()
def acts_now(g, seat):
    """Whether `seat` is among the seats to act (both pick at once, S57)."""
    phase = g[L.PHASE]
    if phase == L.OVER:
        return False
    if phase == L.PICK:
        return True
    return (g[L.PEND_CHOOSER] if phase == L.DIR else g[L.CUR]) == seat


# ---- rewards ----------------------------------------------------------------------------------
@compiled()
def _evaluate(g, seat):
    """evaluate.py: `standing(points(st), seat, SCALE)` for 2 seats."""
    board = 0.0
    for r in range(g[L.ROW_LEN]):
        s = g[L.O_ROW + r]
        thr = threshold(g, s)
        if thr <= 0:
            continue
        a, b = g[L.O_TOT + 2 * s], g[L.O_TOT + 2 * s + 1]
        lead = (min(a, thr) - min(b, thr)) / thr
        crew = 0
        for i in range(g[L.O_CREW_LEN + s]):
            crew += g[L.O_CREW_PTS + g[L.O_CREW + s * L.MAX_CREW + i]]
        board += lead * (g[L.SHIP_POINTS] + crew)
    p0 = g[L.SCORE] + BOARD_WEIGHT * board
    p1 = g[L.SCORE + 1] - BOARD_WEIGHT * board
    mine, other = (p0, p1) if seat == 0 else (p1, p0)
    x = 1.0 * (mine - other) / SCALE
    total = 0.0
    total += 1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0
    return total / 1


@compiled()
def reward_of(g, seat, reward):
    """The seat's reward in [0, 1] (rewards.py, 2 seats, higher scores better): of the finished
    game (S54, S55), else `cut_value` of the position's `evaluate`."""
    if g[L.PHASE] != L.OVER:
        standing = _evaluate(g, seat)
        return standing * 2.0 / 2 if reward == WIN else standing
    if reward == MARGIN:
        mine = float(g[L.SCORE + seat])
        others = (0.0 + g[L.SCORE] + g[L.SCORE + 1] - mine) / 1
        size = abs(mine) + abs(others)
        if not size > 0:
            return 0.5
        return 0.5 + 0.5 * ((mine - others) / size)
    a, b = g[L.SCORE], g[L.SCORE + 1]                   # rules.final_result
    if a == b and g[L.TIEBREAK]:
        a, b = g[L.CAPTURED], g[L.CAPTURED + 1]
    if a == b:
        return 0.0 if reward == WIN else 0.5
    return 1.0 if (a > b) == (seat == 0) else 0.0


# ---- the real position ------------------------------------------------------------------------
def _undo(rng: np.random.Generator, hand: list[int], rest: list[int]) -> tuple[list[int], list[int]]:
    """The pool (hand + rest) before `rng.permutation` dealt it into `hand` and `rest`."""
    dealt = hand + rest
    pool = [0] * len(dealt)
    for i, j in enumerate(rng.permutation(len(dealt)).tolist()):
        pool[j] = dealt[i]
    return pool[:len(hand)], pool[len(hand):]


def real_position(sample: Any, seat: int, rng: np.random.Generator, before: Mapping[str, Any],
                  to_kernel: Callable[[Any], np.ndarray]) -> np.ndarray | None:
    """The real position's kernel array, from `sample` (`views.determinize(real, seat, rng)` drawn
    from generator state `before`); `rng` is left as it was. None while the variant's opening
    hands are picked (the other seat's deck is kept sorted, which loses its picks' order)."""
    if sample.phase in (rules.PICK, rules.MARK):
        return None if sample.own is not None else to_kernel(sample)
    now = rng.bit_generator.state
    rng.bit_generator.state = before
    try:
        o = 1 - seat
        if len(sample.piles) == 1:
            sample.hands[o], sample.piles[0] = _undo(rng, sample.hands[o], sample.piles[0])
        else:
            _, sample.piles[seat] = _undo(rng, [], sample.piles[seat])
            sample.hands[o], sample.piles[o] = _undo(rng, sample.hands[o], sample.piles[o])
    finally:
        rng.bit_generator.state = now
    return to_kernel(sample)
