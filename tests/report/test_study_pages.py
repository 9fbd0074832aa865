"""The ladder and tournament pages, `simkit report` on every kind of study folder, and the
chart details of issue 24 (win shares in %, the game's score unit, labels inside the frame)."""

import matplotlib
import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.registry import get_game
from simkit.report import charts
from simkit.report.figures import score_units
from simkit.report.ladder import (
    crosstable_rows,
    write_ladder_report,
    write_tournament_report,
)
from simkit.report.ladder_charts import budget_chart, ratings_chart
from simkit.report.page import CSS
from simkit.stats.wording import number
from simkit.studies.ladder import analyse_ladder
from tests.report.study_folders import pairing_folder

NO_SEARCH = {"heuristic": 0.7, "lowest": 0.3, "random": 0.2}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("studies")
    return pairing_folder(root / "ladder"), pairing_folder(root / "tournament", NO_SEARCH)


def test_the_ladder_page_has_the_run_reports_style_a_glossary_and_the_budget_chart(folders):
    page = write_ladder_report(folders[0]).read_text()
    assert CSS in page                                 # the shared sheet, not a copy of it
    for section in ("headline", "ratings", "crosstable", "pairings", "glossary"):
        assert f'id="{section}"' in page, section
    assert page.count("data:image/png;base64,") == 2 and "rating against search budget" in page
    assert "ISMCTS budget" in page


def test_without_two_search_budgets_there_is_no_budget_chart(folders):
    result = analyse_ladder(folders[1])
    assert budget_chart(result) is None
    page = write_ladder_report(folders[1], result, out_dir=folders[1] / "as-ladder").read_text()
    assert page.count("data:image/png;base64,") == 1 and "ISMCTS budget" not in page
    # the ratings chart: one row per agent, in the report's font sizes
    fig = ratings_chart(result)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert sorted(labels) == sorted(NO_SEARCH) and charts.min_font_pt(fig) >= charts.MIN_FONT_PT


def test_the_tournament_crosstable_gives_every_cell_its_interval(folders):
    result = analyse_ladder(folders[1])
    head, rows = crosstable_rows(result)
    assert head == ["agent", "vs 1", "vs 2", "vs 3", "mean", "rank"]
    agents = list(NO_SEARCH)
    for p in result.pairs:
        i, j = agents.index(p.a), agents.index(p.b)
        assert rows[i][j + 1] == f"{100 * p.score:.1f}% ({100 * p.low:.1f}–{100 * p.high:.1f}%)"
        # the column agent's view of the same pairing: 1 - score, the interval flipped
        assert rows[j][i + 1] == (f"{100 * (1 - p.score):.1f}% ({100 * (1 - p.high):.1f}–"
                                  f"{100 * (1 - p.low):.1f}%)")
    assert [r[k + 1] for k, r in enumerate(rows)] == ["—"] * 3
    page = write_tournament_report(folders[1], result).read_text()
    assert "Who won the tournament?" in page and (folders[1] / "tournament.md").exists()
    assert pd.read_csv(folders[1] / "crosstable.csv", index_col="agent").shape == (3, 5)


def test_simkit_report_rebuilds_tournament_and_ladder_folders(folders, tmp_path):
    ladder, tournament = folders
    write_tournament_report(tournament)                 # its crosstable.csv marks a tournament
    (tournament / "tournament.html").unlink()
    out = CliRunner().invoke(main, ["report", str(tournament)])
    assert out.exit_code == 0, out.output
    assert "tournament report written" in out.output and (tournament / "tournament.html").exists()
    out = CliRunner().invoke(main, ["report", str(ladder), "--out", str(tmp_path / "rep")])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "rep" / "ladder.html").exists() and (tmp_path / "rep" / "ladder.md").exists()
    again = CliRunner().invoke(main, ["report", str(ladder), "--out", str(tmp_path / "rep")])
    assert again.exit_code == 1 and "already holds a report" in again.output


def test_a_ladder_folder_mixed_with_runs_is_one_line_and_exit_1(folders):
    run = next((folders[0] / "pairs").iterdir())
    out = CliRunner().invoke(main, ["report", str(folders[0]), str(run)])
    assert out.exit_code == 1 and "is a ladder folder: report it on its own" in out.output
    assert len(out.output.splitlines()) == 1


def _table(share):
    return pd.DataFrame({"player": ["strong", "weak"], "win_share": [share, 1 - share],
                         "win_low": [share - 0.03, 1 - share - 0.03],
                         "win_high": [share + 0.03, 1 - share + 0.03],
                         "fair_share": [0.5, 0.5], "seats_per_game": [1, 1]})


@pytest.mark.parametrize("share", [0.916, 0.55])
def test_win_share_bars_are_in_percent_and_their_labels_stay_inside_the_frame(share):
    fig = charts.win_shares(_table(share))
    ax = fig.axes[0]
    fig.draw_without_rendering()
    ticks = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
    assert ticks and all(t.endswith("%") for t in ticks)
    frame = ax.get_window_extent()
    for label in ax.texts:
        box = label.get_window_extent()
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1, label.get_text()
    assert {t.get_text().strip() for t in ax.texts} == {f"{100 * share:.1f}%", f"{100 * (1 - share):.1f}%"}


def test_score_axes_name_the_games_own_unit():
    assert score_units({"game": "sixnimmt"}) == ("bullhead", "bullheads")
    assert score_units({"game": "shipside"}) == ("point", "points")
    assert score_units({"game": "not-installed"}) == ("score", "scores")
    from simkit.stats.synthetic import synth

    _, seats = synth(60, seed=1, labels=["a", "b"])
    fig = charts.score_distribution(seats, False, unit="bullheads")
    assert fig.axes[0].get_xlabel() == "bullheads per game (lower is better)"
    seat_fig = charts.seat_chart(seats, True, unit="points")
    assert seat_fig.axes[1].get_ylabel() == "mean points"
    assert isinstance(seat_fig.axes[0].yaxis.get_major_formatter(), matplotlib.ticker.PercentFormatter)


def test_no_negative_zero_and_one_player_count_reads_as_one():
    assert number(-0.001) == "0.00" and number(-0.004, 2) == "0.00" and number(-0.01) == "-0.01"
    from dataclasses import replace

    assert replace(get_game("sixnimmt"), min_players=2, max_players=2).players_allowed() == "2"
    assert get_game("sixnimmt").players_allowed() == "2 to 10"


def test_the_headline_names_a_strongest_agent_only_when_it_beats_every_other(tmp_path):
    from simkit.report.ladder import strongest_sentence

    clear = analyse_ladder(pairing_folder(tmp_path / "clear", {"strong": 2.0, "weak": 0.0, "weaker": -0.5}))
    assert strongest_sentence(clear).startswith("strong, rating +")
    assert "beats every agent it met significantly" in strongest_sentence(clear)
    # two equal agents above a weak one: the top one is not told apart from its twin
    twins = analyse_ladder(pairing_folder(tmp_path / "twins", {"a": 1.0, "b": 1.0, "weak": -1.0}, games=60))
    sentence = strongest_sentence(twins)
    assert sentence.startswith("not told apart yet:") and "weak" not in sentence.split("win over")[1]
