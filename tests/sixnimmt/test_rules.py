"""Rules N1-N19 and the [CHOICE] config fields of docs/sixnimmt-rules.md."""

import pytest

from simkit.engine.errors import ConfigError, IllegalAction
from simkit.engine.registry import get_game
from simkit.games.sixnimmt.actions import TakeRow, format_action, parse_action
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import (
    DRAFT,
    OVER,
    PLAY,
    ROW_PICK,
    draft_order,
    first_drafter,
    target_row,
    winners,
)
from tests.sixnimmt.helpers import make_state, new_game, play_on


def test_N1_N2_N3_deal_hands_rows_and_set_aside():
    for n in (2, 5, 10):
        state = new_game(SixNimmtConfig(), n, seed=n)
        assert [len(h) for h in state.hands] == [10] * n
        assert len(state.rows) == 4 and all(len(r) == 1 for r in state.rows)
        assert len(state.aside) == 104 - 10 * n - 4
        assert state.audit() == []


def test_N3_set_aside_cards_hidden_from_every_seat():
    state = new_game(SixNimmtConfig(), 3, seed=1)
    aside = set(state.aside)
    for seat in range(3):
        obs = state.observe(seat)
        visible = set(obs.hand) | set(obs.seen_cards) | {c for r in obs.rows for c in r}
        assert not visible & aside
        assert obs.hands is None


def test_N4_each_round_reshuffles_all_104_cards():
    state = new_game(SixNimmtConfig(max_rounds=2), 2, seed=3)
    starts = {}      # round -> (seat 0's hand, penalty piles) at its first decision

    def before(state, step, seats):
        starts.setdefault(state.round, (sorted(state.hands[0]), [list(p) for p in state.penalty]))

    play_on(state, before=before)
    assert sorted(starts) == [1, 2]
    (first_hand, _), (second_hand, second_piles) = starts[1], starts[2]
    assert second_hand != first_hand and second_piles == [[], []]
    assert any(state.penalty)     # the piles of round 2 were filled from empty


def test_N5_card_not_in_hand_is_illegal_and_leaves_state_unchanged():
    state = make_state([[10], [20], [30], [40]], [[11, 12], [21, 22]])
    with pytest.raises(IllegalAction) as err:
        state.apply([11, 99])
    assert err.value.seat == 1 and err.value.rule == "N5"
    assert state.hands == [[11, 12], [21, 22]] and state.rows == [[10], [20], [30], [40]]


def test_N5_simultaneous_choice_all_seats_act_at_once():
    state = make_state([[10], [20], [30], [40]], [[11, 12], [21, 22], [31, 32]])
    assert state.to_act() == (0, 1, 2)


def test_N6_reveal_resolves_in_ascending_order():
    state = make_state([[10], [20], [30], [40]], [[13, 90], [12, 91], [11, 92]])
    state.apply([13, 12, 11])
    assert state.rows[0] == [10, 11, 12, 13]
    reveal = [e for e in state.events if e[0] == "reveal"][-1]
    assert [c for c, _ in reveal[3]] == [11, 12, 13]


def test_N7_N8_target_row_is_highest_lower_end():
    ends = [12, 37, 43, 58]
    assert target_row(ends, 44) == 2
    assert target_row(ends, 38) == 1
    assert target_row(ends, 100) == 3
    assert target_row(ends, 5) == -1


def test_N9_row_capacity_config_changes_when_a_row_is_taken():
    """N2/N9 with row_capacity=3: the 4th card takes the row."""
    state = make_state([[10, 11, 12], [20], [30], [40]], [[13, 90], [50, 91]],
                       SixNimmtConfig(row_capacity=3))
    state.apply([13, 50])
    assert state.penalty[0] == [10, 11, 12] and state.rows[0] == [13]


def test_N10_only_lowest_card_triggers_row_pick_and_other_seats_wait():
    state = make_state([[10], [20], [30], [40]], [[5, 90], [6, 91], [7, 92]])
    state.apply([5, 6, 7])
    assert state.phase == ROW_PICK and state.to_act() == (0,)
    assert state.legal_actions(1) == ()
    with pytest.raises(IllegalAction) as err:
        state.apply([TakeRow(7)])
    assert err.value.rule == "N10"
    state.apply([TakeRow(3)])
    assert state.penalty[0] == [40] and state.rows[3] == [5, 6, 7]


def test_N10_row_pick_sees_cards_revealed_this_turn():
    state = make_state([[10], [20], [30], [40]], [[5, 90], [60, 91]])
    state.apply([5, 60])
    obs = state.observe(0)
    assert obs.revealed == ((5, 0), (60, 1)) and obs.phase == ROW_PICK


def test_N11_N13_picked_up_cards_score_and_never_return_to_hand():
    state = make_state([[12, 13, 14, 15, 16], [20], [30], [40]], [[17, 90], [50, 91]])
    state.apply([17, 50])
    assert state.penalty[0] == [12, 13, 14, 15, 16]
    assert state.hands[0] == [90] and state.legal_actions(0) == (90,)
    state.apply([90, 91])
    # round over: 12, 13, 14, 16 = 1 each, 15 = 2 -> 6; the round's scores are added
    assert state.totals == [6, 0]


def test_N12_ten_turns_per_round():
    state = new_game(SixNimmtConfig(max_rounds=1), 4, seed=9)
    play_on(state, ("highest",))
    assert state.is_over() and state.turn == 10
    assert [e[2] for e in state.events if e[0] == "reveal"] == list(range(1, 11))


def test_N14_every_round_hands_out_at_least_one_bullhead():
    for seed in range(40):
        state = new_game(SixNimmtConfig(max_rounds=1), 2, seed=seed)
        play_on(state, ("lowest",))
        assert state.is_over() and sum(state.totals) >= 1


