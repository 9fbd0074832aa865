"""Applying one action in each phase of Shipside: the phase handlers of `ShipsideState.apply`.

Each handler checks its action against the rules (an illegal one raises IllegalAction naming the
rule) and changes the state; the resolution that follows a placement (crew movement, scoring,
the draw) and the turn order stay on the state (state.py), which these functions call. Functions
take the state as `st`, as in moves.py.
"""

from __future__ import annotations

from simkit.engine.errors import IllegalAction
from simkit.games.shipside import moves, rules
from simkit.games.shipside.actions import Direction, EndTurn, Mark, Octopus, Pass, Pick, Play, Rum
from simkit.games.shipside.config import MARKS
from simkit.games.shipside.rules import MAIN

#: values of `state.acting`: one seat alone, or both (the variant's simultaneous picks)
ALONE = ((0,), (1,))
BOTH = (0, 1)


def apply_mark(st, a) -> None:
    """Phase mark (S56): the start player takes a mark, the other seat the other one."""
    if type(a) is not Mark or a.mark not in MARKS:
        raise IllegalAction(f"{a!r}: the start player must take a mark (take starfish / take "
                            f"shell)", seat=st.first, rule="S56")
    st._assign_marks(st.first if a.mark == "starfish" else 1 - st.first)


def apply_picks(st, actions) -> None:
    """Phase pick (S57): both seats pick a card of their own deck at once."""
    if len(actions) != 2:
        raise IllegalAction(f"both seats choose a card at once: expected 2 actions, got "
                            f"{len(actions)}", seat=None, rule="S57")
    chosen = []
    own = st._own_decks()
    for s, a in enumerate(actions):
        if type(a) is not Pick:
            raise IllegalAction(f"{a!r}: seat {s} must pick a card of its own deck", seat=s, rule="S57")
        card = _find(st, own[s], (a.value, a.sym))
        if card < 0:
            raise IllegalAction(f"{a}: seat {s} has no such card left in its own deck", seat=s,
                                rule="S57")
        chosen.append(card)
    for s, card in enumerate(chosen):
        own[s].remove(card)
        st.hands[s].append(card)
        st.events.append(("pick", s, card))
    if len(st.hands[0]) >= st.config.setup.hand_size:
        st._finish_picks()


def _find(st, cards: list[int], kind: tuple[int, bool]) -> int:
    k = st.T.kind
    for c in cards:
        if k[c] == kind:
            return c
    return -1


def _find_free(st, cards: list[int], kind: tuple[int, bool], p: int) -> int:
    """S43: a card of that kind carrying no octopus (reuse=free: or only p's own)."""
    k = st.T.kind
    mine = st.octo_at[p] if st.config.octopus.reuse == "free" else -2
    for c in cards:
        if k[c] == kind and (st.octo_on[c] < 0 or c == mine):
            return c
    return -1


def _ship_in_play(st, defense: int, p: int) -> int:
    s = st.T.ship_of.get(defense, -1)
    if s < 0 or s not in st.row:
        raise IllegalAction(f"ship {defense} is not in play: ships in play are "
                            f"{[st.T.defense[x] for x in st.row]}", seat=p, rule="S27")
    return s


def _check_place(st, s: int, side: int, p: int, what) -> None:
    if side not in (0, 1):
        raise IllegalAction(f"{what}: side must be A or B", seat=p, rule="S19")
    if not st.config.rules.play_on_any_side and side != p:
        raise IllegalAction(f"{what}: only your own side (rules.play_on_any_side=false)",
                            seat=p, rule="S19")
    if len(st.sides[s][side]) >= st.config.rules.max_cards_per_side:
        raise IllegalAction(f"{what}: that side already holds "
                            f"{st.config.rules.max_cards_per_side} cards", seat=p, rule="S20")


def _check_dir(st, s: int, card: int, side: int, p: int, d, what, placement: bool) -> None:
    """S25: the acting player names a direction exactly when they must choose one."""
    needed: tuple[str, ...] = ()
    if placement and st.T.sym[card] and (st.config.movement.chooser == "player" or side == p):
        needed = moves.dirs(st, s)
    if needed:
        if d not in needed:
            raise IllegalAction(f"{what}: the crew on {st.T.defense[s]} must move; choose a "
                                f"direction among {list(needed)}", seat=p, rule="S25")
    elif d is not None:
        raise IllegalAction(f"{what}: no crew movement for you to direct here", seat=p, rule="S23")


def apply_main(st, a) -> None:
    """Phase main (S16): the player to move plays a card, uses the octopus, places rum or passes."""
    p = st.cur
    t = type(a)
    if t is Rum:
        _place_rum(st, a, p, "before")
    elif t is Play:
        _play(st, a, p)
    elif t is Octopus:
        _move_octopus(st, a, p)
    elif t is Pass:
        _pass(st, p)
    else:
        raise IllegalAction(f"{a!r} is not an action of this phase: play a card, use the octopus, "
                            f"place rum or pass", seat=p, rule="S16")


