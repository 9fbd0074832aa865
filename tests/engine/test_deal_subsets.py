"""Runs on listed deals (`RunSpec.deal_numbers`, `deals 500-599` in a deals file): the k-th deal
of the run is the k-th listed deal number; the game's index keeps deciding seats and rotation."""

import dataclasses
import json

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine.deals import read_deals
from simkit.engine.errors import ConfigError, RunFolderError
from simkit.engine.play import play_game, play_range
from simkit.engine.runner import RunSpec, load_run, replay_game, run
from simkit.engine.seeding import (
    deal_number,
    deal_numbers,
    deal_stream_words,
    game_streams,
    generator_state,
    stream_words,
)
from simkit.engine.spec import checked_deal_numbers
from simkit.games.sixnimmt.batch import play_range_batch
from tests.reliability.helpers import interrupt_after_chunks

SEED = 2026
LINEUP = ("lowest", "highest", "highest", "highest")     # deterministic, and every rotation differs


def _spec(n_games, deals=None, strategies=LINEUP, **kw):
    return RunSpec.create("sixnimmt", 4, list(strategies), n_games, seed=SEED,
                          overrides={"max_rounds": "1"}, deal_numbers=deals, **kw)


def _cards(spec, index):
    """The cards dealt in game `index`: the starting rows and every seat's hand."""
    state = play_game(spec, index, max_steps=0)[1]
    return state.observe(0).rows, tuple(tuple(sorted(state.observe(s).hand)) for s in range(4))


def _frames(chunk):
    return pd.DataFrame(chunk.games), pd.DataFrame(chunk.seats)


def _assert_same_rows(a, b, but=()):
    for x, y in zip(_frames(a), _frames(b)):
        pd.testing.assert_frame_equal(x.drop(columns=list(but)), y.drop(columns=list(but)))


# ---- the mapping -------------------------------------------------------------------------------
def test_the_runs_deals_map_to_the_listed_numbers_in_order():
    ranges = ((3, 3), (7, 9), (20, 24))
    listed = [3, 7, 8, 9, 20, 21, 22, 23, 24]
    for start in range(len(listed)):
        for stop in range(start, len(listed) + 1):
            assert deal_numbers(ranges, start, stop) == listed[start:stop]
    assert [deal_number(ranges, k) for k in range(len(listed))] == listed
    assert deal_numbers(None, 5, 9) == [5, 6, 7, 8] and deal_number(None, 41) == 41
    # the chance stream of a listed deal is that of the plain run's game of that number
    assert deal_stream_words(99, ranges, 2, 7) == [stream_words(99, d, 1) for d in listed[2:7]]


@pytest.mark.parametrize("ranges, needed, expected", [
    ([(0, 99)], 100, None),                       # the first deals: a plain run
    ([(0, 4), (5, 9)], 10, None),                 # adjacent ranges join
    ([(0, 49), (100, 149)], 50, None),            # only the deals the run plays count
    ([[500, 599]], 50, ((500, 549),)),            # as read back from manifest.json
    ([(0, 4), (10, 12)], 7, ((0, 4), (10, 11))),
    ([(0, 4), (0, 4)], 10, ((0, 4), (0, 4))),     # the same list again: every deal twice (luck --replays)
    ([(0, 2), (3, 4), (0, 4)], 8, ((0, 4), (0, 2))),
])
def test_a_deal_list_is_cut_to_the_deals_the_run_plays(ranges, needed, expected):
    assert checked_deal_numbers(ranges, needed) == expected


