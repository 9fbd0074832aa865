"""What a seat sees (observe), a state consistent with it (determinize), and the invariants
(audit). Functions take the state as `st`; ShipsideState binds them as methods (this module
does not import state.py: determinize reads the state through `HiddenCards`)."""

from __future__ import annotations

from typing import NamedTuple, Protocol, Self, TypeVar

import numpy as np

from simkit.engine.public_log import Hiders, PublicLog
from simkit.games.shipside import moves
from simkit.games.shipside.rules import DIR, MARK, OVER, PICK


class HiddenCards(Protocol):
    """The part of `ShipsideState` that determinize resamples (mypy checks that the state has it)."""

    phase: str
    hands: list[list[int]]
    piles: list[list[int]]
    own: list[list[int]] | None
    rng: np.random.Generator
    events: list[tuple]
    public_log: PublicLog | None

    def reseeded_clone(self, rng: np.random.Generator) -> Self: ...


StateT = TypeVar("StateT", bound=HiddenCards)


class ShipView(NamedTuple):
    """One ship still in play, as both players see it."""

    defense: int
    threshold: int                  # defense + rum bonus (S48)
    mugs: tuple[int, ...]           # owner seat of each rum mug on it
    crew: tuple[str, ...]           # crew tokens standing on it
    cards: tuple[tuple[tuple[int, bool, int], ...], ...]  # per side: (strength, symbol, octopus owner or -1)
    totals: tuple[int, int]         # strength total of side A (seat 0) and side B (seat 1)


class Observation(NamedTuple):
    """What one seat may see: everything except the other hand and the draw piles' order."""

    seat: int
    phase: str
    to_move: int
    turn: int
    row: tuple[ShipView, ...]       # ships in play, in row order (S27: gaps closed)
    hand: tuple[tuple[int, bool], ...]  # own hand (strength, symbol), sorted
    opp_hand: int                   # size of the other hand
    piles: tuple[int, ...]          # draw pile sizes (one shared, or one per seat in the variant)
    scores: tuple[int, int]
    rum_left: tuple[int, int]
    octopus: tuple[str, str]        # per seat: 'supply', 'on <ship>' or 'spent'
    captured: tuple[tuple[int, ...], tuple[int, ...]]  # defenses of captured ships per seat
    marks: tuple[str, ...] | None   # variant: each seat's mark
    pending_dirs: tuple[str, ...]   # phase dir: directions the chooser may pick
    pending_ship: int               # phase dir: defense of the ship whose crew moves, else -1


def observe(st, seat: int) -> Observation:
    """Everything public (the row, both sides' cards and octopi, scores, rum, pile sizes) and
    the seat's own hand; not the other hand, nor the order of any pile."""
    T = st.T
    octo_on = st.octo_on
    view = T.card_view                       # card id -> (strength, symbol, -1)
    marked = st.octo_at[0] >= 0 or st.octo_at[1] >= 0
    bonus = st.config.rum.defense_bonus
    defense = T.defense
    ships = []
    for s in st.row:
        a, b = st.sides[s]
        if marked:
            cards = (tuple((T.value[c], T.sym[c], octo_on[c]) for c in a),
                     tuple((T.value[c], T.sym[c], octo_on[c]) for c in b))
        else:
            cards = (tuple([view[c] for c in a]), tuple([view[c] for c in b]))
        crew = st.crew[s]
        mugs = st.mugs[s]
        ships.append(ShipView(
            defense[s], defense[s] + bonus * len(mugs), tuple(mugs),
            tuple([T.crew_kind[c] for c in crew]) if crew else (), cards, tuple(st.tot[s])))
    octo_a, octo_b = ["spent" if (st.octo_at[x] < 0 and st.octo_spent[x]
                                  and st.config.octopus.reuse == "once")
                      else "supply" if st.octo_at[x] < 0
                      else f"on {defense[st._ship_of_card(st.octo_at[x])]}" for x in (0, 1)]
    phase = st.phase
    pend = st.pending[1] if phase == DIR and st.pending[0] == seat else ()
    pend_ship = defense[st.pending[2][1]] if phase == DIR else -1
    kind = T.kind
    return Observation(
        seat, phase, st.to_act()[0] if phase not in (OVER, PICK) else -1, st.turn,
        tuple(ships), tuple(sorted([kind[c] for c in st.hands[seat]])),
        len(st.hands[1 - seat]), tuple([len(p) for p in st.piles]), tuple(st.score),
        tuple(st.rum_left), (octo_a, octo_b),
        (tuple([defense[s] for s in st.captured[0]]), tuple([defense[s] for s in st.captured[1]])),
        st.marks, pend, pend_ship)


def ship_of_card(st, card: int) -> int:
    for s in st.row:
        if card in st.sides[s][0] or card in st.sides[s][1]:
            return s
    return -1


#: the events naming cards a seat may not have seen, in the form both seats see (S12, S22, S57):
#: the deal as hand sizes, a draw without its card, an opening-hand pick without its card
_HIDE: Hiders = {
    "deal": lambda ev: ("dealt", len(ev[1]), len(ev[2])),
    "draw": lambda ev: ("draw", ev[1], None),
    "pick": lambda ev: ("picked", ev[1]),
}


