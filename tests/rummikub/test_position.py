"""Text positions (docs/architecture.md): every field that decides the game, exact round trips,
and a PositionError naming the line for every kind of bad text."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from simkit.engine.errors import PositionError
from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.rummikub import GAME, rules
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.position import format_position, parse_position
from tests.rummikub.helpers import R, T, position_text

#: line 1 to move, 2 turns, 3 start seat, 4 passes, 5 seat 0, 6 seat 1, 7 meld, 8 pool
BASE = position_text(2, table=(R("R5 R6 R7"),), racks=[T("B4 B6 J0"), T("K1 K2")], opened=[True, False])


def _play(state, config, lineup, seed, max_steps=None):
    rngs = [np.random.default_rng([seed, s]) for s in range(state.n)]
    specs = [parse_strategy(name, "rummikub") for name in lineup]
    return play_out(state, specs, GameInfo("rummikub", config, state.n), rngs, forfeit_on_error=False,
                    max_steps=max_steps)


def test_a_position_is_readable_lines_in_the_tile_notation():
    state = parse_position(BASE, RummikubConfig())
    assert format_position(state) == BASE
    assert BASE.splitlines()[4:] == ["seat 0 (opened): B4 B6 J0", "seat 1 (not opened): K1 K2",
                                     "meld: Run[R5 R6 R7]", BASE.splitlines()[-1]]
    assert state.table == (R("R5 R6 R7"),) and state.opened == [True, False] and state.to_act() == (0,)
    assert len(state.pool) == 106 - 8 and BASE.splitlines()[-1].startswith("pool: R1 R1' R2 ")
    assert state.pool[-1] == T("R1")[0]                     # the first tile listed is drawn next


def test_comments_blank_lines_and_any_line_order_are_accepted():
    lines = BASE.splitlines()
    shuffled = "# a hand-written position\n\n" + "\n".join(reversed(lines)) + "\n"
    assert format_position(parse_position(shuffled, RummikubConfig())) == BASE


@pytest.mark.parametrize("overrides", [
    {}, {"hands_per_match": 3, "end_rule": "one_more_cycle"},
    {"hands_per_match": 2, "tie_rule": "fewest_tiles", "end_rule": "pool_empty"}])
def test_play_goes_on_identically_from_a_parsed_position(overrides):
    """Everything that decides the game is in the text: the parsed state, given the same chance
    generator for later deals, plays on exactly like the original."""
    config = RummikubConfig(**overrides)
    lineup = ("simple", "random", "simple")
    for stop in (0, 25, 60, 140):
        state = GAME.new_state(config, 3, np.random.default_rng(stop))
        _play(state, config, lineup, seed=1, max_steps=stop)
        parsed = parse_position(format_position(state), config, copy.deepcopy(state.rng))
        _play(state, config, lineup, seed=2)
        _play(parsed, config, lineup, seed=2)
        assert format_position(parsed) == format_position(state)
        assert parsed.outcome() == state.outcome()


@pytest.mark.parametrize("end_rule", ["cycle_of_passes", "pool_empty", "one_more_cycle"])
def test_every_step_of_a_match_reads_back_as_itself_R21_R23(end_rule):
    config = RummikubConfig(hands_per_match=2, end_rule=end_rule, tie_rule="fewest_tiles")
    state = GAME.new_state(config, 4, np.random.default_rng(9))
    texts = []

    def round_trip(state, step, seats, joint):
        text = format_position(state)
        assert format_position(parse_position(text, config)) == text, f"step {step}"
        texts.append(text)

    rngs = [np.random.default_rng(s) for s in range(4)]
    play_out(state, [parse_strategy("random", "rummikub")] * 4, GameInfo("rummikub", config, 4), rngs,
             forfeit_on_error=False, after=round_trip)
    assert any("hand 1: exhausted" in t for t in texts) and texts[-1].startswith("to move: over")
    assert ("cycle left: " in texts[-1]) == (end_rule == "one_more_cycle")


def test_the_parsed_state_observes_like_the_original_but_without_history():
    config = RummikubConfig(hands_per_match=2)
    state = GAME.new_state(config, 3, np.random.default_rng(4))
    for stop in (30, 30, 60):
        _play(state, config, ("simple",) * 3, seed=stop, max_steps=stop)
        parsed = parse_position(format_position(state), config)
        for seat in range(3):
            assert parsed.observe(seat) == state.observe(seat)._replace(history=())


def test_split_payouts_round_trip_exactly_R22():
    scores, _ = rules.score_exhausted([5, 5, 5, 6], [1, 1, 1, 2], 0)
    assert scores[0] == 1 / 3
    over = "to move: over\nhand 1: exhausted " + " ".join(f"{x:+}" for x in scores)
    text = position_text(4, racks=[T("B5"), T("K5"), T("O5"), T("R1 B5'")]).replace("to move: 0", over)
    state = parse_position(text, RummikubConfig())
    assert state.is_over() and state.outcome().scores == tuple(scores)
    assert format_position(state).splitlines()[4] == "hand 1: exhausted +0.3333333333333333 " \
                                                     "+0.3333333333333333 +0.3333333333333333 -1"
    assert parse_position(format_position(state), RummikubConfig()).outcome() == state.outcome()


def test_a_parsed_position_replays_from_a_position_event():
    state = parse_position(BASE, RummikubConfig())
    _play(state, RummikubConfig(), ("simple", "simple"), seed=3)
    log = GAME.render_log(state).splitlines()
    assert log[:4] == ["=== Position in hand 1: 2 players, seat 1 to move ===",    # logs count from 1
                       "  seat 1 rack: B4 B6 J0", "  seat 2 rack: K1 K2", "  table: Run[R5 R6 R7]"]
    assert log[-1].startswith("Final scores:")


def _edit(line: int, new: str | None) -> str:
    lines = BASE.splitlines()
    if new is None:
        del lines[line - 1]
    else:
        lines[line - 1] = new
    return "\n".join(lines)


POOL = BASE.splitlines()[7]


@pytest.mark.parametrize("text, config, message", [
    (_edit(5, "seat 0 (opened): B4 X6 J0"), {}, "line 5 ('seat 0 (opened): B4 X6 J0'): bad tile 'X6'"),
    (_edit(6, "seat 1 (not opened): K1 K2 R6"), {}, "line 7 ('meld: Run[R5 R6 R7]'): tile R6 is listed "
                                                     "twice (also on line 6"),
    (_edit(7, "meld: Group[R5 R6 R7]"), {}, "line 7 ('meld: Group[R5 R6 R7]'): Group[R5 R6 R7] is not a "
                                            "valid meld (R4"),
    (_edit(7, "meld: Run[R5 R6 R7"), {}, "line 7 ('meld: Run[R5 R6 R7'): bad meld"),
    (_edit(8, POOL.replace(" K13'", "")), {}, "tiles missing: K13' (1 in all; each of the 106 tiles is "
                                              "on a rack, on the table or in the pool)"),
    (_edit(4, None), {}, "the position has no 'passes:' line"),
    (_edit(4, "colour: red"), {}, "line 4 ('colour: red'): unknown key 'colour'"),
    (_edit(2, "turns: many"), {}, "line 2 ('turns: many'): expected a whole number 0 or more, not 'many'"),
    (_edit(3, "turns: 4"), {}, "line 3 ('turns: 4'): 'turns' is given twice"),
    (_edit(6, "seat 2 (not opened): K1 K2"), {}, "'seat <n> (opened|not opened)' lines are numbered 0, 2"),
    (_edit(1, "to move: 2"), {}, "'to move: 2' is not a seat: seats are 0 to 1"),
    (_edit(1, "to move: over"), {"hands_per_match": 2}, "'to move: over' after 0 finished hands"),
    (_edit(4, "passes: 2"), {}, "'passes: 2': 2 passes in a row end the hand (R21)"),
    (_edit(4, "passes: 0\ncycle left: 2"), {}, "'cycle left' counts turns under end_rule=one_more_cycle"),
    (_edit(6, "seat 1 (not opened): -").replace("pool: ", "pool: K1 K2 "), {},
     "seat 1 has an empty rack but the hand goes on (R13"),
    (_edit(1, "to move: over\nhand 1: out +5 -3"), {}, "hand 1 scores (5.0, -3.0) do not sum to zero"),
    (_edit(1, "to move: over\nhand 1: won +5 -5"), {}, "a hand ends out or exhausted, not 'won'"),
    (_edit(1, "to move: over\nhand 2: out +5 -5"), {}, "'hand <n>' lines are numbered 2: expected 1, 2"),
    (_edit(1, "to move: over\nhand 1: out +5 -5 0"), {}, "hand 1: 3 scores for 2 seats"),
    (_edit(1, "to move: over\nhand 1: out +nan -5"), {}, "scores must be finite numbers"),
    ("no such position", {}, "line 1 ('no such position'): expected 'key: value'"),
])
def test_bad_text_is_refused_naming_the_line_and_the_fault(text, config, message):
    with pytest.raises(PositionError) as err:
        parse_position(text, RummikubConfig(**config))
    assert message in str(err.value)


def test_too_many_seats_for_the_config_is_a_position_error():
    text = position_text(4, racks=[T("R1"), T("R2"), T("R3"), T("R4")])
    assert parse_position(text, RummikubConfig()).n == 4
    bad = text.replace("seat 3 (opened): R4", "seat 3 (opened): R4\nseat 4 (opened): R5").replace(" R5 ", " ")
    with pytest.raises(PositionError, match="5 seats listed: players=5 is not allowed"):
        parse_position(bad, RummikubConfig())


def test_a_later_hand_carries_its_own_start_seat_R22():
    """From hand 2 on, the hand's start player is a field of its own (R22's fewest_tiles tie-break
    counts from it); it round-trips, and it is refused where it cannot apply."""
    config = RummikubConfig(hands_per_match=3, end_rule="pool_empty", tie_rule="fewest_tiles")
    state = GAME.new_state(config, 3, np.random.default_rng(2))
    seen = set()

    def check(state, step, seats, joint):
        text = format_position(state)
        has_line = f"hand start seat: {state.hand_start_seat}" in text.splitlines()
        assert has_line == (0 < state.hand and not state.is_over()), step
        parsed = parse_position(text, config)
        assert format_position(parsed) == text
        if not state.is_over():
            assert parsed.hand_start_seat == state.hand_start_seat, step
        seen.add((state.hand, state.hand_start_seat, state.first_seat))

    rngs = [np.random.default_rng(s) for s in range(3)]
    play_out(state, [parse_strategy("random", "rummikub")] * 3, GameInfo("rummikub", config, 3), rngs,
             forfeit_on_error=False, after=check)
    assert any(hand > 0 and start != first for hand, start, first in seen)
    with pytest.raises(PositionError, match="hand start seat"):
        parse_position(BASE.replace("passes: 0", "hand start seat: 1\npasses: 0"), RummikubConfig())
    later = BASE.replace("passes: 0", "passes: 0\nhand 1: out +3 -3")
    with pytest.raises(PositionError, match="hand start seat"):
        parse_position(later, RummikubConfig(hands_per_match=2))
    assert parse_position(later.replace("passes: 0", "passes: 0\nhand start seat: 1"),
                          RummikubConfig(hands_per_match=2)).hand_start_seat == 1
