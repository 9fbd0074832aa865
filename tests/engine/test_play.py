"""The one game loop (play_out), `simkit play` (a person's seat driven through prompts) and
`simkit replay --position`."""

import re

import numpy as np
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.errors import IllegalAction
from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo, Strategy
from tests.highcard import GAME as HIGHCARD
from tests.highcard import HighCardConfig, RandomPlay

#: every card value in turn, many times over: each decision takes the first of them in hand
#: (row picks are not plain numbers, so "1" picks the first row)
EVERY_CARD = "\n".join(str(v) for _ in range(30) for v in range(1, 105)) + "\n"


def test_person_plays_a_single_round_against_bots():
    out = CliRunner().invoke(main, ["play", "sixnimmt", "-p", "3", "--seed", "4", "--set", "max_rounds=1"],
                             input=EVERY_CARD)
    assert out.exit_code == 0, out.output
    assert out.output.count("Your choices:") >= 10          # one card per turn, plus row picks
    assert "hand:" in out.output and "Game over" in out.output
    assert ("You win!" in out.output) or ("You finish with rank" in out.output)


def test_cards_are_typed_by_value_and_the_bots_last_cards_are_shown():
    answers = "5\n81\n" + EVERY_CARD
    out = CliRunner().invoke(main, ["play", "sixnimmt", "-p", "3", "--seed", "4", "--set", "max_rounds=1"],
                             input=answers)
    assert out.exit_code == 0, out.output
    first, second = out.output.split("Turn 1: reveal", 2)[:2]
    assert "Your choices: 7  11  16  39  45  56  62  64  80  81" in first
    assert "5 is not one of your choices: type one as shown" in first
    assert out.output.startswith("6 nimmt!, 3 players, you are seat 1, seed 4\n")   # --seat 1 by default
    assert second.startswith(" seat 2: 6, seat 3: 66, seat 1: 81\n  6 (seat 2) -> row 3\n")
    assert "  row 1: 63 66**** 81 " in second               # 81, typed by value, was played
    assert "  row 2: 9                                1 bullhead\n" in second
    assert "your hand: 7 11**** 16 39 45* 56 62 64 80**\n" in second


def test_choice_out_of_range_is_asked_again():
    answers = "999\n" + EVERY_CARD
    out = CliRunner().invoke(main, ["play", "sixnimmt", "-p", "2", "--seed", "4", "--set", "max_rounds=1"],
                             input=answers)
    assert out.exit_code == 0 and "'999' is not one of your choices: type one as shown" in out.output


def test_rows_are_picked_by_number_or_as_shown():
    from simkit.engine.registry import get_game
    from simkit.games.sixnimmt.actions import TakeRow
    from simkit.studies.interactive import Person

    shown: list[str] = []
    person = Person(get_game("sixnimmt"), ask=lambda p, n: 1, show=shown.append,
                    ask_text=lambda prompt: "")
    legal = [TakeRow(r) for r in range(4)]
    texts = [str(a) for a in legal]
    assert person._choice("2", legal, texts, False, None) == (TakeRow(1),)
    assert person._choice("Take Row 4", legal, texts, False, None) == (TakeRow(3),)
    assert person._choice("row 2", legal, texts, False, None) is None
    assert "'row 2' is not one of your choices: type one as shown or its number 1-4" in shown[-1]
    assert person._choice("take row 9", legal, texts, False, None) is None
    assert shown[-1] == "take row 9 is not one of your choices: type one as shown"


def test_an_illegal_meld_says_why():
    answers = "meld Run[O3' O4 O5]\nmeld Group[K3' O3']\n" + "draw\n" * 80 + "pass\n" * 80
    out = CliRunner().invoke(main, ["play", "rummikub", "-p", "2", "-s", "simple", "--seed", "2"],
                             input=answers)
    assert out.exit_code == 0, out.output
    assert ("meld Run[O3' O4 O5] is not legal here: R11: the initial meld is worth 12, it must be "
            "worth at least 30") in out.output
    assert "R3: a meld needs at least 3 tiles, this one has 2" in out.output


@pytest.mark.parametrize("seat", ["0", "3", "-1"])
def test_a_seat_outside_1_to_n_is_refused_in_one_line(seat):
    out = CliRunner().invoke(main, ["play", "sixnimmt", "-p", "2", "--seat", seat])
    assert out.exit_code != 0
    assert out.output == f"Error: --seat {seat} is not allowed: seats are 1 to 2\n"


def test_seats_count_from_1_in_play():
    """--seat 3 of 3 is the last seat: the prompts, the other seats' moves, the totals and the
    final log all name the seats 1 to 3, and the person's own seat is never reported as another's."""
    out = CliRunner().invoke(main, ["play", "sixnimmt", "-p", "3", "--seat", "3", "--seed", "4",
                                    "--set", "max_rounds=1"], input=EVERY_CARD)
    assert out.exit_code == 0, out.output
    assert out.output.startswith("6 nimmt!, 3 players, you are seat 3, seed 4\n")
    turns = [line for line in out.output.splitlines() if line.startswith("Turn ")]
    assert turns and all(re.fullmatch(r"Turn \d+: reveal (seat [123]: \d+(, |$)){3}", line) for line in turns)
    assert "totals: seat 1: 0, seat 2: 0, seat 3: 0" in out.output
    assert "  seat 3 hand:" in out.output and re.search(r"\bseat 0\b", out.output) is None


