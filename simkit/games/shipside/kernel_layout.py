"""The Shipside kernel's state as one int64 array `g`, and what a kernel bot may read of it.

Plain Python constants (numba reads them as compile-time constants); no numba import here, so
`kernel.py` can check a run without compiling anything.

`g[:HEADER]` holds the scalars: the run's settings (copied from `cfg`, so a bot reads every rule
from `g`), then the game's: phase, player to move, turn, scores, rum, octopus, pending crew
direction (movement.chooser=owner), the listing of the current decision (NLEGAL and its parts).
Then arrays at fixed offsets (sizes are the config's upper bounds: 9 ships, 200 cards, 10 cards a
side, 4 crew tokens a ship): the row (ship ids in row order, S27 gaps closed), each ship's sides
(card ids in the order the scalar engine's lists keep), side totals, rum mugs (owner seats), crew
(token ids, the first moves), the octopus on each card, hands and piles (draw from the end),
the variant's own decks, and the static tables (strength, symbol and kind of each card, each
ship's defense, each token's points).

Actions are encoded as ints (`encode` in kernel_play.py): kind | card | ship | side | direction |
source ship | source side, in the order the scalar engine's `legal_actions` lists them.
"""

from __future__ import annotations

MAX_SHIPS = 9
MAX_CARDS = 200
MAX_SIDE = 10
MAX_CREW = 4
MAX_MUGS = 2

# ---- header: settings (from cfg) -----------------------------------------------------------
(NSHIPS, NCARDS, NKINDS, HAND_SIZE, MAXC, ANY_SIDE, PASS_STUCK, CHOOSER_OWNER, WRAP, SKIP, FREEZE,
 BEFORE, INCLUSIVE, TIE_STAY, SHIP_POINTS, GOAL, TIEBREAK, MAX_TURNS, REUSE, OCTO_DRAW,
 AS_PLACEMENT, CHECK_ORIGIN, BONUS, RUM_USES, RUM_EITHER, RUM_PER_SHIP, RUM_RETURNED, VARIANT,
 MARK_CHOOSER, PERSONAL, CREW_PER_SHIP, NTOKENS) = range(32)
# ---- header: the game ----------------------------------------------------------------------
(PHASE, CUR, FIRST, TURN, PASSES, REASON, N_OCTO, N_RUM, RUM_TURN, ROW_LEN, STARSEAT, SHIPS_OUT,
 PEND_CHOOSER, PEND_DIRS, PEND_P, PEND_S, PEND_SIDE, PEND_CARD, PEND_ORIGIN, PEND_PLAY, PEND_D,
 PEND_STAGE, NPILES, DS_VALID) = range(32, 56)
SCORE, RUM_LEFT, OCTO_AT, OCTO_SPENT, CAPTURED, HAND_LEN, PILE_LEN, OWN_LEN = range(56, 72, 2)
# the listing of the decision asked (kernel_play.prepare): count, plain places, places with
# directions, distinct hand kinds (first card of each), octopus sources (how many), rum ships
NLEGAL, NP, NM, NHK, NOK, NRS, FROZEN, NMOVES = range(72, 80)
PLACES_OF = 80      # the seat (+1) whose places the listing holds (0: list them again)
HEADER = 88

