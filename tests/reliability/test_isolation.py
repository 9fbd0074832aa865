"""Strategies that cannot reach or change the game (issue 23, part 1).

In process a `Decision` leads to no live state by its attributes, and `--paranoid` makes a seat
that changes the game while it decides forfeit; `--isolate` plays a plug-in from a process of its
own that sees only its seat's view. The cheats are in `isolation_plugins.py`: each is the honest
strategy `Honest` plus a change of the live game (6 nimmt!: N-rule numbers in docs/sixnimmt-rules.md
do not matter here, what matters is that the totals, piles and hands are not the strategy's to change).
"""

from __future__ import annotations

import json
import types

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.engine import isolation
from simkit.engine.play import play_game, play_range
from simkit.engine.registry import get_game
from simkit.engine.runner import load_run, run
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import Decision, GameInfo, StrategySpec, parse_strategy
from simkit.studies.ladder import plan_ladder
from tests.reliability.helpers import simkit

P = "tests.reliability.isolation_plugins:"
CHEATS = ["AddsToOthersTotals", "HandsPileToNeighbour", "SwapsHands"]


def _spec(first: str, n_games: int = 8, seed: int = 1, **kw) -> RunSpec:
    """Seat slot 0 is `first`, the others play `Honest`; seats rotate."""
    return RunSpec.create("sixnimmt", 4, [P + first] + [P + "Honest"] * 3, n_games, seed=seed,
                          overrides={"max_rounds": "1"}, **kw)


def _without_labels(chunk) -> tuple[dict, dict]:
    return chunk.games, {k: v for k, v in chunk.seats.items() if k != "strategy"}


# -- in process: no attribute chain from a Decision to the state --------------------------------

def _children(obj):
    if isinstance(obj, (types.ModuleType, type)):
        return                                   # shared definitions, not this game's objects
    if isinstance(obj, types.CellType):
        try:
            yield obj.cell_contents
        except ValueError:
            pass
    if isinstance(obj, (list, tuple, set, frozenset)):
        yield from obj
    if isinstance(obj, dict):
        yield from obj.keys()
        yield from obj.values()
    for name in [*dir(obj), "__self__", "__closure__", "__func__", "__wrapped__", "__dict__"]:
        try:
            yield getattr(obj, name)
        except Exception:
            continue


def _reachable(root, depth: int) -> list:
    """Every object reached from `root` by at most `depth` steps of attributes (`dir`, `vars`,
    `__self__`, `__closure__` cells, `__func__`, `__wrapped__`) and container items."""
    seen = {id(root): root}
    frontier = [root]
    for _ in range(depth):
        found = []
        for obj in frontier:
            for child in _children(obj):
                if id(child) not in seen:
                    seen[id(child)] = child
                    found.append(child)
        frontier = found
    return list(seen.values())


def _sixnimmt_state():
    game = get_game("sixnimmt")
    return game.new_state(game.config_cls(), 4, np.random.default_rng(1))


def test_the_walk_finds_a_state_behind_a_bound_method():
    # the old Decision held `state.observe`: the walk must find the state behind it
    state = _sixnimmt_state()
    holder = types.SimpleNamespace(observe=state.observe)
    assert any(obj is state for obj in _reachable(holder, 2))


def test_no_attribute_chain_from_a_decision_reaches_the_live_state():
    state = _sixnimmt_state()
    rngs = [np.random.default_rng(s) for s in range(4)]
    for decision in [Decision(state, 1, rngs[1]), *Decision.for_seats(state, rngs)]:
        assert not any(obj is state for obj in _reachable(decision, 4))
        assert decision.legal_actions == state.legal_actions(decision.seat)
        assert decision.observation == state.observe(decision.seat)
        assert decision.sample_state() is not state


# -- in process: the cheats work, and --paranoid catches each -----------------------------------

def test_in_process_without_paranoid_the_cheats_change_the_results():
    honest = [play_game(_spec("Honest"), i)[0] for i in range(8)]
    adds = [play_game(_spec("AddsToOthersTotals"), i)[0] for i in range(8)]
    assert all(r.wins[r.slots.index(0)] == 1.0 and r.forfeit == -1 for r in adds)
    assert sum(r.wins[r.slots.index(0)] for r in honest) < 8
    for cheat in CHEATS[1:]:
        cheated = [play_game(_spec(cheat), i)[0] for i in range(8)]
        assert any(c.scores != h.scores for c, h in zip(cheated, honest))


