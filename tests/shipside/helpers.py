"""Build Shipside positions for rule tests as position text (row 28-30-32-34-36 left to right,
§13; A = seat 0), and play positions on with play_out."""

from __future__ import annotations

import numpy as np

from simkit.engine.config import with_overrides
from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.shipside import GAME, ShipsideConfig, ShipsideState
from simkit.games.shipside.rules import tables

A, B = 0, 1
SEATS = "AB"
DEFAULT_CREW = {36: "captain", 32: "mate", 30: "sailor", 28: "sailor"}

#: rule sets far from the defaults (config overrides), for random-play tests
ALTERNATIVES = [
    {"movement__chooser": "owner", "movement__before_scoring": "false"},
    {"octopus__reuse": "free", "octopus__draw": "true"},
    {"rum__timing": "before", "rum__max_per_ship": "2", "rum__on_scored": "returned"},
    {"movement__wrap_around": "false", "movement__skip_occupied": "false", "scoring__full_tie": "stay"},
    {"rules__play_on_any_side": "false", "rules__pass_when_stuck": "false", "octopus__check_origin": "false"},
    {"deck__move_symbol": "[0, -2, -4]", "setup__crew_start": "middle-empty", "crew__max_per_ship": "2",
     "movement__freeze_when_full": "false"},
    # a tiny deck that cannot score every ship: hands run dry, players pass, the game stalls (S18)
    {"deck__values": '{"1": 12, "-1": 4}', "deck__move_symbol": "[-1]", "deck__jellyfish_values": "[-1]",
     "end__points_to_win": "0"},
]


def config(**overrides) -> ShipsideConfig:
    base = {"setup.ship_order": "ascending", "setup.first_player": "0"}
    base.update({k.replace("__", "."): v for k, v in overrides.items()})
    return with_overrides(ShipsideConfig(), base)


def position_text(cfg: ShipsideConfig, *, hands=((), ()), sides=None, crew=None, cur: int = A,
                  mugs=None, scored=None, rum_left=None, deck=None, octopus=None,
                  octopus_used=()) -> str:
    """The text of a position in the main phase of turn 0 (see `position`)."""
    T = tables(cfg)
    pool = list(range(T.n_cards))

    def take(spec) -> int:
        value, sym = (spec if isinstance(spec, tuple) else (spec, None))
        for c in pool:
            if T.value[c] == value and (sym is None or T.sym[c] == sym):
                pool.remove(c)
                return c
        raise ValueError(f"no card {spec!r} left in the deck")

    def words(items) -> str:
        return " ".join(map(str, items)) or "-"

    octopus = octopus or {}
    hand_text = [words(T.label[take(v)] for v in hand) for hand in hands]
    tokens = [T.crew_kind[t] for t in range(len(T.crew_kind))]
    crew = DEFAULT_CREW if crew is None else crew
    scored = {d: (w if isinstance(w, tuple) else (w,)) for d, w in (scored or {}).items()}
    mugs = mugs or {}
    ship_lines = []
    for d in sorted(T.defense):
        if d in scored:
            continue
        on_ship = [crew[d]] if d in crew else []
        for kind in on_ship:
            tokens.remove(kind)
        side_text = []
        for side, values in enumerate((sides or {}).get(d, ((), ()))):
            cards = [take(v) for v in values]
            labels = [T.label[c] for c in cards]
            for owner, (od, oside, ovalue) in octopus.items():
                if (od, oside) == (d, side):
                    labels[[T.value[c] for c in cards].index(ovalue)] += "{" + SEATS[owner] + "}"
            side_text.append(f"{SEATS[side]}: {words(labels)}")
        ship_lines.append(f"ship {d}: crew {words(on_ship)} | rum {words(SEATS[p] for p in mugs.get(d, ()))}"
                          f" | {side_text[0]} | {side_text[1]}")
    taken = {A: ([], []), B: ([], []), -1: ([], [])}
    for d, (winner, *kinds) in scored.items():
        taken[winner][0].append(d)
        for kind in kinds:
            tokens.remove(kind)
            taken[winner][1].append(kind)
    points = [cfg.scoring.ship_points * len(taken[p][0]) + sum(cfg.crew.points[k] for k in taken[p][1])
              for p in (A, B)]
    rum_left = rum_left or (cfg.rum.uses_per_player,) * 2
    used = ["yes" if p in octopus or p in octopus_used else "no" for p in (A, B)]
    variant = cfg.variant.enabled
    lines = ["phase: main", "turn: 0", f"turn player: {SEATS[cur]}", "start player: A",
             "passes in a row: 0", "rum placed this turn: no", "pending: -", *ship_lines,
             f"A ships: {words(taken[A][0])}", f"A crew: {words(taken[A][1])}",
             f"B ships: {words(taken[B][0])}", f"B crew: {words(taken[B][1])}",
             f"removed ships: {words(taken[-1][0])}", f"removed crew: {words(tokens)}",
             f"points: A {points[0]}, B {points[1]}", f"rum mugs left: A {rum_left[0]}, B {rum_left[1]}",
             f"octopus used: A {used[0]}, B {used[1]}",
             f"marks: {'A starfish, B shell' if variant else '-'}",
             f"A hand: {hand_text[0]}", f"B hand: {hand_text[1]}"]
    if variant:
        lines += ["A own cards: -", "B own cards: -"]
    def drawn_last_first(cards) -> str:                    # the highest card is drawn first
        return words(T.label[c] for c in reversed(cards))

    out = []
    if variant and cfg.variant.personal_decks:
        half = len(pool) // 2
        lines += [f"A deck: {drawn_last_first(pool[:half])}", f"B deck: {drawn_last_first(pool[half:])}"]
    elif deck is None:
        lines.append(f"deck: {drawn_last_first(pool)}")
    else:
        lines.append(f"deck: {words(T.label[take(v)] for v in deck)}")
        out = [T.label[c] for c in pool]
    lines.append(f"out of the game: {words(out)}")
    return "\n".join(lines)


def position(cfg: ShipsideConfig | None = None, **described) -> ShipsideState:
    """The state of `position_text(cfg, **described)`, read with GAME.parse_position.

    hands: per seat, strengths (a negative strength is a jellyfish, with the symbol by default;
    (strength, symbol) picks the flag). sides: {defense: (strengths on A's side, on B's side)}.
    crew: {defense: 'captain'|'mate'|'sailor'} (default: the spec's start, 34 empty); tokens
    neither on a ship nor captured are removed from the game. mugs: {defense: [owner seats]}.
    scored: {defense: winner seat, -1 for removed, or (winner, crew kind, ...) captured with it}.
    rum_left: mugs left per seat. deck: the shared deck, next card first (default: every card not
    placed, highest first; when given, the other cards are out of the game). octopus: {seat:
    (defense, side, strength)} of the card its octopus lies on. octopus_used: seats whose octopus
    was used (and is back in the supply).
    """
    cfg = cfg or config()
    return GAME.parse_position(position_text(cfg, **described), cfg)


def ship(st: ShipsideState, defense: int) -> int:
    return st.T.ship_of[defense]


def crew_at(st: ShipsideState) -> dict[int, tuple[str, ...]]:
    return {st.T.defense[s]: tuple(st.T.crew_kind[t] for t in st.crew[s]) for s in st.row if st.crew[s]}


def play_randomly(st: ShipsideState, seed: int) -> ShipsideState:
    """Play `st` to the end with the `random` strategy in both seats."""
    info = GameInfo("shipside", st.config, 2)
    play_out(st, [parse_strategy("random", "shipside")] * 2, info,
             np.random.default_rng(seed).spawn(2), forfeit_on_error=False)
    return st
