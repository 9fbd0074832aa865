"""The Shipside kernel: the rules S1-S59 as numba-compiled functions on the state array `g`
(kernel_layout.py), one decision step at a time (`step`), and a whole chunk of games
(`play_games`). Imported only when a kernel plays (it imports numba and compiles, or loads the
compiled code from numba's disk cache).

The chance draws are the scalar engine's, draw for draw (simkit/engine/kernel_rng.py): the ship
row's permutation (S10), the start player (S14), the deal's permutation (S12), the variant's
mark (S56) and its piles' permutations (S57, S58). A bot is a compiled function of the
signature `BOT_SIG`, asked with one of kernel_layout's ASK_* (the phase) and answering a position
in the list the scalar engine's `legal_actions` gives: `prepare` lists it (its count in
g[NLEGAL]) and `action_at` decodes a position (strategies/shipside/kernel_bots.py).
"""

from __future__ import annotations

import numpy as np
from numba import types

from simkit.engine import kernel_rng as kr
from simkit.engine import kernel_running as running
from simkit.engine.kernel_games import record_answer, seat_slots
from simkit.engine.kernel_rng import compiled
from simkit.games.shipside import kernel_layout as L

#: a bot: (ask, seat, g, params, the seat's generator row) -> position in the legal list
BOT_SIG = types.int64(types.int64, types.int64, types.int64[::1], types.float64[::1], types.uint64[::1])
BOT = types.FunctionType(BOT_SIG)
#: lineup slots a kernel call takes (Shipside has 2 seats)
MAX_SLOTS = 2
#: generator row width: kernel_rng's words, then a bot's scratch (the `random` buffer of 32)
ROW_WORDS = 48


# ---- actions as ints --------------------------------------------------------------------------
@compiled(inline=True)
def encode(kind, card, ship, side, d, src_ship, src_side):
    return kind | (card << 3) | (ship << 11) | (side << 15) | (d << 16) | (src_ship << 18) | (src_side << 22)


@compiled(inline=True)
def a_kind(a):
    return a & 7


@compiled(inline=True)
def a_card(a):
    return (a >> 3) & 255


@compiled(inline=True)
def a_ship(a):
    return (a >> 11) & 15


@compiled(inline=True)
def a_side(a):
    return (a >> 15) & 1


@compiled(inline=True)
def a_dir(a):
    return (a >> 16) & 3


@compiled(inline=True)
def a_src_ship(a):
    return (a >> 18) & 15


@compiled(inline=True)
def a_src_side(a):
    return (a >> 22) & 1


# ---- reading the state ------------------------------------------------------------------------
@compiled(inline=True)
def side_len(g, s, a):
    return g[L.O_SIDE_LEN + 2 * s + a]


@compiled(inline=True)
def side_card(g, s, a, i):
    return g[L.O_SIDES + (2 * s + a) * L.MAX_SIDE + i]


@compiled(inline=True)
def total(g, s, a):
    return g[L.O_TOT + 2 * s + a]


@compiled(inline=True)
def threshold(g, s):
    """S32, S48: the printed defense plus the bonus per rum mug."""
    return g[L.O_DEF + s] + g[L.BONUS] * g[L.O_MUG_LEN + s]


@compiled()
def in_row(g, s):
    for r in range(g[L.ROW_LEN]):
        if g[L.O_ROW + r] == s:
            return True
    return False


@compiled()
def row_index(g, s):
    """Ship s's position in the row (ships are unique in it)."""
    for r in range(g[L.ROW_LEN]):
        if g[L.O_ROW + r] == s:
            return r
    return 0


@compiled()
def target_from(g, i, step):
    """S26-S28 (rules.move_target): the ship a token at row position i reaches moving `step`
    (-1 or 1), or -1. Steps one place at a time (no modulo: the row is short)."""
    n = g[L.ROW_LEN]
    wrap, skip, cap = g[L.WRAP], g[L.SKIP], g[L.CREW_PER_SHIP]
    j = i
    for _ in range(1, n):
        j += step
        if j < 0 or j >= n:
            if not wrap:
                return -1
            j += n if j < 0 else -n
        target = g[L.O_ROW + j]
        if g[L.O_CREW_LEN + target] < cap:
            return target
        if not skip:
            return -1
    return -1


@compiled()
def move_target(g, s, step):
    """S26-S28 (rules.move_target): the ship a token on `s` reaches moving `step`, or -1."""
    return target_from(g, row_index(g, s), step)


@compiled()
def is_frozen(g):
    """S29: ships left <= crew tokens on them."""
    if not g[L.FREEZE]:
        return False
    crew = 0
    for r in range(g[L.ROW_LEN]):
        crew += g[L.O_CREW_LEN + g[L.O_ROW + r]]
    return g[L.ROW_LEN] <= crew


@compiled()
def dirs_at(g, i):
    """S23-S28 without the freeze for the ship at row position i: bit 1 left, bit 2 right (0:
    nobody moves)."""
    if g[L.O_CREW_LEN + g[L.O_ROW + i]] == 0:
        return 0
    out = 0
    if target_from(g, i, -1) >= 0:
        out |= 1
    if target_from(g, i, 1) >= 0:
        out |= 2
    return out


