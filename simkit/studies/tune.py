"""Rule tuning (`simkit tune`): which values of the rule fields hit the designer's targets.

The grid is every combination of the `--vary` values (`rows=3..6` is 3,4,5,6). Successive
halving (Jamieson & Talwalkar 2016; Karnin, Koren & Somekh 2013) spends the game budget where
the answer is uncertain: in each of ceil(log2 K) rounds the surviving settings share the round's
budget equally, play fresh games, and keep the better half by loss (pooled over all their games),
dropping at once any setting whose loss interval lies wholly above the best one's. One setting
remains: the recommendation. A confirmation run plays it at full size, and the sensitivity table
moves each field one step from it (the neighbouring value of the grid) on the same deals, with
each target's change and its interval.

Every (setting, round) is a normal run folder `cells/<setting>/round-<r>` seeded from the
tune's master seed and the round (all settings of a round share their deals), so a tune is
seeded, resumable (finished runs are read back, the decisions replayed) and reproducible.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.engine.errors import ConfigError
from simkit.engine.lineup import filled_lineup
from simkit.engine.records import read_manifest, write_text_file
from simkit.engine.runner import load_run, run
from simkit.engine.seeding import root_seed
from simkit.engine.spec import RunSpec
from simkit.studies.sweep import open_study_folder, parse_vary
from simkit.studies.tune_targets import Estimate, GameFigures, Target, check_targets, estimate, game_figures

TUNE_MANIFEST = "tune.json"
_KEY = 0x70E5          # the tune's own seed branch: SeedSequence(master, spawn_key=(_KEY, ...))
CONFIRM_ROUND = 1_000_000


def expand_values(name: str, values: list[str]) -> list[str]:
    """`["3..6"]` -> ["3", "4", "5", "6"]; other values as given, in order, each once."""
    out: list[str] = []
    for value in values:
        low, sep, high = value.partition("..")
        if sep:
            try:
                a, b = int(low), int(high)
            except ValueError:
                raise ConfigError(f"--vary {name}={value}: a range is two whole numbers, e.g. 3..6") from None
            if b < a or b - a > 1000:
                raise ConfigError(f"--vary {name}={value}: a range runs upwards over at most 1000 values")
            out.extend(str(v) for v in range(a, b + 1))
        else:
            out.append(value)
    if len(set(out)) != len(out):
        raise ConfigError(f"--vary {name}: a value is listed twice ({', '.join(out)}): list each once")
    return out


@dataclass(frozen=True)
class Setting:
    """One point of the grid: a value index per varied field."""

    index: tuple[int, ...]
    overrides: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.overrides)

    @property
    def folder(self) -> str:
        return "-".join(f"{k}={v}" for k, v in self.overrides).replace("/", "_")


@dataclass(frozen=True)
class TunePlan:
    game: str
    n_players: int
    lineup: list[str]
    axes: dict[str, list[str]]
    targets: list[Target]
    budget: int
    confirm_games: int
    seed: int
    base: dict[str, str]
    command: str
    decision_timeout: float | None

    @property
    def settings(self) -> list[Setting]:
        names = list(self.axes)
        grid = itertools.product(*(range(len(self.axes[k])) for k in names))
        return [Setting(ix, tuple((k, self.axes[k][i]) for k, i in zip(names, ix))) for ix in grid]

    def spec(self, setting: Setting, round_no: int, games: int) -> RunSpec:
        return RunSpec.create(self.game, self.n_players, self.lineup, games,
                              seed=round_seed(self.seed, round_no),
                              overrides={**self.base, **dict(setting.overrides)}, command=self.command,
                              decision_timeout=self.decision_timeout)

    def listing(self) -> dict:
        return {"game": self.game, "players": self.n_players, "lineup": self.lineup, "axes": self.axes,
                "targets": [t.text for t in self.targets], "budget": self.budget,
                "confirm_games": self.confirm_games, "seed": self.seed, "base": self.base,
                "command": self.command, "cells": [s.label for s in self.settings]}


def round_seed(master: int, round_no: int) -> int:
    """The seed of every run of round `round_no` (and of the confirmation): 128 bits of
    SeedSequence(master, spawn_key=(_KEY, round_no))."""
    words = np.random.SeedSequence(master, spawn_key=(_KEY, round_no)).generate_state(4, np.uint32)
    return sum(int(w) << (32 * i) for i, w in enumerate(words))


def plan_tune(game: str, n_players: int, strategies: list[str], vary: list[str], targets: list[Target], *,
              budget: int, confirm_games: int, seed: int | None, overrides: dict[str, str] | None = None,
              command: str = "", decision_timeout: float | None = None) -> TunePlan:
    """Validate every setting of the grid before anything runs."""
    if not vary:
        raise ConfigError("nothing to tune: give --vary FIELD=VALUES at least once (e.g. --vary rows=3..6)")
    if not targets:
        raise ConfigError("no target: give --target at least once (e.g. --target seat_fairness)")
    axes = {k: expand_values(k, v) for k, v in parse_vary(vary).items()}
    base = dict(overrides or {})
    both = set(axes) & set(base)
    if both:
        raise ConfigError(f"{', '.join(sorted(both))} is both --set and --vary: use one")
    lineup = filled_lineup(strategies, n_players)
    check_targets(targets, n_players, lineup)
    plan = TunePlan(game, n_players, lineup, axes, targets, budget, confirm_games, root_seed(seed), base,
                    command, decision_timeout)
    if len(plan.settings) < 2:
        raise ConfigError(f"--vary gives one setting ({plan.settings[0].label}): nothing to choose between; "
                          f"give a field at least two values (e.g. --vary rows=3..6)")
    if budget < n_players * len(plan.settings):
        raise ConfigError(f"--budget {budget} is too small for {len(plan.settings)} settings of {n_players} "
                          f"players: at least {n_players * len(plan.settings)} games (one rotation each)")
    for setting in plan.settings:
        try:
            plan.spec(setting, 0, n_players)
        except ConfigError as exc:
            raise ConfigError(f"tune setting {setting.label}: {exc}") from None
    return plan


@dataclass(frozen=True)
class RoundResult:
    round_no: int
    games_each: int
    estimates: dict[str, Estimate]       # setting label -> estimate over all its games so far
    kept: list[str]


#: (setting, round number, games) -> the setting's estimate over all its games so far
Evaluate = Callable[[Setting, int, int], Estimate]


def successive_halving(settings: list[Setting], evaluate: Evaluate, budget: int, unit: int,
                       on_round: Callable[[RoundResult], None] | None = None) -> list[RoundResult]:
    """Spend `budget` games over ceil(log2 K) rounds; games per setting are whole `unit`s."""
    alive = list(settings)
    rounds_left = max(1, math.ceil(math.log2(len(settings))))
    spent, history = 0, list[RoundResult]()
    for round_no in range(rounds_left):
        share = (budget - spent) // (rounds_left - round_no) // len(alive)
        games = max(unit, share // unit * unit)
        if spent + games * len(alive) > budget and history:
            break
        estimates = {s.label: evaluate(s, round_no, games) for s in alive}
        spent += games * len(alive)
        best = min(estimates.values(), key=lambda e: e.loss)
        contenders = [s for s in alive if estimates[s.label].low <= best.high]
        contenders.sort(key=lambda s: (estimates[s.label].loss, s.index))
        alive = contenders[:max(1, math.ceil(len(alive) / 2))]
        result = RoundResult(round_no, games, estimates, [s.label for s in alive])
        history.append(result)
        if on_round is not None:
            on_round(result)
        if len(alive) == 1:
            break
    return history


@dataclass(frozen=True)
class Sensitivity:
    field: str
    value: str
    changes: dict[str, tuple[float, float, float]]     # target -> (change, low, high)


@dataclass(frozen=True)
class TuneResult:
    history: list[RoundResult]
    best: Setting
    confirm: Estimate
    sensitivity: list[Sensitivity]

    def to_dict(self) -> dict:
        return {"rounds": [{"round": r.round_no, "games_each": r.games_each, "kept": r.kept,
                            "estimates": {k: e.to_dict() for k, e in r.estimates.items()}}
                           for r in self.history],
                "recommended": dict(self.best.overrides), "confirm": self.confirm.to_dict(),
                "sensitivity": [{"field": s.field, "value": s.value,
                                 "changes": {k: list(v) for k, v in s.changes.items()}}
                                for s in self.sensitivity]}


class TuneRunner:
    """Plays the runs of a tune into its folder (or reads back the finished ones)."""

    def __init__(self, plan: TunePlan, out_dir: Path, *, jobs: int, progress: bool | None, resume: bool):
        self.plan, self.out_dir, self.jobs, self.progress, self.resume = plan, out_dir, jobs, progress, resume
        self.tables: dict[str, list[tuple[pd.DataFrame, pd.DataFrame]]] = {}

    def play(self, setting: Setting, round_no: int, games: int) -> tuple[pd.DataFrame, pd.DataFrame]:
        name = "confirm" if round_no == CONFIRM_ROUND else f"round-{round_no}"
        folder = self.out_dir / "cells" / setting.folder / name
        if (folder / "manifest.json").exists() and read_manifest(folder).get("status") == "complete":
            result = load_run(folder)
        else:
            result = run(self.plan.spec(setting, round_no, games), folder, jobs=self.jobs,
                         progress=self.progress, resume=(folder / "manifest.json").exists())
        return result.games, result.seats

    def figures(self, tables: list[tuple[pd.DataFrame, pd.DataFrame]]) -> GameFigures:
        games = pd.concat([g.assign(game=g["game"] + i * 10**9) for i, (g, _) in enumerate(tables)])
        seats = pd.concat([s.assign(game=s["game"] + i * 10**9) for i, (_, s) in enumerate(tables)])
        return game_figures(games, seats, self.plan.n_players)

    def rng(self, *key: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(self.plan.seed, spawn_key=(_KEY, 1 << 30, *key)))

    def evaluate(self, setting: Setting, round_no: int, games: int) -> Estimate:
        self.tables.setdefault(setting.label, []).append(self.play(setting, round_no, games))
        return estimate(self.figures(self.tables[setting.label]), self.plan.targets,
                        self.rng(round_no, *setting.index))


def _neighbours(plan: TunePlan, best: Setting) -> list[tuple[str, Setting]]:
    out = []
    names = list(plan.axes)
    for k, name in enumerate(names):
        for step in (-1, 1):
            i = best.index[k] + step
            if 0 <= i < len(plan.axes[name]):
                index = best.index[:k] + (i,) + best.index[k + 1:]
                out.append((name, next(s for s in plan.settings if s.index == index)))
    return out


def _changes(plan: TunePlan, base: GameFigures, other: GameFigures, rng: np.random.Generator,
             resamples: int = 400) -> dict[str, tuple[float, float, float]]:
    """Each target's figure in `other` minus in `base`, with a bootstrap interval (independent
    resamples of the two runs' games)."""
    out = {}
    a_all, b_all = np.arange(len(base.steps))[None, :], np.arange(len(other.steps))[None, :]
    a = rng.integers(0, len(base.steps), (resamples, len(base.steps)))
    b = rng.integers(0, len(other.steps), (resamples, len(other.steps)))
    for t in plan.targets:
        point = float(other.figures(t, b_all)[0] - base.figures(t, a_all)[0])
        boot = other.figures(t, b) - base.figures(t, a)
        low, high = np.quantile(boot, [0.025, 0.975])
        out[t.text] = (point, float(low), float(high))
    return out


