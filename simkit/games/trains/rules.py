"""Game of Trains: the rules as pure functions (`docs/trains-rules.md`, rules T1-T25).

Trains are sequences of 7 card numbers, index 0..6 for slots 1..7 (slot 1 next to the
locomotive, T16). Functions here never mutate their arguments; `state.py` does the bookkeeping
(zones, events, turn order) and calls them.
"""

from __future__ import annotations

from collections.abc import Sequence

N_CARDS = 84
N_EFFECTS = 8
LOCK_SLOTS = (1, 4, 7)          # T24: locks go under slot 1, 4 or 7
REMOVAL_SLOT = {5: 1, 6: 4, 7: 7}  # T21-T23: effect -> the slot every player loses

#: decision phases (`state.phase`), the names observations show
KEEP_PHASE = "keep"              # T6: setup players keep one of their drawn cards
SETUP_PLACE = "setup_place"      # T7: setup players place the kept card
TURN = "turn"                    # T8: draw or use an effect
PLACE_PHASE = "place"            # T9: place the drawn card
OVER = "over"                    # T25 (a win) or T15 (the turn cap)
PHASES = (KEEP_PHASE, SETUP_PLACE, TURN, PLACE_PHASE, OVER)

#: §1.2 the 8-periodic pattern that cards 1..48 follow
CYCLE = (3, 8, 4, 1, 6, 7, 5, 2)

#: §1.1 number -> effect exactly as printed in the seed (index 0 unused)
EFFECT_OF_SEED: tuple = (None,
    3, 8, 4, 1, 6, 7, 5, 2, 3, 8, 4, 1,  # 1-12
    6, 7, 5, 2, 3, 8, 4, 1, 6, 7, 5, 2,  # 13-24
    3, 8, 4, 1, 6, 7, 5, 2, 3, 8, 4, 1,  # 25-36
    6, 7, 5, 2, 3, 8, 4, 1, 6, 7, 5, 2,  # 37-48
    2, 3, 8, 4, 1, 6, 7, 5, 2, 3, 3, 8,  # 49-60
    4, 1, 6, 7, 5, 2, 6, 3, 8, 4, 1, 6,  # 61-72
    7, 5, 2, 4, 3, 8, 4, 1, 6, 7, 5, 2,  # 73-84
)

#: §1.2 [CHOICE] the purely periodic alternative table
EFFECT_OF_PERIODIC: tuple = (None,) + tuple(CYCLE[(n - 1) % 8] for n in range(1, N_CARDS + 1))

EFFECT_NAMES = {
    1: "swap adjacent",
    2: "swap across one",
    3: "move 2 right",
    4: "move 2 left",
    5: "remove leftmost",
    6: "remove middle",
    7: "remove rightmost",
    8: "lock",
}


def effect_table(name: str) -> tuple:
    """§1.1/§1.2: the number -> effect table of the `effect_table` config field."""
    if name == "seed":
        return EFFECT_OF_SEED
    if name == "periodic":
        return EFFECT_OF_PERIODIC
    raise ValueError(f"effect_table={name!r}: allowed are 'seed', 'periodic'")


def cards_per_effect(table: Sequence) -> dict[int, int]:
    """§1.2: how many of the 84 cards carry each effect."""
    counts = {e: 0 for e in range(1, N_EFFECTS + 1)}
    for n in range(1, N_CARDS + 1):
        counts[table[n]] += 1
    return counts


# --------------------------------------------------------------------------- setup

def initial_train(hand: Sequence[int]) -> list[int]:
    """T3: the 7 dealt cards laid out in descending order from slot 1 to slot 7."""
    return sorted(hand, reverse=True)


def setup_draw_count(order: int) -> int:
    """T5: the k-th player in turn order (order = 0 for the start player) draws k cards."""
    return order + 1


def seat_order(start: int, n_players: int) -> tuple[int, ...]:
    """T4/T8: seats clockwise from `start`."""
    return tuple((start + k) % n_players for k in range(n_players))


# --------------------------------------------------------------------------- end of game

def is_ascending(train: Sequence[int]) -> bool:
    """T25: slot 1 < slot 2 < ... < slot 7 (numbers need not be consecutive)."""
    a, b, c, d, e, f, g = train
    return a < b < c < d < e < f < g


# --------------------------------------------------------------------------- effects 1-4