@pytest.mark.parametrize("cheat", CHEATS)
def test_under_paranoid_a_seat_that_changes_the_game_while_deciding_forfeits(cheat):
    honest = [play_game(_spec("Honest"), i)[0] for i in range(8)]
    records = [play_game(_spec(cheat, paranoid=True), i)[0] for i in range(8)]
    caught = [r for r in records if r.forfeit >= 0]
    assert len(caught) >= 4
    for record, fair in zip(records, honest):
        if record.forfeit >= 0:        # the cheat's seat, named, with what it changed
            seat = record.slots.index(0)
            assert record.forfeit == seat and record.wins[seat] == 0
            assert record.error.startswith(f"StateTampered: seat {seat} changed the game while deciding")
        else:                          # it found nothing to change: the honest game
            assert record.scores == fair.scores
    with pytest.raises(Exception, match="changed the game while deciding"):
        play_game(_spec(cheat, paranoid=True, strict=True), caught[0].index)


# -- isolated: the cheats have nothing to change ------------------------------------------------

def test_isolate_wraps_plugins_only():
    spec = RunSpec.create("sixnimmt", 2, [P + "Honest", "random"], 2, isolate="plugins")
    assert [type(s) for s in spec.strategies] == [isolation.IsolatedSpec, StrategySpec]
    assert [s.text for s in spec.strategies] == [P + "Honest", "random"]
    assert all(type(s) is StrategySpec for s in RunSpec.create("sixnimmt", 2, [P + "Honest"], 2).strategies)
    assert isolation.is_plugin(parse_strategy(P + "Honest", "sixnimmt"))
    assert not isolation.is_plugin(parse_strategy("heuristic", "sixnimmt"))


@pytest.mark.parametrize("cheat", CHEATS)
def test_isolated_cheats_play_exactly_as_the_honest_strategy(cheat):
    honest = play_range(_spec("Honest"), 0, 8)
    isolated = play_range(_spec(cheat, isolate="plugins"), 0, 8)
    assert _without_labels(isolated) == _without_labels(honest)
    assert not any(isolated.games["error"])


def test_isolated_honest_strategies_give_identical_tables(tmp_path):
    spec = dict(n_games=12, seed=9)
    plain = run(_spec("Honest", **spec), tmp_path / "plain", jobs=1, chunk_size=4, progress=False)
    isolated = run(_spec("Honest", isolate="plugins", **spec), tmp_path / "iso", jobs=1, chunk_size=4,
                   progress=False)
    pd.testing.assert_frame_equal(plain.games, isolated.games)
    pd.testing.assert_frame_equal(plain.seats, isolated.seats)


@pytest.mark.parametrize("game,lineup", [("sixnimmt", ["ismcts:iterations=20", "random"]),
                                         ("shipside", ["ismcts:iterations=5", "random"])])
def test_isolated_search_strategies_play_the_same_games(game, lineup):
    # every seat in its own process ("all"): samples come from the parent, draws stay in step
    overrides = {"max_rounds": "1"} if game == "sixnimmt" else {}
    plain = RunSpec.create(game, 2, lineup, 2, seed=2, overrides=overrides)
    isolated = RunSpec.create(game, 2, lineup, 2, seed=2, isolate="all", overrides=overrides)
    assert _without_labels(play_range(isolated, 0, 2)) == _without_labels(play_range(plain, 0, 2))


def test_a_sample_that_draws_from_the_seats_generator_stays_in_step():
    # Trains' determinize makes the seat's own generator the sample's chance source: rollouts on
    # the sample advance it; the child's sample must use the child's generator the same way
    game = get_game("trains")
    info = GameInfo("trains", game.config_cls(), 2)
    spec = parse_strategy("ismcts:iterations=3", "trains")
    actions = []
    for bot in (spec.build(), isolation.Isolated(spec)):
        state = game.new_state(info.config, 2, np.random.default_rng(3))
        seat = state.to_act()[0]
        rng = np.random.default_rng(7)
        bot.setup(info, seat, rng)
        actions.append(bot.act(Decision(state, seat, rng)))
    assert actions[0] == actions[1]


# -- isolated: failures of the strategy's process are its seat's forfeit ------------------------

