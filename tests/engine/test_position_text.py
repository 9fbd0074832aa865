"""The shared reader of text positions (simkit/engine/position_text.py): keys, fields, cards, and
errors that name the line and what is allowed."""

from __future__ import annotations

import pytest

from simkit.engine.errors import PositionError
from simkit.engine.position_text import (
    Ledger,
    PositionText,
    check_players,
    choice,
    list_text,
    numbers,
    seat,
    whole,
    words,
    yes_no,
)

KEYS = ("turn", "phase", "hand <seat>", "seat <n> (<opened|not opened>)", "done")
TEXT = """\
# a comment line
turn: 3
phase:   play   # a comment after a value

hand  1: 4 5
hand 0: -
meld: a
seat 0 (not opened): x
meld: b
done: yes
"""


def _error(text: str, **options) -> str:
    with pytest.raises(PositionError) as err:
        PositionText(text, KEYS, repeated=("meld",), **options)
    return str(err.value)


def test_lines_are_read_by_key_with_their_numbers_and_text():
    text = PositionText(TEXT, KEYS, repeated=("meld",))
    assert text.value("turn") == "3" and text.line("turn").number == 2
    phase = text.line("phase")
    assert phase.value == "play" and phase.text == "phase:   play   # a comment after a value"
    assert phase.where == "line 3 ('phase:   play   # a comment after a value')"
    assert [line.value for line in text.all("meld")] == ["a", "b"]
    assert text.get("hand 1") is not None and text.get("hand 2") is None
    assert [(n, line.value) for n, _, line in text.indexed("hand <seat>")] == [(0, "-"), (1, "4 5")]
    assert text.matching("seat <n> (<opened|not opened>)")[0][0] == ("0", "not opened")


@pytest.mark.parametrize("text, message", [
    ("", "the position is empty: expected lines such as 'turn: 3'"),
    ("# only a comment\n\n", "the position is empty"),
    ("turn: 3\nphase play", "line 2 ('phase play'): expected 'key: value', e.g. 'turn: 3'"),
    ("turn: 3\ncolour: red", "line 2 ('colour: red'): unknown key 'colour': allowed are turn, phase, "
                             "hand <seat>, seat <n> (opened|not opened), done, meld"),
    ("turn: 3\nhand x: 1", "line 2 ('hand x: 1'): unknown key 'hand x'"),
    ("turn: 3\nphase: a\nturn: 4", "line 3 ('turn: 4'): 'turn' is given twice (first on line 1)"),
    ("Turn: 3", "line 1 ('Turn: 3'): unknown key 'Turn'"),
])
def test_bad_lines_are_refused_naming_the_line_and_what_is_allowed(text, message):
    assert message in _error(text)


def test_keys_may_be_case_blind():
    assert PositionText("Turn: 3", KEYS, fold_case=True).value("turn") == "3"


def test_missing_needed_and_refused_lines():
    text = PositionText("turn: 3\ndone: no", KEYS)
    with pytest.raises(PositionError, match="^the position has no 'phase:' line$"):
        text.line("phase")
    with pytest.raises(PositionError, match="no 'phase:' line, needed because the game goes on"):
        text.needs("phase", True, "the game goes on")
    assert text.needs("phase", False, "the game goes on") is None
    with pytest.raises(PositionError, match=r"line 2 \('done: no'\): unexpected here: a 'done:' line is "
                                            r"only given when the game is over"):
        text.needs("done", False, "the game is over")
    assert text.needs("done", True, "the game is over") == text.line("done")


@pytest.mark.parametrize("text, message", [
    ("hand 0: 1\nhand 2: 1", "the 'hand <seat>' lines are numbered 0, 2: expected 0, 1, ... without gaps"),
    ("hand 1: 1", "the 'hand <seat>' lines are numbered 1: expected 0, 1"),
    ("seat 0 (opened): x\nseat 0 (not opened): y",
     "line 2 ('seat 0 (not opened): y'): seat 0 is given twice"),
])
def test_numbered_lines_run_without_gaps_or_repeats(text, message):
    parsed = PositionText(text, KEYS)
    spec = "hand <seat>" if text.startswith("hand") else "seat <n> (<opened|not opened>)"
    with pytest.raises(PositionError) as err:
        parsed.indexed(spec)
    assert message in str(err.value)


def test_indexed_lines_may_count_from_one():
    parsed = PositionText("hand 2: a\nhand 1: b", KEYS)
    assert [n for n, _, _ in parsed.indexed("hand <seat>", first=1)] == [1, 2]


def _line(value: str, key: str = "k"):
    return PositionText(f"{key}: {value}", (key,)).line(key)


