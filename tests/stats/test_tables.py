"""Per-strategy, per-seat and per-game tables on synthetic run tables."""


import pandas as pd
import pytest

from simkit.stats import (
    balance,
    format_summary,
    game_results,
    head_to_head,
    paired_table,
    pentanomial,
    player_key,
    running_win_share,
    score_quantiles,
    seat_effects,
    seat_independence,
    summary_table,
    trinomial,
    winning_margins,
)
from simkit.stats.intervals import wilson
from simkit.stats.synthetic import synth


def _tiny():
    """Two hand-made 2-player games: A wins game 0, game 1 is a shared win (tie)."""
    columns = ["game", "deal", "rotation", "seat", "slot", "strategy", "score", "rank", "win", "forfeit"]
    seats = pd.DataFrame([
        (0, 0, 0, 0, 0, "A", 5.0, 1, 1.0, False),
        (0, 0, 0, 1, 1, "B", 2.0, 2, 0.0, False),
        (1, 1, 1, 0, 1, "B", 3.0, 1, 0.5, False),
        (1, 1, 1, 1, 0, "A", 3.0, 1, 0.5, False),
    ], columns=columns)
    return seats


def test_summary_table_by_hand():
    t = summary_table(_tiny()).set_index("player")
    assert list(t.index) == ["A", "B"]
    assert t.loc["A", "games"] == 2
    assert t.loc["A", "win_share"] == pytest.approx(0.75)
    assert (t.loc["A", "win_low"], t.loc["A", "win_high"]) == pytest.approx(wilson(1.5, 2))
    assert t.loc["B", "win_share"] == pytest.approx(0.25)
    assert t.loc["A", "mean_score"] == pytest.approx(4.0)
    assert t.loc["B", "mean_score"] == pytest.approx(2.5)
    assert t.loc["A", "fair_share"] == pytest.approx(0.5)


def test_win_shares_sum_to_one_without_draws_and_to_one_minus_draws_with_them():
    games, seats = synth(900, strengths=(0.8, 0.4, 0.0), n_players=3, seed=2)
    assert summary_table(seats)["win_share"].sum() == pytest.approx(1.0)
    games, seats = synth(900, strengths=(0.8, 0.0), n_players=2, seed=3, draw_every=9)
    assert summary_table(seats)["win_share"].sum() == pytest.approx(1 - games["draw"].mean())


def test_summary_intervals_contain_estimates_and_shrink_with_n():
    small = summary_table(synth(200, seed=4)[1]).set_index("player")
    big = summary_table(synth(3000, seed=4)[1]).set_index("player")
    for t in (small, big):
        assert (t["win_low"] <= t["win_share"]).all() and (t["win_share"] <= t["win_high"]).all()
        assert (t["score_low"] <= t["mean_score"]).all() and (t["mean_score"] <= t["score_high"]).all()
    assert ((big["win_high"] - big["win_low"]) < (small["win_high"] - small["win_low"])).all()
    assert ((big["score_high"] - big["score_low"]) < (small["score_high"] - small["score_low"])).all()
    assert big.loc["s0", "win_share"] > 0.5 > big.loc["s1", "win_share"]


def test_summary_counts_forfeits_and_ignores_their_nan_scores():
    games, seats = synth(100, seed=5, forfeit_every=10)
    t = summary_table(seats)
    assert t["forfeits"].sum() == 10
    assert t["mean_score"].notna().all()


def test_same_label_in_every_slot_is_told_apart_by_slot():
    games, seats = synth(200, strengths=(0.5, 0.5), labels=["random", "random"], seed=6)
    assert sorted(set(player_key(seats))) == ["random#1", "random#2"]
    assert list(summary_table(seats)["player"]) == ["random#1", "random#2"]


