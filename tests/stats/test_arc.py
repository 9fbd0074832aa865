"""The game's arc (simkit.stats.arc): lead changes, when the winner is decided, comebacks, drama."""

import numpy as np
import pandas as pd
import pytest

from simkit.stats.arc import arc_summary, arcs_from_round_scores, game_arc, lead_margins


def test_a_wire_to_wire_win_is_decided_at_the_first_step_without_drama():
    arc = game_arc(np.array([[5, 1], [9, 2], [12, 3]]), winners=[0])
    assert (arc.length, arc.lead_changes, arc.decided_at) == (3, 0, 1 / 3)
    assert not arc.comeback and arc.drama == 0.0


def test_a_comeback_from_last_place_at_half_time():
    # seat 2 last after step 2 of 4 (half time), 6 behind at worst, leads from step 4 on
    cum = np.array([[3, 2, 0], [6, 4, 0], [7, 6, 5], [8, 7, 11]])
    arc = game_arc(cum, winners=[2])
    assert arc.comeback and arc.drama == 6.0 and arc.decided_at == 1.0
    assert arc.lead_changes == 1


def test_lower_is_better_reads_the_lead_the_other_way():
    # 6 nimmt!: fewest bullheads leads; seat 1 trails by 4 after step 1, then leads for good
    cum = np.array([[0, 4], [10, 5], [12, 6]])
    arc = game_arc(cum, winners=[1], higher_is_better=False)
    assert (arc.lead_changes, arc.decided_at, arc.drama) == (1, 2 / 3, 4.0)


def test_shared_leads_are_not_changes_and_co_winners_count_the_earliest():
    cum = np.array([[1, 1], [2, 3], [4, 4]])
    arc = game_arc(cum, winners=[0, 1])
    assert arc.lead_changes == 0          # seat 1 co-led at step 1, led at 2, co-leads at 3
    assert arc.decided_at == 1 / 3 and arc.drama == 0.0


def test_summary_intervals_cover_their_values():
    arcs = [game_arc(np.array([[i % 3, 1], [2, 2 + i % 2]]), winners=[1]) for i in range(50)]
    summary = arc_summary(arcs)
    for f in summary.values():
        assert f.low <= f.value <= f.high
    assert summary["length"].value == 2.0


def seats_table():
    """Two 2-seat games of a lower-is-better game, points per round."""
    return pd.DataFrame({
        "game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "slot": [0, 1, 0, 1], "strategy": ["a", "b", "a", "b"],
        "score": [6.0, 9.0, 10.0, 3.0], "win": [1.0, 0.0, 0.0, 1.0],
        "round_scores": [[5.0, 1.0], [2.0, 7.0], [4.0, 6.0], [3.0, 0.0]]})


def test_arcs_and_lead_margins_from_a_seats_table():
    arcs = arcs_from_round_scores(seats_table(), higher_is_better=False)
    assert [(a.lead_changes, a.drama) for a in arcs] == [(1, 3.0), (0, 0.0)]
    margins = lead_margins(seats_table(), higher_is_better=False).set_index(["player", "step"])
    # a: game 0 margins -3, +3; game 1 margins -1, -7  -> means -2, -2
    assert margins.loc[("a", 1), "mean"] == pytest.approx(-2.0)
    assert margins.loc[("a", 2), "mean"] == pytest.approx(-2.0)
    assert margins.loc[("b", 2), "mean"] == pytest.approx(2.0)


def test_the_vectorised_table_equals_the_game_by_game_definition():
    """arc_table on random games (whole-number scores: many ties; lengths 1-6; co-winners)."""
    from simkit.stats.arc import arc_table
    rng = np.random.default_rng(5)
    games, n, width = 400, 3, 6
    length = rng.integers(1, width + 1, games)
    points = rng.integers(0, 3, (games, n, width)).astype(float)
    after_the_end = np.arange(width)[None, None, :] >= length[:, None, None]
    points = np.where(after_the_end, 0.0, points)
    cum = np.cumsum(points, axis=2)
    for higher in (True, False):
        final = cum[:, :, -1] if higher else -cum[:, :, -1]
        win = (final == final.max(axis=1, keepdims=True)).astype(float)
        table = arc_table(cum, length, win, higher)
        for g in range(games):
            one = game_arc(cum[g, :, :length[g]].T, list(np.flatnonzero(win[g])), higher)
            assert (table.loc[g, "length"], table.loc[g, "lead_changes"], table.loc[g, "comeback"]) == \
                (one.length, one.lead_changes, one.comeback), g
            assert table.loc[g, "decided_at"] == pytest.approx(one.decided_at)
            assert table.loc[g, "drama"] == pytest.approx(one.drama)


def standings_table():
    """Three 2-seat games of a higher-is-better game with standings per step (`running_score`,
    as Game of Trains and Shipside record them): game 1 shorter, game 2 a draw."""
    return pd.DataFrame({
        "game": [0, 0, 1, 1, 2, 2], "seat": [0, 1] * 3, "slot": [0, 1] * 3, "strategy": ["a", "b"] * 3,
        "score": [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], "win": [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        "running_score": [[5.0, 4.0, 7.0], [6.0, 6.0, 5.0], [3.0, 4.0], [5.0, 7.0],
                          [2.0, 2.0], [3.0, 3.0]]})


def test_standings_are_read_as_they_are_and_a_draw_is_left_out():
    """Standings are not added up; the draw (no winner: Trains' turn cap) has no arc."""
    arcs = arcs_from_round_scores(standings_table(), higher_is_better=True)
    assert [(a.length, a.lead_changes, a.drama) for a in arcs] == [(3, 1, 2.0), (2, 0, 0.0)]
    assert arcs[0].decided_at == 1.0 and arcs[1].decided_at == 0.5


def test_lead_margins_carry_a_shorter_games_final_standing_forward():
    margins = lead_margins(standings_table(), higher_is_better=True).set_index(["player", "step"])
    # a: game 0 margins -1, -2, +2; game 1 margins -2, -3 (then -3 carried): means -1.5, -2.5, -0.5
    assert margins.loc[("a", 1), "mean"] == pytest.approx(-1.5)
    assert margins.loc[("a", 3), "mean"] == pytest.approx(-0.5)
    assert (margins["games"] == 2).all()