def test_whole_numbers_with_ranges():
    assert whole(_line("7")) == 7 and whole(_line("7"), low=7, high=7) == 7
    assert whole(_line("x 12"), text="12", high=20) == 12
    for value, low, high, allowed in [("-1", 0, None, "0 or more"), ("x", 0, None, "0 or more"),
                                      ("0", 1, None, "1 or more"), ("5", 0, 4, "0..4")]:
        with pytest.raises(PositionError) as err:
            whole(_line(value), low=low, high=high)
        assert str(err.value) == f"line 1 ('k: {value}'): expected a whole number {allowed}, not {value!r}"


def test_lists_of_numbers_one_per_seat():
    assert numbers(_line("0 12"), 2) == [0, 12]
    for bad in ("0", "0 1 2", "0 x"):
        with pytest.raises(PositionError, match="expected 2 whole numbers, one per seat"):
            numbers(_line(bad), 2)


def test_choices_seats_and_answers():
    assert choice(_line("play"), ("play", "over"), "phase") == "play"
    with pytest.raises(PositionError, match=r"line 1 \('k: dance'\): unknown phase 'dance': allowed "
                                            r"are play, over$"):
        choice(_line("dance"), ("play", "over"), "phase")
    assert seat(_line("B"), "AB") == 1 and seat(_line("P2"), ["P0", "P1", "P2"]) == 2
    with pytest.raises(PositionError, match="unknown seat 'C': allowed are A, B"):
        seat(_line("C"), "AB")
    assert yes_no(_line("yes")) is True and yes_no(_line("no")) is False
    with pytest.raises(PositionError, match="unknown answer 'maybe': allowed are no, yes"):
        yes_no(_line("maybe"))


def test_lists_round_trip_with_a_dash_for_nothing():
    for items in ([], [3], [1, 2, 10]):
        text = list_text(items)
        assert [int(w) for w in words(_line(text))] == items
    assert list_text([]) == "-"


def test_a_ledger_lists_every_card_once_and_names_both_lines():
    text = PositionText("a: 1 2\nb: 3 2", ("a", "b"))
    deck = Ledger.numbered(1, 5)
    assert deck.take_all(text.line("a")) == [1, 2]
    with pytest.raises(PositionError) as err:
        deck.take_all(text.line("b"))
    assert str(err.value) == "line 2 ('b: 3 2'): card 2 is listed twice (also on line 1 ('a: 1 2'))"
    with pytest.raises(PositionError, match=r"card 1 is listed twice \(earlier on this line\)"):
        Ledger.numbered(1, 5).take_all(_line("1 1"))
    with pytest.raises(PositionError, match=r"line 1 \('k: 6'\): unknown card '6': cards are 1..5$"):
        Ledger.numbered(1, 5).take(_line("6"), "6")


def test_a_ledger_knows_what_is_missing_and_takes_the_rest():
    deck = Ledger.numbered(1, 30, "tile")
    deck.take_all(_line("30 2"))
    assert deck.left() == [1, *range(3, 30)]
    with pytest.raises(PositionError) as err:
        deck.check_all_listed("each tile is somewhere")
    assert str(err.value) == ("tiles missing: 1 " + " ".join(map(str, range(3, 26))) +
                              " ... (28 in all; each tile is somewhere)")
    rest = _line("rest")
    assert deck.rest(rest) == [1, *range(3, 30)] and deck.left() == []
    deck.check_all_listed("nothing is missing")
    with pytest.raises(PositionError, match="tile 3 is listed twice .also on line 1 .'k: rest'"):
        deck.take(_line("3"), "3")


def test_identical_cards_are_interchangeable_up_to_their_count():
    cards = Ledger([("7", 0), ("7", 1), ("9", 2)], "card")
    line = _line("7 7 7")
    assert cards.take(line, "7", prefer=lambda item: item == 1) == 1
    assert cards.take(line, "7") == 0
    with pytest.raises(PositionError, match="card 7 appears more often than the 2 there are"):
        cards.take(line, "7")
    with pytest.raises(PositionError, match="unknown card '8': allowed are 7 9"):
        cards.take(line, "8")


def test_a_ledger_may_read_other_spellings():
    def spell(word: str) -> str:
        if not word.startswith("R"):
            raise ValueError(f"bad tile {word!r}")
        return word.rstrip("!")

    tiles = Ledger([("R1", 0), ("R2", 1)], "tile", spell=spell)
    assert tiles.take_all(_line("R2! R1")) == [1, 0]
    with pytest.raises(PositionError, match=r"^line 1 \('k: X1'\): bad tile 'X1'$"):
        tiles.take(_line("X1"), "X1")


def test_the_seats_listed_must_fit_the_config():
    from tests.highcard import HighCardConfig

    check_players(HighCardConfig(deck_size=10, hand_size=5), 2, "2 hands listed")
    with pytest.raises(PositionError, match="^3 hands listed: hand_size=5 for 3 players needs 15 cards"):
        check_players(HighCardConfig(deck_size=10, hand_size=5), 3, "3 hands listed")
