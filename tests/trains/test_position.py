"""Text positions (simkit/games/trains/position.py): worked positions, exact round trips at every
step of random games under every config, the same play on from a parsed state, errors named."""

import copy
import re

import numpy as np
import pytest

from simkit.engine.errors import PositionError
from simkit.games.trains import GAME, TrainsConfig
from simkit.games.trains.actions import DRAW, USE_ONE
from simkit.games.trains.position import format_position, parse_position

from .helpers import P0_TO_PLAY, play_random, position

#: a mid-game position: P1 has locks on slots 1 and 7, P2 drew 33 and must place it
WORKED = """\
start: P1
turn: 17
phase: place
current: P2
P0: 3 9 20 41 55 84 70
P1: 12 30 45 50 61 82 77 | locks 1:2 7:10
P2: 80 66 51 40 22 13 5
display: e1:4 e3:17
draw pile (top first): 47 11 ...
discard pile (bottom first): 58 25 60
setup discards P0: 25
drawn P2: 33
"""


def test_worked_position_puts_every_card_in_its_zone():
    s = position(WORKED)
    assert s.start == 1 and s.turns == 17 and s.cur == 2 and s.to_act() == (2,)
    assert s.trains == [[3, 9, 20, 41, 55, 84, 70], [12, 30, 45, 50, 61, 82, 77], [80, 66, 51, 40, 22, 13, 5]]
    assert s.locks[1] == [2, 0, 0, 0, 0, 0, 10] and s.locks[0] == s.locks[2] == [0] * 7
    assert s.display[1] == 4 and s.display[3] == 17 and sum(1 for c in s.display if c) == 2
    assert s.draw[-2:] == [11, 47]                       # 47 is on top
    named = {3, 9, 20, 41, 55, 84, 70, 12, 30, 45, 50, 61, 77, 82, 2, 10, 80, 66, 51, 40, 22, 13, 5,
             4, 17, 47, 11, 58, 25, 60, 33}
    assert s.draw[:-2] == sorted(set(range(1, 85)) - named, reverse=True)   # '...': ascending below
    assert s.discard == [58, 25, 60] and s.hidden == [[25], [], []]
    assert s.drawn == 33 and s.legal_actions(2)[0] == ("place", 1)
    assert s.audit() == []


def test_worked_position_reads_back_as_written_with_the_rest_spelled_out():
    s = position(WORKED)
    text = format_position(s)
    assert text.splitlines()[:7] == WORKED.splitlines()[:7]
    assert "draw pile (top first): 47 11 1 6 7 8 " in text
    assert format_position(parse_position(text, TrainsConfig())) == text


def test_a_won_game_keeps_its_empty_slot_and_winner():
    """G6 played out: P1 wins on a refill, P2's slot 7 stays empty; the position says so."""
    s = position(f"""{P0_TO_PLAY}
        P0: 80 66 51 40 22 13 5
        P1: 3 9 20 41 55 70 18
        P2: 77 62 50 36 27 11 8
        display: e7:14
        draw pile (top first): 33 84 47 ...
        discard pile (bottom first): -""")
    s.apply([USE_ONE[(7, None)]])
    text = format_position(s)
    assert "P2: 77 62 50 36 27 11 _" in text and text.endswith("winner: P1")
    again = parse_position(text, TrainsConfig())
    assert again.is_over() and again.outcome().win_shares == (0.0, 1.0, 0.0)


def test_a_capped_game_has_no_winner():
    s = GAME.new_state(TrainsConfig(max_turns=3), 2, np.random.default_rng(1))
    play_random(s, 1)
    text = format_position(s)
    assert text.endswith("winner: none (turn cap)")
    again = parse_position(text, TrainsConfig(max_turns=3))
    assert again.is_over() and again.outcome().win_shares == (0.0, 0.0) and again.capped


def test_parsed_position_renders_as_a_log_from_that_position():
    s = position(WORKED)
    s.apply([("place", 6)])
    log = GAME.render_log(s)
    assert "from a position after 17 turns" in log
    # the log counts players from P1: the position's P1 and P2 are the log's P2 and P3
    assert "start player P2," in log
    assert "P2: 12* 30  45  50  61  82  77*   locks: slot 1 (card 2), slot 7 (card 10)" in log
    assert "P3 places 33 in slot 6; 13 goes face up to the display" in log


CONFIGS = [
    TrainsConfig(max_turns=60),
    TrainsConfig(max_turns=60, setup_order="simultaneous", start_seat=1, double_lock=True),
    TrainsConfig(max_turns=60, effect_table="periodic", used_card="before", reshuffle="eager",
                 pair_keep="first", refill_stop="complete", unseen_cards=True),
]