def _play(st, a: Play, p: int) -> None:
    """S19-S22: a card from the hand beside a ship."""
    s = _ship_in_play(st, a.ship, p)
    card = _find(st, st.hands[p], (a.value, a.sym))
    if card < 0:
        raise IllegalAction(f"{a}: no such card in hand", seat=p, rule="S19")
    _check_place(st, s, a.side, p, a)
    _check_dir(st, s, card, a.side, p, a.dir, a, True)
    st.passes = 0
    st.hands[p].remove(card)
    st._put(card, s, a.side)
    st.events.append(("play", p, card, a.ship, a.side))
    st.pending = None
    st._resolve([p, s, a.side, card, -1, True, a.dir, 0])


def _move_octopus(st, a: Octopus, p: int) -> None:
    """S40-S46: the octopus moves a card on the table to another side."""
    if not moves.octopus_ready(st, p):
        raise IllegalAction(f"{a}: your octopus is not available (octopus.reuse="
                            f"{st.config.octopus.reuse})", seat=p, rule="S44")
    s1 = _ship_in_play(st, a.src_ship, p)
    s = _ship_in_play(st, a.ship, p)
    if a.src_side not in (0, 1):
        raise IllegalAction(f"{a}: side must be A or B", seat=p, rule="S40")
    card = _find_free(st, st.sides[s1][a.src_side], (a.value, a.sym), p)
    if card < 0:
        raise IllegalAction(f"{a}: no such card without an octopus there", seat=p, rule="S43")
    if s1 == s and a.src_side == a.side:
        raise IllegalAction(f"{a}: the card must move to another side", seat=p, rule="S46")
    _check_place(st, s, a.side, p, a)
    _check_dir(st, s, card, a.side, p, a.dir, a, st.config.octopus.as_placement)
    st.passes = 0
    old = st.octo_at[p]
    if old >= 0:                                                           # reuse=free
        st.octo_on[old] = -1
    src = st.sides[s1][a.src_side]
    src.remove(card)
    st.tot[s1][a.src_side] -= st.T.value[card]
    st._forget_board(crew=False)                                           # a side may open
    st._put(card, s, a.side)
    st.octo_on[card] = p
    st.octo_at[p] = card
    st.octo_spent[p] = True
    st.n_octo += 1
    st.events.append(("octopus", p, card, a.src_ship, a.src_side, a.ship, a.side))
    st._resolve([p, s, a.side, card, s1, False, a.dir, 0])


def _pass(st, p: int) -> None:
    """S18: a pass, allowed only to a player who can do nothing else; two in a row end the game."""
    if moves.can_act(st, p):
        raise IllegalAction("you may pass only when you can neither play a card nor use the "
                            "octopus", seat=p, rule="S18")
    st.events.append(("pass", p))
    st.passes += 1
    if st.passes >= 2:
        st._end("stalled")
        return
    st._end_action(p)


def _place_rum(st, a, p: int, when: str) -> None:
    if a.when != when:
        raise IllegalAction(f"{a}: rum now means rum '{when}' (rum.timing="
                            f"{st.config.rum.timing})", seat=p, rule="S17")
    if st.rum_left[p] <= 0 or st.rum_turn:
        raise IllegalAction(f"{a}: no rum mug left this game", seat=p, rule="S47")
    s = _ship_in_play(st, a.ship, p)
    if len(st.mugs[s]) >= st.config.rum.max_per_ship:
        raise IllegalAction(f"{a}: ship {a.ship} already carries "
                            f"{st.config.rum.max_per_ship} mug(s)", seat=p, rule="S52")
    st.rum_left[p] -= 1
    st.rum_turn = True
    st.mugs[s].append(p)
    st.n_rum += 1
    st.events.append(("rum", p, a.ship, when,
                      rules.threshold(a.ship, len(st.mugs[s]), st.config.rum.defense_bonus)))


def apply_rum_after(st, a) -> None:
    """Phase rum (S17): rum after the action, or the end of the turn."""
    p = st.cur
    if type(a) is EndTurn:
        st._next_turn()
        return
    if type(a) is not Rum:
        raise IllegalAction(f"{a!r}: after the action only 'rum on <ship> after' or 'end turn'",
                            seat=p, rule="S17")
    _place_rum(st, a, p, "after")
    st._next_turn()


def apply_direction(st, a) -> None:
    """Phase dir (S25): the chooser names the crew's direction; the waiting resolution resumes."""
    chooser, dirs, stage = st._pending()
    if type(a) is not Direction or a.dir not in dirs:
        raise IllegalAction(f"{a!r}: choose the crew's direction among {list(dirs)}",
                            seat=chooser, rule="S25")
    st.pending = None
    stage[6] = a.dir
    st.phase, st.acting = MAIN, ALONE[st.cur]
    st._resolve(stage)
