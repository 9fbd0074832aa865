"""The runner: identical results whatever jobs/chunks, forfeits, --strict, resume, early stop."""

import json
import pickle

import pandas as pd
import pytest

from simkit.engine.errors import IllegalAction, RunFolderError, StrategyError
from simkit.engine.play import play_range
from simkit.engine.runner import RunSpec, load_run, replay_game, run
from tests.reliability.helpers import interrupt_after_chunks


def _spec(n_games=60, strategies=("random",), players=4, **kw):
    return RunSpec.create("sixnimmt", players, list(strategies), n_games, seed=5,
                          overrides=kw.pop("overrides", {"max_rounds": "1"}), **kw)


def test_same_rows_whatever_jobs_and_chunk_size(tmp_path):
    spec = _spec(300, ("heuristic", "random", "random", "lowest"))
    a = run(spec, tmp_path / "a", jobs=1, chunk_size=300, progress=False)
    b = run(spec, tmp_path / "b", jobs=2, chunk_size=7, progress=False)
    for name in ("games.parquet", "seats.parquet"):
        pa = pd.read_parquet(tmp_path / "a" / name)
        pb = pd.read_parquet(tmp_path / "b" / name)
        pd.testing.assert_frame_equal(pa, pb)
    assert len(a.games) == 300 and len(b.seats) == 1200


def test_rotate_seating_puts_every_strategy_in_every_seat():
    chunk = play_range(_spec(8, ("heuristic", "random", "random", "lowest")), 0, 8)
    seats = pd.DataFrame(chunk.seats)
    heuristic_seats = seats[seats.strategy == "heuristic"].seat.value_counts()
    assert sorted(heuristic_seats.index) == [0, 1, 2, 3] and set(heuristic_seats) == {2}


def test_fixed_and_random_seating():
    fixed = pd.DataFrame(play_range(_spec(6, ("heuristic", "random", "random", "lowest"),
                                          seating="fixed"), 0, 6).seats)
    assert set(fixed[fixed.strategy == "heuristic"].seat) == {0}
    rnd = pd.DataFrame(play_range(_spec(40, ("heuristic", "random", "random", "lowest"),
                                        seating="random"), 0, 40).seats)
    assert rnd[rnd.strategy == "heuristic"].seat.nunique() == 4


def test_duplicate_replays_each_deal_in_every_rotation():
    spec = _spec(8, ("heuristic", "random", "random", "random"), duplicate=True)
    chunk = play_range(spec, 0, 8)
    games = pd.DataFrame(chunk.games)
    assert list(games.deal) == [0, 0, 0, 0, 1, 1, 1, 1]
    assert list(games.rotation) == [0, 1, 2, 3, 0, 1, 2, 3]
    states = [replay_state(spec, i) for i in range(4)]
    deals = {s.events[0][3] for s in states}
    assert len(deals) == 1


def replay_state(spec, i):
    from simkit.engine.play import play_game
    return play_game(spec, i)[1]


def test_strategy_exception_forfeits_that_game_and_batch_goes_on(tmp_path):
    spec = _spec(20, ("tests.plugins:Crashes:after=2", "random", "random", "random"), seating="fixed")
    result = run(spec, tmp_path / "r", jobs=1, progress=False)
    assert result.forfeits == 20 and len(result.games) == 20
    assert (result.games.forfeit_seat == 0).all()
    assert result.games.error.str.contains("RuntimeError: boom from a test strategy").all()
    seats = result.seats
    assert seats[seats.seat == 0].forfeit.all() and (seats[seats.seat == 0].win == 0).all()
    assert seats.groupby("game").win.sum().round(9).eq(1).all()
    assert seats.score.isna().all()


def test_illegal_action_forfeits_with_the_rule_in_the_error(tmp_path):
    spec = _spec(5, ("random", "tests.plugins:PlaysIllegal"), players=2, seating="fixed")
    result = run(spec, tmp_path / "r", jobs=1, progress=False)
    assert (result.games.forfeit_seat == 1).all()
    assert result.games.error.str.contains("not a card in its hand").all()


def test_strict_stops_with_traceback_and_keeps_finished_chunks(tmp_path):
    spec = _spec(30, ("random", "random"), players=2, strict=True)
    ok = run(spec, tmp_path / "ok", jobs=1, progress=False)
    assert ok.forfeits == 0
    bad = RunSpec.create("sixnimmt", 2, ["random", "tests.plugins:PlaysIllegal"], 30, seed=5,
                         seating="fixed", strict=True)
    with pytest.raises(StrategyError, match="Traceback"):
        run(bad, tmp_path / "bad", jobs=1, progress=False)
    assert json.loads((tmp_path / "bad" / "manifest.json").read_text())["status"] == "interrupted"


def test_errors_keep_their_fields_across_processes():
    for err in (StrategyError("boom", seat=2, strategy="x:Y"), IllegalAction("no", seat=1, rule="N3")):
        back = pickle.loads(pickle.dumps(err))
        assert (type(back), str(back), back.seat) == (type(err), str(err), err.seat)


@pytest.mark.slow
def test_strict_with_two_workers_stops_with_the_strategy_error(tmp_path):
    bad = RunSpec.create("sixnimmt", 2, ["random", "tests.plugins:PlaysIllegal"], 40, seed=5,
                         seating="fixed", strict=True, overrides={"max_rounds": "1"})
    with pytest.raises(StrategyError, match="seat 1") as err:
        run(bad, tmp_path / "bad", jobs=2, chunk_size=10, progress=False)
    assert err.value.seat == 1 and err.value.strategy == "tests.plugins:PlaysIllegal"