def test_format_summary_lists_every_strategy_with_percentages():
    text = format_summary(summary_table(_tiny()), title="sixnimmt, 2 games")
    lines = text.splitlines()
    assert lines[0] == "sixnimmt, 2 games"
    assert lines[1].split() == ["strategy", "seats", "games", "win", "share", "per", "game",
                                "95%", "CI", "fair", "share", "÷", "fair"]
    assert lines[3].startswith("A ") and "75.0%" in lines[3]
    assert lines[4].startswith("B ") and "25.0%" in lines[4]
    # the scores in a table of their own: each table fits an 80-column terminal (issue 24)
    assert lines[5] == "" and lines[6].split() == ["strategy", "mean", "score", "95%", "CI", "forfeits"]
    assert lines[8].startswith("A ") and lines[9].startswith("B ")
    assert len(lines) == 10                       # one seat each: no per-seat line
    assert max(len(line) for line in lines) <= 80


def test_format_summary_labels_the_per_seat_share_of_a_strategy_in_several_seats():
    _, seats = synth(400, strengths=(0.8, 0.3, 0.3, 0.3), n_players=4, seed=8,
                     labels=["smart", "random", "random", "random"])
    table = summary_table(seats).set_index("player")
    lines = format_summary(table.reset_index()).splitlines()
    random = table.loc["random"]
    row = next(line for line in lines if line.startswith("random "))
    share = f"{100 * random['win_share']:.1f}%"
    assert row.split()[1:4] == ["3", "400", share] and "75.0%" in row.split()
    assert f"{random['win_share'] / random['fair_share']:.2f}" in row.split()
    assert lines[-1] == (f"per seat: random, holding 3 seats, wins "
                         f"{100 * random['win_share'] / 3:.1f}% per seat against a fair 25.0%")
    assert not any(line.startswith("per seat: smart") for line in lines)


def test_summary_table_is_fast_enough_for_the_run_command():
    """Not a timing assertion: a 20 000-game 4-player table must simply be computed in one call."""
    games, seats = synth(20000, strengths=(0.6, 0.5, 0.4, 0.3), n_players=4, seed=7)
    t = summary_table(seats)
    assert t["games"].tolist() == [20000] * 4


def test_score_quantiles_are_ordered():
    q = score_quantiles(synth(500, seed=8)[1])
    assert (q["q05"] <= q["q25"]).all() and (q["q25"] <= q["q50"]).all()
    assert (q["q50"] <= q["q75"]).all() and (q["q75"] <= q["q95"]).all()


def test_seat_effects_detect_a_first_seat_bonus():
    games, seats = synth(3000, strengths=(0.5, 0.5), seed=9, seat_bonus=(2.0, 0.0))
    se = seat_effects(seats).set_index("seat")
    assert se.loc[0, "win_low"] > 0.5 and se.loc[0, "advantage"] > 0.1
    ind = seat_independence(seats)
    assert ind["wins_p"] < 1e-6 and ind["scores_test"] == "wilcoxon" and ind["scores_p"] < 1e-6


def test_seat_independence_not_rejected_without_seat_effect():
    games, seats = synth(3000, strengths=(0.5, 0.5, 0.5), n_players=3, seed=10)
    ind = seat_independence(seats)
    assert ind["wins_df"] == 2
    assert ind["wins_p"] > 0.001 and ind["scores_test"] == "friedman" and ind["scores_p"] > 0.001


def test_head_to_head_by_hand_and_antisymmetric():
    score, count = head_to_head(_tiny())
    assert score.loc["A", "B"] == pytest.approx(0.75)
    assert score.loc["B", "A"] == pytest.approx(0.25)
    assert count.loc["A", "B"] == 2
    games, seats = synth(600, strengths=(0.9, 0.5, 0.1), n_players=3, seed=11)
    score, _ = head_to_head(seats)
    for a in score.index:
        for b in score.columns:
            if a != b:
                assert score.loc[a, b] + score.loc[b, a] == pytest.approx(1.0)


def test_running_win_share_ends_at_the_summary_value_with_a_band():
    games, seats = synth(1000, seed=12)
    run = running_win_share(seats, max_points=50)
    t = summary_table(seats).set_index("player")
    for p, grp in run.groupby("player"):
        assert len(grp) <= 50
        assert grp["games"].iloc[-1] == 1000
        assert grp["win_share"].iloc[-1] == pytest.approx(t.loc[p, "win_share"])
        assert (grp["low"] <= grp["win_share"]).all() and (grp["win_share"] <= grp["high"]).all()
        width = grp["high"] - grp["low"]
        assert width.iloc[-1] < width.iloc[0]


