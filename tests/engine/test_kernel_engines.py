"""What every game's compiled kernel (6 nimmt!, Game of Trains, Shipside) shares with the others,
checked once per game: the step cap, the kernel's answers replayed through the scalar engine
(seeded games and the golden transcripts), a CLI run recorded and replayed, `--engine auto`'s
choice and reasons, and a plug-in strategy's kernel form. Each game's own file
(`tests/<game>/test_kernel.py`) holds its rule and config cases.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from dataclasses import dataclass, field

import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.engine.errors import ConfigError
from simkit.engine.kernels import kernel_reason, replay_answers
from simkit.engine.play import play_game, play_range
from simkit.engine.registry import get_game
from simkit.engine.spec import RunSpec
from tests.golden import CASES as GOLDEN_CASES
from tests.golden import golden_path, header, spec_of
from tests.kernel_tables import assert_same_tables


@dataclass(frozen=True)
class KernelGame:
    game: str
    players: int
    cap: int                          # a step cap that stops some of 40 games and not others
    cap_hook: str                     # the kernel module's name for the scalar engine's cap
    cap_lineup: tuple[str, ...]
    replays: tuple[tuple[tuple[str, ...], dict], ...]   # (lineup, overrides) replayed game by game
    cli_lineup: tuple[str, ...]
    cli_words: str                    # a word the replayed game's log shows
    kernel_lineups: tuple[tuple[str, ...], ...]         # lineups `auto` gives to the kernel
    plugin: str | None = None         # tests.<game>.kernel_plugin class with a kernel form
    plugin_overrides: dict = field(default_factory=dict)

    @property
    def kernel(self):
        return importlib.import_module(f"simkit.games.{self.game}.kernel")


GAMES = [
    KernelGame("sixnimmt", 4, 88, "max_decision_steps", ("lowest", "highest", "random"),
               ((("heuristic", "random:row=uniform", "lowest", "random"),
                 {"advanced": "true", "end_threshold": "30"}),),
               ("heuristic", "random"), "Turn 1",
               (("heuristic", "random", "heuristic", "random"), ("lowest",)),
               "FirstListed", {"end_threshold": "30"}),
    KernelGame("trains", 3, 900, "max_steps", ("random",),
               ((("random", "greedy", "rival"), {}),
                (("rival", "random", "greedy"), {"move_semantics": "swap", "used_card": "before"})),
               ("greedy", "random"), "win", (("greedy", "random", "rival"),),
               "LastListed", {"max_turns": "150"}),
    KernelGame("shipside", 2, 40, "step_cap", ("random",),
               ((("random",), {}),
                (("octopus", "random"), {"variant.enabled": "true", "movement.chooser": "owner"})),
               ("octopus", "random"), "Turn 1", (("random",), ("greedy", "octopus"))),
]
IDS = [g.game for g in GAMES]


def _cap_of(game: KernelGame, cap: int):
    if game.cap_hook == "step_cap":
        return lambda config: cap
    return lambda config, n: cap


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_game_at_the_step_cap_has_no_result_as_in_the_scalar_engine(game, monkeypatch):
    """The scalar engine's hard step cap (Game.max_steps): the game stops there, its error says
    so, its scores are NaN and its per-game columns null; the kernel reads the same cap."""
    import simkit.engine.play as play_module

    capped = dataclasses.replace(get_game(game.game), max_steps=lambda config, n: game.cap)
    monkeypatch.setattr(play_module, "get_game", lambda name: capped)
    monkeypatch.setattr(game.kernel, game.cap_hook, _cap_of(game, game.cap))
    players = len(game.cap_lineup) if len(game.cap_lineup) > 1 else game.players
    spec = RunSpec.create(game.game, players, list(game.cap_lineup), 40, seed=2)
    scalar, kernel = play_range(spec, 0, 40), game.kernel.play_range_kernel(spec, 0, 40)
    failed = [e for e in kernel.games["error"].tolist() if e]
    assert 0 < len(failed) < 40 and f"did not end within {game.cap} steps" in failed[0]
    assert_same_tables(scalar, kernel)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_replaying_a_kernel_games_answers_through_the_scalar_engine_gives_its_game(game):
    """The kernel records its bots' answers; the scalar engine replays them to the same log."""
    for lineup, overrides in game.replays:
        players = len(lineup) if len(lineup) > 1 else game.players
        spec = RunSpec.create(game.game, players, list(lineup), 6, seed=9, overrides=overrides)
        for index in range(6):
            played, state = play_game(spec, index)
            _, start = play_game(spec, index, max_steps=0)
            steps = replay_answers(start, game.kernel.traced_game(spec, index))
            assert steps == played.steps and start.is_over()
            assert start.events == state.events and start.outcome() == state.outcome()


def _golden_cases():
    """Every golden game whose seats all have kernel forms (the goldens stay as they are)."""
    found = []
    for game in GAMES:
        for case in GOLDEN_CASES[game.game]:
            spec = spec_of(game.game, case)
            if kernel_reason(spec.strategies, spec.config, spec.n_players) is None:
                found.append(pytest.param(game, case, id=f"{game.game}-{case.name}"))
    return found