@compiled()
def dirs(g, s):
    """moves.dirs: the directions the crew on `s` (in the row) can move (0 when frozen, S29);
    from the kept directions when they are valid (_crew_dirs)."""
    if g[L.O_CREW_LEN + s] == 0:
        return 0
    if g[L.DS_VALID]:
        return 0 if g[L.FROZEN] else g[L.O_DSC + s]
    if is_frozen(g):
        return 0
    return dirs_at(g, row_index(g, s))


@compiled()
def octopus_ready(g, p):
    """S44."""
    reuse = g[L.REUSE]
    if reuse == 1:
        return True
    if reuse == 2:
        return g[L.OCTO_SPENT + p] == 0
    return g[L.OCTO_AT + p] < 0


# ---- listing (moves.main_actions and the other phases' lists) ---------------------------------
@compiled()
def _crew_dirs(g):
    """Each crewed ship's directions without the freeze (free_dirs) and the freeze (S29), kept
    in g until a token moves or a ship leaves the row (as moves.py keeps them on the state)."""
    if g[L.DS_VALID]:
        return
    if g[L.WRAP] and g[L.SKIP]:
        _dirs_around(g)
    else:
        for r in range(g[L.ROW_LEN]):
            g[L.O_DSC + g[L.O_ROW + r]] = dirs_at(g, r)
    g[L.FROZEN] = is_frozen(g)
    g[L.DS_VALID] = 1


@compiled()
def _dirs_around(g):
    """_crew_dirs with wrap-around and skipping (S26, S28): the search either way passes every
    other ship once, so a token can move both ways iff another ship in the row has room."""
    n, cap = g[L.ROW_LEN], g[L.CREW_PER_SHIP]
    room = 0
    for r in range(n):
        room += g[L.O_CREW_LEN + g[L.O_ROW + r]] < cap
    for r in range(n):
        s = g[L.O_ROW + r]
        crew = g[L.O_CREW_LEN + s]
        others = room - (crew < cap)
        g[L.O_DSC + s] = 3 if crew > 0 and others > 0 else 0


@compiled(inline=True)
def _list_places(g, p):
    """Open places (S19, S20) and the same with the crew's directions (S23-S25), and how many
    of each lie at each place (for the octopus's blocks, S46). Kept in g until a side fills or
    loses a card, a ship is scored or a token moves (as moves.py keeps them on the state)."""
    key = p + 1 if g[L.CHOOSER_OWNER] or not g[L.ANY_SIDE] else 3     # 3: the same for both seats
    if g[L.PLACES_OF] == key:
        return
    g[L.PLACES_OF] = key
    for i in range(4 * L.MAX_SHIPS):
        g[L.O_PCOUNT + i] = 0
    _crew_dirs(g)
    frozen = g[L.FROZEN]
    owner = g[L.CHOOSER_OWNER]
    np_ = 0
    nm = 0
    for r in range(g[L.ROW_LEN]):
        s = g[L.O_ROW + r]
        for a in range(2):
            if (g[L.ANY_SIDE] or a == p) and g[L.O_SIDE_LEN + 2 * s + a] < g[L.MAXC]:
                place = 2 * s + a
                g[L.O_P + np_] = place
                np_ += 1
                g[L.O_PCOUNT + place] = 1
                ds = 0
                if not frozen and (not owner or a == p):
                    ds = g[L.O_DSC + s]
                if ds == 0:
                    g[L.O_M + nm] = place * 4
                    nm += 1
                    g[L.O_MCOUNT + place] = 1
                else:
                    if ds & 1:
                        g[L.O_M + nm] = place * 4 + 1
                        nm += 1
                    if ds & 2:
                        g[L.O_M + nm] = place * 4 + 2
                        nm += 1
                    g[L.O_MCOUNT + place] = (ds & 1) + (ds >> 1)
    g[L.NP] = np_
    g[L.NM] = nm


@compiled()
def prepare(ask, seat, g):
    """List the decision `ask` of `seat` (its parts in g's listing fields); returns its count
    (also g[NLEGAL])."""
    n = 0
    if ask == L.ASK_MAIN:
        n = _prepare_main(g, seat)
    elif ask == L.ASK_RUM:
        n = 1 + _rum_ships(g)
    elif ask == L.ASK_DIR:
        ds = g[L.PEND_DIRS]
        n = (ds & 1) + (ds >> 1)
    elif ask == L.ASK_PICK:
        n = _pick_kinds(g, seat)
    elif ask == L.ASK_MARK:
        n = 2
    g[L.NLEGAL] = n
    return n


@compiled()
def _rum_ships(g):
    """S48, S52: ships in play that can take one more mug, in row order."""
    k = 0
    for r in range(g[L.ROW_LEN]):
        s = g[L.O_ROW + r]
        if g[L.O_MUG_LEN + s] < g[L.RUM_PER_SHIP]:
            g[L.O_RS + k] = s
            k += 1
    g[L.NRS] = k
    return k