def test_existing_folder_is_never_overwritten(tmp_path):
    spec = _spec(10)
    run(spec, tmp_path / "r", jobs=1, progress=False)
    with pytest.raises(RunFolderError, match="already exists"):
        run(spec, tmp_path / "r", jobs=1, progress=False)


def test_interrupted_run_resumes_to_identical_results(tmp_path, monkeypatch):
    spec = _spec(100)
    full = run(spec, tmp_path / "full", jobs=1, chunk_size=10, progress=False)
    partial = load_run(interrupt_after_chunks(monkeypatch, spec, tmp_path / "part"))
    assert partial.manifest["status"] == "interrupted" and len(partial.games) == 30
    with pytest.raises(RunFolderError, match="different n_games"):
        run(_spec(50), tmp_path / "part", jobs=1, resume=True, progress=False)
    resumed = run(spec, tmp_path / "part", jobs=2, resume=True, progress=False)
    assert resumed.manifest["status"] == "complete"
    pd.testing.assert_frame_equal(resumed.games, full.games)
    pd.testing.assert_frame_equal(resumed.seats, full.seats)


def test_stop_rule_ends_early_with_a_contiguous_prefix(tmp_path):
    spec = _spec(200)
    seen = []

    def stop(games, seats):
        seen.append(len(games))
        return len(games) >= 60

    result = run(spec, tmp_path / "r", jobs=1, chunk_size=20, progress=False, stop=stop)
    assert result.stopped_early and len(result.games) == 60
    assert list(result.games.game) == list(range(60))
    assert result.manifest["status"] == "stopped" and result.manifest["games_done"] == 60
    assert seen == [20, 40, 60]



def test_stop_rule_stops_at_the_same_boundary_whatever_order_chunks_finish_in(tmp_path, monkeypatch):
    """Chunks finishing out of order (1, 0, 3, 2, ...) must not let the run skip a boundary
    where its rule stops: the result is the one a single worker gives."""
    from simkit.engine import runner

    def swapped_pairs(spec, todo, jobs, backend, scheduler, out_dir=None):
        todo = list(todo)
        for k in range(0, len(todo), 2):
            for chunk_id, start, stop in reversed(todo[k:k + 2]):
                yield chunk_id, play_range(spec, start, stop), False

    monkeypatch.setattr(runner, "_parallel_chunks", swapped_pairs)
    seen = []

    def stop(games, seats):
        seen.append(len(games))
        return len(games) >= 60

    result = run(_spec(200), tmp_path / "r", jobs=2, chunk_size=20, progress=False, stop=stop)
    assert seen == [20, 40, 60]
    assert list(result.games.game) == list(range(60)) and result.manifest["games_done"] == 60


def test_replay_matches_the_recorded_row(tmp_path):
    spec = _spec(12, ("heuristic", "random", "random", "lowest"), overrides={})
    result = run(spec, tmp_path / "r", jobs=2, chunk_size=5, progress=False)
    state, record, _ = replay_game(tmp_path / "r", 7)
    row = result.seats[result.seats.game == 7].sort_values("seat")
    assert list(row.score) == list(state.outcome().scores)
    assert record.slots == list(row.slot)


def test_sanity_random_four_players_single_rounds_and_full_games():
    """Issue 2 sanity: ~12.1 bullheads per player per round, ~4.4 rounds per full game."""
    rounds = pd.DataFrame(play_range(_spec(4000), 0, 4000).seats)
    assert 11.8 < rounds.score.mean() < 12.4
    full = pd.DataFrame(play_range(_spec(1500, overrides={}), 0, 1500).games)
    assert 4.25 < full["rounds"].mean() < 4.55


def test_dask_backend_gives_the_same_rows(tmp_path):
    pytest.importorskip("dask.distributed")
    spec = _spec(40)
    a = run(spec, tmp_path / "a", jobs=1, progress=False)
    b = run(spec, tmp_path / "b", jobs=2, chunk_size=9, backend="dask", progress=False)
    pd.testing.assert_frame_equal(a.seats, b.seats)
    assert b.manifest["timings"]["backend"] == "dask"


def test_strategy_failing_in_setup_forfeits_too(tmp_path):
    spec = _spec(4, ("random", "tests.plugins:BrokenSetup"), players=2, seating="fixed")
    result = run(spec, tmp_path / "r", jobs=1, progress=False)
    assert (result.games.forfeit_seat == 1).all()
    assert result.games.error.str.contains("ValueError: cannot set up").all()


def test_on_start_comes_after_every_check_and_before_the_first_game(tmp_path):
    from simkit.engine.errors import ConfigError
    from simkit.engine.folder_lock import is_locked

    seen = []
    with pytest.raises(ConfigError, match="--scheduler tcp://x:1 needs --backend dask"):
        run(_spec(10), tmp_path / "a", jobs=1, scheduler="tcp://x:1", on_start=lambda: seen.append(1))
    assert seen == [] and not (tmp_path / "a").exists()

    def started():
        seen.append((is_locked(tmp_path / "b"), list((tmp_path / "b").glob("chunks/*"))))

    run(_spec(10), tmp_path / "b", jobs=1, progress=False, on_start=started)
    assert seen == [(True, [])]


def test_the_manifest_records_the_merged_tables(tmp_path):
    result = run(_spec(20), tmp_path / "r", jobs=1, chunk_size=5, progress=False)
    tables = result.manifest["tables"]
    assert tables["games.parquet"]["rows"] == 20 and tables["seats.parquet"]["rows"] == 80
    assert not (tmp_path / "r" / "chunks").exists()
