"""Scores round by round (games with rounds): `round_score_curves`."""

import numpy as np
import pandas as pd
import pytest

from simkit.engine.game import ROUND_SCORES
from simkit.stats.rounds import round_score_curves
from simkit.stats.tables import summary_table


@pytest.fixture(scope="module")
def sixnimmt(tmp_path_factory):
    from simkit.engine.runner import RunSpec, run

    spec = RunSpec.create(game="sixnimmt", n_players=4,
                          strategies=["heuristic", "random", "random", "random"], n_games=80,
                          seed=11)
    return run(spec, tmp_path_factory.mktemp("r") / "run", jobs=1, progress=False)


def test_the_last_round_is_the_mean_final_score_with_its_interval(sixnimmt):
    curves = round_score_curves(sixnimmt.seats)
    last = curves[curves["round"] == curves["round"].max()].set_index("player")
    summary = summary_table(sixnimmt.seats).set_index("player")
    for col, ref in (("mean", "mean_score"), ("low", "score_low"), ("high", "score_high")):
        assert last[col].to_numpy() == pytest.approx(summary.loc[last.index, ref].to_numpy())
    assert (last["games"] == 80).all()


def test_scores_build_up_round_by_round_and_running_counts_the_games_still_on(sixnimmt):
    curves = round_score_curves(sixnimmt.seats)
    rounds = sixnimmt.games["rounds"].to_numpy()
    assert curves["round"].max() == rounds.max()
    for _, c in curves.groupby("player"):
        assert np.all(np.diff(c["mean"].to_numpy()) >= 0)      # bullheads only add up
        assert np.all(c["low"] <= c["mean"]) and np.all(c["mean"] <= c["high"])
        expected = [(rounds >= r).mean() for r in c["round"]]
        assert c["running"].to_numpy() == pytest.approx(expected)
    first = curves[curves["round"] == 1].set_index("player")["mean"]
    heuristic = sixnimmt.seats[sixnimmt.seats["strategy"] == "heuristic"]
    assert first["heuristic"] == pytest.approx(np.mean([x[0] for x in heuristic[ROUND_SCORES]]))


def test_no_curves_without_the_column_or_with_single_round_games(sixnimmt):
    assert round_score_curves(sixnimmt.seats.drop(columns=ROUND_SCORES)) is None
    one_round = sixnimmt.seats.assign(**{ROUND_SCORES: [[s] for s in sixnimmt.seats["score"]]})
    assert round_score_curves(one_round) is None


def test_seats_without_a_result_are_left_out():
    seats = pd.DataFrame({"game": [0, 0, 1, 1], "deal": [0, 0, 1, 1], "rotation": 0,
                          "seat": [0, 1, 0, 1], "slot": [0, 1, 0, 1], "strategy": ["a", "b"] * 2,
                          "score": [3.0, 5.0, np.nan, np.nan], "rank": [1, 2, 1, 1],
                          "win": [1.0, 0.0, 0.0, 0.0], "forfeit": [False, False, True, False],
                          ROUND_SCORES: [[1.0, 2.0], [4.0, 1.0], [], []]})
    curves = round_score_curves(seats).set_index(["player", "round"])
    assert curves.loc[("a", 1), "mean"] == 1.0 and curves.loc[("a", 2), "mean"] == 3.0
    assert curves.loc[("b", 2), "mean"] == 5.0 and (curves["games"] == 1).all()
    assert curves.loc[("a", 2), "high"] == np.inf       # one game: no interval


def test_stats_reads_the_round_scores_column_the_engine_writes():
    from simkit.stats import rounds

    assert rounds.ROUND_SCORES == ROUND_SCORES
