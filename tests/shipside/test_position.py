"""Text positions (simkit/games/shipside/position.py): worked positions read as written, the
round trip over whole games under every rule set, and errors that name the line at fault."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.errors import PositionError
from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.shipside import GAME, Direction, Octopus, Play, format_position, parse_position

from .helpers import ALTERNATIVES, A, B, config, crew_at

#: scenario 4 of §13 a few turns on: 32 taken by B, B's octopus on A's 9 beside 30, A's mug on 36
WORKED = """\
phase: main
turn: 9
turn player: B
start player: A
passes in a row: 0
rum placed this turn: no
pending: -
ship 28: crew captain | rum - | A: - = 0 | B: - = 0
ship 30: crew sailor | rum - | A: 9{B} = 9 | B: 8 -1* = 7
ship 34: crew mate | rum - | A: - = 0 | B: - = 0
ship 36: crew - | rum A | A: 10 10 = 20 | B: - = 0
A ships: -
A crew: -
B ships: 32
B crew: -
removed ships: -
removed crew: sailor
points: A 0, B 1
rum mugs left: A 0, B 1
octopus used: A no, B yes
marks: -
A hand: -2* 10 5 0
B hand: 7 7 3 1
deck: 4 6 2 8
out of the game: -4* -4* -3* -3* -2* -1* 0 0 0 1 1 1 2 2 2 3 3 3 4 4 4 5 5 5 6 6 6 7 7 8 8 9 9 9 10"""

#: movement.chooser=owner: A played a jellyfish on B's side of 34, B directs the mate (S25)
OWNER_CHOOSES = """\
phase: dir
turn: 0
turn player: A
start player: A
passes in a row: 0
rum placed this turn: no
pending: A's play to 34/B: B directs the crew (left, right)
ship 28: crew captain | rum - | A: - = 0 | B: - = 0
ship 30: crew sailor | rum - | A: - = 0 | B: - = 0
ship 32: crew - | rum - | A: - = 0 | B: - = 0
ship 34: crew mate | rum - | A: - = 0 | B: 10 -2* = 8
ship 36: crew sailor | rum - | A: - = 0 | B: - = 0
A ships: -
A crew: -
B ships: -
B crew: -
removed ships: -
removed crew: -
points: A 0, B 0
rum mugs left: A 1, B 1
octopus used: A no, B no
marks: -
A hand: 5
B hand: 7
deck: 4 6
out of the game: -4* -4* -3* -3* -2* -1* -1* 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 5 5 5 6 6 6 \
7 7 7 8 8 8 8 9 9 9 9 10 10 10"""


def test_worked_position_reads_as_written():
    st = parse_position(WORKED, config())
    assert format_position(st) == WORKED
    assert [st.T.defense[s] for s in st.row] == [28, 30, 34, 36]
    assert crew_at(st) == {28: ("captain",), 30: ("sailor",), 34: ("mate",)}
    assert st.to_act() == (B,) and st.turn == 9 and st.score == [0, 1]
    seen = st.observe(B)
    assert seen.row[1].cards == (((9, False, B),), ((8, False, -1), (-1, True, -1)))
    assert seen.row[1].totals == (9, 7) and seen.row[3].threshold == 42      # A's mug on 36 (S48)
    assert seen.hand == ((1, False), (3, False), (7, False), (7, False)) and seen.opp_hand == 4
    assert seen.octopus == ("supply", "on 30") and seen.rum_left == (0, 1)
    assert seen.captured == ((), (32,)) and seen.piles == (4,)
    assert not any(type(a) is Octopus for a in st.legal_actions(B))        # B's octopus is out (S44)
    st.apply([Play(1, False, 28, B, None)])
    assert st.T.value[st.hands[B][-1]] == 4                                 # the deck's first card
    assert format_position(st).splitlines()[-2] == "deck: 6 2 8"


def test_pending_direction_position():
    cfg = config(movement__chooser="owner")
    st = parse_position(OWNER_CHOOSES, cfg)
    assert format_position(st) == OWNER_CHOOSES
    assert st.to_act() == (B,) and st.cur == A
    assert st.legal_actions(B) == [Direction("L"), Direction("R")]
    assert st.observe(A).pending_ship == 34
    st.apply([Direction("R")])                      # 36, 28, 30 occupied: round to the empty 32
    assert crew_at(st)[32] == ("mate",) and st.to_act() == (A,)
    assert st.T.value[st.hands[A][-1]] == 4         # then A draws (S21)
    with pytest.raises(PositionError, match="movement.chooser=owner"):
        parse_position(OWNER_CHOOSES, config())


def test_mark_phase_lists_no_card():
    cfg = config(variant__enabled="true", variant__mark_assignment="chooser")
    st = GAME.new_state(cfg, 2, np.random.default_rng(1))
    text = format_position(st)
    assert "phase: mark" in text and "marks: -" in text and "out of the game: -" in text
    parsed = parse_position(text, cfg)
    assert parsed.to_act() == st.to_act() == (A,) and parsed.audit() == []
    with pytest.raises(PositionError, match="mark phase"):
        parse_position(text.replace("A hand: -", "A hand: 5"), cfg)


RULE_SETS = [{}, {"variant__enabled": "true"}, {"movement__chooser": "owner", "variant__enabled": "true"},
             {"variant__enabled": "true", "variant__mark_assignment": "chooser",
              "variant__personal_decks": "false"}, *ALTERNATIVES]


@pytest.mark.parametrize("overrides", RULE_SETS)
def test_round_trip_and_same_observations_at_every_step(overrides):
    """At every step of random games: the text reads back as itself, and the parsed state has the
    same seats to act, legal actions (in order) and observations, every field (none is history)."""
    cfg = config(setup__ship_order="random", setup__first_player="random", **overrides)
    phases = set()

    def check(state, *_):
        text = format_position(state)
        parsed = parse_position(text, cfg)
        assert format_position(parsed) == text
        assert parsed.to_act() == state.to_act()
        for seat in (A, B):
            assert parsed.observe(seat) == state.observe(seat), text
            assert parsed.legal_actions(seat) == state.legal_actions(seat), text
        phases.add(state.phase)

    for seed in range(4):
        st = GAME.new_state(cfg, 2, np.random.default_rng(seed))
        check(st)
        play_out(st, [parse_strategy("random", "shipside")] * 2, GameInfo("shipside", cfg, 2),
                 np.random.default_rng(seed).spawn(2), forfeit_on_error=False, after=check)
    assert {"main", "over"} <= phases


def test_a_parsed_position_plays_on_like_the_original():
    """Complete: from a parsed mid-game position the same actions give the same game (the basic
    game draws no chance after the deal)."""
    cfg = config(setup__ship_order="random", setup__first_player="random")
    original = GAME.new_state(cfg, 2, np.random.default_rng(3))
    actions = []
    play_out(original.clone(), [parse_strategy("greedy", "shipside")] * 2, GameInfo("shipside", cfg, 2),
             np.random.default_rng(3).spawn(2), forfeit_on_error=False,
             after=lambda state, step, seats, joint: actions.append(joint))
    for a in actions[:12]:
        original.apply(a)
    copy = parse_position(format_position(original), cfg)
    for a in actions[12:]:
        original.apply(a)
        copy.apply(a)
        assert format_position(copy) == format_position(original)
    assert copy.is_over() and copy.outcome().scores == original.outcome().scores


@pytest.mark.parametrize("old, new, words", [
    ("B hand: 7 7 3 1", "B hand: 7 7 3 11", ["line 23", "unknown card '11'"]),
    ("A hand: -2* 10 5 0", "A hand: -2 10 5 0", ["line 22", "unknown card '-2'"]),
    ("deck: 4 6 2 8", "deck: 4 6 2 8 10", ["line 25", "card 10 appears more often than the 4"]),
    ("ship 34: crew mate", "ship 33: crew mate", ["line 10", "unknown ship '33'"]),
    ("B ships: 32", "B ships: 32 34", ["line 14", "ship 34 is listed twice (also on line 10"]),
    ("B ships: 32", "B ships: -", ["ships missing: 32"]),
    ("ship 28: crew captain", "ship 28: crew bosun", ["line 8", "unknown crew token 'bosun'"]),
    ("removed crew: sailor", "removed crew: -", ["crew tokens missing: sailor"]),
    ("B: 8 -1* = 7", "B: 8 -1* = 9", ["line 9", "add up to 7, not 9"]),
    ("A hand: -2* 10 5 0", "A hand: -2* 10{A} 5 0", ["line 22", "an octopus lies only on a card beside"]),
    ("A: 10 10 = 20", "A: 10 10{B} = 20", ["line 11", "B's octopus lies on two cards"]),
    ("octopus used: A no, B yes", "octopus used: A no, B no", ["line 20", "B's octopus lies on a card"]),
    ("phase: main", "phase: sailing", ["line 1", "unknown phase 'sailing'"]),
    ("turn: 9", "turn: nine", ["line 2", "expected a whole number 0 or more, not 'nine'"]),
    ("turn player: B", "turn player: C", ["line 3", "unknown seat 'C': allowed are A, B"]),
    ("points: A 0, B 1", "points: A 0, B 3", ["line 18", "worth A 0, B 1"]),
    ("pending: -", "pending: A's play to 34/B: B directs the crew (left)", ["line 7", "only the dir phase"]),
    ("ship 36: crew - | rum A |", "ship 36: crew - rum A |", ["line 11", "expected 'crew"]),
    ("deck: 4 6 2 8", "A deck: 4 6 2 8", ["line 24", "one shared deck"]),
    ("marks: -", "marks: A starfish, B shell", ["line 21", "only in the variant"]),
    ("rum mugs left: A 0, B 1", "rum mugs: A 0, B 1", ["line 19", "unknown key 'rum mugs'"]),
    ("turn: 9\n", "", ["the position has no 'turn:' line"]),
    ("turn: 9\n", "turn: 9\nturn: 10\n", ["line 3", "given twice (first on line 2)"]),
    ("phase: main", "phase main", ["line 1", "expected 'key: value'"]),
])
def test_errors_name_the_line_and_the_fault(old, new, words):
    assert WORKED.count(old) == 1, old
    with pytest.raises(PositionError) as err:
        parse_position(WORKED.replace(old, new), config())
    for word in words:
        assert word in str(err.value), (word, str(err.value))


def test_side_limit_of_the_config():
    with pytest.raises(PositionError, match="line 9 .*side B holds 2 cards: at most 1"):
        parse_position(WORKED, config(rules__max_cards_per_side="1"))


def test_every_card_must_be_placed():
    with pytest.raises(PositionError, match="cards missing: 10"):
        parse_position(WORKED.replace(" 9 9 9 10", " 9 9 9"), config())


def test_rule_breaking_position_is_refused():
    """Parsed but against the rules: a score of 4 in a game still going on (S53)."""
    text = WORKED.replace("B ships: 32", "B ships: 32 34 28").replace("B crew: -", "B crew: mate captain")
    text = text.replace("points: A 0, B 1", "points: A 0, B 5")
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("ship 34", "ship 28")))
    with pytest.raises(PositionError, match="breaks the rules.*5 >= 4 points"):
        parse_position(text, config())


def test_damaged_texts_raise_position_errors_only():
    """Lines dropped, doubled, cut or swapped with a neighbour: a PositionError or a sound state,
    never another exception."""
    rng = np.random.default_rng(0)
    lines = WORKED.splitlines()
    for _ in range(300):
        damaged = list(lines)
        i = int(rng.integers(len(damaged)))
        kind = int(rng.integers(4))
        if kind == 0:
            del damaged[i]
        elif kind == 1:
            damaged.insert(i, damaged[i])
        elif kind == 2:
            damaged[i] = damaged[i][: int(rng.integers(len(damaged[i]) + 1))]
        else:
            j = int(rng.integers(len(damaged)))
            words_i, words_j = damaged[i].split(" "), damaged[j].split(" ")
            words_i[-1], words_j[-1] = words_j[-1], words_i[-1]
            damaged[i], damaged[j] = " ".join(words_i), " ".join(words_j)
        try:
            st = parse_position("\n".join(damaged), config())
        except PositionError as err:
            assert str(err)
        else:
            assert st.audit() == []


def test_parse_takes_the_generator_of_future_chance():
    """The variant shuffles the unpicked cards after the picks: from the rng given to parse."""
    cfg = config(variant__enabled="true")
    st = GAME.new_state(cfg, 2, np.random.default_rng(2))
    for _ in range(3):
        st.apply([st.legal_actions(A)[0], st.legal_actions(B)[0]])
    text = format_position(st)
    piles = []
    for seed in (5, 5, 6):
        parsed = parse_position(text, cfg, np.random.default_rng(seed))
        parsed.apply([parsed.legal_actions(A)[0], parsed.legal_actions(B)[0]])
        piles.append([parsed.T.label[c] for c in parsed.piles[0]])
    assert piles[0] == piles[1] != piles[2]