#: §5 parameter domains (1-based positions). 5-7 take no parameter; 8 takes a lock slot.
PARAMS = {1: (1, 2, 3, 4, 5, 6), 2: (1, 2, 3, 4, 5), 3: (1, 2, 3, 4, 5), 4: (3, 4, 5, 6, 7),
          5: (None,), 6: (None,), 7: (None,), 8: LOCK_SLOTS}


def apply_order_effect(train: Sequence[int], effect: int, i: int, insertion: bool = True) -> list[int]:
    """T17-T20: the train after effect 1-4 with parameter i (a new list).

    T17 (1): swap slots i, i+1.  T18 (2): swap slots i, i+2.
    T19 (3): the card in slot i moves 2 places right; T20 (4): 2 places left. With
    `insertion` (default [CHOICE]) the card is taken out and re-inserted, the 2 cards it passes
    shift one place back; otherwise it swaps with the card 2 places away.
    """
    t = list(train)
    k = i - 1
    if effect == 1:
        if not 1 <= i <= 6:
            raise ValueError(f"effect 1 (T17) takes i in 1..6, got {i}")
        t[k], t[k + 1] = t[k + 1], t[k]
    elif effect == 2:
        if not 1 <= i <= 5:
            raise ValueError(f"effect 2 (T18) takes i in 1..5, got {i}")
        t[k], t[k + 2] = t[k + 2], t[k]
    elif effect == 3:
        if not 1 <= i <= 5:
            raise ValueError(f"effect 3 (T19) cannot move slot {i}: allowed sources are 1..5")
        if insertion:
            c = t.pop(k)
            t.insert(k + 2, c)
        else:
            t[k], t[k + 2] = t[k + 2], t[k]
    elif effect == 4:
        if not 3 <= i <= 7:
            raise ValueError(f"effect 4 (T20) cannot move slot {i}: allowed sources are 3..7")
        if insertion:
            c = t.pop(k)
            t.insert(k - 2, c)
        else:
            t[k], t[k - 2] = t[k - 2], t[k]
    else:
        raise ValueError(f"effect {effect} does not reorder a train (only 1-4 do)")
    return t


def moved_slots(effect: int, i: int, voiding: str = "range", insertion: bool = True) -> tuple[int, ...]:
    """T24 voiding: the slots whose card the owner's effect 1-4 changes (1-based).

    "range" (default [CHOICE]): every card that moves, including the 2 cards passed over by a
    3/4 insertion. "chosen": only the explicitly chosen cards (swap partners, or the source).
    With swap semantics for 3/4 (`insertion=False`) the two swapped cards are the ones that move.
    """
    if effect == 1:
        return (i, i + 1)
    if effect == 2:
        return (i, i + 2)
    if effect == 3:
        if not insertion:
            return (i, i + 2)
        return (i, i + 1, i + 2) if voiding == "range" else (i,)
    if effect == 4:
        if not insertion:
            return (i - 2, i)
        return (i - 2, i - 1, i) if voiding == "range" else (i,)
    return ()


# --------------------------------------------------------------------------- display

def resolve_pairs(existing: int, arrivals: Sequence[int], keep: str = "last") -> tuple[int, list[int]]:
    """T11 for one effect id: the display card of that effect after `arrivals` enter.

    `existing` is the card of that effect already in the display (0 if none). Returns
    (card staying, or 0; cards discarded in pairs). Default [CHOICE] "last": arrivals are
    processed one at a time and each one meeting a same-effect card discards both, so with an
    odd count the last arrival stays. "first": the earliest card (the one already there, else
    the first arrival) stays.
    """
    cards = ([existing] if existing else []) + list(arrivals)
    if len(cards) % 2 == 0:
        return 0, cards
    if keep == "last":
        return cards[-1], cards[:-1]
    return cards[0], cards[1:]


# --------------------------------------------------------------------------- legality

def lock_params(locks: Sequence[int], double_lock: bool = False) -> tuple[int, ...]:
    """T24: slots effect 8 may lock. `locks[k]` is the lock card under slot k+1 (0 = none).

    Default [CHOICE]: no second lock on a locked slot, so only unlocked slots of {1, 4, 7}.
    """
    if double_lock:
        return LOCK_SLOTS
    return tuple(s for s in LOCK_SLOTS if not locks[s - 1])


def removal_hits(all_locks: Sequence[Sequence[int]], effect: int) -> int:
    """T21-T23: how many players lose a card to effect 5/6/7 (locked slots are skipped)."""
    k = REMOVAL_SLOT[effect] - 1
    return sum(1 for locks in all_locks if not locks[k])
