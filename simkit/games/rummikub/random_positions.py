"""Random solver positions (a valid table plus a rack), for tests and benchmarks."""

from __future__ import annotations

import numpy as np

from simkit.games.rummikub.tiles import GROUP, RUN, Meld, face_of


def random_table(rng: np.random.Generator, n_tiles: int, jokers: bool = True,
                 joker_prob: float = 0.15) -> tuple[tuple[Meld, ...], list[int]]:
    """A valid table of about `n_tiles` tiles built from random runs (3-5) and groups (3-4);
    returns (table, tiles left over). Jokers replace a tile with probability `joker_prob`."""
    free = set(range(104))
    spare_jokers = [104, 105] if jokers else []
    table: list[Meld] = []
    placed = 0
    attempts = 0
    while placed < n_tiles and attempts < 2000:
        attempts += 1
        if rng.random() < 0.5:
            c = int(rng.integers(4))
            length = int(rng.integers(3, 6))
            s = int(rng.integers(1, 15 - length))
            faces = [face_of(c, v) for v in range(s, s + length)]
            kind = RUN
        else:
            v = int(rng.integers(1, 14))
            size = int(rng.integers(3, 5))
            cols = rng.permutation(4)[:size].tolist()
            faces = [face_of(c, v) for c in cols]
            kind = GROUP
        tiles = [2 * f if 2 * f in free else 2 * f + 1 for f in faces if 2 * f in free or 2 * f + 1 in free]
        if len(tiles) < len(faces):         # a face with both copies taken
            continue
        if spare_jokers and rng.random() < joker_prob:
            i = int(rng.integers(len(tiles)))
            tiles[i] = spare_jokers.pop()
        if placed + len(tiles) > n_tiles + 2:
            continue
        for t in tiles:
            free.discard(t)
        table.append(Meld(kind, tuple(tiles)))
        placed += len(tiles)
    left = sorted(free) + spare_jokers
    return tuple(table), left


def random_position(rng: np.random.Generator, table_tiles: int = 40, rack_tiles: int = 10,
                    jokers: bool = True, joker_prob: float = 0.15) -> tuple[tuple[Meld, ...], list[int]]:
    """(table, rack): a random valid table and a rack drawn from the tiles not on it."""
    table, left = random_table(rng, table_tiles, jokers, joker_prob)
    if not jokers:
        left = [t for t in left if t < 104]
    idx = rng.permutation(len(left))[:rack_tiles].tolist()
    return table, [left[i] for i in idx]


def position_with_jokers(rng: np.random.Generator, table_tiles: int, rack_tiles: int, table_jokers: int,
                         rack_jokers: int) -> tuple[tuple[Meld, ...], list[int]]:
    """(table, rack) with exactly `table_jokers` jokers on the table and `rack_jokers` on the rack
    (at most 2 in all): a random joker-free table, then table jokers replace real tiles of distinct
    random melds (the tiles they replace go back to the pool), then a random rack."""
    if table_jokers + rack_jokers > 2:
        raise ValueError("there are only two jokers")
    table, left = random_table(rng, table_tiles, jokers=False)
    melds = list(table)
    jokers = [104, 105]
    for i in rng.permutation(len(melds))[:table_jokers].tolist():
        tiles = list(melds[i].tiles)
        p = int(rng.integers(len(tiles)))
        left.append(tiles[p])
        tiles[p] = jokers.pop()
        melds[i] = Meld(melds[i].kind, tuple(tiles))
    left = sorted(left)
    idx = rng.permutation(len(left))[:rack_tiles - rack_jokers].tolist()
    return tuple(melds), [left[i] for i in idx] + jokers[:rack_jokers]


#: the tail grid of issue 12: table sizes, rack sizes, (table jokers, rack jokers)
GRID_TABLES = (40, 50, 60, 70, 80)
GRID_RACKS = (6, 12, 18, 24)
GRID_JOKERS = ((0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (0, 2))


def tail_grid(seeds: int = 1, seed: int = 12):
    """The solver tail grid: `seeds` positions per cell of tables x racks x jokers (both objectives
    are the caller's loop); a list of ((table size, rack size, table jokers, rack jokers), table, rack)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(seeds):
        for nt in GRID_TABLES:
            for nr in GRID_RACKS:
                for tj, rj in GRID_JOKERS:
                    table, rack = position_with_jokers(rng, nt, nr, tj, rj)
                    out.append(((nt, nr, tj, rj), table, rack))
    return out