def test_a_strategy_process_that_dies_forfeits_its_seat_and_the_batch_goes_on():
    chunk = play_range(_spec("Crashes", n_games=3, isolate="plugins"), 0, 3)
    assert len(chunk.games["game"]) == 3
    for seat, error in zip(chunk.games["forfeit_seat"], chunk.games["error"]):
        assert seat >= 0 and error == "IsolatedStrategyError: the strategy's process ended (exit code 3)"


def test_an_error_in_the_strategy_process_is_its_seats_forfeit():
    chunk = play_range(_spec("Raises", n_games=2, isolate="plugins"), 0, 2)
    assert all(e == "StrategyRaised: RuntimeError: a bug in the plug-in" for e in chunk.games["error"])
    assert all(s >= 0 for s in chunk.games["forfeit_seat"])


def test_a_decision_over_the_time_limit_in_the_strategy_process_forfeits():
    chunk = play_range(_spec("Sleeps", n_games=2, isolate="plugins", decision_timeout=0.5), 0, 2)
    assert all(e.startswith("DecisionTimeout: ") for e in chunk.games["error"])
    assert all(s >= 0 for s in chunk.games["forfeit_seat"])


def test_the_parent_builds_no_object_a_strategy_process_names(tmp_path):
    target = tmp_path / "ran"
    spec = RunSpec.create("sixnimmt", 2, [f"{P}ReturnsAPayload:path={target}", "random"], 2,
                          seed=1, overrides={"max_rounds": "1"}, isolate="plugins")
    chunk = play_range(spec, 0, 2)
    assert not target.exists()
    assert all("not a value of the game" in e for e in chunk.games["error"])


# -- the command line ---------------------------------------------------------------------------

def test_run_isolate_with_two_workers_gives_the_tables_of_an_in_process_run(tmp_path):
    common = ["run", "sixnimmt", "-p", "4", "-s", P + "Honest", "-s", "random", "-n", "8", "--seed", "3",
              "--set", "max_rounds=1", "--chunk-size", "2", "--no-progress"]
    plain = simkit(*common, "-j", "1", "--out", str(tmp_path / "plain"))
    isolated = simkit(*common, "-j", "2", "--isolate", "--out", str(tmp_path / "iso"))
    assert plain.returncode == 0 and isolated.returncode == 0, plain.stderr + isolated.stderr
    a, b = load_run(tmp_path / "plain"), load_run(tmp_path / "iso")
    pd.testing.assert_frame_equal(a.games, b.games)
    pd.testing.assert_frame_equal(a.seats, b.seats)


def test_an_isolated_strategy_that_prints_leaves_json_output_intact(tmp_path):
    out = CliRunner().invoke(main, ["run", "sixnimmt", "-p", "2", "-s", P + "Prints", "-s", "random",
                                    "-n", "2", "-j", "1", "--set", "max_rounds=1", "--isolate", "--json",
                                    "-q", "--out", str(tmp_path / "r")])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["run"]["n_games"] == 2


def test_ladder_and_tournament_isolate_plugins_unless_told_not_to(tmp_path):
    plan = plan_ladder("sixnimmt", 2, [P + "AddsToOthersTotals", "random"], games_per_pair=2, seed=1)
    assert [type(s) for s in plan.pairs[0].spec.strategies] == [isolation.IsolatedSpec, StrategySpec]
    plan = plan_ladder("sixnimmt", 2, [P + "AddsToOthersTotals", "random"], games_per_pair=2, seed=1,
                       isolate="off")
    assert all(type(s) is StrategySpec for s in plan.pairs[0].spec.strategies)
    scores = {}
    for flag in ("--isolate", "--no-isolate"):
        out = CliRunner().invoke(main, ["tournament", "sixnimmt", "-p", "2", "-s", P + "AddsToOthersTotals",
                                        "-s", "random", "-n", "6", "-j", "1", "--seed", "4",
                                        "--set", "max_rounds=1", "--no-progress", flag,
                                        "--out", str(tmp_path / flag)])
        assert out.exit_code == 0, out.output
        seats = load_run(next((tmp_path / flag / "pairs").iterdir())).seats
        scores[flag] = seats[seats["strategy"] == P + "AddsToOthersTotals"]["win"].mean()
    assert scores["--no-isolate"] == 1.0 > scores["--isolate"]