def _without_history(observation):
    return observation._replace(log=())


@pytest.mark.parametrize("config", CONFIGS, ids=["default", "simultaneous", "alternatives"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_round_trip_and_observations_at_every_step(config, n):
    """At every step: the text reads back as itself, and the parsed state shows every seat the
    same observation (its public log aside), the same seats to act and legal actions."""
    state = GAME.new_state(config, n, np.random.default_rng(n))
    checked = []

    def check(state, *_):
        text = format_position(state)
        parsed = parse_position(text, config)
        assert format_position(parsed) == text
        assert parsed.to_act() == state.to_act()
        for seat in range(n):
            assert _without_history(parsed.observe(seat)) == _without_history(state.observe(seat))
            assert parsed.legal_actions(seat) == state.legal_actions(seat)
        checked.append(state.phase)

    check(state)
    play_random(state, n, after=check)
    assert len(set(checked)) >= 4       # setup phases, turns, placements and the end were all seen


@pytest.mark.parametrize("seed", range(4))
def test_a_parsed_state_with_the_same_generator_plays_on_exactly_alike(seed):
    """Nothing that decides the game is lost: with a copy of the chance generator, a state parsed
    mid-game and the original make the same events (reshuffles included) for the same actions."""
    config = TrainsConfig(max_turns=400)
    state = GAME.new_state(config, 3, np.random.default_rng(seed))
    play_random(state, seed, max_steps=40)
    parsed = parse_position(format_position(state), config, copy.deepcopy(state.rng))
    start = len(state.events)
    seen = []
    play_random(state, seed + 1, after=lambda s, *_: seen.append(format_position(s)))
    replayed = []
    play_random(parsed, seed + 1, after=lambda s, *_: replayed.append(format_position(s)))
    assert replayed == seen and parsed.events[1:] == state.events[start:]
    assert any(event[0] == "reshuffle" for event in parsed.events)


def test_pending_setup_cards_are_part_of_the_position():
    config = TrainsConfig(setup_order="simultaneous", start_seat=0)
    s = GAME.new_state(config, 4, np.random.default_rng(1))
    text = format_position(s)
    assert "phase: keep" in text and "kept P0: " in text
    assert [line.split(":")[0] for line in text.splitlines() if line.startswith("setup draw")] == \
        ["setup draw P1", "setup draw P2", "setup draw P3"]
    assert parse_position(text, config).to_act() == (1, 2, 3)


def test_a_drawn_card_is_only_seen_by_its_holder_after_parsing():
    s = position(f"""{P0_TO_PLAY}
        P0: 80 66 51 40 22 13 5
        P1: 70 65 50 45 35 25 15
        display: -
        draw pile (top first): 33 ...
        discard pile (bottom first): -""")
    s.apply([DRAW])
    parsed = parse_position(format_position(s), TrainsConfig())
    assert parsed.observe(0).drawn == 33 and parsed.observe(1).drawn == 0


def _broken(old: str, new: str) -> str:
    assert old in WORKED
    return WORKED.replace(old, new)


@pytest.mark.parametrize("text,message", [
    (_broken("P0: 3 9", "P0: 3 99"), "line 5 ('P0: … unknown card '99'"),
    (_broken("P0: 3 9", "P0: 3 x"), "line 5 ('P0: … unknown card 'x'"),
    (_broken("e3:17", "e3:3"), "line 8 ('display: … card 3 is listed twice (also on line 5 ('P0: "),
    (_broken("e3:17", "e3:12"), "line 8 ('display: … card 12 is listed twice (also on line 6 ('P1: "),
    (_broken("P0: 3 9 20", "P0: 3 9"), "line 5 ('P0: … a train has 7 slots"),
    (_broken("locks 1:2", "locks 2:2"), "line 6 ('P1: … lock '2:2': write SLOT:CARD with SLOT 1, 4 or 7"),
    (_broken("locks 1:2 7:10", "locks 1:2 1:10"), "line 6 ('P1: … slot 1 has two locks"),
    (_broken("| locks", "| lox"), "line 6 ('P1: … after '|' expected 'locks SLOT:CARD ...'"),
    (_broken("e3:17", "e4:17"), "line 8 ('display: … card 17 has effect 3, not 4"),
    (_broken("e3:17", "e3:17 e3:1"), "line 8 ('display: … two cards of effect 3"),
    (_broken("e3:17", "3:17"), "line 8 ('display: … '3:17': write each display card as eEFFECT:CARD"),
    (_broken("47 11 ...", "47 11"), "cards missing: 1 6 7 … every card 1..84 is named once"),
    (_broken("58 25 60", "58 25 60 ..."), "line 10 ('discard pile (bottom first): … '...' may end"),
    (_broken("47 11 ...", "47 ... 11"), "line 9 ('draw pile (top first): … '...' may only be the last word"),
    (_broken("phase: place", "phase: dance"), "line 3 ('phase: … unknown phase 'dance'"),
    (_broken("current: P2", "current: P7"), "line 4 ('current: … unknown seat 'P7': allowed are P0, P1, P2"),
    (_broken("turn: 17", "turn: many"), "line 2 ('turn: … expected a whole number"),
    (_broken("start: P1\n", ""), "the position has no 'start:' line"),
    (_broken("start: P1", "start: P1\nstart: P0"),
     "line 2 ('start: P0'): 'start' is given twice (first on line 1)"),
    (_broken("start: P1", "begin: P1"), "line 1 ('begin: P1'): unknown key 'begin'"),
    (_broken("P1: ", "P3: "), "the 'P<seat>' lines are numbered 0, 2, 3"),
    (_broken("drawn P2: 33", "drawn P1: 33"), "line 12 ('drawn P1: … only the current seat P2"),
    (_broken("phase: place", "phase: turn"), "line 12 ('drawn P2: … no drawn card waits for placement (T9)"),
    (_broken("drawn P2: 33", "kept P2: 33"), "line 12 ('kept P2: … no kept card waits for placement (T7)"),
    (_broken("drawn P2: 33", "setup draw P2: 33 34"), "line 12 ('setup draw P2: … a setup draw of 2"),
    (_broken("drawn P2: 33\n", ""), "line 3 ('phase: … P2 is to place a drawn card (T9) but has no"),
    (_broken("phase: place", "phase: keep"), "line 3 ('phase: … P2 is to keep a card (T6)"),
    (_broken("setup discards P0: 25", "setup discards P0: 26"), "cards [26] are not in the discard pile"),
    (_broken("drawn P2: 33", "drawn P2: 33\nwinner: P0"),
     "line 13 ('winner: … only given when the game is over"),
    (_broken("phase: place", "phase: over").replace("drawn P2: 33", "winner: P0\nkept P3: 33"),
     "line 13 ('kept P3: … P3 is not a seat"),
    (_broken("phase: place", "phase: over").replace("drawn P2: 33", "winner: P0"),
     "line 12 ('winner: … P0's train is not ascending (T25)"),
    (_broken("phase: place", "phase: over").replace("drawn P2: 33", "winner: none (turn cap)"),
     "a game ends without a winner only at the turn cap max_turns=1000 (T15), not at turn 17"),
    (_broken("P0: 3 9 20 41 55 84 70", "P0: 3 9 20 41 55 70 84"),
     "the position breaks the rules: seat 0's train [3, 9, 20, 41, 55, 70, 84] is ascending"),
    (_broken("22 13 5", "22 _ 5"), "seat 2 slot 6 is empty while the game goes on"),
])
def test_errors_name_the_line_and_what_is_wrong(text, message):
    """`message` holds the parts of the error, in order, with ' … ' for the rest of a line."""
    with pytest.raises(PositionError) as err:
        parse_position(text, TrainsConfig())
    assert re.search(".*".join(map(re.escape, message.split(" … "))), str(err.value)), str(err.value)


def test_five_trains_are_refused_by_the_player_count():
    five = "\n".join(["start: P0", "turn: 0", "phase: turn", "current: P0"]
                     + [f"P{p}: {' '.join(str(7 * p + k) for k in range(7, 0, -1))}" for p in range(5)]
                     + ["display: -", "draw pile (top first): ...", "discard pile (bottom first): -"])
    with pytest.raises(PositionError, match="5 trains: Game of Trains takes 2 to 4 players"):
        parse_position(five, TrainsConfig())


def test_damaged_text_gives_a_position_error_never_a_raw_exception():
    """Every word of real positions replaced in turn by something else: parsing either refuses
    with a PositionError or gives a sound state."""
    state = GAME.new_state(TrainsConfig(start_seat=0), 3, np.random.default_rng(2))
    texts = []
    play_random(state, 2, max_steps=30,
                after=lambda s, step, *_: step % 6 or texts.append(format_position(s)))
    rng = np.random.default_rng(0)
    replacements = ["0", "85", "x", "²", "-", "...", "P9", "e9:1", "", "1:1"]
    refused = 0
    for text in texts:
        words = text.split(" ")
        for k in range(len(words)):
            bad = " ".join(words[:k] + [str(rng.choice(replacements))] + words[k + 1:])
            try:
                parsed = parse_position(bad, TrainsConfig(start_seat=0))
            except PositionError:
                refused += 1
            else:
                assert parsed.audit() == []
    assert refused > 400
