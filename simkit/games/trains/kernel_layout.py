"""The Game of Trains kernel's state as one int64 array `g`, and what a kernel bot may read of it.

Plain Python constants (numba reads them as compile-time constants); no numba import here, so
`kernel.py` can check a run without compiling anything. Sizes are those of the largest game
(4 players), so every offset is a constant.

| index | holds |
|---|---|
| N, CUR, START, PHASE | players, the seat whose turn it is (T8), the start player (T4), the phase |
| TURNS, WINNER | actions so far (T15), the winner or -1 (T25) |
| CAPPED, RESHUFFLES | 1 when the T15 cap ended the game; T13 reshuffles so far |
| DRAW_LEN, DISCARD_LEN, DRAWN | pile sizes; the drawn card waiting to be placed (T9) |
| PENDING | the discard memory's pending used card (strategies/trains/heuristic.py, `DiscardMemory`) |
| N_ACTING, ACTING.. | the seats to act, in `to_act` order |
| ALLOW_ALL, DOUBLE_LOCK | the config fields the legal listing reads (T21-T24) |
| LIST_LEN | during a turn: how many actions LIST holds (the engine lists them before asking) |

Arrays (seat p, slot k = 0..6): TRAINS + 7p + k (the card, 0 only for a slot a win left empty);
LOCKS + 7p + k (the lock card or 0); DISPLAY + e (the card of effect e or 0, T11); DRAW (top =
the last of DRAW_LEN); DISCARD (in the scalar engine's list order: a T13 reshuffle permutes it);
HIDDEN + 3p (seat p's setup discards still in the discard pile, HIDDEN_LEN + p of them); HANDS
+ 4p (an undecided setup draw, HAND_LEN + p cards, T5-T6); KEPT + p (T7); KNOWN + card (1: the
public log shows the card went to the discard pile, as `DiscardMemory` reads it); EFF + card
(its effect, §1.1); ANSWERS (a step's answers); SCRATCH words a bot may use during its call
(the engine uses them only outside bot calls); RUNNING the record of every seat's cards in
order after each round of turns (the game's arc).
"""

from __future__ import annotations

N, CUR, START, PHASE, TURNS, WINNER, CAPPED, RESHUFFLES = range(8)
DRAW_LEN, DISCARD_LEN, DRAWN, PENDING, N_ACTING = range(8, 13)
ACTING = 13             # 4 seats
ALLOW_ALL, DOUBLE_LOCK = 20, 21     # the config's allow_all_locked_removal and double_lock
LIST_LEN = 22           # the turn's legal actions: how many (LIST holds them)
MAX_N = 4
CARDS = 85              # card numbers index KNOWN and EFF (0 unused)
HEADER = 24
TRAINS = HEADER
LOCKS = TRAINS + 7 * MAX_N
DISPLAY = LOCKS + 7 * MAX_N
DRAW = DISPLAY + 9
DISCARD = DRAW + 84
HIDDEN_LEN = DISCARD + 84
HIDDEN = HIDDEN_LEN + MAX_N
HAND_LEN = HIDDEN + 3 * MAX_N
HANDS = HAND_LEN + MAX_N
KEPT = HANDS + 4 * MAX_N
KNOWN = KEPT + MAX_N
EFF = KNOWN + CARDS
LIST = EFF + CARDS      # the turn's legal actions, 16 * effect + param (Draw: 0), as listed
ANSWERS = LIST + 32     # a step's answers (the engine's: bots leave them alone)
SCRATCH = ANSWERS + MAX_N
SCRATCH_SIZE = 320
RUNNING = SCRATCH + SCRATCH_SIZE    # the running score's record (simkit/engine/kernel_running.py)
RUNNING_SIZE = 4 + 32 * MAX_N       # kernel_running.region_size(MAX_N) (running.CAP = 32)
SIZE = RUNNING + RUNNING_SIZE

#: phases (rules.PHASES order); a bot is asked with the phase: KEEP a card of its setup draw
#: (a position in its hand), SETUP_PLACE / PLACE a slot (position 0..6), TURN a position in the
#: turn's legal list (Draw, then Use(e, p) by effect and parameter, as `legal_actions` lists it)
KEEP, SETUP_PLACE, TURN, PLACE, OVER = range(5)

#: the run's settings as an int64 array `cfg` (kernel.py builds it from the config and spec)
(C_N, C_MAX_TURNS, C_START_SEAT, C_SIMULTANEOUS, C_BEFORE, C_STAYS, C_FIRST, C_EAGER, C_SWAP,
 C_COMPLETE, C_ALLOW_ALL, C_CHOSEN, C_DOUBLE, C_STEP_CAP, C_SEATING, C_DUPLICATE) = range(16)
CFG_SIZE = 16
SEATINGS = ("rotate", "random", "fixed")