@compiled()
def _forget_kinds(g):
    """Start a listing's dedup of card kinds (_new_kind)."""
    for w in range((L.MAX_CARDS + 63) // 64):
        g[L.O_KSEEN + w] = 0


@compiled()
def _new_kind(g, kind):
    """True the first time `kind` is met since _forget_kinds (a bit per kind id in g)."""
    at = L.O_KSEEN + (kind >> 6)
    bit = 1 << (kind & 63)
    if g[at] & bit:
        return False
    g[at] |= bit
    return True


@compiled()
def _pick_kinds(g, seat):
    """S57: the distinct kinds of the seat's own deck, first card of each, in the deck's order."""
    k = 0
    base = L.O_OWN + seat * L.MAX_CARDS
    _forget_kinds(g)
    for i in range(g[L.OWN_LEN + seat]):
        c = g[base + i]
        if _new_kind(g, g[L.O_KIND + c]):
            g[L.O_HK + k] = c
            k += 1
    g[L.NHK] = k
    return k


@compiled(inline=True)
def _octo_sym(g, c):
    return g[L.O_SYM + c] != 0 and g[L.AS_PLACEMENT] != 0


@compiled(inline=True)
def _octo_block(g, source, c):
    """How many places an octopus move of card c from `source` lists (S46: not its own side)."""
    if _octo_sym(g, c):
        return g[L.NM] - g[L.O_MCOUNT + source]
    return g[L.NP] - g[L.O_PCOUNT + source]


@compiled(inline=True)
def _octo_sources(g, p):
    """S40-S46: the octopus's sources (a side, the first free card of each kind on it, in the
    side's order: _side_sources); returns how many actions they list."""
    ok = 0
    n = 0
    if octopus_ready(g, p):
        mine = g[L.OCTO_AT + p] if g[L.REUSE] == 1 else -2
        keep = mine == -2           # with reuse=free a seat's own octopus card is its source only
        sym = g[L.AS_PLACEMENT] != 0
        np_, nm = g[L.NP], g[L.NM]
        for r in range(g[L.ROW_LEN]):
            s = g[L.O_ROW + r]
            for a in range(2):
                source = 2 * s + a
                if not keep or g[L.O_SRC_N + source] == 0:
                    _side_sources(g, source, mine)
                k = g[L.O_SRC_N + source] - 1
                k_sym = g[L.O_SRC_SYM + source] if sym else 0
                # _octo_block summed over the side's sources: plain ones, then those with a symbol
                n += (k - k_sym) * (np_ - g[L.O_PCOUNT + source]) + k_sym * (nm - g[L.O_MCOUNT + source])
                ok += k
    g[L.NOK] = ok
    return n


@compiled()
def _side_sources(g, source, mine):
    """The octopus's sources on side `source`: its first free card (or `mine`) of each kind, in
    the side's order, kept in g until the side gains or loses a card or a mark (_side_changed)."""
    _forget_kinds(g)
    k = 0
    k_sym = 0
    at = L.O_SRC + source * L.MAX_SIDE
    for i in range(g[L.O_SIDE_LEN + source]):
        c = g[L.O_SIDES + source * L.MAX_SIDE + i]
        if g[L.O_OCTO_ON + c] >= 0 and c != mine:
            continue
        if _new_kind(g, g[L.O_KIND + c]):
            g[at + k] = c
            k += 1
            k_sym += g[L.O_SYM + c] != 0
    g[L.O_SRC_N + source] = k + 1
    g[L.O_SRC_SYM + source] = k_sym


@compiled()
def _sides_changed(g):
    for source in range(2 * L.MAX_SHIPS):
        _side_changed(g, source)


@compiled(inline=True)
def _side_changed(g, source):
    """Side `source` gained or lost a card or an octopus mark: list its sources again."""
    g[L.O_SRC_N + source] = 0


@compiled(inline=True)
def _prepare_main(g, p):
    _list_places(g, p)
    np_, nm = g[L.NP], g[L.NM]
    hk = 0
    hand = L.O_HANDS + p * L.MAX_CARDS
    n = 0
    _forget_kinds(g)
    for i in range(g[L.HAND_LEN + p]):
        c = g[hand + i]
        if _new_kind(g, g[L.O_KIND + c]):
            g[L.O_HK + hk] = c
            hk += 1
            n += nm if g[L.O_SYM + c] else np_
    g[L.NHK] = hk
    n += _octo_sources(g, p)
    g[L.NMOVES] = n
    if n == 0:
        n = 1                                   # S18: pass
    if g[L.RUM_LEFT + p] > 0 and not g[L.RUM_TURN]:
        n += _rum_ships(g)
    else:
        g[L.NRS] = 0
    return n


@compiled()
def action_at(ask, seat, g, i):
    """The encoded action at position i of the list `prepare` made (for the same ask and seat)."""
    if ask == L.ASK_MAIN:
        return _main_at(g, seat, i)
    if ask == L.ASK_RUM:
        if i == 0:
            return L.A_END
        return encode(L.A_RUM, 0, g[L.O_RS + i - 1], 0, 0, 0, 0)
    if ask == L.ASK_DIR:
        d = 1 if (g[L.PEND_DIRS] & 1 and i == 0) else 2
        return encode(L.A_DIR, 0, 0, 0, d, 0, 0)
    if ask == L.ASK_PICK:
        return encode(L.A_PICK, g[L.O_HK + i], 0, 0, 0, 0, 0)
    return encode(L.A_MARK, 0, 0, i, 0, 0, 0)


@compiled()
def _octo_at(g, i):
    """The octopus move at position i of the octopus's blocks, or -1 - (i less their size)."""
    if g[L.NOK] == 0:
        return -1 - i
    for r in range(g[L.ROW_LEN]):
        for a in range(2):
            source = 2 * g[L.O_ROW + r] + a
            for j in range(g[L.O_SRC_N + source] - 1):
                c = g[L.O_SRC + source * L.MAX_SIDE + j]
                size = _octo_block(g, source, c)
                if i >= size:                   # not in this block: skip it whole
                    i -= size
                    continue
                return _octo_move(g, source, c, i)
    return -1 - i


@compiled()
def _octo_move(g, source, c, i):
    """The octopus move at position i of card c's block from side `source`."""
    np_, nm = g[L.NP], g[L.NM]
    if _octo_sym(g, c):
        for k in range(nm):
            m = g[L.O_M + k]
            if m >> 2 == source:
                continue
            if i == 0:
                return encode(L.A_OCTOPUS, c, m >> 3, (m >> 2) & 1, m & 3, source >> 1, source & 1)
            i -= 1
        return -1
    for k in range(np_):
        place = g[L.O_P + k]
        if place == source:
            continue
        if i == 0:
            return encode(L.A_OCTOPUS, c, place >> 1, place & 1, 0, source >> 1, source & 1)
        i -= 1
    return -1


@compiled(inline=True)
def _main_at(g, p, i):
    np_, nm = g[L.NP], g[L.NM]
    for j in range(g[L.NHK]):
        c = g[L.O_HK + j]
        if g[L.O_SYM + c]:
            if i < nm:
                m = g[L.O_M + i]
                return encode(L.A_PLAY, c, m >> 3, (m >> 2) & 1, m & 3, 0, 0)
            i -= nm
        else:
            if i < np_:
                place = g[L.O_P + i]
                return encode(L.A_PLAY, c, place >> 1, place & 1, 0, 0, 0)
            i -= np_
    act = _octo_at(g, i)
    if act >= 0:
        return act
    i = -1 - act
    if g[L.NMOVES] == 0:
        if i == 0:
            return L.A_PASS
        i -= 1
    return encode(L.A_RUM, 0, g[L.O_RS + i], 0, 0, 0, 0)


# ---- setting up -------------------------------------------------------------------------------
def new_layout(settings: np.ndarray, tables: dict) -> np.ndarray:
    """A fresh state array: the settings (kernel.py's header values) and the static tables."""
    g = np.zeros(L.SIZE, dtype=np.int64)
    g[:L.PHASE] = settings
    for offset, values in tables.items():
        g[offset:offset + len(values)] = values
    return g


@compiled()
def new_game(g, cfg, chance):
    """`ShipsideState.__init__`: the row (S10), crew (S11), start player (S14), the deal (S12) or
    the variant's marks (S56)."""
    ns, nc = g[L.NSHIPS], g[L.NCARDS]
    for k in range(L.PHASE, L.HEADER):
        g[k] = 0
    running.reset(g, L.O_RUNNING)
    for k in range(L.O_ROW, L.O_OCTO_ON):
        g[k] = 0
    for c in range(nc):
        g[L.O_OCTO_ON + c] = -1
    _sides_changed(g)
    g[L.ROW_LEN] = ns
    for r in range(ns):
        g[L.O_ROW + r] = cfg[L.C_SORTED + r]
    if cfg[L.C_RANDOM_ORDER]:
        kr.shuffle(chance, g[L.O_ROW:L.O_ROW + ns], ns)
    for k in range(cfg[L.C_NPLAN]):
        token, mode, ref = cfg[L.C_PLAN + 3 * k], cfg[L.C_PLAN + 3 * k + 1], cfg[L.C_PLAN + 3 * k + 2]
        s = ref if mode == 0 else g[L.O_ROW + ref]
        g[L.O_CREW + s * L.MAX_CREW + g[L.O_CREW_LEN + s]] = token
        g[L.O_CREW_LEN + s] += 1
    for p in range(2):
        g[L.OCTO_AT + p] = -1
        g[L.RUM_LEFT + p] = g[L.RUM_USES]
    g[L.STARSEAT] = -1
    first = np.int64(kr.bounded(chance, 2)) if cfg[L.C_RANDOM_FIRST] else cfg[L.C_FIRST]
    g[L.FIRST] = first
    g[L.CUR] = first
    hs = g[L.HAND_SIZE]
    if not g[L.VARIANT]:
        deck = g[L.O_PILES:L.O_PILES + nc]
        for c in range(nc):
            deck[c] = c
        kr.shuffle(chance, deck, nc)
        for p in range(2):
            for i in range(hs):
                g[L.O_HANDS + p * L.MAX_CARDS + i] = deck[p * hs + i]
            g[L.HAND_LEN + p] = hs
        for i in range(nc - 2 * hs):
            deck[i] = deck[2 * hs + i]
        g[L.PILE_LEN] = nc - 2 * hs
        g[L.NPILES] = 1
        g[L.PHASE] = L.MAIN
        _start_turn(g)
        return
    g[L.NPILES] = 2 if g[L.PERSONAL] else 1
    if cfg[L.C_MARK_RANDOM]:
        _assign_marks(g, np.int64(kr.bounded(chance, 2)))
    else:
        g[L.PHASE] = L.MARK


@compiled()
def _assign_marks(g, starfish_seat):
    """S56: that seat takes every starfish card, the other every shell card (deck order)."""
    g[L.STARSEAT] = starfish_seat
    for p in range(2):
        mark = 0 if p == starfish_seat else 1
        k = 0
        for c in range(g[L.NCARDS]):
            if g[L.O_MARK + c] == mark:
                g[L.O_OWN + p * L.MAX_CARDS + k] = c
                k += 1
        g[L.OWN_LEN + p] = k
    g[L.PHASE] = L.PICK


@compiled()
def _finish_picks(g, chance):
    """S57, S58: the unpicked cards shuffled into each seat's own pile (or one shared pile)."""
    if g[L.PERSONAL]:
        for p in range(2):
            k = g[L.OWN_LEN + p]
            pile = g[L.O_PILES + p * L.MAX_CARDS:L.O_PILES + p * L.MAX_CARDS + k]
            for i in range(k):
                pile[i] = g[L.O_OWN + p * L.MAX_CARDS + i]
            kr.shuffle(chance, pile, k)
            g[L.PILE_LEN + p] = k
    else:
        k0, k1 = g[L.OWN_LEN], g[L.OWN_LEN + 1]
        pile = g[L.O_PILES:L.O_PILES + k0 + k1]
        for i in range(k0):
            pile[i] = g[L.O_OWN + i]
        for i in range(k1):
            pile[k0 + i] = g[L.O_OWN + L.MAX_CARDS + i]
        kr.shuffle(chance, pile, k0 + k1)
        g[L.PILE_LEN] = k0 + k1
    g[L.OWN_LEN] = 0
    g[L.OWN_LEN + 1] = 0
    g[L.PHASE] = L.MAIN
    _start_turn(g)


# ---- turns ------------------------------------------------------------------------------------
@compiled()
def can_act(g, p):
    """S18 (moves.can_act): p can play a card or use the octopus."""
    any_open = False
    for r in range(g[L.ROW_LEN]):
        s = g[L.O_ROW + r]
        for a in range(2):
            if (g[L.ANY_SIDE] or a == p) and g[L.O_SIDE_LEN + 2 * s + a] < g[L.MAXC]:
                any_open = True
    if g[L.HAND_LEN + p] > 0 and any_open:
        return True
    if not octopus_ready(g, p):
        return False
    mine = g[L.OCTO_AT + p] if g[L.REUSE] == 1 else -2
    for r in range(g[L.ROW_LEN]):
        s1 = g[L.O_ROW + r]
        for a1 in range(2):
            free = False
            for i in range(g[L.O_SIDE_LEN + 2 * s1 + a1]):
                c = g[L.O_SIDES + (2 * s1 + a1) * L.MAX_SIDE + i]
                if g[L.O_OCTO_ON + c] < 0 or c == mine:
                    free = True
            if not free:
                continue
            for r2 in range(g[L.ROW_LEN]):
                s2 = g[L.O_ROW + r2]
                for a2 in range(2):
                    if (g[L.ANY_SIDE] or a2 == p) and g[L.O_SIDE_LEN + 2 * s2 + a2] < g[L.MAXC] \
                            and (s2 != s1 or a2 != a1):
                        return True
    return False


@compiled()
def _record_points(g, closing):
    """The running score (simkit/engine/running.py): both seats' points, as a point after a
    round of turns or (`closing`) as the final one."""
    at = running.slot(g, L.O_RUNNING, 2)
    g[at] = g[L.SCORE]
    g[at + 1] = g[L.SCORE + 1]
    if closing:
        running.closed(g, L.O_RUNNING)
    else:
        running.pushed(g, L.O_RUNNING, 2, 2)


@compiled()
def _end(g, reason):
    if reason != L.R_CAP and reason != L.R_STUCK:      # ended during a turn: that turn counts
        if running.turn_end(g, L.O_RUNNING, (g[L.TURN] + 1) % 2 == 0):
            _record_points(g, False)
    g[L.PHASE] = L.OVER
    g[L.REASON] = reason


@compiled()
def _start_turn(g):
    g[L.RUM_TURN] = 0
    if g[L.TURN] >= g[L.MAX_TURNS]:
        _end(g, L.R_CAP)
        return
    if not g[L.PASS_STUCK] and not can_act(g, g[L.CUR]):
        _end(g, L.R_STUCK)


@compiled()
def _next_turn(g):
    g[L.CUR] = 1 - g[L.CUR]
    g[L.TURN] += 1
    if running.turn_end(g, L.O_RUNNING, g[L.TURN] % 2 == 0):
        _record_points(g, False)
    g[L.PHASE] = L.MAIN
    _start_turn(g)


@compiled()
def _end_action(g, p):
    """After the action: rum after it (rum.timing=either, S17), or the next turn."""
    if g[L.RUM_EITHER] and g[L.RUM_LEFT + p] > 0 and not g[L.RUM_TURN]:
        for r in range(g[L.ROW_LEN]):
            if g[L.O_MUG_LEN + g[L.O_ROW + r]] < g[L.RUM_PER_SHIP]:
                g[L.PHASE] = L.RUM
                return
    _next_turn(g)


# ---- resolution -------------------------------------------------------------------------------
@compiled()
def _put(g, c, s, a):
    at = 2 * s + a
    _side_changed(g, at)
    g[L.O_SIDES + at * L.MAX_SIDE + g[L.O_SIDE_LEN + at]] = c
    g[L.O_SIDE_LEN + at] += 1
    g[L.O_TOT + at] += g[L.O_VALUE + c]
    if g[L.O_SIDE_LEN + at] >= g[L.MAXC]:           # S20: now full
        g[L.PLACES_OF] = 0


@compiled(inline=True)
def _remove_at(g, base, length, c):
    """list.remove(c) on g[base:base + length]; returns the new length."""
    j = 0
    while g[base + j] != c:
        j += 1
    for i in range(j, length - 1):
        g[base + i] = g[base + i + 1]
    return length - 1


@compiled(inline=True)
def _ship_result(g, s, actor):
    """rules.ship_result: -2 (not scored), or the winner (-1: a tie when full, S34)."""
    thr = threshold(g, s)
    t0, t1 = g[L.O_TOT + 2 * s], g[L.O_TOT + 2 * s + 1]
    if g[L.INCLUSIVE]:
        r0, r1 = t0 >= thr, t1 >= thr
    else:
        r0, r1 = t0 > thr, t1 > thr
    if r0 or r1:
        if r0 and r1:
            return 0 if t0 > t1 else (1 if t1 > t0 else actor)
        return 0 if r0 else 1
    maxc = g[L.MAXC]
    if g[L.O_SIDE_LEN + 2 * s] >= maxc and g[L.O_SIDE_LEN + 2 * s + 1] >= maxc:
        if t0 == t1:
            return -1
        return 0 if t0 > t1 else 1
    return -2


@compiled(inline=True)
def _check_ship(g, s, actor):
    """S31-S38, S53: score ship s if a side reached its defense or both sides are full (the
    test inlined in the resolution, the scoring a call)."""
    winner = _ship_result(g, s, actor)
    if winner != -2:
        _score_ship(g, s, winner)


@compiled()
def _score_ship(g, s, winner):
    """S33-S38, S53-S54: ship s scored (`winner` -1: a tie when full, S34)."""
    g[L.PLACES_OF] = 0
    for a in range(2):                          # S36, S37
        at = 2 * s + a
        _side_changed(g, at)
        for i in range(g[L.O_SIDE_LEN + at]):
            c = g[L.O_SIDES + at * L.MAX_SIDE + i]
            o = g[L.O_OCTO_ON + c]
            if o >= 0:
                g[L.O_OCTO_ON + c] = -1
                g[L.OCTO_AT + o] = -1
        g[L.O_SIDE_LEN + at] = 0
        g[L.O_TOT + at] = 0
    if winner < 0 and g[L.TIE_STAY]:
        return
    if g[L.RUM_RETURNED]:                       # S38
        for i in range(g[L.O_MUG_LEN + s]):
            g[L.RUM_LEFT + g[L.O_MUGS + s * L.MAX_MUGS + i]] += 1
    g[L.O_MUG_LEN + s] = 0
    g[L.ROW_LEN] = _remove_at(g, L.O_ROW, g[L.ROW_LEN], s)
    g[L.DS_VALID] = 0
    if winner < 0:
        g[L.SHIPS_OUT] += 1
    else:                                       # S35, S54
        g[L.CAPTURED + winner] += 1
        points = g[L.SHIP_POINTS]
        for i in range(g[L.O_CREW_LEN + s]):
            points += g[L.O_CREW_PTS + g[L.O_CREW + s * L.MAX_CREW + i]]
        g[L.SCORE + winner] += points
    g[L.O_CREW_LEN + s] = 0
    goal = g[L.GOAL]
    if winner >= 0 and goal and g[L.SCORE + winner] >= goal:
        _end(g, L.R_POINTS)
    elif g[L.ROW_LEN] == 0:
        _end(g, L.R_ALL)


@compiled()
def _move_crew(g, s, d):
    """S23, S26-S28: the first token on s moves in direction d (1 left, 2 right)."""
    target = move_target(g, s, -1 if d == 1 else 1)
    base = L.O_CREW + s * L.MAX_CREW
    token = g[base]
    for i in range(g[L.O_CREW_LEN + s] - 1):
        g[base + i] = g[base + i + 1]
    g[L.O_CREW_LEN + s] -= 1
    g[L.O_CREW + target * L.MAX_CREW + g[L.O_CREW_LEN + target]] = token
    g[L.O_CREW_LEN + target] += 1
    g[L.DS_VALID] = 0
    g[L.PLACES_OF] = 0


@compiled()
def _crew_waits(g, stage):
    """S23-S25 (state._crew_waits): the crew on the pending ship moves; True when the side's
    owner must choose the direction first (the resolution waits at `stage`)."""
    s = g[L.PEND_S]
    if g[L.PHASE] == L.OVER or not in_row(g, s):
        return False
    ds = dirs(g, s)
    if ds:
        if g[L.PEND_D] == 0:
            chooser = g[L.PEND_P] if not g[L.CHOOSER_OWNER] else g[L.PEND_SIDE]
            g[L.PEND_STAGE] = stage
            g[L.PEND_CHOOSER] = chooser
            g[L.PEND_DIRS] = ds
            g[L.PHASE] = L.DIR
            return True
        _move_crew(g, s, g[L.PEND_D])
    return False


@compiled()
def _resolve(g, chance):
    """S21 / S42 (state._resolve) on the pending placement: crew, check, origin check (S45),
    draw (S22, S41), then the end of the action."""
    p, s, card, origin, is_play = g[L.PEND_P], g[L.PEND_S], g[L.PEND_CARD], g[L.PEND_ORIGIN], \
        g[L.PEND_PLAY]
    placement = is_play or g[L.AS_PLACEMENT]
    before = g[L.BEFORE]
    sym = g[L.O_SYM + card]
    if g[L.PEND_STAGE] == 0:
        if placement and before and sym and _crew_waits(g, 0):
            return
        if placement and g[L.PHASE] != L.OVER and in_row(g, s):
            _check_ship(g, s, p)
    if placement and not before and sym and _crew_waits(g, 2):
        return
    if placement and origin >= 0 and origin != s and g[L.CHECK_ORIGIN] and g[L.PHASE] != L.OVER \
            and in_row(g, origin):
        _check_ship(g, origin, p)
    if g[L.PHASE] != L.OVER and (is_play or g[L.OCTO_DRAW]):
        pile = 0 if g[L.NPILES] == 1 else p
        k = g[L.PILE_LEN + pile]
        if k > 0:
            c = g[L.O_PILES + pile * L.MAX_CARDS + k - 1]
            g[L.PILE_LEN + pile] = k - 1
            g[L.O_HANDS + p * L.MAX_CARDS + g[L.HAND_LEN + p]] = c
            g[L.HAND_LEN + p] += 1
    if g[L.PHASE] != L.OVER:
        _end_action(g, p)


@compiled()
def _place(g, chance, p, kind, c, s, a, d, origin):
    """Set the pending placement and resolve it (a play or an octopus move)."""
    g[L.PEND_P], g[L.PEND_S], g[L.PEND_SIDE], g[L.PEND_CARD] = p, s, a, c
    g[L.PEND_ORIGIN], g[L.PEND_PLAY], g[L.PEND_D], g[L.PEND_STAGE] = origin, kind == L.A_PLAY, d, 0
    _resolve(g, chance)


@compiled()
def apply(g, chance, p, act):
    """Apply the encoded action `act` of seat p (the phase's handler of `ShipsideState.apply`;
    the action comes from the legal list, so it is legal)."""
    kind = a_kind(act)
    if kind == L.A_PLAY:
        c = a_card(act)
        g[L.PASSES] = 0
        g[L.HAND_LEN + p] = _remove_at(g, L.O_HANDS + p * L.MAX_CARDS, g[L.HAND_LEN + p], c)
        s, a = a_ship(act), a_side(act)
        _put(g, c, s, a)
        _place(g, chance, p, kind, c, s, a, a_dir(act), -1)
    elif kind == L.A_OCTOPUS:
        c = a_card(act)
        g[L.PASSES] = 0
        old = g[L.OCTO_AT + p]
        if old >= 0:
            g[L.O_OCTO_ON + old] = -1
            _sides_changed(g)
        s1, a1 = a_src_ship(act), a_src_side(act)
        at = 2 * s1 + a1
        _side_changed(g, at)
        if g[L.O_SIDE_LEN + at] >= g[L.MAXC]:      # a full side opens: list the places again
            g[L.PLACES_OF] = 0
        g[L.O_SIDE_LEN + at] = _remove_at(g, L.O_SIDES + at * L.MAX_SIDE, g[L.O_SIDE_LEN + at], c)
        g[L.O_TOT + at] -= g[L.O_VALUE + c]
        s, a = a_ship(act), a_side(act)
        _put(g, c, s, a)
        g[L.O_OCTO_ON + c] = p
        g[L.OCTO_AT + p] = c
        g[L.OCTO_SPENT + p] = 1
        g[L.N_OCTO] += 1
        _place(g, chance, p, kind, c, s, a, a_dir(act), s1)
    elif kind == L.A_RUM:
        s = a_ship(act)
        g[L.RUM_LEFT + p] -= 1
        g[L.RUM_TURN] = 1
        g[L.O_MUGS + s * L.MAX_MUGS + g[L.O_MUG_LEN + s]] = p
        g[L.O_MUG_LEN + s] += 1
        g[L.N_RUM] += 1
        if g[L.PHASE] == L.RUM:
            _next_turn(g)
    elif kind == L.A_END:
        _next_turn(g)
    elif kind == L.A_PASS:
        g[L.PASSES] += 1
        if g[L.PASSES] >= 2:
            _end(g, L.R_STALLED)
        else:
            _end_action(g, p)
    elif kind == L.A_DIR:
        g[L.PEND_D] = a_dir(act)
        g[L.PHASE] = L.MAIN
        _resolve(g, chance)
    elif kind == L.A_MARK:
        first = g[L.FIRST]
        _assign_marks(g, first if a_side(act) == 0 else 1 - first)


@compiled()
def _pick(g, chance, c0, c1):
    """S57: both seats take the picked card of their own deck into their hand."""
    for p in range(2):
        c = c0 if p == 0 else c1
        g[L.OWN_LEN + p] = _remove_at(g, L.O_OWN + p * L.MAX_CARDS, g[L.OWN_LEN + p], c)
        g[L.O_HANDS + p * L.MAX_CARDS + g[L.HAND_LEN + p]] = c
        g[L.HAND_LEN + p] += 1
    if g[L.HAND_LEN] >= g[L.HAND_SIZE]:
        _finish_picks(g, chance)


# ---- one decision step ------------------------------------------------------------------------


@compiled(inline=True)
def _ask(g, gens, slot_of, fns, params, trace, ask, seat):
    """The seat's bot answers; returns the encoded action, or -1 for an answer outside the list."""
    count = prepare(ask, seat, g)
    k = slot_of[seat]
    pos = fns[k](ask, seat, g, params[k], gens[1 + seat])
    record_answer(trace, pos)
    if pos < 0 or pos >= count:
        return -1
    return action_at(ask, seat, g, pos)


@compiled(inline=True)
def step(g, gens, slot_of, fns, params, trace):
    """One decision step (`apply` with its decisions). Returns -1, or the seat whose bot
    answered outside its legal list."""
    phase = g[L.PHASE]
    if phase == L.PICK:
        c0 = _ask(g, gens, slot_of, fns, params, trace, L.ASK_PICK, 0)
        if c0 < 0:
            return 0
        c0 = a_card(c0)
        # the second seat's list is its own deck's (the first pick is applied after both)
        c1 = _ask(g, gens, slot_of, fns, params, trace, L.ASK_PICK, 1)
        if c1 < 0:
            return 1
        _pick(g, gens[0], c0, a_card(c1))
        return -1
    seat = g[L.PEND_CHOOSER] if phase == L.DIR else g[L.CUR]
    act = _ask(g, gens, slot_of, fns, params, trace, phase, seat)
    if act < 0:
        return seat
    apply(g, gens[0], seat, act)
    return -1


# ---- whole games ------------------------------------------------------------------------------
@compiled(inline=True)
def play_on(g, gens, slot_of, fns, params, max_steps, trace):
    """Steps until the game is over or `max_steps` steps (-1: no limit); returns (steps, bad
    seat or -1)."""
    steps = 0
    while g[L.PHASE] != L.OVER and steps != max_steps:
        bad = step(g, gens, slot_of, fns, params, trace)
        if bad >= 0:
            return steps, bad
        steps += 1
    return steps, -1




@compiled()
def _results(g, ranks, wins):
    """S55 (rules.final_result): win shares on the scores (ties: ships captured, then a draw)."""
    a, b = g[L.SCORE], g[L.SCORE + 1]
    if a == b and g[L.TIEBREAK]:
        a, b = g[L.CAPTURED], g[L.CAPTURED + 1]
    if a == b:
        wins[0], wins[1] = 0.0, 0.0
        ranks[0], ranks[1] = 1, 1
    elif a > b:
        wins[0], wins[1] = 1.0, 0.0
        ranks[0], ranks[1] = 1, 2
    else:
        wins[0], wins[1] = 0.0, 1.0
        ranks[0], ranks[1] = 2, 1


@compiled()
def play_games(g, gens, cfg, index, words, chance_words, incs, fns, params, slots, rotation, scores,
               ranks, wins, extras, steps, failed, run_len, run_flat, run_at, trace):
    """Games `index` of a run, one after another. `words` (G, 8): each game's stream words
    (seats 1..2, seating 3); `chance_words` (G, 2): its deal's chance stream; `incs` (4, 2): each
    stream's increment; `g` (new_layout) and `gens` ((4, ROW_WORDS) uint64) scratch. Fills the
    per-game outputs (`extras`: turns, start seat, end reason, ships scored, ships removed,
    octopus moves, rum mugs). Returns (games played, bad seat or -1): it stops early when a bot
    answers outside its legal list. `trace`: see `step`. `run_len` (G,), `run_flat`, `run_at` (1,):
    each game's running score (simkit/engine/running.py; `kernel_running.copy_out`)."""
    for k in range(index.size):
        kr.game_rows(gens, 4, k, words, chance_words, incs)
        rotation[k] = seat_slots(2, cfg[L.C_SEATING], cfg[L.C_DUPLICATE], index[k], gens[3], slots[k])
        new_game(g, cfg, gens[0])
        done, bad = play_on(g, gens, slots[k], fns, params, cfg[L.C_STEP_CAP], trace)
        if bad != -1:
            return k, bad
        steps[k] = done
        if g[L.PHASE] != L.OVER:                # the step cap: no result (as the scalar engine)
            failed[k] = True
            continue
        scores[k, 0], scores[k, 1] = g[L.SCORE], g[L.SCORE + 1]
        _results(g, ranks[k], wins[k])
        e = extras[k]
        e[0], e[1], e[2] = g[L.TURN], g[L.FIRST], g[L.REASON]
        e[3], e[4] = g[L.NSHIPS] - g[L.ROW_LEN], g[L.SHIPS_OUT]
        e[5], e[6] = g[L.N_OCTO], g[L.N_RUM]
        if running.wants_close(g, L.O_RUNNING):
            _record_points(g, True)
        running.copy_out(g, L.O_RUNNING, 2, 2, run_len[k:k + 1], run_flat, run_at)
    return index.size, -1


# ---- rollouts from a scalar position (kernel_rollout.py) --------------------------------------
@compiled()
def _cards_in_play(g):
    """Cards in hands, piles, the variant's own decks and beside ships: all but those out (S36)."""
    count = g[L.HAND_LEN] + g[L.HAND_LEN + 1] + g[L.PILE_LEN] + g[L.PILE_LEN + 1] + g[L.OWN_LEN] \
        + g[L.OWN_LEN + 1]
    for i in range(2 * L.MAX_SHIPS):
        count += g[L.O_SIDE_LEN + i]
    return count


@compiled()
def play_to_scoring(g, gens, slot_of, fns, params, max_steps, trace, before):
    """`play_on`, stopping also after a step that scored a ship (S31-S38: cards left the game or
    a ship left the row), with g[:before.size] as it was before that step in `before` (so the
    caller can tell which ships went where). Returns (steps, bad seat or -1, scored)."""
    steps = 0
    size = before.size
    while g[L.PHASE] != L.OVER and steps != max_steps:
        for i in range(size):
            before[i] = g[i]
        cards = _cards_in_play(g)
        bad = step(g, gens, slot_of, fns, params, trace)
        if bad >= 0:
            return steps, bad, False
        steps += 1
        if _cards_in_play(g) < cards or g[L.ROW_LEN] < before[L.ROW_LEN]:
            return steps, -1, True
    return steps, -1, False