def test_typed_moves_where_moves_cannot_be_listed():
    """Rummikub moves are whole tables: the person types them (Game.parse_action)."""
    answers = "bogus\n" + "draw\n" * 80 + "pass\n" * 80
    out = CliRunner().invoke(main, ["play", "rummikub", "-p", "2", "-s", "simple", "--seed", "2"],
                             input=answers)
    assert out.exit_code == 0, out.output
    assert "cannot read 'bogus'" in out.output and "your rack:" in out.output
    assert ("You win!" in out.output) or ("You finish with rank" in out.output)


# --- play_out: the one game loop --------------------------------------------------------------

def _table(n=3, seed=0):
    config = HighCardConfig()
    state = HIGHCARD.new_state(config, n, np.random.default_rng(seed))
    rngs = [np.random.default_rng(100 + s) for s in range(n)]
    return state, GameInfo("highcard", config, n), rngs


class _Fails(Strategy):
    def __init__(self, when: str, exc: type[BaseException] = RuntimeError):
        self.when, self.exc = when, exc

    def setup(self, info, seat, rng):
        super().setup(info, seat, rng)
        if self.when == "setup":
            raise self.exc("no setup")

    def act(self, decision):
        if self.when == "act":
            raise self.exc("no move")
        return 999                                      # a card nobody holds


def test_play_out_calls_the_hooks_at_every_step_and_ends_the_game():
    state, info, rngs = _table()
    seen = []
    played = play_out(state, [RandomPlay()] * 3, info, rngs,
                      before=lambda st, step, seats: seen.append(("before", step, seats)),
                      after=lambda st, step, seats, joint: seen.append(("after", step, len(joint))))
    assert state.is_over() and played.steps == 5 and played.forfeit == -1
    assert seen[:2] == [("before", 0, (0, 1, 2)), ("after", 1, 3)]
    assert len(seen) == 10 and seen[-1] == ("after", 5, 3)


def test_play_out_stops_after_max_steps():
    state, info, rngs = _table()
    played = play_out(state, [RandomPlay()] * 3, info, rngs, max_steps=2)
    assert played.steps == 2 and not state.is_over() and len(state.hands[0]) == 3


@pytest.mark.parametrize("when,error", [("setup", "RuntimeError: no setup"),
                                         ("act", "RuntimeError: no move"),
                                         ("illegal", "illegal action: seat 1 does not hold 999")])
def test_a_failing_strategy_forfeits_its_seat(when, error):
    state, info, rngs = _table()
    played = play_out(state, [RandomPlay(), _Fails(when), RandomPlay()], info, rngs)
    assert (played.forfeit, played.error, played.steps) == (1, error, 0)


def test_without_forfeits_the_strategy_error_propagates():
    state, info, rngs = _table()
    with pytest.raises(IllegalAction):
        play_out(state, [RandomPlay(), _Fails("illegal"), RandomPlay()], info, rngs, forfeit_on_error=False)
    with pytest.raises(RuntimeError, match="no setup"):
        play_out(state, [_Fails("setup")] * 3, info, rngs, forfeit_on_error=False)


def test_an_engine_error_is_not_blamed_on_a_seat(monkeypatch):
    state, info, rngs = _table()

    def broken_apply(actions):
        raise KeyError("engine bug")

    monkeypatch.setattr(state, "apply", broken_apply)
    with pytest.raises(KeyError, match="engine bug"):
        play_out(state, [RandomPlay()] * 3, info, rngs)


def test_replay_prints_the_text_position_at_a_step(tmp_path):
    runner = CliRunner()
    out = runner.invoke(main, ["run", "sixnimmt", "-p", "3", "-s", "random", "-n", "4", "--seed", "5",
                               "-j", "1", "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    first = runner.invoke(main, ["replay", str(tmp_path / "r"), "--game", "2", "--position", "0"])
    later = runner.invoke(main, ["replay", str(tmp_path / "r"), "--game", "2", "--position", "3"])
    assert first.exit_code == 0 and later.exit_code == 0, first.output + later.output
    assert "position before step 0" in first.output and "position before step 3" in later.output
    header = first.output.splitlines()[0]                  # seats from 1; the position counts from 0
    assert header.endswith("(seat 1: random, seat 2: random, seat 3: random), position before step 0 "
                           "(seats in the position count from 0):")
    assert first.output.splitlines()[1:] != later.output.splitlines()[1:]
    bad = runner.invoke(main, ["replay", str(tmp_path / "r"), "--game", "2", "--position", "100000"])
    assert bad.exit_code == 1 and "--position 100000 is out of range: game 2 has steps 0 to" in bad.output
