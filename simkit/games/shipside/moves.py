"""Listing what a player may do now (S16-S20, S23-S29, S40-S47): the state's legal actions.

Functions take the state as `st`; ShipsideState binds them as methods.

Listing is the hot spot of random play, so its pieces are memoised per config (`_Memo`): every
Play and Octopus action exists once, in rows indexed by place id (see `_Memo`), and a listing
gathers the open places of each row with one `itemgetter` call; the crew's possible moves are
memoised per (ship row, crew count per ship).
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from simkit.games.shipside import rules
from simkit.games.shipside.actions import PASS, Octopus, Play, Rum

_new = tuple.__new__
_DIRS = {(False, False): (), (True, False): ("L",), (False, True): ("R",), (True, True): ("L", "R")}
#: place id offset of a crew direction (0: nobody moves or the side's owner chooses)
_DIR_OF = (None, "L", "R")
_DIR_OFFSETS = {("L",): (1,), ("R",): (2,), ("L", "R"): (1, 2)}
#: entries a memo table may hold before it is emptied (bounds memory over long runs)
_MEMO_CAP = 20_000


def _getter(ids: list[int]) -> Callable[[tuple], tuple]:
    """row -> the tuple of row[i] for i in ids (itemgetter returns a bare item for one id)."""
    if len(ids) > 1:
        return itemgetter(*ids)
    if ids:
        i = ids[0]
        return lambda row: (row[i],)
    return lambda row: ()


class _Memo:
    """Memo tables of one config. A place is a ship, a side and a crew direction: its id is
    3 * (2 * ship + side) + _DIR_CODE[direction]; a row holds one action per place id."""

    def __init__(self, defense: tuple[int, ...]):
        self.defense = defense
        self.places = [(defense[i // 6], i // 3 & 1, _DIR_OF[i % 3]) for i in range(6 * len(defense))]
        self.plays: dict = {}    # card kind -> row of Play actions
        self.octopi: dict = {}   # (card kind, 2 * source ship + side) -> row of Octopus actions
        self.getters: dict = {}  # (place ids, source or -1) -> getter of those places but the source
        self.crew: dict = {}     # (row, crew counts) -> CrewMoves
        self.rum = {when: tuple(Rum(d, when) for d in defense) for when in ("before", "after")}

    def play_row(self, kind: tuple[int, bool]) -> tuple:
        """S19-S25: play a card of `kind` to each place."""
        row = self.plays.get(kind)
        if row is None:
            value, sym = kind
            row = self.plays[kind] = tuple([_new(Play, (value, sym, d, a, dr, "play"))
                                            for d, a, dr in self.places])
        return row

    def octopus_row(self, kind: tuple[int, bool], source: int) -> tuple:
        """S40-S46: move a card of `kind` from `source` (2 * ship + side) to each place."""
        key = (kind, source)
        row = self.octopi.get(key)
        if row is None:
            value, sym = kind
            d1, a1 = self.defense[source >> 1], source & 1
            row = self.octopi[key] = tuple([_new(Octopus, (value, sym, d1, a1, d, a, dr, "octopus"))
                                            for d, a, dr in self.places])
        return row

    def gather(self, ids: tuple[int, ...], source: int = -1) -> Callable[[tuple], tuple]:
        """The getter of the places `ids` of a row, leaving out those on `source` (S46)."""
        key = (ids, source)
        get = self.getters.get(key)
        if get is None:
            get = _bounded(self.getters)[key] = _getter([i for i in ids if i // 3 != source])
        return get


def _bounded(table: dict) -> dict:
    if len(table) > _MEMO_CAP:
        table.clear()
    return table


class CrewMoves:
    """S23-S29 for one ship row and crew count per ship: whether the crew is frozen, the
    directions the crew of each ship in play can move, and the symbol places memoised on them."""

    __slots__ = ("frozen", "by_ship", "symbol_places")

    def __init__(self, st):
        self.frozen = frozen(st)
        self.by_ship = {s: dirs(st, s, False, False) for s in st.row if st.crew[s]}
        self.symbol_places: dict = {}   # (open place ids, seat) -> (place ids with directions, getter)


_MEMOS: dict[int, tuple[object, _Memo]] = {}
_LAST: list = [None, None]              # the last config asked for and its memo


def _memo(st) -> _Memo:
    config = st.config
    if config is _LAST[0]:
        return _LAST[1]
    hit = _MEMOS.get(id(config))
    if hit is None or hit[0] is not config:
        if len(_MEMOS) > 256:
            _MEMOS.clear()
        hit = _MEMOS[id(config)] = (config, _Memo(st.T.defense))
    _LAST[:] = hit
    return hit[1]


def crew_moves(st) -> CrewMoves:
    """The crew's possible moves, kept on the state until a token moves or a ship is scored."""
    crew = st._crew
    if crew is None:
        crew = st._crew = crew_lookup(st)
    return crew