O_ROW = HEADER
O_SIDE_LEN = O_ROW + MAX_SHIPS                      # ship * 2 + side
O_SIDES = O_SIDE_LEN + 2 * MAX_SHIPS                # (ship * 2 + side) * MAX_SIDE + i
O_TOT = O_SIDES + 2 * MAX_SHIPS * MAX_SIDE          # ship * 2 + side
O_MUG_LEN = O_TOT + 2 * MAX_SHIPS
O_MUGS = O_MUG_LEN + MAX_SHIPS                      # ship * MAX_MUGS + i
O_CREW_LEN = O_MUGS + MAX_SHIPS * MAX_MUGS
O_CREW = O_CREW_LEN + MAX_SHIPS                     # ship * MAX_CREW + i
O_OCTO_ON = O_CREW + MAX_SHIPS * MAX_CREW           # card -> seat or -1
O_HANDS = O_OCTO_ON + MAX_CARDS                     # seat * MAX_CARDS + i
O_PILES = O_HANDS + 2 * MAX_CARDS                   # pile * MAX_CARDS + i (top = last)
O_OWN = O_PILES + 2 * MAX_CARDS                     # variant: seat * MAX_CARDS + i
O_VALUE = O_OWN + 2 * MAX_CARDS                     # static: card -> strength
O_SYM = O_VALUE + MAX_CARDS                         # card -> move-sailor symbol
O_KIND = O_SYM + MAX_CARDS                          # card -> kind id (strength, symbol)
O_MARK = O_KIND + MAX_CARDS                         # card -> 0 starfish / 1 shell
O_DEF = O_MARK + MAX_CARDS                          # ship -> defense
O_CREW_PTS = O_DEF + MAX_SHIPS                      # token -> points
O_P = O_CREW_PTS + MAX_CREW                         # listing: plain places (ship * 2 + side)
O_M = O_P + 2 * MAX_SHIPS                           # places * 4 + direction (0 none, 1 L, 2 R)
O_HK = O_M + 4 * MAX_SHIPS                          # first hand card of each distinct kind
O_RS = O_HK + MAX_CARDS                             # rum ships
O_PCOUNT = O_RS + MAX_SHIPS                         # listing: plain places at each place (0/1)
O_MCOUNT = O_PCOUNT + 2 * MAX_SHIPS                 # listing: places-with-direction at each place
O_DSC = O_MCOUNT + 2 * MAX_SHIPS                    # each ship's crew directions (valid: DS_VALID)
O_KSEEN = O_DSC + MAX_SHIPS                         # a listing's kinds seen: a bit per kind id
# each side's octopus sources (kernel_play._side_sources), kept until the side changes
O_SRC_N = O_KSEEN + (MAX_CARDS + 63) // 64          # side -> its sources + 1 (0: list them again)
O_SRC_SYM = O_SRC_N + 2 * MAX_SHIPS                 # side -> how many of them carry a symbol
O_SRC = O_SRC_SYM + 2 * MAX_SHIPS                   # side * MAX_SIDE + i -> source card
O_SCRATCH = O_SRC + 2 * MAX_SHIPS * MAX_SIDE
SCRATCH = 256
O_RUNNING = O_SCRATCH + SCRATCH     # the running score's record (simkit/engine/kernel_running.py)
SIZE = O_RUNNING + 4 + 32 * 2       # kernel_running.region_size(2) (running.CAP = 32)

#: phases (as rules.PHASES)
MARK, PICK, MAIN, DIR, RUM, OVER = range(6)
#: what a bot is asked (the phase of the decision)
ASK_MARK, ASK_PICK, ASK_MAIN, ASK_DIR, ASK_RUM = MARK, PICK, MAIN, DIR, RUM
#: action kinds (encoded in the low 3 bits)
A_PLAY, A_OCTOPUS, A_RUM, A_DIR, A_END, A_PASS, A_PICK, A_MARK = range(8)
#: end reasons (state.reason)
REASONS = ("running", "points", "all scored", "stalled", "turn cap", "stuck")
R_RUNNING, R_POINTS, R_ALL, R_STALLED, R_CAP, R_STUCK = range(6)
REUSES = ("on_return", "free", "once")
SEATINGS = ("rotate", "random", "fixed")

#: the run's settings beyond g's: seating, duplicate, step cap, crew placement plan
(C_SEATING, C_DUPLICATE, C_STEP_CAP, C_RANDOM_ORDER, C_RANDOM_FIRST, C_FIRST, C_MARK_RANDOM,
 C_NPLAN) = range(8)
C_PLAN = 8          # C_NPLAN entries of (token, mode 0 ship id / 1 row position, ship or position)
C_SORTED = C_PLAN + 3 * MAX_CREW    # ship ids by ascending defense
CFG_SIZE = C_SORTED + MAX_SHIPS
