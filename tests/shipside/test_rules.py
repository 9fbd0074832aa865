"""One focused test per spec rule that no other test checked by number (S1-S59, see
docs/shipside-rules.md). Each asserts the behaviour the rule states, on a constructed
position (row 28-30-32-34-36, A = seat 0) or a fresh setup."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from simkit.engine.errors import IllegalAction
from simkit.games.shipside import (
    EndTurn,
    Octopus,
    Play,
    Rum,
    ShipsideConfig,
    ShipsideState,
)
from simkit.games.shipside.rules import MAIN, RUM, ship_result, tables

from .helpers import A, B, config, crew_at, play_randomly, position, ship

DEFENSES = (28, 30, 32, 34, 36)


def _fresh(seed: int, **overrides) -> ShipsideState:
    cfg = config(setup__ship_order="random", setup__first_player="random", **overrides)
    return ShipsideState(cfg, 2, np.random.default_rng(seed))


# ---------------------------------------------------------------- §1 components

def test_S1_five_ships_and_their_defense():
    """S1: five ships with defenses 28, 30, 32, 34, 36; the number is the defense a side must reach."""
    assert tables(ShipsideConfig()).defense == DEFENSES
    st = _fresh(0)
    assert sorted(v.defense for v in st.observe(A).row) == list(DEFENSES)
    assert all(v.threshold == v.defense for v in st.observe(A).row)


@pytest.mark.parametrize("defense", DEFENSES)
def test_S1_printed_number_is_the_ship_defense(defense):
    """S1: a side totalling exactly the printed number captures; one less does not."""
    below = [10, 10, 10, defense - 31] if defense > 30 else [10, 10, defense - 21]
    st = position(hands=((1, 0), (1,)), sides={defense: (below, ())})
    st.apply([Play(0, False, defense, A, None)])         # total defense - 1: nothing
    assert ship(st, defense) in st.row
    st = position(hands=((1, 0), (1,)), sides={defense: (below, ())})
    st.apply([Play(1, False, defense, A, None)])         # total == defense: captured
    assert st.captured[A] == [ship(st, defense)]


def test_S3_deck_values_and_counts():
    """S3: four copies each of 0..10 and two copies each of -1..-4 (52 cards)."""
    T = tables(ShipsideConfig())
    expect = {**{v: 4 for v in range(11)}, **{v: 2 for v in range(-4, 0)}}
    assert Counter(T.value) == expect
    st = _fresh(1)
    dealt = st.hands[0] + st.hands[1] + st.piles[0]
    assert Counter(st.T.value[c] for c in dealt) == expect


def test_S4_strength_is_the_printed_number_and_may_be_negative():
    """S4: a card adds exactly its printed strength to the side total, negative ones subtract."""
    st = position(hands=((7, -3), (5, 2)), sides={32: ((4,), (6,))})
    s = ship(st, 32)
    st.apply([Play(7, False, 32, A, None)])
    assert st.tot[s] == [11, 6] and st.observe(B).row[2].totals == (11, 6)
    st.apply([EndTurn()])
    st.apply([Play(5, False, 32, B, None)])
    st.apply([EndTurn()])
    st.apply([Play(-3, True, 32, B, "L")])               # onto B's side: 11 - 3
    assert st.tot[s] == [11, 8]


def test_S5_jellyfish_are_the_negative_cards_without_extra_effect():
    """S5: the 8 jellyfish are the negative cards; beyond their strength they do nothing
    (with the move symbol taken off, a -2 behaves like any other card)."""
    T = tables(ShipsideConfig())
    jelly = [c for c in range(T.n_cards) if T.jelly[c]]
    assert len(jelly) == 8 and all(T.value[c] < 0 for c in jelly)
    assert all(T.jelly[c] == (T.value[c] < 0) for c in range(T.n_cards))
    st = position(config(deck__move_symbol="[]"), hands=((-2, 5), (1,)), sides={30: ((9,), ())})

    def places(v):
        return sorted((a.ship, a.side, a.dir) for a in st.legal_actions(A)
                      if type(a) is Play and a.value == v)

    assert places(-2) == places(5)                       # same places, no direction to choose
    before = crew_at(st)
    st.apply([Play(-2, False, 30, A, None)])
    assert st.tot[ship(st, 30)] == [7, 0] and crew_at(st) == before
    assert len(st.hands[A]) == 2 and st.phase == RUM     # drew a card, turn goes on as usual


def test_S8_crew_tokens_and_captain_mate_play_like_sailors():
    """S8: 2 sailors, 1 captain, 1 first mate; captain and mate are worth and move like a sailor."""
    T = tables(ShipsideConfig())
    assert sorted(T.crew_kind) == ["captain", "mate", "sailor", "sailor"]
    for kind in ("captain", "mate", "sailor"):
        st = position(hands=((3, -1), (1,)), sides={30: ((10, 10, 7), ())}, crew={30: kind})
        st.apply([Play(3, False, 30, A, None)])
        assert st.score[A] == 2 and [st.T.crew_kind[t] for t in st.crew_won[A]] == [kind]
        st = position(hands=((3, -1), (1,)), crew={30: kind, 32: "sailor" if kind != "sailor" else "mate"})
        st.apply([Play(-1, True, 30, A, "R")])           # skips the occupied 32, lands on 34
        assert crew_at(st)[34] == (kind,) and 30 not in crew_at(st)


def test_S9_S13_each_player_has_a_mug_and_an_octopus_in_their_supply():
    """S9, S13: each player starts with their own rum mug and octopus in front of them; using one
    player's tokens leaves the other's untouched."""
    st = _fresh(2)
    obs = st.observe(A)
    assert obs.rum_left == (1, 1) and obs.octopus == ("supply", "supply")
    st = position(hands=((1, 2), (1, 2)), sides={30: ((9,), (8,))})
    st.apply([Rum(32, "before")])
    st.apply([Octopus(9, False, 30, A, 34, A, None)])
    obs = st.observe(B)
    assert obs.rum_left == (0, 1) and obs.octopus == ("on 34", "supply")
    assert st.to_act() == (B,)                           # A has no mug left: B's turn at once
    legal = st.legal_actions(B)
    assert any(type(a) is Rum for a in legal)
    assert any(type(a) is Octopus and a.value == 8 for a in legal)


# ---------------------------------------------------------------- §2 setup

def test_S10_ship_row_random_order_or_ascending():
    """S10: the 5 ships lie in one row; random order by default (several orders over seeds),
    ascending 28-36 with setup.ship_order=ascending."""
    orders = set()
    for seed in range(12):
        st = _fresh(seed)
        row = tuple(st.T.defense[s] for s in st.row)
        assert sorted(row) == list(DEFENSES)
        assert st.events[0][0] == "setup" and st.events[0][1] == row
        orders.add(row)
    assert len(orders) > 3
    st = ShipsideState(config(), 2, np.random.default_rng(0))
    assert [st.T.defense[s] for s in st.row] == list(DEFENSES)


def test_S12_deal_four_cards_each():
    """S12: the 52 shuffled cards: 4 to each hand, the other 44 form the draw pile."""
    hands = set()
    for seed in range(5):
        st = _fresh(seed)
        assert [len(h) for h in st.hands] == [4, 4] and len(st.piles) == 1 and len(st.piles[0]) == 44
        assert sorted(st.hands[0] + st.hands[1] + st.piles[0]) == list(range(52))
        assert st.observe(A).piles == (44,) and st.observe(A).opp_hand == 4
        hands.add(tuple(st.hands[0]))
    assert len(hands) == 5                               # shuffled: the deal changes with the seed


def test_S14_start_player_random_no_compensation():
    """S14: the start player is chosen at random (or fixed by setup.first_player); the second
    player gets nothing extra."""
    firsts = set()
    for seed in range(16):
        st = _fresh(seed)
        firsts.add(st.first)
        assert st.cur == st.first and st.to_act() == (st.first,)
        assert [len(h) for h in st.hands] == [4, 4] and st.rum_left == [1, 1]
    assert firsts == {0, 1}
    st = ShipsideState(config(setup__first_player="1"), 2, np.random.default_rng(0))
    assert st.to_act() == (B,) and st.events[0][3] == B


# ---------------------------------------------------------------- §3 turns

def test_S15_players_alternate_until_the_end():
    """S15: turns alternate between the players until the game ends."""
    for seed in range(3):
        st = _fresh(seed)
        play_randomly(st, seed)
        turns = [e for e in st.events if e[0] == "turn"]
        assert turns[0][2] == st.first
        for i, (_, n, seat) in enumerate(turns):
            assert n == i and seat == (st.first + i) % 2
        assert st.reason in ("points", "all scored")


def test_S16_exactly_one_action_per_turn():
    """S16: one action (a card or the octopus) per turn, then the other player moves."""
    st = position(hands=((5, 6), (1,)), sides={30: ((9,), ())})
    st.apply([Play(5, False, 32, A, None)])
    assert st.phase == RUM                               # only rum after, or end the turn
    assert all(type(a) in (EndTurn, Rum) for a in st.legal_actions(A))
    for second in (Play(6, False, 32, A, None), Octopus(9, False, 30, A, 34, A, None)):
        with pytest.raises(IllegalAction):
            st.apply([second])
    st.apply([EndTurn()])
    assert st.to_act() == (B,)
    st = position(config(rum__timing="before"), hands=((5, 6), (1,)), sides={30: ((9,), ())})
    st.apply([Octopus(9, False, 30, A, 34, A, None)])
    assert st.to_act() == (B,) and st.phase == MAIN      # the octopus was the whole action


# ---------------------------------------------------------------- §4 playing a card

def test_S21_resolution_order_place_move_check_draw():
    """S21: place the card, move the crew, check the ship, then draw."""
    st = position(hands=((-1, 4), (1,)), sides={30: ((6, 6, 6, 6), (5, 5, 5, 3, 2))})
    n = len(st.events)
    st.apply([Play(-1, True, 30, A, "L")])
    kinds = [e[0] for e in st.events[n:]]
    assert kinds[:4] == ["play", "move", "score", "draw"]
    score = st.events[n + 2]
    assert score[4] == 23 and score[7] == ()             # checked with the card, after the sailor left


def test_S22_draw_after_playing_until_the_pile_is_empty():
    """S22: after playing, draw the top card of the pile; once it is empty nobody draws and
    hands shrink."""
    st = position(hands=((1, 2, 3, 4), (1, 2, 3, 4)))
    top = st.piles[0][-1]
    n_pile = len(st.piles[0])
    st.apply([Play(1, False, 28, A, None)])
    assert len(st.hands[A]) == 4 and top in st.hands[A] and len(st.piles[0]) == n_pile - 1
    st = position(hands=((1, 2, 3, 4), (1, 2, 3, 4)), deck=())
    st.apply([Play(1, False, 28, A, None)])
    st.apply([EndTurn()])
    st.apply([Play(1, False, 28, B, None)])
    st.apply([EndTurn()])
    st.apply([Play(2, False, 28, A, None)])
    assert [len(h) for h in st.hands] == [2, 3]
    assert not any(e[0] == "draw" for e in st.events)


# ---------------------------------------------------------------- §6 scoring

def test_S31_ship_checked_whenever_a_card_lands_on_either_side():
    """S31: placing a card on a side checks that ship, whoever played it, after crew movement."""
    st = position(hands=((3, 1), (1,)), sides={30: ((), (10, 10, 7))})
    st.apply([Play(3, False, 30, B, None)])              # A raises B's side to 30
    assert st.captured[B] == [ship(st, 30)] and st.score == [0, 2]
    st = position(hands=((-1, 1), (1,)), sides={30: ((6, 6, 4, 4), (5, 5, 5, 5, 3))})
    st.apply([Play(-1, True, 30, A, "R")])               # A's 5th card: 19 vs 23, both sides full
    assert st.captured[B] == [ship(st, 30)]
    assert st.score == [0, 1] and crew_at(st)[34] == ("sailor",)   # checked after the sailor moved


def test_S39_threshold_and_full_at_once():
    """S39: the last card fills both sides and reaches the threshold: S32 is applied (first),
    and the threshold side is also the higher one."""
    st = position(hands=((4, 1), (1,)), sides={30: ((10, 10, 5, 1), (5, 5, 5, 3, 2))})
    st.apply([Play(4, False, 30, A, None)])
    score = [e for e in st.events if e[0] == "score"][-1]
    assert score[1:6] == (30, A, "threshold", 30, 20)
    assert st.captured[A] == [ship(st, 30)]
    assert ship_result(30, 20, 5, 5, 30, 5, True, B) == (A, "threshold")
    assert ship_result(29, 20, 5, 5, 30, 5, True, B) == (A, "full")


# ---------------------------------------------------------------- §7 octopus

def test_S42_octopus_move_follows_the_placement_rules():
    """S42: the moved card counts as placed: the 5-card limit applies at the destination, a
    symbol card moves the destination's crew in the direction the octopus user chooses, and the
    destination is checked for scoring."""
    st = position(hands=((1,), (1,)), sides={30: ((9,), ()), 32: ((2, 2, 2, 3, 3), ())})
    assert Octopus(9, False, 30, A, 32, A, None) not in st.legal_actions(A)
    with pytest.raises(IllegalAction) as err:
        st.apply([Octopus(9, False, 30, A, 32, A, None)])
    assert err.value.rule == "S20"
    st = position(hands=((1,), (1,)), sides={34: ((-2,), ())}, cur=B)
    legal = st.legal_actions(B)
    assert Octopus(-2, True, 34, A, 30, A, "L") in legal
    assert Octopus(-2, True, 34, A, 30, A, None) not in legal
    st.apply([Octopus(-2, True, 34, A, 30, A, "R")])      # onto A's side; B chooses
    assert crew_at(st)[34] == ("sailor",)                 # 32 occupied -> skipped
    assert [e for e in st.events if e[0] == "move"][-1][4] == B
    st = position(hands=((1,), (1,)), sides={30: ((10, 10, 9), (2,))})
    st.apply([Octopus(2, False, 30, B, 30, A, None)])
    assert st.captured[A] == [ship(st, 30)]


# ---------------------------------------------------------------- §8 rum

def test_S47_rum_mug_once_per_game():
    """S47: after using the mug, the player cannot use it again in a later turn; the other still can."""
    st = position(hands=((1, 2, 3), (1, 2, 3)))
    st.apply([Rum(30, "before")])
    st.apply([Play(1, False, 28, A, None)])
    assert st.to_act() == (B,)                           # no rum step left for A
    st.apply([Play(1, False, 28, B, None)])
    st.apply([EndTurn()])                                # B declines its mug
    assert st.to_act() == (A,) and not any(type(a) is Rum for a in st.legal_actions(A))
    with pytest.raises(IllegalAction) as err:
        st.apply([Rum(32, "before")])
    assert err.value.rule == "S47"
    st.apply([Play(2, False, 28, A, None)])
    assert any(type(a) is Rum for a in st.legal_actions(B))


def test_S50_mug_stays_until_its_ship_is_scored():
    """S50: the mug stays on its ship turn after turn (defense +6) and leaves the game when the
    ship is scored."""
    st = position(hands=((1, 2, 3), (1, 2, 6)), sides={30: ((), (10, 10, 10))}, mugs={30: [A]},
                  rum_left=(0, 0), cur=A)
    s = ship(st, 30)
    for p, v in ((A, 1), (B, 1), (A, 2), (B, 2)):
        st.apply([Play(v, False, 28, p, None)])
        assert st.mugs[s] == [A] and st.observe(B).row[1].threshold == 36
    assert s in st.row                                   # B's 30 < 36
    st.apply([Play(3, False, 34, A, None)])
    st.apply([Play(6, False, 30, B, None)])              # 36: captured
    assert st.captured[B] == [s] and st.mugs[s] == [] and st.rum_left == [0, 0]


def test_S51_mug_ignored_by_the_full_comparison():
    """S51: with both sides full, the higher total captures even below the raised defense."""
    st = position(hands=((2, 1), (1,)), sides={28: ((6, 6, 4, 4), (5, 5, 5, 5, 4))}, mugs={28: [B]},
                  rum_left=(1, 0), crew={28: "sailor"})
    st.apply([Play(2, False, 28, A, None)])              # 22 vs 24, defense 28 + 6 = 34
    assert st.captured[B] == [ship(st, 28)] and st.score == [0, 2]
    for thr in (28, 34, 40, 100):
        assert ship_result(22, 24, 5, 5, thr, 5, True, A) == (B, "full")


# ---------------------------------------------------------------- §10 variant

def test_S57_opening_hand_chosen_rest_is_own_shuffled_pile():
    """S57: each player picks 4 cards of their own 26; the other 22 are shuffled into their own pile."""
    orders = set()
    for seed in (3, 4):
        st = ShipsideState(config(variant__enabled="true"), 2, np.random.default_rng(seed))
        own = [sorted(c for c in range(52) if st.T.mark[c] == ("starfish", "shell").index(st.marks[s]))
               for s in (0, 1)]
        for _ in range(4):
            st.apply([st.legal_actions(0)[-1], st.legal_actions(1)[0]])
        for s in (0, 1):
            assert len(st.hands[s]) == 4 and set(st.hands[s]) <= set(own[s])
            assert sorted(st.hands[s] + st.piles[s]) == own[s] and len(st.piles[s]) == 22
        orders.add(tuple(st.T.value[c] for c in st.piles[0]))
        assert list(st.piles[0]) != sorted(st.piles[0])
    assert len(orders) == 2


def _play_script(cfg, kwargs, actions):
    """What the actions leave, cards named by label (which copy of a card lies where does not
    matter; in the variant the copies come from each seat's own deck)."""
    st = position(cfg, **kwargs)
    for a in actions:
        st.apply([a])
    label = st.T.label
    events = [e[:2] + (label[e[2]],) + e[3:] if e[0] in ("play", "octopus") else e
              for e in st.events if e[0] != "draw"]
    octopi = [label[c] if c >= 0 else None for c in st.octo_at]
    return (st.phase, st.reason, st.score, st.captured, st.crew_won, crew_at(st), st.tot, st.mugs,
            octopi, st.rum_left, events)


SCRIPTS = [
    # threshold with crew (S32, S35), skip and wrap (S26-S28), escape then full capture (S30, S33)
    ({"hands": ((1, 2), (3, 5)), "sides": {30: ((4,), (10, 9, 8))}, "cur": B},
     [Play(3, False, 30, B, None)]),
    ({"hands": ((-2,), (1,)), "crew": {34: "mate", 30: "sailor", 28: "captain"}, "scored": {32: B}},
     [Play(-2, True, 34, A, "L")]),
    ({"hands": ((-1, 4), (1,)), "sides": {30: ((6, 6, 6, 6), (5, 5, 5, 3, 2))}},
     [Play(-1, True, 30, A, "L")]),
    # full tie (S34), rum (S48), octopus (S40-S42), end at 4 points (S53)
    ({"hands": ((3, 1), (1,)), "sides": {36: ((6, 6, 6, 6), (7, 5, 5, 5, 5))}},
     [Play(3, False, 36, A, None)]),
    ({"hands": ((1, 2), (6, 3)), "sides": {30: ((), (10, 10, 7))}, "mugs": {30: [A]},
      "rum_left": (0, 1), "cur": B},
     [Play(3, False, 30, B, None), EndTurn(), Play(1, False, 28, A, None), Play(6, False, 30, B, None)]),
    ({"hands": ((1, 2), (1, 2)), "sides": {30: ((10, 10, 9), (2,))}},
     [Octopus(2, False, 30, B, 30, A, None)]),
    ({"hands": ((10, 1), (1,)), "sides": {30: ((10, 10), ())}, "scored": {32: A, 34: A},
      "crew": {36: "captain", 30: "sailor", 28: "sailor"}},
     [Play(10, False, 30, A, None)]),
]


@pytest.mark.parametrize("i", range(len(SCRIPTS)))
def test_S59_variant_keeps_every_other_rule(i):
    """S59: with the variant on, the same position and moves give the same movement, scoring,
    octopus, rum and end as in the basic game."""
    kwargs, actions = SCRIPTS[i]
    variant = config(variant__enabled="true")
    assert position(variant, **kwargs).pile_of == (0, 1)     # really the variant (own piles)
    assert _play_script(variant, kwargs, actions) == _play_script(config(), kwargs, actions)