@pytest.mark.parametrize("game,case", _golden_cases())
def test_the_golden_transcripts_play_through_the_kernel(game, case):
    """The kernel's answers in each golden game, replayed through the scalar engine, give the
    golden log and result; the kernel's own row has that result."""
    spec = spec_of(game.game, case)
    _, state = play_game(spec, case.index, max_steps=0)
    steps = replay_answers(state, game.kernel.traced_game(spec, case.index))
    out = state.outcome()
    lines = header(game.game, case) + [
        "", "== log", *get_game(game.game).render_log(state).splitlines(), "", "== result",
        f"steps: {steps}", "forfeit: -1", f"scores: {list(out.scores)}", f"ranks: {list(out.ranks)}",
        f"wins: {list(out.win_shares)}",
        "extras: " + ", ".join(f"{k}={v}" for k, v in sorted(out.extras.items()))]
    assert lines == golden_path(game.game, case).read_text(encoding="utf-8").splitlines()
    row = game.kernel.play_range_kernel(spec, case.index, case.index + 1)
    assert row.seats["score"].tolist() == list(out.scores) and row.games["steps"].tolist() == [steps]


def test_every_game_with_a_kernel_has_golden_games_played_through_it():
    assert {case.values[0].game for case in _golden_cases()} == set(IDS)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_kernel_run_is_recorded_and_replays_as_the_scalar_engines_log(game, tmp_path):
    from simkit.cli import main

    cli = CliRunner()
    args = ["run", game.game, "-p", str(game.players), "-n", "20", "-j", "1", "--seed", "3"]
    args += [word for name in game.cli_lineup for word in ("-s", name)]
    ran = {engine: cli.invoke(main, args + ["--engine", engine, "--out", str(tmp_path / engine)])
           for engine in ("kernel", "scalar", "auto")}
    assert all(r.exit_code == 0 for r in ran.values()), [r.output for r in ran.values()]
    assert "engine: kernel" in ran["auto"].output
    manifests = {e: json.loads((tmp_path / e / "manifest.json").read_text()) for e in ran}
    assert [manifests[e]["engine"] for e in ran] == ["kernel", "scalar", "kernel"]
    for table in ("games.parquet", "seats.parquet"):
        kernel, scalar = (pd.read_parquet(tmp_path / e / table) for e in ("kernel", "scalar"))
        assert kernel.equals(scalar)
    logs = [cli.invoke(main, ["replay", str(tmp_path / e), "--game", "5"]) for e in ("kernel", "scalar")]
    texts = [log.output.replace(str(tmp_path / e), "RUN") for log, e in zip(logs, ("kernel", "scalar"))]
    assert logs[0].exit_code == 0 and game.cli_words.lower() in texts[0].lower() and texts[0] == texts[1]
    audited = cli.invoke(main, ["run", game.game, "-s", "random", "-n", "2", "-j", "1", "--seed", "3",
                                "--paranoid", "--engine", "auto", "--out", str(tmp_path / "p")])
    assert audited.exit_code == 0 and "engine: scalar (not the kernel engine: --paranoid" in audited.output


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_auto_takes_the_kernel_and_says_why_it_falls_back(game):
    def create(strategies, engine="auto", **kw):
        return RunSpec.create(game.game, game.players, strategies, 10, seed=1, engine=engine, **kw)

    for lineup in game.kernel_lineups:
        assert create(list(lineup)).engine == "kernel"
    searcher = ["ismcts"] + ["random"] * (game.players - 1)
    fallback = create(searcher)
    assert fallback.engine == "scalar"
    assert "has no kernel form" in fallback.engine_note and "ismcts" in fallback.engine_note
    assert fallback.manifest_fields()["engine_note"] == fallback.engine_note
    paranoid = create(["random"], paranoid=True)
    assert paranoid.engine == "scalar" and "--paranoid" in paranoid.engine_note
    with pytest.raises(ConfigError, match="--engine kernel cannot play this run: .*ismcts"):
        create(searcher, engine="kernel")
    with pytest.raises(ConfigError, match="not allowed"):
        create(["random"], engine="fast")
    other = next(g for g in GAMES if g.game != game.game)
    assert game.kernel.kernel_supported(RunSpec.create(other.game, other.players, ["random"], 1, seed=1))


@pytest.mark.parametrize("game", [g for g in GAMES if g.plugin], ids=[g.game for g in GAMES if g.plugin])
def test_a_plug_in_strategys_kernel_form_plays_its_games_and_a_wrong_answer_is_named(game):
    plugin = f"tests.{game.game}.kernel_plugin:{game.plugin}"
    best = "heuristic" if game.game == "sixnimmt" else "greedy"
    spec = RunSpec.create(game.game, 3, [plugin, "random", best], 30, seed=4,
                          overrides=game.plugin_overrides, engine="auto")
    assert spec.engine == "kernel"
    assert_same_tables(play_range(spec, 0, 30), game.kernel.play_range_kernel(spec, 0, 30))
    broken_name = f"tests.{game.game}.kernel_plugin:OutOfRange"
    broken = RunSpec.create(game.game, 2, ["random", broken_name], 5, seed=4)
    with pytest.raises(ValueError, match=f"kernel form of '{broken_name}' "
                                         r"\(seat \d, game 0\) answered outside its legal list"):
        game.kernel.play_range_kernel(broken, 0, 5)
