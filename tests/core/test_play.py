"""simkit play: a person's seat driven through prompts."""

from click.testing import CliRunner

from simkit.cli import main


def test_person_plays_a_single_round_against_bots():
    answers = "\n".join(["1"] * 40) + "\n"
    out = CliRunner().invoke(main, ["play", "sixnimmt", "-p", "3", "--seed", "4", "--set", "max_rounds=1"],
                             input=answers)
    assert out.exit_code == 0, out.output
    assert out.output.count("Your choices:") >= 10          # one card per turn, plus row picks
    assert "hand:" in out.output and "Game over" in out.output
    assert ("You win!" in out.output) or ("You finish with rank" in out.output)


def test_choice_out_of_range_is_asked_again():
    answers = "99\n" + "\n".join(["1"] * 40) + "\n"
    out = CliRunner().invoke(main, ["play", "sixnimmt", "-p", "2", "--seed", "4", "--set", "max_rounds=1"],
                             input=answers)
    assert out.exit_code == 0 and "99 is not in the range 1<=x<=10" in out.output


def test_bad_seat_is_refused():
    out = CliRunner().invoke(main, ["play", "sixnimmt", "-p", "2", "--seat", "5"])
    assert out.exit_code != 0 and "--seat 5 is not allowed: seats are 0 to 1" in out.output


def test_typed_moves_where_moves_cannot_be_listed():
    """Rummikub moves are whole tables: the person types them (Game.parse_action)."""
    answers = "bogus\n" + "draw\n" * 80 + "pass\n" * 80
    out = CliRunner().invoke(main, ["play", "rummikub", "-p", "2", "-s", "simple", "--seed", "2"],
                             input=answers)
    assert out.exit_code == 0, out.output
    assert "cannot read 'bogus'" in out.output and "your rack:" in out.output
    assert ("You win!" in out.output) or ("You finish with rank" in out.output)
