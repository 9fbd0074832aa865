"""Shipside rules as pure functions (rules: docs/shipside-rules.md, rule numbers S1-S59).

The state (state.py) keeps ints and lists; these functions decide: the deck and its marks,
the ship row and the crew's starting places, where a moving crew token lands, whether a
ship is captured, and the final result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Sized
from typing import NamedTuple

from simkit.games.shipside import crewstart
from simkit.games.shipside.config import CREW_KINDS, MARKS, ShipsideConfig, starfish_counts

# Game phases (`state.phase`).
MARK = "mark"    # variant, mark_assignment=chooser: the start player takes a mark (S56)
PICK = "pick"    # variant: both players pick their opening hand, one card a step, at once (S57)
MAIN = "main"    # the player to move plays a card, uses the octopus, places rum before, or passes
DIR = "dir"      # movement.chooser=owner: the owner of the side picks the crew's direction (S25)
RUM = "rum"      # rum.timing=either: rum after the action, or end the turn (S17)
OVER = "over"
PHASES = (MARK, PICK, MAIN, DIR, RUM, OVER)

#: crew tokens in placing order (S8): captain, first mate, two sailors
CREW_TOKENS = crewstart.CREW_TOKENS


class Tables(NamedTuple):
    """Static facts of one config: the deck (S2-S7), ships (S1) and crew (S8)."""

    n_cards: int
    value: tuple[int, ...]          # card id -> strength (S4)
    mark: tuple[int, ...]           # card id -> 0 starfish / 1 shell (S7)
    copy: tuple[int, ...]           # card id -> copy number within (strength, mark)
    sym: tuple[bool, ...]           # card id -> carries the move-sailor symbol (S6)
    kind: tuple[tuple[int, bool], ...]  # card id -> (strength, symbol): what actions name
    label: tuple[str, ...]          # card id -> text, e.g. "-2*"
    jelly: tuple[bool, ...]         # card id -> is a jellyfish card (S5)
    defense: tuple[int, ...]        # ship id -> printed defense (config order)
    ship_of: dict                   # defense -> ship id
    crew_kind: tuple[str, ...]      # crew token id -> captain / mate / sailor
    crew_points: tuple[int, ...]    # crew token id -> points (S54)
    card_view: tuple[tuple[int, bool, int], ...]  # card id -> (strength, symbol, -1): no octopus


_TABLES: dict[int, tuple[ShipsideConfig, Tables]] = {}


def tables(config: ShipsideConfig) -> Tables:
    """The (cached) static tables of a config."""
    hit = _TABLES.get(id(config))
    if hit is not None and hit[0] is config:
        return hit[1]
    t = build_tables(config)
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[id(config)] = (config, t)
    return t


def _has_symbol(entries: tuple, value: int, mark: int, copy: int) -> bool:
    for e in entries:
        if isinstance(e, int):
            if e == value:
                return True
        elif e[0] == value and e[1] == MARKS[mark] and e[2] == copy:
            return True
    return False


def build_tables(config: ShipsideConfig) -> Tables:
    """S2-S7: one card per copy; for each strength the starfish copies come first."""
    deck = config.deck
    star = starfish_counts(deck)
    value, mark, copy, sym = [], [], [], []
    for v in sorted(deck.values):
        n = deck.values[v]
        for i in range(n):
            m = 0 if i < star[v] else 1
            c = i if m == 0 else i - star[v]
            value.append(v)
            mark.append(m)
            copy.append(c)
            sym.append(_has_symbol(deck.move_symbol, v, m, c))
    kind = tuple((v, s) for v, s in zip(value, sym))
    label = tuple(f"{v}*" if s else str(v) for v, s in kind)
    jelly = tuple(v in deck.jellyfish_values for v in value)
    defense = tuple(config.ships.defenses)
    crew = crewstart.tokens_for(len(defense))
    pts = config.crew.points
    return Tables(len(value), tuple(value), tuple(mark), tuple(copy), tuple(sym), kind, label,
                  jelly, defense, {d: i for i, d in enumerate(defense)}, crew,
                  tuple(pts[k] for k in crew), tuple((v, s, -1) for v, s in kind))


def ship_row(defense: tuple[int, ...], order: str, rng) -> list[int]:
    """S10: ship ids in row order, random (LIKELY) or ascending by defense."""
    ids = sorted(range(len(defense)), key=lambda i: defense[i])
    if order == "random":
        return [ids[i] for i in rng.permutation(len(ids)).tolist()]
    return ids


def crew_start(config: ShipsideConfig, row: list[int], n_tokens: int) -> dict[int, list[int]]:
    """S11: ship id -> crew token ids at setup, from `setup.crew_start` (see crewstart.py: the
    named layouts 34-empty, 28-empty, middle-empty and the general forms 'empty:<ships>' and
    '<ship>:<token>+...')."""
    defenses = tuple(config.ships.defenses)
    tokens = crewstart.tokens_for(len(defenses))[:n_tokens]
    layout = crewstart.parse(config.setup.crew_start, defenses, tokens, config.crew.max_per_ship)
    return crewstart.place(layout, defenses, row, tokens)


def threshold(defense: int, mugs: int, bonus: int) -> int:
    """S32, S48: the current defense: printed value + bonus per rum mug."""
    return defense + bonus * mugs


def reaches(total: int, thr: int, inclusive: bool) -> bool:
    """S32: a side captures when its total reaches the defense (>= by default, > if not inclusive)."""
    return total >= thr if inclusive else total > thr


def ship_result(t0: int, t1: int, n0: int, n1: int, thr: int, max_cards: int, inclusive: bool,
                actor: int) -> tuple[int, str] | None:
    """S31-S34, S39: None (not scored) or (winner seat or -1 for a tie, 'threshold'/'full').

    The threshold (S32) is checked first; when both sides reach it at once (only possible with
    unusual decks) the higher total wins, and on equal totals the acting player.
    """
    r0 = reaches(t0, thr, inclusive)
    r1 = reaches(t1, thr, inclusive)
    if r0 or r1:
        if r0 and r1:
            return (0 if t0 > t1 else 1 if t1 > t0 else actor), "threshold"
        return (0 if r0 else 1), "threshold"
    if n0 >= max_cards and n1 >= max_cards:
        if t0 == t1:
            return -1, "full"
        return (0 if t0 > t1 else 1), "full"
    return None


def move_target(row: list[int], crew: Sequence[Sized] | Mapping[int, Sized], ship: int, step: int,
                wrap: bool, skip: bool, max_per_ship: int) -> int:
    """S26-S28: the ship a token on `ship` reaches moving `step` (-1 left, +1 right) along the
    row of ships still in play (gaps ignored, S27), or -1 when that direction is blocked.

    Occupied ships (max_per_ship tokens) are skipped (S26) or block (skip=False); without
    wrap-around the row's end blocks (S28 alternative). `crew`: the tokens on each ship (by
    ship id or defense, as `row` names the ships; only their number is read).
    """
    n = len(row)
    i = row.index(ship)
    for k in range(1, n):
        j = i + k * step
        if wrap:
            j %= n
        elif not 0 <= j < n:
            return -1
        target = row[j]
        if len(crew[target]) < max_per_ship:
            return target
        if not skip:
            return -1
    return -1


def frozen(row: list[int], crew_on_ships: int, freeze_when_full: bool) -> bool:
    """S29: once ships left = crew tokens on ships, crew no longer move."""
    return freeze_when_full and len(row) <= crew_on_ships


def final_result(scores: list[int], ships: list[int], tie_result: str) -> list[float]:
    """S55: win shares. Higher score wins; equal scores are a draw (all zero), or with
    end.tie_result=tiebreak more captured ships wins, still equal is a draw."""
    a, b = scores
    if a == b and tie_result == "tiebreak":
        a, b = ships
    if a == b:
        return [0.0, 0.0]
    return [1.0, 0.0] if a > b else [0.0, 1.0]


__all__ = ["MARK", "PICK", "MAIN", "DIR", "RUM", "OVER", "PHASES", "CREW_KINDS", "CREW_TOKENS",
           "Tables", "tables", "build_tables", "ship_row", "crew_start", "threshold", "reaches",
           "ship_result", "move_target", "frozen", "final_result"]
