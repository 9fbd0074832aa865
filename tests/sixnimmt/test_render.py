"""What a person reads at `simkit play sixnimmt` (Game.describe_observation)."""

import numpy as np

from simkit.games.sixnimmt import GAME
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.render import STAR_KEY

POSITION = """
round: 1
turns played: 0
phase: play
row 1: 10 11
row 2: 20
row 3: 30
row 4: 55
hand 0: 5 12 21 33 44 60 70 80 90 100
hand 1: 6 13 22 34 45 61 71 81 91 101
pile 0: -
pile 1: -
totals: 0 0
aside: rest
"""


def test_rows_are_labelled_with_their_bullheads_and_the_hand_shown():
    text = GAME.describe_observation(GAME.parse_position(POSITION, SixNimmtConfig()).observe(0))
    assert "row 1: 10** 11****" in text and text.splitlines()[1].endswith("8 bullheads")
    assert "your hand: 5* 12 21" in text and "costs" not in text


def test_N10_a_row_pick_shows_what_each_row_costs():
    state = GAME.parse_position(POSITION, SixNimmtConfig())
    state.apply([5, 6])                       # 5 is below every row end: seat 0 picks a row
    text = GAME.describe_observation(state.observe(0))
    assert "card 5 is lower than every row end: you take a whole row (N10)" in text
    assert "row 1 costs 8, row 2 costs 3, row 3 costs 3, row 4 costs 7" in text
    other = GAME.describe_observation(state.observe(1))
    assert "seat 1 takes a whole row" in other       # seat 0 of the state: people count from 1
    assert "totals: seat 1: " in other and "seat 0" not in other


# --- what happened since the person's last decision (simkit play, issue 24) ------------------

FULL_ROW = """
round: 1
turns played: 0
phase: play
row 1: 10 11 12 13 14
row 2: 20
row 3: 30
row 4: 40
hand 0: 15 50 60
hand 1: 5 21 70
pile 0: -
pile 1: -
totals: 0 0
aside: rest
"""


def _since(state, seat, joint_steps):
    """seat's view after `joint_steps` ((seats, actions), applied in order), told from before them."""
    before = state.observe(seat)
    for _seats, actions in joint_steps:
        state.apply(list(actions))
    return GAME.describe_observation(state.observe(seat), before=before, steps=tuple(joint_steps),
                                     config=state.config)


def test_N9_the_turn_names_each_card_where_it_went_and_who_took_a_full_row_for_how_many_bullheads():
    state = GAME.parse_position(FULL_ROW, SixNimmtConfig())
    text = _since(state, 1, [((0, 1), (15, 21))])
    take = [ev for ev in state.events if ev[0] == "take"]
    assert take == [("take", 0, 0, (10, 11, 12, 13, 14), 15, "full")]      # the state agrees
    assert text.startswith("Turn 1: reveal seat 1: 15, seat 2: 21\n"
                           "  15 (seat 1) 6th card of a full row: takes row 1 [10** 11**** 12 13 14] "
                           "= 11 bullheads\n"
                           "  21 (seat 2) -> row 2\n\nRound 1, turn 2\n")


def test_N10_another_seats_row_pick_is_named_with_the_row_and_its_bullheads():
    state = GAME.parse_position(FULL_ROW, SixNimmtConfig())
    text = _since(state, 0, [((0, 1), (50, 5)), ((1,), (TakeRow(2),))])
    assert "  5 (seat 2) lower than every row end, chooses: takes row 3 [30**] = 3 bullheads\n" in text
    assert "  50 (seat 1) -> row 4\n" in text
    assert state.observe(0).round_points == (0, 3)


def test_at_the_persons_own_row_pick_the_reveal_is_shown_and_the_take_follows_after_the_pick():
    state = GAME.parse_position(FULL_ROW, SixNimmtConfig())
    at_pick = _since(state, 1, [((0, 1), (50, 5))])
    assert at_pick.startswith("Turn 1: reveal seat 2: 5, seat 1: 50\n\n")
    assert "takes row" not in at_pick and "you take a whole row (N10)" in at_pick
    after = _since(state, 1, [((1,), (TakeRow(0),))])
    assert after.startswith("Turn 1: reveal seat 2: 5, seat 1: 50\n"
                            "  5 (seat 2) lower than every row end, chooses: takes row 1 "
                            "[10** 11**** 12 13 14] = 11 bullheads\n  50 (seat 1) -> row 4\n")


def test_the_star_key_is_shown_when_stars_first_appear_and_not_again_while_they_stay():
    state = GAME.parse_position(FULL_ROW, SixNimmtConfig())
    first = GAME.describe_observation(state.observe(0))
    assert STAR_KEY in first and "55******* is 7" in STAR_KEY
    assert STAR_KEY not in _since(state, 0, [((0, 1), (15, 21))])


def test_N19_the_drafts_since_the_persons_last_one_are_told_as_the_log_tells_them():
    state = GAME.new_state(SixNimmtConfig(advanced=True), 3, np.random.default_rng(2))
    (seat,) = state.to_act()
    before = state.observe(seat)
    steps = []
    while not steps or state.to_act() != (seat,):      # the person drafts, then the others
        (acting,) = state.to_act()
        card = min(state.legal_actions(acting))
        steps.append(((acting,), (card,)))
        state.apply([card])
    text = GAME.describe_observation(state.observe(seat), before=before, steps=tuple(steps),
                                     config=state.config)
    drafts = [line for line in GAME.render_log(state).splitlines() if line.startswith("  seat")]
    assert len(drafts) == 3 and text.startswith("\n".join(drafts) + "\n\n")
