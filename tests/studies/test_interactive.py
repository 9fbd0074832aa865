"""A person at `simkit play sixnimmt` is told every turn and every round's result (issue 24)."""

from simkit.engine.registry import get_game
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt.render import STAR_KEY
from simkit.studies.interactive import play_interactive


def _played(seat: int):
    game = get_game("sixnimmt")
    spec = RunSpec.create("sixnimmt", 3, ["heuristic"], 1, seed=1, overrides={"max_rounds": "2"})
    shown: list[str] = []
    state = play_interactive(game, spec, seat, ask=lambda prompt, n: 1, show=shown.append)
    views = [text for text in shown if "Your choices" not in text][:-1]      # the last is the log
    return state, views, game.render_log(state)


def test_every_turn_told_to_the_person_is_the_turn_the_log_records():
    state, views, log = _played(1)
    told = [text.split("\n\n")[0].strip("\n") for text in views if "Turn " in text.split("\n\n")[0]]
    turns = [block for block in told if not block.startswith("Round")]
    assert len(turns) >= 19                       # 2 rounds of 10 turns; the very last is in the log
    for block in turns:
        turn_lines = "\n".join(line for line in block.splitlines()
                               if not line.startswith(("Round", "Totals")))
        assert turn_lines in log
    assert any("takes row" in block for block in turns)


def test_the_round_change_tells_the_last_turn_and_the_rounds_bullheads_from_the_state():
    state, views, log = _played(0)
    round_ends = [ev for ev in state.events if ev[0] == "round_end"]
    _, rnd, points, totals = round_ends[0]
    change = next(text for text in views if "Round 2, turn 1" in text)
    assert "Turn 10: reveal " in change
    assert change.index("Turn 10: reveal ") < change.index("Round 1 over") < change.index("Round 2, turn 1")
    expected = ", ".join(f"seat {s + 1}: {v}" for s, v in enumerate(points))
    assert f"Round 1 over. Bullheads this round: {expected}\n" in change
    assert "Totals: " + ", ".join(f"seat {s + 1}: {v}" for s, v in enumerate(totals)) in change
    assert STAR_KEY in views[0] or STAR_KEY in views[1]
    assert sum(STAR_KEY in text for text in views) < len(views) // 2