def test_winning_margins_respect_score_direction():
    seats = _tiny()
    assert winning_margins(seats, True).tolist() == [3.0, 0.0]
    assert winning_margins(seats, False).tolist() == [3.0, 0.0]
    low = seats.assign(score=[1.0, 4.0, 2.0, 2.0])
    assert winning_margins(low, False).tolist() == [3.0, 0.0]


def test_balance_figures():
    games, seats = synth(1000, seed=13, draw_every=50, forfeit_every=100)
    b = balance(games, seats, higher_is_better=True)
    assert b["games"] == 1000 and b["n_players"] == 2
    assert b["draw"]["count"] == 20
    assert b["forfeit"]["count"] == 10 and b["error"]["count"] == 10
    assert b["first_seat"]["fair"] == 0.5
    assert b["first_seat"]["low"] <= b["first_seat"]["win_rate"] <= b["first_seat"]["high"]
    assert set(b["length"]) == {"steps", "rounds"}
    assert 10 <= b["length"]["steps"]["mean"] <= 19
    assert b["flags"]["capped"]["count"] == 100
    assert b["margin"]["mean"] >= 0 and b["margin"]["n"] == 990


def test_game_results_and_counts_for_two_strategies():
    games, seats = synth(400, seed=14, duplicate=True)
    res = game_results(seats, seats["strategy"] == "s0", seats["strategy"] == "s1")
    assert len(res) == 400
    l, d, w = trinomial(res)
    assert l + d + w == 400 and w > l
    penta = pentanomial(res)
    assert sum(penta) == 200


def test_pentanomial_by_hand():
    """Deal 0: A wins both games (WW); deal 1: A wins one and loses one (WL)."""
    rows = []
    for g, (deal, rot, a_rank) in enumerate([(0, 0, 1), (0, 1, 1), (1, 0, 1), (1, 1, 2)]):
        for seat in range(2):
            slot = (seat + rot) % 2
            is_a = slot == 0
            rank = a_rank if is_a else 3 - a_rank
            rows.append(dict(game=g, deal=deal, rotation=rot, seat=seat, slot=slot,
                             strategy="AB"[slot], score=float(3 - rank), rank=rank,
                             win=1.0 if rank == 1 else 0.0, forfeit=False))
    seats = pd.DataFrame(rows)
    res = game_results(seats, seats["slot"] == 0, seats["slot"] == 1)
    assert trinomial(res) == [1, 0, 3]
    assert pentanomial(res) == [0, 0, 1, 0, 1]


def test_paired_table_narrower_than_unpaired_for_duplicate_runs():
    games, seats = synth(2000, seed=15, duplicate=True)
    paired = paired_table(seats).set_index("player")
    assert paired.loc["s0", "deals"] == 1000
    summary = summary_table(seats).set_index("player")
    assert paired.loc["s0", "win_share"] == pytest.approx(summary.loc["s0", "win_share"])
    assert paired_table(synth(100, seed=16)[1]) is None


def test_balance_first_player_follows_the_start_seat_column():
    """Where a game draws its start player, the first-player figure is the starter's win rate."""
    games = pd.DataFrame({"game": [0, 1, 2, 3], "deal": [0, 1, 2, 3], "rotation": [0] * 4,
                          "n_players": [2] * 4, "steps": [9] * 4, "forfeit_seat": [-1] * 4,
                          "error": [""] * 4, "draw": [False] * 4, "start_seat": [1, 1, 0, 1]})
    seats = pd.DataFrame({"game": [0, 0, 1, 1, 2, 2, 3, 3], "deal": [0, 0, 1, 1, 2, 2, 3, 3],
                          "rotation": [0] * 8, "seat": [0, 1] * 4, "slot": [0, 1] * 4,
                          "strategy": ["a", "b"] * 4, "score": [0.0, 1.0] * 4,
                          "rank": [2, 1] * 4, "win": [0.0, 1.0] * 4, "forfeit": [False] * 8})
    b = balance(games, seats, higher_is_better=True)
    assert b["first_seat"]["win_rate"] == 0.75   # seat 1 always wins and started 3 of 4 games
    assert "start_seat" not in b["length"]
