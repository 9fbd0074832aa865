"""What a seat may see (§8) and the checks on a state: the observation, determinization (the
hidden part resampled), and the invariant audit. `TrainsState` delegates to these functions."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simkit.games.trains.rules import LOCK_SLOTS, N_CARDS, OVER, is_ascending


class Observation(NamedTuple):
    """What one seat may see (§8). Trains, locks, display and pile sizes are public; the draw
    pile order, other players' setup draws/discards and their undecided cards are not.

    `display[e]` is the display card of effect e (0 if none; index 0 unused);
    `locks[p][k]` the lock card under slot k+1 of seat p (0 if none); trains list slot 1..7.
    `log` is the public event log (hidden cards appear as None or as a count).
    """

    seat: int
    n_players: int
    phase: str
    to_act: tuple
    start_seat: int
    current: int
    turn: int
    trains: tuple
    locks: tuple
    display: tuple
    draw_size: int
    discard_size: int
    hand: tuple              # own setup draw awaiting the keep decision (T6)
    kept: int                # own kept setup card awaiting placement (T7), else 0
    drawn: int               # own drawn card awaiting placement (T9), else 0
    own_setup_discards: tuple  # own setup discards still in the discard pile
    effects: tuple           # the number -> effect table in use (index 0 unused)
    log: tuple
    unseen: frozenset | None = None  # only with config unseen_cards=True


def unknown_to(state, seat: int) -> list[int]:
    """Cards whose place `seat` cannot know, in a fixed zone order (see determinize)."""
    pool = list(state.draw)
    for p in range(state.n):
        if p != seat:
            pool.extend(state.hidden[p])
            pool.extend(state.hands[p])
            if state.kept[p]:
                pool.append(state.kept[p])
    if state.drawn and state.cur != seat:
        pool.append(state.drawn)
    return pool


def observe(state, seat: int) -> Observation:
    unseen = frozenset(unknown_to(state, seat)) if state.config.unseen_cards else None
    return Observation(
        seat=seat, n_players=state.n, phase=state.phase, to_act=state.acting,
        start_seat=state.start, current=state.cur, turn=state.turns,
        trains=tuple(map(tuple, state.trains)), locks=tuple(map(tuple, state.locks)),
        display=tuple(state.display), draw_size=len(state.draw), discard_size=len(state.discard),
        hand=tuple(state.hands[seat]), kept=state.kept[seat],
        drawn=state.drawn if state.cur == seat else 0,
        own_setup_discards=tuple(state.hidden[seat]), effects=state.eff,
        log=tuple(state.public_log()), unseen=unseen)


def determinize(state, seat: int, rng: np.random.Generator):
    """Resample exactly what `seat` cannot see: the draw pile order and the cards in it,
    other players' setup discards still in the discard pile, their undecided setup draws
    and kept cards, and another player's drawn card before it is placed. The copy's
    future chance events use `rng`, and its event log is the public one."""
    det = state.reseeded_clone(rng)
    det.events = state.public_log()[:]
    det._log = det.events[:]
    pool = unknown_to(state, seat)
    if not pool:
        return det
    new = rng.permutation(pool).tolist()
    pos = len(state.draw)
    det.draw = new[:pos]
    mapping: dict[int, int] = {}
    for p in range(state.n):
        if p == seat:
            continue
        h = state.hidden[p]
        if h:
            repl = new[pos:pos + len(h)]
            mapping.update(zip(h, repl))
            det.hidden[p] = repl
            pos += len(h)
        hand = state.hands[p]
        if hand:
            det.hands[p] = new[pos:pos + len(hand)]
            pos += len(hand)
        if state.kept[p]:
            det.kept[p] = new[pos]
            pos += 1
    if state.drawn and state.cur != seat:
        det.drawn = new[pos]
        pos += 1
    if mapping:
        det.discard = [mapping.get(c, c) for c in state.discard]
    return det


def audit(state) -> list[str]:
    """Invariant violations: every card once, trains and locks sound, the display's bookkeeping."""
    problems: list[str] = []
    cards: list[int] = []
    for p in range(len(state.trains)):
        problems += _seat_problems(state, p, cards)
    problems += _display_problems(state, cards)
    cards.extend(state.draw)
    cards.extend(state.discard)
    if state.drawn:
        cards.append(state.drawn)
    if len(cards) != N_CARDS or len(set(cards)) != N_CARDS or min(cards) < 1 or max(cards) > N_CARDS:
        problems.append(f"{len(cards)} cards accounted for, expected each of 1..84 exactly once")
    if state.turns > state.config.max_turns:
        problems.append(f"{state.turns} turns played, more than max_turns={state.config.max_turns} (T15)")
    return problems


def _seat_problems(state, p: int, cards: list[int]) -> list[str]:
    """Seat p's train, locks (T24), hand, kept card and hidden discards; its cards go to `cards`."""
    problems = []
    over = state.phase == OVER
    train = state.trains[p]
    for k, c in enumerate(train):
        if c:
            cards.append(c)
        elif not (over and state.winner >= 0):
            problems.append(f"seat {p} slot {k + 1} is empty while the game goes on")
    for k, c in enumerate(state.locks[p]):
        if c:
            cards.append(c)
            if k + 1 not in LOCK_SLOTS:
                problems.append(f"seat {p} has a lock under slot {k + 1} (T24 allows 1, 4, 7)")
    cards.extend(state.hands[p])
    if state.kept[p]:
        cards.append(state.kept[p])
    if not set(state.hidden[p]) <= set(state.discard):
        problems.append(f"seat {p}'s hidden setup discards are not in the discard pile")
    # with refill_stop='complete' a later refill may also complete a train (the first
    # one clockwise from the actor has won)
    late = over and state.winner >= 0 and not state._immediate
    if is_ascending(train) and 0 not in train and not (over and state.winner == p) and not late:
        problems.append(f"seat {p}'s train {train} is ascending but the game goes on (T25)")
    return problems


def _display_problems(state, cards: list[int]) -> list[str]:
    """The display holds each effect's card in its own slot and its mask agrees; its cards go to `cards`."""
    problems = []
    for e in range(1, 9):
        c = state.display[e]
        if c:
            cards.append(c)
            if state.eff[c] != e:
                problems.append(f"display slot of effect {e} holds card {c} of effect {state.eff[c]}")
    if state.display[0]:
        problems.append("display index 0 is used")
    if state._shown != sum(1 << e for e in range(1, 9) if state.display[e]):
        problems.append("the display's effect mask disagrees with the display (engine bookkeeping)")
    return problems