def test_N15_end_checked_only_after_a_complete_round():
    state = make_state([[10, 11, 12, 13, 14], [20], [30], [40]], [[15, 16], [50, 51]],
                       totals=[70, 0])
    state.apply([15, 50])
    assert state.phase == PLAY  # 70 is over the threshold, but the round is not finished
    state.apply([16, 51])
    assert state.phase == OVER


def test_N16_max_rounds_and_threshold_config():
    state = new_game(SixNimmtConfig(max_rounds=2, end_threshold=10_000), 3, seed=2)
    play_on(state, ("lowest",))
    assert state.is_over() and state.round == 2


def test_N17_ties_share_the_win_by_default():
    state = make_state([[10], [20], [30], [40]], [[11], [21]], totals=[70, 70])
    state.apply([11, 21])
    out = state.outcome()
    assert out.win_shares == (0.5, 0.5) and out.ranks == (1, 1)


def test_N17_last_round_tie_break():
    assert winners([30, 30, 50], [5, 3, 0], "last_round") == [1]
    assert winners([30, 30, 50], [5, 5, 0], "last_round") == [0, 1]
    state = make_state([[12, 13, 14, 16, 17], [20], [30], [40]], [[18], [21]],
                       SixNimmtConfig(tie_break="last_round"), totals=[61, 66])
    state.apply([18, 21])  # seat 0 takes 5 -> 66 each; seat 1 took 0 this round
    out = state.outcome()
    assert state.totals == [66, 66] and out.winners == (1,) and out.ranks == (2, 1)


def test_N17_play_on_until_the_tie_breaks():
    state = make_state([[10], [20], [30], [40]], [[11], [21]],
                       SixNimmtConfig(tie_break="play_on"), totals=[70, 70])
    state.apply([11, 21])
    assert state.phase == PLAY and state.round == 2


def test_N19_draft_order_is_clockwise_not_snake():
    assert draft_order(3, 1, 7) == [1, 2, 0, 1, 2, 0, 1]


def _first_drafters(config, n, seed):
    """The seat that drafts first in each round of a match played by `lowest`."""
    firsts = []

    def before(state, step, seats):
        if state.phase == DRAFT and state.draft_i == 0:
            firsts.append(seats[0])

    play_on(new_game(config, n, seed), ("lowest",), before=before)
    return firsts


def test_N19_first_drafter_rotates_each_round():
    firsts = _first_drafters(SixNimmtConfig(advanced=True, max_rounds=3), 3, seed=4)
    assert firsts == [(firsts[0] + k) % 3 for k in range(3)]
    seat0 = SixNimmtConfig(advanced=True, max_rounds=3, first_drafter="seat0")
    assert _first_drafters(seat0, 3, seed=4) == [0, 0, 0]


def test_N19_first_drafter_choices():
    assert first_drafter("seat0", [9, 30, 30], 3, 1) == 0
    assert first_drafter("highest_total", [9, 30, 30], 3, 1) == 1
    assert first_drafter("random_then_rotate", [9, 30, 30], 3, 1) == 0     # seat 1 in round 1, then 2, 0


def test_N19_advanced_hands_are_public():
    state = new_game(SixNimmtConfig(advanced=True), 3, seed=4)
    play_on(state, max_steps=30)                    # the whole draft: 10 picks each
    assert state.phase == PLAY
    obs = state.observe(1)
    assert obs.hands == tuple(tuple(sorted(h)) for h in state.hands)


def test_section7_public_penalties_choice():
    state = make_state([[10, 11, 12, 13, 14], [20], [30], [40]], [[15, 16], [50, 51]])
    state.apply([15, 50])
    assert state.observe(1).penalties[0] == (10, 11, 12, 13, 14)
    hidden = make_state([[10, 11, 12, 13, 14], [20], [30], [40]], [[15, 16], [50, 51]],
                        SixNimmtConfig(public_penalties=False))
    hidden.apply([15, 50])
    obs = hidden.observe(1)
    assert obs.penalties is None and obs.round_points is None


def test_config_validation_names_field_and_allowed_values():
    with pytest.raises(ConfigError, match="rows=0 is out of range"):
        SixNimmtConfig(rows=0)
    with pytest.raises(ConfigError, match="tie_break='coin' is not allowed"):
        SixNimmtConfig(tie_break="coin")
    with pytest.raises(ConfigError, match="wrong type"):
        SixNimmtConfig(hand_size="ten")
    with pytest.raises(ConfigError, match=r"10 players x hand_size 11 \+ rows 4 = 114 cards"):
        SixNimmtConfig(hand_size=11).check_players(10)


def test_actions_read_back_from_their_text():
    for action, text in ((14, "14"), (TakeRow(1), "take row 2")):
        assert format_action(action) == text and parse_action(text) == action
    for bad in ("0", "105", "take row 0", "take row 11", "row 2", ""):
        with pytest.raises(ValueError, match="is not a 6 nimmt! action"):
            parse_action(bad)


def test_game_entry_declares_two_to_ten_players_and_lower_is_better():
    game = get_game("sixnimmt")
    assert (game.min_players, game.max_players, game.higher_is_better) == (2, 10, False)


def test_N16_an_end_threshold_beyond_10000_is_refused_not_played_for_hours():
    from simkit.engine.config import with_overrides

    with pytest.raises(ConfigError, match=r"end_threshold=1000000000 is out of range: allowed is int "
                                          r"from 1 to 10000"):
        with_overrides(SixNimmtConfig(), {"end_threshold": "1000000000"})
    assert with_overrides(SixNimmtConfig(), {"end_threshold": "10000"}).end_threshold == 10_000
