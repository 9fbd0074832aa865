"""Build Shipside positions for rule tests: row 28-30-32-34-36 left to right (§13), A = seat 0."""

from __future__ import annotations

import numpy as np

from simkit.core.config import with_overrides
from simkit.games.shipside import ShipsideConfig, ShipsideState
from simkit.games.shipside.rules import MAIN

A, B = 0, 1
DEFAULT_CREW = {36: "captain", 32: "mate", 30: "sailor", 28: "sailor"}


def config(**overrides) -> ShipsideConfig:
    base = {"setup.ship_order": "ascending", "setup.first_player": "0"}
    base.update({k.replace("__", "."): v for k, v in overrides.items()})
    return with_overrides(ShipsideConfig(), base)


def position(cfg: ShipsideConfig | None = None, *, hands=((), ()), sides=None, crew=None,
             cur: int = A, mugs=None, scored=None, rum_left=None, seed: int = 0) -> ShipsideState:
    """A consistent state (audit-clean): cards are taken from the deck by strength.

    hands: per seat, strengths (a strength -k for k > 0 is a jellyfish with the symbol by default).
    sides: {defense: (strengths on A's side, strengths on B's side)}.
    crew: {defense: 'captain'|'mate'|'sailor'} (default: the spec's start, 34 empty); tokens not
    placed are counted as removed from the game.
    mugs: {defense: [owner seats]}; scored: {defense: winner seat or -1}.
    Cards of entries like (7, True) are chosen with that symbol flag.
    """
    cfg = cfg or config()
    st = ShipsideState(cfg, 2, np.random.default_rng(seed))
    T = st.T
    pool = list(range(T.n_cards))

    def take(spec) -> int:
        value, sym = (spec if isinstance(spec, tuple) else (spec, None))
        for c in pool:
            if T.value[c] == value and (sym is None or T.sym[c] == sym):
                pool.remove(c)
                return c
        raise ValueError(f"no card {spec!r} left in the deck")

    st.hands = [[take(v) for v in hands[0]], [take(v) for v in hands[1]]]
    for s in range(len(T.defense)):
        st.sides[s] = [[], []]
        st.tot[s] = [0, 0]
        st.crew[s] = []
        st.mugs[s] = []
    for d, (a_side, b_side) in (sides or {}).items():
        s = T.ship_of[d]
        for side, values in ((0, a_side), (1, b_side)):
            for v in values:
                c = take(v)
                st.sides[s][side].append(c)
                st.tot[s][side] += T.value[c]
    crew = DEFAULT_CREW if crew is None else crew
    tokens = list(range(len(T.crew_kind)))
    for d, kind in crew.items():
        tok = next(t for t in tokens if T.crew_kind[t] == kind)
        tokens.remove(tok)
        st.crew[T.ship_of[d]].append(tok)
    st.crew_out = tokens
    st.crew_won = [[], []]
    st.captured = [[], []]
    st.ships_out = []
    st.score = [0, 0]
    for d, w in (scored or {}).items():
        s = T.ship_of[d]
        st.row.remove(s)
        if w < 0:
            st.ships_out.append(s)
        else:
            st.captured[w].append(s)
            st.score[w] += cfg.scoring.ship_points
    for d, owners in (mugs or {}).items():
        st.mugs[T.ship_of[d]] = list(owners)
    if rum_left is not None:
        st.rum_left = list(rum_left)
    st.out = []
    st.piles = [pool] if len(st.piles) == 1 else [pool[: len(pool) // 2], pool[len(pool) // 2:]]
    st.own = None if st.own is None else [[], []]
    st.octo_on = [-1] * T.n_cards
    st.octo_at = [-1, -1]
    st.cur = cur
    st.phase = MAIN
    st.pending = None
    st.rum_turn = False
    assert st.audit() == [], st.audit()
    return st


def give_points(st: ShipsideState, seat: int, ship_defense: int, crew_kind: str | None = None) -> None:
    """Record an earlier capture of `ship_defense` (and a crew token) by `seat`."""
    T = st.T
    s = T.ship_of[ship_defense]
    st.row.remove(s)
    st.captured[seat].append(s)
    st.score[seat] += st.config.scoring.ship_points
    if crew_kind is not None:
        tok = next(t for t in st.crew_out if T.crew_kind[t] == crew_kind)
        st.crew_out.remove(tok)
        st.crew_won[seat].append(tok)
        st.score[seat] += st.config.crew.points[crew_kind]
    assert st.audit() == [], st.audit()


def ship(st: ShipsideState, defense: int) -> int:
    return st.T.ship_of[defense]


def crew_at(st: ShipsideState) -> dict[int, tuple[str, ...]]:
    return {st.T.defense[s]: tuple(st.T.crew_kind[t] for t in st.crew[s]) for s in st.row if st.crew[s]}


def play_uniformly(st: ShipsideState, rng) -> ShipsideState:
    """Play `st` to the end with uniformly random legal actions from `rng`."""
    while not st.is_over():
        joint = []
        for s in st.to_act():
            legal = st.legal_actions(s)
            joint.append(legal[int(rng.integers(len(legal)))])
        st.apply(joint)
    return st
