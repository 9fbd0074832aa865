"""Listing what a player may do now (S16-S20, S23-S29, S40-S47): the state's legal actions.

Functions take the state as `st`; ShipsideState binds them as methods.
"""

from __future__ import annotations

from simkit.games.shipside import rules
from simkit.games.shipside.actions import PASS, Octopus, Play, Rum

_new = tuple.__new__
_DIRS = {(False, False): (), (True, False): ("L",), (False, True): ("R",), (True, True): ("L", "R")}


def rum_ships(st) -> list[int]:
    """S48, S52: ships still in play that can take one more rum mug."""
    cap = st.config.rum.max_per_ship  # S52
    return [s for s in st.row if len(st.mugs[s]) < cap]


def dirs(st, ship: int, check_frozen: bool = True) -> tuple[str, ...]:
    """S23-S29: directions in which the crew on `ship` can move (() = nobody moves)."""
    crew = st.crew
    if not crew[ship]:
        return ()  # S24
    m = st.config.movement
    row = st.row
    if check_frozen and st._frozen():  # S29
        return ()
    mx = st.config.crew.max_per_ship
    left = rules.move_target(row, crew, ship, -1, m.wrap_around, m.skip_occupied, mx) >= 0
    right = rules.move_target(row, crew, ship, 1, m.wrap_around, m.skip_occupied, mx) >= 0
    return _DIRS[left, right]


def frozen(st) -> bool:
    """S29: every ship left carries crew, so nobody moves."""
    crew = st.crew
    return rules.frozen(st.row, sum([len(crew[s]) for s in st.row]),
                        st.config.movement.freeze_when_full)


def main_actions(st, p: int) -> list:
    cfg = st.config
    T = st.T
    maxc = cfg.rules.max_cards_per_side
    sides_allowed = (0, 1) if cfg.rules.play_on_any_side else (p,)
    player_chooses = cfg.movement.chooser == "player"
    sides = st.sides
    defense = T.defense
    crew = st.crew
    new = _new
    out: list = []
    open_places = [(s, a) for s in st.row for a in sides_allowed if len(sides[s][a]) < maxc]
    plain = [(defense[s], a, None) for s, a in open_places]
    moving = None           # places with the crew directions a symbol card offers (S23-S25)

    def symbol_places():
        opts = []
        cache: dict[int, tuple] = {}
        still = st._frozen()
        for s, a in open_places:
            if crew[s] and not still and (player_chooses or a == p):
                dirs = cache.get(s)
                if dirs is None:
                    dirs = cache[s] = st._dirs(s, False)
            else:
                dirs = ()
            if dirs:
                opts.extend((defense[s], a, d) for d in dirs)
            else:
                opts.append((defense[s], a, None))
        return opts

    for value, sym in dict.fromkeys(T.kind[c] for c in st.hands[p]):  # S19, S20
        if sym:
            if moving is None:
                moving = symbol_places()
            out += [new(Play, (value, True, d, a, dr, "play")) for d, a, dr in moving]
        else:
            out += [new(Play, (value, False, d, a, None, "play")) for d, a, _ in plain]
    if st._octopus_ready(p):  # S40-S46
        as_place = cfg.octopus.as_placement
        octo_on = st.octo_on
        mine = st.octo_at[p] if cfg.octopus.reuse == "free" else -2   # free: own card unprotected
        kind = T.kind
        for s1 in st.row:
            d1 = defense[s1]
            for a1 in (0, 1):
                cards = sides[s1][a1]
                if not cards:
                    continue
                for value, sym in dict.fromkeys(kind[c] for c in cards if octo_on[c] < 0 or c == mine):
                    if sym and as_place:
                        if moving is None:
                            moving = symbol_places()
                        opts = moving
                    else:
                        opts = plain
                    out += [new(Octopus, (value, sym, d1, a1, d, a, dr, "octopus"))
                            for d, a, dr in opts if d != d1 or a != a1]
    if not out:
        out.append(PASS)  # S18
    if st.rum_left[p] > 0 and not st.rum_turn:  # S17, S47
        out.extend(Rum(defense[s], "before") for s in st._rum_ships())
    return out


def octopus_ready(st, p: int) -> bool:
    """S44: the octopus is in the supply (reuse=on_return), never used (once), or always (free)."""
    reuse = st.config.octopus.reuse
    if reuse == "free":
        return True
    if reuse == "once":
        return not st.octo_spent[p]
    return st.octo_at[p] < 0


def can_act(st, p: int) -> bool:
    """S18: whether `p` can play a card or use the octopus (else p must pass)."""
    maxc = st.config.rules.max_cards_per_side
    sides_allowed = (0, 1) if st.config.rules.play_on_any_side else (p,)
    open_places = [(s, a) for s in st.row for a in sides_allowed if len(st.sides[s][a]) < maxc]
    if st.hands[p] and open_places:
        return True
    if not st._octopus_ready(p):
        return False
    for s1 in st.row:
        for a1 in (0, 1):
            if any(st.octo_on[c] < 0 or (c == st.octo_at[p] and st.config.octopus.reuse == "free")
                   for c in st.sides[s1][a1]):
                if any((s2, a2) != (s1, a1) for s2, a2 in open_places):
                    return True
    return False