def determinize(st: StateT, seat: int, rng: np.random.Generator) -> StateT:
    """Resample what `seat` cannot see: the other hand and the order of every draw pile.

    Shared pile: the other hand and the pile are pooled and redealt. Personal piles (variant):
    the own pile is reshuffled, the other hand and the other pile are pooled and redealt. While
    opening hands are being chosen, the other player's picks so far are redrawn from their deck.
    The copy's log is the public one (`_HIDE`), its later chance drawn from `rng`.
    """
    # later chance (S58's shuffle after the picks) must not be the real game's
    new = st.reseeded_clone(rng)
    log = getattr(st, "public_log", None)      # a state parsed from a position starts without
    if log is None:
        log = st.public_log = PublicLog()
    new.events = log.of(st.events, _HIDE)
    o = 1 - seat
    if st.phase == PICK or st.phase == MARK:
        if new.own is not None:
            pool = new.hands[o] + new.own[o]
            perm = rng.permutation(len(pool)).tolist()
            k = len(new.hands[o])
            new.hands[o] = [pool[i] for i in perm[:k]]
            new.own[o] = sorted(pool[i] for i in perm[k:])
        return new
    if len(new.piles) == 1:
        pool = new.hands[o] + new.piles[0]
        perm = rng.permutation(len(pool)).tolist()
        k = len(new.hands[o])
        new.hands[o] = [pool[i] for i in perm[:k]]
        new.piles[0] = [pool[i] for i in perm[k:]]
    else:
        mine = new.piles[seat]
        new.piles[seat] = [mine[i] for i in rng.permutation(len(mine)).tolist()]
        pool = new.hands[o] + new.piles[o]
        perm = rng.permutation(len(pool)).tolist()
        k = len(new.hands[o])
        new.hands[o] = [pool[i] for i in perm[:k]]
        new.piles[o] = [pool[i] for i in perm[k:]]
    return new


def _stale_memos(st) -> list[str]:
    """What moves.py keeps on the state must equal a fresh computation."""
    problems = []
    kept = st._crew
    if kept is not None:
        fresh = moves.crew_lookup(st)
        if (kept.frozen, kept.by_ship) != (fresh.frozen, fresh.by_ship):
            problems.append("the crew's moves kept on the state are out of date (engine bookkeeping)")
    for p in (0, 1):
        if st._open[p] is not None and st._open[p][0] != moves.open_places(st, p):
            problems.append(f"seat {p}'s open places kept on the state are out of date (engine bookkeeping)")
    return problems


def audit(st) -> list[str]:
    """Conservation of cards (S2), crew (S8, S26), octopi, scores (S54) and the side limit (S20)."""
    T = st.T
    seen = _cards_off_the_ships(st)
    problems = _ship_problems(st, seen)
    if sorted(seen) != list(range(T.n_cards)):
        problems.append(f"cards not conserved: {len(seen)} seen of {T.n_cards}")
    tokens = [t for s in range(len(T.defense)) for t in st.crew[s]]
    tokens += st.crew_won[0] + st.crew_won[1] + st.crew_out
    if sorted(tokens) != list(range(len(T.crew_kind))):
        problems.append(f"crew tokens not conserved: {sorted(tokens)}")
    ships = sorted(st.row + st.captured[0] + st.captured[1] + st.ships_out)
    if ships != list(range(len(T.defense))):
        problems.append(f"ships not conserved: {ships}")
    problems += _seat_problems(st)
    problems += _stale_memos(st)
    goal = st.config.end.points_to_win
    if st.phase != OVER and goal and max(st.score) >= goal:
        problems.append(f"a player has {max(st.score)} >= {goal} points but the game goes on")
    return problems


def _cards_off_the_ships(st) -> list[int]:
    """Every card out of play, in hands, in piles and in the variant's own decks."""
    seen = list(st.out)
    if st.phase == MARK:                     # S56: the deck stays whole until a mark is taken
        seen.extend(range(st.T.n_cards))
    for h in st.hands:
        seen.extend(h)
    for p in st.piles:
        seen.extend(p)
    if st.own is not None:
        for o in st.own:
            seen.extend(o)
    return seen


def _ship_problems(st, seen: list[int]) -> list[str]:
    """Each ship's sides (S20 limit, running totals) and crew; the cards on them go to `seen`."""
    T, cfg = st.T, st.config
    problems = []
    maxc = cfg.rules.max_cards_per_side
    for s in range(len(T.defense)):
        for a in (0, 1):
            cards = st.sides[s][a]
            seen.extend(cards)
            if len(cards) > maxc:
                problems.append(f"ship {T.defense[s]} side {a} holds {len(cards)} > {maxc} cards")
            if sum(T.value[c] for c in cards) != st.tot[s][a]:
                problems.append(f"ship {T.defense[s]} side {a}: running total is wrong")
            if cards and s not in st.row:
                problems.append(f"scored ship {T.defense[s]} still has cards")
        if len(st.crew[s]) > cfg.crew.max_per_ship:
            problems.append(f"ship {T.defense[s]} carries {len(st.crew[s])} crew tokens")
        if st.crew[s] and s not in st.row:
            problems.append(f"scored ship {T.defense[s]} still has crew")
    return problems


def _seat_problems(st) -> list[str]:
    """Each seat's score from its ships and crew (S54), its octopus and its rum count."""
    T, cfg = st.T, st.config
    problems = []
    for p in (0, 1):
        expect = (cfg.scoring.ship_points * len(st.captured[p])
                  + sum(T.crew_points[c] for c in st.crew_won[p]))
        if st.score[p] != expect:
            problems.append(f"seat {p} score {st.score[p]} != {expect} from ships and crew (S54)")
        c = st.octo_at[p]
        if c >= 0 and st.octo_on[c] != p:
            problems.append(f"seat {p}'s octopus is lost")
        if st.rum_left[p] < 0:
            problems.append(f"seat {p} rum count negative")
    if sum(1 for o in st.octo_on if o >= 0) != sum(1 for c in st.octo_at if c >= 0):
        problems.append("octopus markers disagree")
    return problems