@pytest.mark.parametrize("ranges, message", [
    ([(5, 9)], "names 5 deals, the run needs 6"),
    ([(5, 9), (0, 2)], "not sorted and disjoint at 0-2"),
    ([(0, 4), (0, 3)], "not sorted and disjoint at 0-3 (after 0-4)"),      # a repeat must be whole
    ([(0, 4), (0, 4), (2, 9)], "not sorted and disjoint at 2-9"),
    ([(-1, 3)], "not allowed"),
    ([(4, 3)], "not allowed"),
    ([(True, 9)], "not allowed"),
    ([(0, 2 ** 63)], "not allowed"),
    ([5], "not a (low, high) pair"),
])
def test_a_bad_deal_list_is_a_one_line_error(ranges, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _spec(6, ranges)


# ---- the same results as before for the first deals --------------------------------------------
@pytest.mark.parametrize("options", [{}, {"seating": "random"}, {"duplicate": True}])
def test_the_mapping_of_the_first_deals_gives_a_plain_runs_rows_bit_for_bit(options):
    plain = _spec(100, strategies=("random",), **options)
    assert _spec(100, [(0, 99)], strategies=("random",), **options) == plain
    # the mapping code itself, not only the normalisation, must give the plain rows
    mapped = dataclasses.replace(plain, deal_numbers=((0, 99),))
    _assert_same_rows(play_range(mapped, 0, 100), play_range(plain, 0, 100))
    _assert_same_rows(play_range(mapped, 37, 61), play_range(plain, 37, 61))


def test_a_run_on_deals_0_99_equals_a_plain_run_of_100_games(tmp_path):
    cli = CliRunner()
    deals = tmp_path / "deals.txt"
    deals.write_text(f"seed {SEED}\ndeals 0-99\n")
    common = ["run", "sixnimmt", "-p", "4", "-s", "random", "-s", "heuristic", "-j", "1"]
    a = cli.invoke(main, [*common, "--deals", str(deals), "--out", str(tmp_path / "a")])
    b = cli.invoke(main, [*common, "-n", "100", "--seed", str(SEED), "--out", str(tmp_path / "b")])
    assert a.exit_code == 0 and b.exit_code == 0, a.output + b.output
    for name in ("games.parquet", "seats.parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "a" / name),
                                      pd.read_parquet(tmp_path / "b" / name))
    assert json.loads((tmp_path / "a" / "manifest.json").read_text())["deal_numbers"] is None


# ---- the key property: the listed deals are the plain run's deals --------------------------------
def test_a_run_on_deals_500_599_plays_the_deals_of_games_500_599():
    plain, sub = _spec(600), _spec(100, [(500, 599)])
    cards = [_cards(sub, k) for k in range(100)]
    assert cards == [_cards(plain, 500 + k) for k in range(100)]
    assert len(set(cards)) == 100
    # 500 is a multiple of 4 players, so game k has game 500+k's rotation: with deterministic
    # strategies every row is the plain run's, but for the game index
    a, b = play_range(sub, 0, 100), play_range(plain, 500, 600)
    assert a.games["deal"] == list(range(500, 600)) == b.games["deal"]
    assert a.games["game"] == list(range(100))
    _assert_same_rows(a, b, but=["game"])


def test_the_game_index_decides_seats_and_rotation_the_deal_number_the_cards():
    plain, sub = _spec(601), _spec(100, [(501, 600)])
    assert [_cards(sub, k) for k in range(0, 100, 7)] == [_cards(plain, 501 + k) for k in range(0, 100, 7)]
    mine, own_index = play_range(sub, 0, 100), play_range(plain, 0, 100)
    own_deal = play_range(plain, 501, 601)
    assert mine.games["rotation"] == own_index.games["rotation"] == [k % 4 for k in range(100)]
    assert mine.seats["slot"] == own_index.seats["slot"] != own_deal.seats["slot"]
    assert mine.games["deal"] == own_deal.games["deal"] == list(range(501, 601))
    # random seating: the seating draw is the game index's
    shuffled, shuffled_plain = _spec(100, [(501, 600)], seating="random"), _spec(100, seating="random")
    assert play_range(shuffled, 0, 100).seats["slot"] == play_range(shuffled_plain, 0, 100).seats["slot"]
    # the streams: the chance stream is the deal number's, the seats' streams the game index's
    listed, own, dealt = (game_streams(SEED, 3, 4, deals=((501, 600),)), game_streams(SEED, 3, 4),
                          game_streams(SEED, 504, 4))
    assert generator_state(listed.chance) == generator_state(dealt.chance) != generator_state(own.chance)
    assert [generator_state(g) for g in listed.seats] == [generator_state(g) for g in own.seats]


def test_a_duplicate_run_on_listed_deals_plays_each_once_per_rotation():
    plain, sub = _spec(525), _spec(100, [(500, 524)], duplicate=True)
    for index in (0, 3, 5, 50, 99):
        assert _cards(sub, index) == _cards(plain, 500 + index // 4)
    chunk = play_range(sub, 0, 100)
    assert chunk.games["deal"] == [500 + i // 4 for i in range(100)]
    assert chunk.games["rotation"] == [i % 4 for i in range(100)]


# ---- the batch engine --------------------------------------------------------------------------
@pytest.mark.parametrize("deals, options", [
    ([(500, 599)], {}),
    ([(3, 40), (900, 961)], {"seating": "random"}),
    ([(500, 524)], {"duplicate": True}),
])
def test_the_batch_engine_plays_listed_deals_as_the_scalar_engine(deals, options):
    spec = _spec(100, deals, **options)
    _assert_same_rows(play_range_batch(spec, 0, 100), play_range(spec, 0, 100))
    _assert_same_rows(play_range_batch(spec, 10, 77), play_range(spec, 10, 77))


def test_the_batch_engines_mapping_of_the_first_deals_is_a_plain_run():
    plain = _spec(200, strategies=("random",))
    mapped = dataclasses.replace(plain, deal_numbers=((0, 199),))
    _assert_same_rows(play_range_batch(mapped, 0, 200), play_range_batch(plain, 0, 200))


# ---- run folders: manifest, replay, --deals RUN_FOLDER, resume, sweep ----------------------------
def test_a_run_folder_records_its_deals_and_replays_and_passes_them_on(tmp_path):
    cli = CliRunner()
    deals = tmp_path / "deals.txt"
    deals.write_text(f"seed {SEED}\ndeals 500-529, 700-709\n")
    a = cli.invoke(main, ["run", "sixnimmt", "-p", "4", "-s", "random", "-s", "heuristic", "-j", "1",
                          "--deals", str(deals), "--out", str(tmp_path / "a")])
    assert a.exit_code == 0, a.output
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["n_games"] == 40 and manifest["deal_numbers"] == [[500, 529], [700, 709]]
    games = pd.read_parquet(tmp_path / "a" / "games.parquet")
    assert games.deal.tolist() == [*range(500, 530), *range(700, 710)]
    for index in (0, 29, 30, 39):       # random seats: a replay that differed would be refused
        state, record, spec = replay_game(tmp_path / "a", index)
        assert record.deal == games.deal[index] and spec.deal_numbers == ((500, 529), (700, 709))
    logs = cli.invoke(main, ["replay", str(tmp_path / "a"), "--all", "--to", str(tmp_path / "logs")])
    assert logs.exit_code == 0 and len(list((tmp_path / "logs").iterdir())) == 40, logs.output
    assert read_deals(tmp_path / "a") == read_deals(deals)
    b = cli.invoke(main, ["run", "sixnimmt", "-p", "4", "-s", "lowest", "-j", "1",
                          "--deals", str(tmp_path / "a"), "--out", str(tmp_path / "b")])
    assert b.exit_code == 0, b.output
    pd.testing.assert_series_equal(pd.read_parquet(tmp_path / "b" / "games.parquet").deal, games.deal)
    spec_b = load_run(tmp_path / "b").manifest
    assert spec_b["deal_numbers"] == manifest["deal_numbers"]
    assert replay_game(tmp_path / "b", 35, 0)[0].observe(2).hand == \
        replay_game(tmp_path / "a", 35, 0)[0].observe(2).hand


def test_an_interrupted_run_on_listed_deals_resumes_only_with_the_same_deals(tmp_path, monkeypatch):
    spec = _spec(60, [(100, 129), (400, 429)], strategies=("random",))
    full = run(spec, tmp_path / "full", jobs=1, chunk_size=10, progress=False)
    interrupt_after_chunks(monkeypatch, spec, tmp_path / "part")
    other = _spec(60, [(100, 159)], strategies=("random",))
    with pytest.raises(RunFolderError, match="different deal_numbers"):
        run(other, tmp_path / "part", jobs=1, resume=True, progress=False)
    with pytest.raises(RunFolderError, match="different deal_numbers"):
        run(_spec(60, strategies=("random",)), tmp_path / "part", jobs=1, resume=True, progress=False)
    resumed = run(spec, tmp_path / "part", jobs=1, resume=True, progress=False)
    assert resumed.manifest["status"] == "complete"
    pd.testing.assert_frame_equal(resumed.games, full.games)
    pd.testing.assert_frame_equal(resumed.seats, full.seats)
    assert full.games.deal.tolist() == [*range(100, 130), *range(400, 430)]


def test_a_sweep_on_listed_deals_plays_them_in_every_cell(tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text("seed 77\ndeals 40-42, 90-92\n")
    out = CliRunner().invoke(main, ["sweep", "sixnimmt", "-p", "3,4", "--deals", str(deals), "-j", "1",
                                    "--set", "max_rounds=1", "--out", str(tmp_path / "s")])
    assert out.exit_code == 0, out.output
    for cell in ("p3", "p4"):
        m = json.loads((tmp_path / "s" / cell / "manifest.json").read_text())
        assert m["seed"] == 77 and m["n_games"] == 6 and m["deal_numbers"] == [[40, 42], [90, 92]]
        games = pd.read_parquet(tmp_path / "s" / cell / "games.parquet")
        assert games.deal.tolist() == [40, 41, 42, 90, 91, 92]


def test_the_batch_engine_plays_a_deals_file_from_the_command_line(tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text(f"seed {SEED}\ndeals 500-549\n")
    out = CliRunner().invoke(main, ["run", "sixnimmt", "-p", "4", "-s", "lowest", "-s", "highest",
                                    "--set", "max_rounds=1", "-j", "1", "--engine", "batch",
                                    "--deals", str(deals), "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    result = load_run(tmp_path / "r")
    assert result.manifest["engine"] == "batch"
    assert result.games.deal.tolist() == list(range(500, 550))
    scalar = play_range(_spec(50, [(500, 549)]), 0, 50)
    assert result.seats.score.tolist() == scalar.seats["score"]


def test_the_command_line_names_the_listed_deals(tmp_path):
    deals = tmp_path / "deals.txt"
    deals.write_text("seed 8\ndeals 9-9, 500-502\n")
    common = ["run", "sixnimmt", "-p", "3", "-j", "1", "--deals", str(deals), "--no-progress"]
    out = CliRunner().invoke(main, [*common, "-v", "--out", str(tmp_path / "a")])
    assert out.exit_code == 0, out.output
    assert "deals: 9-9, 500-502 of seed 8, in that order" in out.output
    assert "\ndeals: 9-9, 500-502\n" in out.output                    # the run facts of -v
    out = CliRunner().invoke(main, [*common, "--json", "-q", "--out", str(tmp_path / "b")])
    assert json.loads(out.output)["run"]["deal_numbers"] == [[9, 9], [500, 502]]
