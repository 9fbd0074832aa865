"""The 6 nimmt! kernel's state as one int64 array `g`, and what a kernel bot may read of it.

Plain Python constants (numba reads them as compile-time constants); no numba import here, so
`kernel.py` can check a run without compiling anything.

`g[:HEADER]` holds the scalars and the offsets of the arrays that follow:

| index | holds |
|---|---|
| N, R, CAP, H, DECK | players, rows, row capacity, hand size, cards in play (N18) |
| ROUND, TURN, PHASE | round (from 1), turns played this round, PLAY / ROW_PICK / DRAFT / OVER |
| ACTOR, CARD | the seat picking a row (N10) or drafting (N19); the card its row pick places |
| N_SEEN, POOL_LEN | cards seen this round (row starts and revealed cards); cards left in the draft pool |
| FIRST, FIRST_ONE, DRAFT_I | this round's first drafter, round one's (-1: not drawn), picks made (N19) |
| PENDING_AT | during a row pick: which of this turn's revealed cards is being placed |
| O_ROW_LEN .. O_LAST | where each array starts in `g` |

Arrays: row lengths (R); row cards (R x CAP, row r at O_ROWS + r * CAP, oldest first); hand
lengths (n); hands (n x H, seat s at O_HANDS + s * H, in the order the scalar engine's list keeps:
dealt or drafted order, played cards removed); totals (n); this round's points (n); seen flags
by card (105); the draft pool in order (105); this turn's revealed (card, seat) pairs in ascending
order (2n); the last finished round's points (n); SCRATCH words a bot may use as it likes during
its call (the kernel allocates nothing: it runs without numba's reference counting); this round's
penalty pile lengths (n) and piles (n x CARDS, seat s at O_PILES + s * CARDS, in the order the
cards were taken, N9-N11: a search rollout writes them back into the scalar state).

**From a scalar state** (`SixNimmtState`, for a rollout from a position): `state_to_kernel` in
kernel.py writes each field above from the state's fields of the same meaning (rows, hands,
totals, points, seen, pool, round, turn); the chance generator's words come from its
`bit_generator.state`.
"""

from __future__ import annotations

N, R, CAP, H, DECK, ROUND, TURN, PHASE, ACTOR, CARD, N_SEEN, POOL_LEN = range(12)
FIRST, FIRST_ONE, DRAFT_I, PENDING_AT = range(12, 16)
O_ROW_LEN, O_ROWS, O_HAND_LEN, O_HANDS, O_TOTALS, O_POINTS, O_SEEN, O_POOL, O_PENDING, O_LAST, \
    O_SCRATCH, O_PILE_LEN, O_PILES = range(16, 29)
HEADER = 32
CARDS = 105         # card values index the seen flags and the pool (0 unused)
SCRATCH = 512

#: phases (as rules.PHASES)
PLAY, ROW_PICK, DRAFT, OVER = 0, 1, 2, 3
#: what a bot is asked: a card to play (a position in its hand), a row to take (a row index),
#: a card to draft (a position in the pool)
ASK_CARD, ASK_ROW, ASK_DRAFT = 0, 1, 2


def state_size(n: int, rows: int, capacity: int, hand: int) -> int:
    """Length of `g` for these sizes."""
    return (HEADER + rows + rows * capacity + n + n * hand + n + n + CARDS + CARDS + 2 * n + n + SCRATCH
            + n + n * CARDS)

#: the run's settings as an int64 array `cfg` (kernel.py builds it from the config and spec)
(C_N, C_R, C_CAP, C_H, C_DECK, C_ADVANCED, C_THRESHOLD, C_INCLUSIVE, C_MAX_ROUNDS, C_TIE,
 C_FIRST, C_STEP_CAP, C_SEATING, C_DUPLICATE) = range(14)
CFG_SIZE = 14
TIE_BREAKS = ("share", "last_round", "play_on")
FIRST_DRAFTERS = ("random_then_rotate", "seat0", "highest_total")
SEATINGS = ("rotate", "random", "fixed")
