"""Listing what a player may do now (S16-S20, S23-S29, S40-S47): the state's legal actions.

Functions take the state as `st`; ShipsideState binds them as methods.

Listing is the hot spot of random play, so its pieces are memoised per config (`_Memo`): the
crew's possible moves per (ship row, crew count per ship), and the Play/Octopus actions per list
of places they can go to. A listing then joins memoised tuples; the actions are shared values.
"""

from __future__ import annotations

from simkit.games.shipside import rules
from simkit.games.shipside.actions import PASS, Octopus, Play, Rum

_new = tuple.__new__
_DIRS = {(False, False): (), (True, False): ("L",), (False, True): ("R",), (True, True): ("L", "R")}
#: entries a memo table may hold before it is emptied (bounds memory over long runs)
_MEMO_CAP = 20_000


class _Places:
    """One list of places (ship defense, side, crew direction or None) and the actions that put
    a card of some kind there, memoised."""

    __slots__ = ("places", "plays", "octopi")

    def __init__(self, places: tuple):
        self.places = places
        self.plays: dict = {}
        self.octopi: dict = {}

    def play(self, kind: tuple[int, bool]) -> tuple:
        """S19-S25: play a card of `kind` to each place."""
        acts = self.plays.get(kind)
        if acts is None:
            value, sym = kind
            acts = self.plays[kind] = tuple([_new(Play, (value, sym, d, a, dr, "play"))
                                             for d, a, dr in self.places])
        return acts

    def octopus(self, kind: tuple[int, bool], d1: int, a1: int) -> tuple:
        """S40-S46: move a card of `kind` from ship d1, side a1 to each other place."""
        key = (kind, d1, a1)
        acts = self.octopi.get(key)
        if acts is None:
            value, sym = kind
            acts = self.octopi[key] = tuple([_new(Octopus, (value, sym, d1, a1, d, a, dr, "octopus"))
                                             for d, a, dr in self.places if d != d1 or a != a1])
        return acts


class _Memo:
    """Memo tables of one config (every key below determines its value under that config)."""

    def __init__(self):
        self.crew: dict = {}     # (row, crew counts) -> (frozen, {ship with crew: directions})
        self.plain: dict = {}    # open places (2*ship + side) -> _Places without directions
        self.moving: dict = {}   # (open places, directions per place) -> _Places

    @staticmethod
    def bounded(table: dict) -> dict:
        if len(table) > _MEMO_CAP:
            table.clear()
        return table


_MEMOS: dict[int, tuple[object, _Memo]] = {}


def _memo(st) -> _Memo:
    hit = _MEMOS.get(id(st.config))
    if hit is not None and hit[0] is st.config:
        return hit[1]
    if len(_MEMOS) > 256:
        _MEMOS.clear()
    memo = _Memo()
    _MEMOS[id(st.config)] = (st.config, memo)
    return memo


def crew_moves(st) -> tuple[bool, dict[int, tuple[str, ...]]]:
    """S23-S29 for the whole row: (frozen, ship -> directions its crew can move) for every ship
    in play carrying crew, memoised by the row and the number of tokens on each ship."""
    row = st.row
    crew = st.crew
    key = (tuple(row), tuple([len(crew[s]) for s in row]))
    table = _memo(st).crew
    hit = table.get(key)
    if hit is None:
        hit = _Memo.bounded(table)[key] = (frozen(st), {s: dirs(st, s, False, False) for s in row
                                                         if crew[s]})
    return hit


def rum_ships(st) -> list[int]:
    """S48, S52: ships still in play that can take one more rum mug."""
    cap = st.config.rum.max_per_ship  # S52
    return [s for s in st.row if len(st.mugs[s]) < cap]


def dirs(st, ship: int, check_frozen: bool = True, memo: bool = True) -> tuple[str, ...]:
    """S23-S29: directions in which the crew on `ship` can move (() = nobody moves)."""
    crew = st.crew
    if not crew[ship]:
        return ()  # S24
    if memo:
        still, by_ship = crew_moves(st)
        return () if check_frozen and still else by_ship[ship]
    m = st.config.movement
    row = st.row
    if check_frozen and st._frozen():  # S29
        return ()
    mx = st.config.crew.max_per_ship
    left = rules.move_target(row, crew, ship, -1, m.wrap_around, m.skip_occupied, mx) >= 0
    right = rules.move_target(row, crew, ship, 1, m.wrap_around, m.skip_occupied, mx) >= 0
    return _DIRS[left, right]


def frozen(st) -> bool:
    """S29: every ship left carries crew, so nobody moves (see also `crew_moves`)."""
    crew = st.crew
    return rules.frozen(st.row, sum([len(crew[s]) for s in st.row]),
                        st.config.movement.freeze_when_full)


def _plain_places(st, open_ids: tuple[int, ...]) -> _Places:
    """S19, S20: the open places (2*ship + side, in row order), no crew direction."""
    table = _memo(st).plain
    places = table.get(open_ids)
    if places is None:
        defense = st.T.defense
        places = _Memo.bounded(table)[open_ids] = _Places(
            tuple([(defense[i >> 1], i & 1, None) for i in open_ids]))
    return places


def _symbol_places(st, p: int, open_ids: tuple[int, ...]) -> _Places:
    """S23-S25: the open places, each once per direction its crew may move when `p` plays a
    symbol card there (once with None where nobody moves or the side's owner chooses)."""
    still, by_ship = crew_moves(st)
    player_chooses = st.config.movement.chooser == "player"
    crew = st.crew
    turns = tuple([by_ship[i >> 1] if crew[i >> 1] and not still and (player_chooses or i & 1 == p)
                   else () for i in open_ids])
    key = (open_ids, turns)
    table = _memo(st).moving
    places = table.get(key)
    if places is None:
        defense = st.T.defense
        opts: list = []
        for i, ds in zip(open_ids, turns):
            if ds:
                opts.extend((defense[i >> 1], i & 1, d) for d in ds)
            else:
                opts.append((defense[i >> 1], i & 1, None))
        places = _Memo.bounded(table)[key] = _Places(tuple(opts))
    return places


def main_actions(st, p: int) -> list:
    cfg = st.config
    T = st.T
    maxc = cfg.rules.max_cards_per_side
    sides_allowed = (0, 1) if cfg.rules.play_on_any_side else (p,)
    sides = st.sides
    kind = T.kind
    defense = T.defense
    out: list = []
    open_ids = tuple([2 * s + a for s in st.row for a in sides_allowed if len(sides[s][a]) < maxc])
    plain = _plain_places(st, open_ids)
    moving = None           # places with the crew directions a symbol card offers (S23-S25)
    for k in dict.fromkeys([kind[c] for c in st.hands[p]]):  # S19, S20
        if k[1]:
            if moving is None:
                moving = _symbol_places(st, p, open_ids)
            out += moving.play(k)
        else:
            out += plain.play(k)
    if st._octopus_ready(p):  # S40-S46
        as_place = cfg.octopus.as_placement
        octo_on = st.octo_on
        mine = st.octo_at[p] if cfg.octopus.reuse == "free" else -2   # free: own card unprotected
        for s1 in st.row:
            d1 = defense[s1]
            for a1 in (0, 1):
                cards = sides[s1][a1]
                if not cards:
                    continue
                for k in dict.fromkeys([kind[c] for c in cards if octo_on[c] < 0 or c == mine]):
                    if k[1] and as_place:
                        if moving is None:
                            moving = _symbol_places(st, p, open_ids)
                        out += moving.octopus(k, d1, a1)
                    else:
                        out += plain.octopus(k, d1, a1)
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