def crew_lookup(st) -> CrewMoves:
    """The crew's possible moves, memoised by the row and the number of tokens on each ship."""
    row = st.row
    crew = st.crew
    key = (tuple(row), tuple([len(crew[s]) for s in row]))
    table = _memo(st).crew
    hit = table.get(key)
    if hit is None:
        hit = _bounded(table)[key] = CrewMoves(st)
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
        moves = crew_moves(st)
        return () if check_frozen and moves.frozen else moves.by_ship[ship]
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


def _symbol_places(st, p: int, plain: tuple[int, ...]) -> tuple[tuple[int, ...], Callable]:
    """S23-S25: the open places (ids without direction), each once per direction its crew may
    move when `p` plays a symbol card there (kept without one where nobody moves or where the
    side's owner chooses); with their getter."""
    moves = crew_moves(st)
    key = (plain, p)
    hit = moves.symbol_places.get(key)
    if hit is None:
        ids = plain if moves.frozen else _with_directions(st, p, plain, moves.by_ship)
        hit = moves.symbol_places[key] = (ids, _memo(st).gather(ids))
    return hit


def _with_directions(st, p: int, plain: tuple[int, ...], by_ship: dict) -> tuple[int, ...]:
    player_chooses = st.config.movement.chooser == "player"
    ids: list[int] = []
    for i in plain:
        ds = by_ship.get(i // 6)
        if ds and (player_chooses or i // 3 & 1 == p):
            for offset in _DIR_OFFSETS[ds]:
                ids.append(i + offset)
        else:
            ids.append(i)
    return tuple(ids)


def open_places(st, p: int) -> tuple[int, ...]:
    """S19, S20: the ids (6 * ship + 3 * side) of the places where `p` may put a card, in row
    order (the state keeps them with their getter until a side fills or empties or a ship is
    scored)."""
    maxc = st.config.rules.max_cards_per_side
    sides_allowed = (0, 1) if st.config.rules.play_on_any_side else (p,)
    sides = st.sides
    return tuple([6 * s + 3 * a for s in st.row for a in sides_allowed if len(sides[s][a]) < maxc])


def main_actions(st, p: int) -> list:
    cfg = st.config
    T = st.T
    sides = st.sides
    kind = T.kind
    memo = _memo(st)
    out: list = []
    opened = st._open[p]
    if opened is None:
        ids = open_places(st, p)
        opened = st._open[p] = (ids, memo.gather(ids))
    plain, get_plain = opened
    moving = get_moving = None      # the places with the crew directions a symbol card offers
    plays = memo.plays
    for k in dict.fromkeys(map(kind.__getitem__, st.hands[p])):  # S19, S20
        row = plays.get(k) or memo.play_row(k)
        if k[1]:
            if get_moving is None:
                moving, get_moving = _symbol_places(st, p, plain)
            out += get_moving(row)
        else:
            out += get_plain(row)
    if st._octopus_ready(p):  # S40-S46
        as_place = cfg.octopus.as_placement
        octo_on = st.octo_on
        mine = st.octo_at[p] if cfg.octopus.reuse == "free" else -2   # free: own card unprotected
        for s1 in st.row:
            for a1 in (0, 1):
                cards = sides[s1][a1]
                if not cards:
                    continue
                source = 2 * s1 + a1
                gets: dict = {}     # False: plain places, True: symbol places -> their getter
                for k in dict.fromkeys([kind[c] for c in cards if octo_on[c] < 0 or c == mine]):
                    sym = k[1] and as_place
                    get = gets.get(sym)
                    if get is None:
                        if not sym:
                            get = gets[sym] = memo.gather(plain, source)
                        else:
                            if moving is None:
                                moving, get_moving = _symbol_places(st, p, plain)
                            get = gets[sym] = memo.gather(moving, source)
                    out += get(memo.octopi.get((k, source)) or memo.octopus_row(k, source))
    if not out:
        out.append(PASS)  # S18
    if st.rum_left[p] > 0 and not st.rum_turn:  # S17, S47
        out += rum_actions(st, "before")
    return out


def rum_actions(st, when: str) -> list:
    """S17, S47-S52: a rum mug on each ship that can take one, `when` = before or after the action."""
    rum = _memo(st).rum[when]
    return [rum[s] for s in st._rum_ships()]


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