def run_tune(plan: TunePlan, out_dir: Path | str, *, jobs: int = -1, progress: bool | None = None,
             resume: bool = False, on_start: Callable[[], None] | None = None,
             on_round: Callable[[RoundResult], None] | None = None,
             say: Callable[[str], None] = lambda text: None) -> TuneResult:
    out_dir = Path(out_dir)
    listing = plan.listing()
    same = ("game", "players", "lineup", "axes", "targets", "budget", "confirm_games", "seed", "base",
            "cells")
    with open_study_folder(out_dir, listing, resume, TUNE_MANIFEST, "tune", same):
        write_text_file(out_dir / TUNE_MANIFEST, json.dumps(listing, indent=2) + "\n")
        if on_start is not None:
            on_start()
        runner = TuneRunner(plan, out_dir, jobs=jobs, progress=progress, resume=resume)
        history = successive_halving(plan.settings, runner.evaluate, plan.budget, plan.n_players, on_round)
        best = next(s for s in plan.settings if s.label == history[-1].kept[0])
        confirm_games = math.ceil(plan.confirm_games / plan.n_players) * plan.n_players
        say(f"confirmation: {best.label} over {confirm_games} games, then its neighbours")
        base_tables = [runner.play(best, CONFIRM_ROUND, confirm_games)]
        base = runner.figures(base_tables)
        confirm = estimate(base, plan.targets, runner.rng(CONFIRM_ROUND))
        sensitivity = []
        for field, other in _neighbours(plan, best):
            figures = runner.figures([runner.play(other, CONFIRM_ROUND, confirm_games)])
            changes = _changes(plan, base, figures, runner.rng(CONFIRM_ROUND, *other.index))
            sensitivity.append(Sensitivity(field, dict(other.overrides)[field], changes))
        result = TuneResult(history, best, confirm, sensitivity)
        write_text_file(out_dir / TUNE_MANIFEST, json.dumps({**listing, **result.to_dict()}, indent=2) + "\n")
    return result
