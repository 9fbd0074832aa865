"""The luck study (`simkit luck`): a duplicate run, its variance split in luck.json, its pages."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.errors import ConfigError
from simkit.studies.luck import LUCK_FILE, default_agents, luck_lineup, plan_luck

SMALL = ["sixnimmt", "-p", "3", "-s", "random", "-s", "heuristic", "-s", "lowest", "-n", "6",
         "--set", "max_rounds=1", "--seed", "4", "--no-progress"]


def luck(tmp_path, name, *extra):
    out = tmp_path / name
    result = CliRunner().invoke(main, ["luck", *SMALL, "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_the_study_plays_each_deal_in_every_seating_and_writes_its_split(tmp_path):
    out, text = luck(tmp_path, "a", "-j", "1")
    seats = pd.read_parquet(out / "seats.parquet")
    assert len(seats) == 6 * 3 * 3
    # every deal: each seat held each agent slot exactly once
    assert (seats.groupby(["deal", "seat"])["slot"].nunique() == 3).all()
    data = json.loads((out / LUCK_FILE).read_text())
    assert data["lineup"] == ["random", "heuristic", "lowest"] and data["win"]["deals"] == 6
    assert sum(p["value"] for p in data["win"]["shares"].values()) == pytest.approx(1.0)
    assert "is decided by the deal" in text and "by skill" in text
    for row in data["spread"]["most_lopsided"]:       # the replay hint names a game of that deal
        game = seats[seats.game == row["first_game"]]
        assert set(game["deal"]) == {row["deal"]}
        assert f"--game {row['first_game']}" in text
    page = (out / "luck.html").read_text()
    assert "What the figures mean" in page and "data:image/png;base64," in page
    assert "| the deal |" in (out / "luck.md").read_text()


def test_the_split_does_not_depend_on_the_worker_count(tmp_path):
    one, _ = luck(tmp_path, "one", "-j", "1")
    two, _ = luck(tmp_path, "two", "-j", "2")
    assert (one / LUCK_FILE).read_text() == (two / LUCK_FILE).read_text()
    # `simkit report` on a luck study: its run report, and its luck pages beside it
    result = CliRunner().invoke(main, ["report", str(one)])
    assert result.exit_code == 0, result.output
    assert (one / "report" / "report.html").exists()
    assert (one / "report" / "luck.md").read_text() == (one / "luck.md").read_text()
    assert "is decided by the deal" in (one / "report" / "luck.html").read_text()


def test_default_agents_are_random_the_strongest_bot_and_search():
    assert default_agents("shipside", 2) == ["random", "octopus"]
    assert default_agents("sixnimmt", 4) == ["random", "heuristic", "ismcts"]
    assert luck_lineup(["a", "b", "c"], 4) == ["a", "b", "c", "a"]


@pytest.mark.parametrize("agents, deals, message", [
    (["random"], 10, "at least 2 agents"),
    (["random", "lowest", "highest", "heuristic"], 10, "4 agents for 3 players"),
    (["random", "lowest"], 1, "at least 2 deals"),
])
def test_bad_studies_are_refused_before_playing(agents, deals, message):
    with pytest.raises(ConfigError, match=message):
        plan_luck("sixnimmt", 3, agents, deals, seed=1)


def test_one_player_is_refused_as_a_player_count():
    with pytest.raises(ConfigError, match="players") as refused:
        plan_luck("sixnimmt", 1, None, 10, seed=1)
    assert "agents for 1 players" not in str(refused.value)


def test_bad_input_is_one_line_and_a_non_zero_exit(tmp_path):
    result = CliRunner().invoke(main, ["luck", "sixnimmt", "-p", "3", "-s", "random", "-n", "4",
                                       "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "at least 2 agents" in result.output
    assert "Traceback" not in result.output


def test_a_deal_with_a_forfeited_game_is_left_out_whole():
    import numpy as np

    from simkit.studies.luck import analyse_luck

    rows = []
    for deal in range(4):
        for rotation in range(2):
            game = deal * 2 + rotation
            for seat in range(2):
                slot = (seat + rotation) % 2
                win = 1.0 if slot == 0 else 0.0
                forfeit = deal == 2 and rotation == 1 and seat == 0
                rows.append({"game": game, "deal": deal, "seat": seat, "slot": slot, "win": win,
                             "score": np.nan if forfeit else 10.0 * win, "forfeit": forfeit})
    luck = analyse_luck(pd.DataFrame(rows), ["strong", "weak"], seed=1, resamples=50)
    assert luck.left_out == 1 and luck.win.deals == 3
    assert luck.win.shares["skill"].value > 0.99


def test_replays_play_each_deal_again_with_other_strategy_streams(tmp_path):
    """--replays 2: the first pass is the study without replays, game for game; the second plays
    the same deals (the same deal numbers, the same chance stream) in later games, whose random
    bot plays otherwise; luck.json says so and the hands' shares count every play."""
    plain, _ = luck(tmp_path, "plain", "-j", "1")
    twice, text = luck(tmp_path, "twice", "-j", "1", "--replays", "2")
    one, two = pd.read_parquet(plain / "seats.parquet"), pd.read_parquet(twice / "seats.parquet")
    assert len(two) == 2 * len(one) and (two.groupby(["deal", "seat", "slot"]).size() == 2).all()
    first = two[two["game"] < len(one) // 3].reset_index(drop=True)
    pd.testing.assert_frame_equal(first, one)
    again = two[two["game"] >= len(one) // 3]
    assert sorted(again["deal"].unique()) == sorted(one["deal"].unique())
    # the same deal in a later game is not the same game: the random seat's choices differ
    assert not (again.sort_values(["deal", "seat", "slot"])["score"].to_numpy()
                == one.sort_values(["deal", "seat", "slot"])["score"].to_numpy()).all()
    data = json.loads((twice / LUCK_FILE).read_text())
    assert data["replays"] == 2 and "replays" not in json.loads((plain / LUCK_FILE).read_text())
    assert "of its 6 plays (3 seatings, each 2 times" in text
    shares = [w for row in data["spread"]["most_lopsided"] for w in row["hand_win_shares"]]
    assert all(abs(6 * w - round(6 * w)) < 1e-3 for w in shares)      # steps of 1/6
    assert "x 2 replays = 36 games" in text


def test_replays_must_be_at_least_one(tmp_path):
    result = CliRunner().invoke(main, ["luck", *SMALL, "--replays", "0", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "at least 1" in result.output and "Traceback" not in result.output
    with pytest.raises(ConfigError, match="--replays 5000 is not allowed"):
        plan_luck("sixnimmt", 3, ["random", "lowest"], 4, seed=1, replays=5000)


@pytest.fixture(scope="module")
def ladder_folder(tmp_path_factory):
    """A small ladder of 6 nimmt! (3 players, single rounds): heuristic beats random."""
    out = tmp_path_factory.mktemp("ladder") / "ladder"
    result = CliRunner().invoke(main, ["ladder", "sixnimmt", "-p", "3", "-s", "random", "-s", "heuristic",
                                       "-n", "30", "--set", "max_rounds=1", "--seed", "2", "-j", "1",
                                       "--no-progress", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_the_skill_chain_of_a_ladder_stands_beside_the_split(tmp_path, ladder_folder):
    from simkit.studies.ladder import analyse_ladder

    depth = analyse_ladder(ladder_folder).depth
    out, text = luck(tmp_path, "chained", "-j", "1", "--ladder", str(ladder_folder))
    chain = json.loads((out / LUCK_FILE).read_text())["skill_chain"]
    assert chain["chain"] == list(depth.chain) and chain["length"] == depth.length
    assert chain["same_players"] and chain["same_rules"] and chain["folder"] == str(ladder_folder)
    sentence = f"Skill chain {depth.length} (the ladder in {ladder_folder}, 3 players)"
    assert sentence in text
    for page in ("luck.md", "luck.html"):
        body = (out / page).read_text()
        assert sentence in body and "skill chain" in body      # the sentence and its glossary line
    assert " < ".join(depth.chain) in text


def test_a_ladder_of_another_setting_is_marked_and_another_game_refused(tmp_path, ladder_folder):
    import shutil

    plan = plan_luck("sixnimmt", 3, ["random", "lowest"], 4, seed=1, ladder=ladder_folder)
    assert plan.chain is not None and not plan.chain["same_rules"]      # the ladder played single rounds
    from simkit.report.luck import chain_sentence
    assert "other rules than this study" in chain_sentence({"skill_chain": plan.chain})
    other = tmp_path / "other"
    shutil.copytree(ladder_folder, other)
    listing = json.loads((other / "ladder.json").read_text())
    (other / "ladder.json").write_text(json.dumps({**listing, "game": "trains"}))
    with pytest.raises(ConfigError, match="is a ladder of trains, the luck study plays sixnimmt"):
        plan_luck("sixnimmt", 3, ["random", "lowest"], 4, seed=1, ladder=other)
    result = CliRunner().invoke(main, ["luck", *SMALL, "--ladder", str(tmp_path),
                                       "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "not a ladder folder" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "x").exists()
