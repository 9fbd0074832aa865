"""The worked examples E1-E8 of docs/sixnimmt-rules.md §8, one test each."""

from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import BH, DRAFT, OVER, PLAY, ROW_PICK, bullheads, match_over, winners
from tests.sixnimmt.helpers import make_state, new_game, play_on, rows_of

# E1-E3 continue one another; each player holds spare high cards so hands never run out early.
HANDS_E1 = [[14, 21, 3, 80], [15, 26, 9, 81], [44, 30, 68, 82], [61, 36, 93, 83]]


def _e1_state():
    return make_state([[12], [37], [43], [58]], HANDS_E1)


def test_E1_rules_1_and_2_ascending_and_lowest_difference():
    """N7/N8: 14, 15 on row 1; 44 goes to row 3 (end 43), not rows 1-2; 61 on row 4."""
    state = _e1_state()
    state.apply([14, 15, 44, 61])
    assert rows_of(state) == [[12, 14, 15], [37], [43, 44], [58, 61]]
    assert all(p == [] for p in state.penalty)


def test_E2_rule_3_full_row_sixth_card_takes_it():
    """N9: 30 is the 6th card of row 1; C takes [12,14,15,21,26] = 6 bullheads."""
    state = _e1_state()
    state.apply([14, 15, 44, 61])
    state.apply([21, 26, 30, 36])
    assert rows_of(state) == [[30, 36], [37], [43, 44], [58, 61]]
    assert state.penalty[2] == [12, 14, 15, 21, 26]
    assert sum(BH[c] for c in state.penalty[2]) == 6
    assert state.penalty[0] == state.penalty[1] == state.penalty[3] == []


def test_E3_rule_4_lowest_card_player_chooses_row():
    """N10: 3 is below every end; A chooses row 2 (takes 37, 1 bullhead); 9 follows the 3."""
    state = _e1_state()
    state.apply([14, 15, 44, 61])
    state.apply([21, 26, 30, 36])
    state.apply([3, 9, 68, 93])
    assert state.phase == ROW_PICK and state.to_act() == (0,)
    # side check: the row costs at A's decision
    assert [sum(BH[c] for c in r) for r in state.rows] == [4, 1, 6, 2]
    assert state.legal_actions(0) == tuple(TakeRow(r) for r in range(4))
    state.apply([TakeRow(1)])
    assert state.penalty[0] == [37]
    assert rows_of(state) == [[30, 36], [3, 9], [43, 44], [58, 61, 68, 93]]
    assert state.phase == PLAY


E4_ROWS = [[61], [63, 66, 70], [33, 41], [34, 36, 39, 40, 42]]


def test_E4_pitfall_1_card_must_follow_the_nearest_lower_end():
    """N8+N9: 45 must follow 42 (row 4, full), not 41: A takes 7 bullheads."""
    state = make_state(E4_ROWS, [[45, 90], [100, 91]])
    state.apply([45, 100])
    assert state.penalty[0] == [34, 36, 39, 40, 42]
    assert sum(BH[c] for c in state.penalty[0]) == 7
    assert state.rows[0] == [61] and state.rows[2] == [33, 41] and state.rows[3] == [45]


def test_E5_pitfall_2_earlier_row_pick_redirects_a_later_card():
    """N6+N10+N9: A's 29 takes row 1 first, so B's 62 lands on full row 4 and B takes 7."""
    state = make_state(E4_ROWS, [[29, 90], [62, 91]])
    assert [sum(BH[c] for c in r) for r in state.rows] == [1, 9, 6, 7]
    state.apply([29, 62])
    assert state.to_act() == (0,)
    state.apply([TakeRow(0)])
    assert state.penalty[0] == [61]
    assert state.penalty[1] == [34, 36, 39, 40, 42]
    assert rows_of(state) == [[29], [63, 66, 70], [33, 41], [62]]


def test_E5_counter_check_other_row_choice_saves_B():
    state = make_state(E4_ROWS, [[29, 90], [62, 91]])
    state.apply([29, 62])
    state.apply([TakeRow(2)])
    assert state.penalty[0] == [33, 41] and sum(BH[c] for c in state.penalty[0]) == 6
    assert state.rows[0] == [61, 62]
    assert state.penalty[1] == []


def test_E6_bullhead_values_and_total_171():
    expected = {5: 2, 15: 2, 10: 3, 20: 3, 100: 3, 11: 5, 22: 5, 99: 5, 55: 7, 50: 3, 51: 1, 1: 1, 104: 1}
    for card, bh in expected.items():
        assert bullheads(card) == bh == BH[card], card
    assert sum(bullheads(v) for v in range(1, 105)) == 171


def test_bullhead_distribution_76_9_10_8_1():
    """§1 distribution: 76 x1, 9 x2, 10 x3, 8 x5, 1 x7 ('units digit 5': 51-54, 56-59 are 1)."""
    counts = {k: sum(1 for v in range(1, 105) if bullheads(v) == k) for k in (1, 2, 3, 5, 7)}
    assert counts == {1: 76, 2: 9, 3: 10, 5: 8, 7: 1}
    assert [v for v in range(1, 105) if bullheads(v) == 2] == [5, 15, 25, 35, 45, 65, 75, 85, 95]
    assert all(bullheads(v) == 1 for v in (51, 52, 53, 54, 56, 57, 58, 59))


def test_E7_advanced_deck_sizes_and_draft_leaves_four_row_cards():
    """N18/N19: n=3 -> cards 1..34, n=4 -> 1..44, n=10 -> 1..104; 10 cards each, 4 start the rows."""
    for n, top in ((3, 34), (4, 44), (10, 104)):
        state = new_game(SixNimmtConfig(advanced=True), n, seed=n)
        assert state.phase == DRAFT
        assert sorted(state.pool) == list(range(1, top + 1))
        play_on(state, ("random",), seed=5, max_steps=10 * n)       # the whole draft, 10 picks each
        assert state.phase == PLAY and all(len(h) == 10 for h in state.hands)
        assert len(state.rows) == 4 and all(len(r) == 1 for r in state.rows)
        in_play = sorted([c for h in state.hands for c in h] + [r[0] for r in state.rows])
        assert in_play == list(range(1, top + 1))


def test_E8_end_condition_inclusive_by_default():
    """N16: totals [66, 40, 12]: ends under >= 66 (default) and player 3 wins; not under > 66."""
    assert match_over([66, 40, 12], 1, SixNimmtConfig())
    assert not match_over([66, 40, 12], 1, SixNimmtConfig(end_inclusive=False))
    assert winners([66, 40, 12], [0, 0, 0], "share") == [2]


def _play_last_turn(config):
    """The last turn of a round: seat 0's 2 is below every row end and takes the 1-bullhead row [7]."""
    rows = [[7], [20, 21], [30, 31], [40, 41]]
    state = make_state(rows, [[2], [50], [60]], config, totals=[65, 40, 12], turns=9)
    state.apply([2, 50, 60])
    state.apply([TakeRow(0)])
    assert state.totals == [66, 40, 12]
    return state


def test_E8_end_condition_in_play():
    """N15/N16: the match ends after the round that brings seat 0 to 66; with > 66 it goes on."""
    state = _play_last_turn(SixNimmtConfig())
    assert state.phase == OVER and state.outcome().winners == (2,)
    state = _play_last_turn(SixNimmtConfig(end_inclusive=False))
    assert state.phase == PLAY and state.round == 2 and all(len(h) == 10 for h in state.hands)
