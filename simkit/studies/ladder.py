"""Ladders: every agent against every other (or one challenger against the field), one run
folder per pairing, then ratings for the field and the game's skill depth.

A pairing is a compare without a stop rule: A on the even lineup slots, B on the odd ones,
every deal played once per seat rotation (duplicate deals). All pairings use the ladder's
master seed, so they share their deals (common random numbers). The ladder folder holds
`ladder.json` (the plan) and `pairs/NN-A-vs-B/`, each a normal run folder; an interrupted ladder
resumes pairing by pairing (`resume=True`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from simkit.engine.config import GameConfig, config_from_dict
from simkit.engine.errors import ConfigError, RunFolderError
from simkit.engine.guard import DEFAULT_DECISION_TIMEOUT
from simkit.engine.lineup import alternating_lineup
from simkit.engine.records import read_manifest, write_text_file
from simkit.engine.registry import get_game
from simkit.engine.runner import RunResult, load_run, run
from simkit.engine.seeding import root_seed
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import parse_strategy
from simkit.stats.depth import PairResult, SkillDepth, skill_depth
from simkit.stats.elo import elo_to_score
from simkit.stats.match import lineup_sides, sides_from_slots
from simkit.stats.pairwise import pairwise_elo, pairwise_units
from simkit.stats.ratings import plackett_luce
from simkit.studies.ladder_defaults import default_agents as default_agents  # re-exported
from simkit.studies.ladder_defaults import default_games as default_games
from simkit.studies.ladder_defaults import search_budget as search_budget

LADDER_MANIFEST = "ladder.json"
FORMATS = ("round-robin", "gauntlet")


def pairings(agents: list[str], fmt: str) -> list[tuple[str, str]]:
    """Round robin: every pair once. Gauntlet: the first agent against each of the others."""
    if fmt == "gauntlet":
        return [(agents[0], other) for other in agents[1:]]
    return [(a, b) for i, a in enumerate(agents) for b in agents[i + 1:]]


def _folder_name(index: int, a: str, b: str) -> str:
    def clean(text: str) -> str:
        return re.sub(r"[^A-Za-z0-9_.=-]+", "_", text)
    return f"{index + 1:02d}-{clean(a)}-vs-{clean(b)}"


@dataclass(frozen=True)
class Pairing:
    a: str
    b: str
    folder: str
    spec: RunSpec


@dataclass(frozen=True)
class LadderPlan:
    game: str
    n_players: int
    agents: tuple[str, ...]
    fmt: str
    games_per_pair: int
    seed: int
    pairs: tuple[Pairing, ...]

    @property
    def config(self) -> GameConfig:
        """The rules every pairing plays (the game's, with the ladder's overrides)."""
        return self.pairs[0].spec.config

    def record(self) -> dict:
        return {"game": self.game, "n_players": self.n_players, "agents": list(self.agents),
                "format": self.fmt, "games_per_pair": self.games_per_pair, "seed": self.seed,
                "pairs": [{"a": p.a, "b": p.b, "folder": p.folder} for p in self.pairs]}


def plan_ladder(game: str, n_players: int, agents: list[str] | None = None, *,
                games_per_pair: int | None = None,
                seed: int | None = None, fmt: str = "round-robin", overrides: dict[str, str] | None = None,
                decision_timeout: float | None = DEFAULT_DECISION_TIMEOUT,
                command: str = "", isolate: str = "plugins") -> LadderPlan:
    """Validate every pairing before anything runs (a bad agent or option fails fast). Without
    agents or games per pairing, the game's default ladder (simkit/studies/ladder_defaults.py). By
    default a plug-in agent (a class from outside simkit) plays from a process of its own
    (`isolate`, simkit/engine/isolation.py)."""
    entry = get_game(game)
    agents = list(agents) if agents else default_agents(entry.name)
    games_per_pair = games_per_pair if games_per_pair is not None else default_games(entry.name)
    if len(agents) < 2:
        raise ConfigError(f"a ladder needs at least 2 agents, got {len(agents)}: give -s twice or more")
    repeated = sorted({a for a in agents if agents.count(a) > 1})
    if repeated:
        raise ConfigError(f"agent {repeated[0]!r} is given twice: name each agent once")
    if fmt not in FORMATS:
        raise ConfigError(f"--format {fmt!r} is not allowed: one of {', '.join(FORMATS)}")
    if n_players < 2:
        raise ConfigError(f"--players {n_players} is not allowed: a ladder pairs agents, at least 2 players")
    for agent in agents:
        parse_strategy(agent, entry.name)
    master = root_seed(seed)
    pairs = tuple(
        Pairing(a, b, _folder_name(i, a, b),
                RunSpec.create(game, n_players, alternating_lineup(a, b, n_players), games_per_pair,
                               seed=master, seating="rotate", duplicate=True, overrides=overrides,
                               command=command, decision_timeout=decision_timeout, isolate=isolate))
        for i, (a, b) in enumerate(pairings(agents, fmt)))
    return LadderPlan(game, n_players, tuple(agents), fmt, pairs[0].spec.n_games, master, pairs)


def run_ladder(plan: LadderPlan, out_dir: Path | str, *, jobs: int = -1, progress: bool | None = None,
               resume: bool = False,
               on_pair: Callable[[int, Pairing], None] | None = None) -> list[RunResult]:
    """Play every pairing into `out_dir/pairs/`; `resume` finishes an interrupted ladder."""
    out_dir = Path(out_dir)
    manifest = out_dir / LADDER_MANIFEST
    if resume:
        if not manifest.exists():
            raise RunFolderError(f"{out_dir} is not a ladder folder (no {LADDER_MANIFEST}): "
                                 f"nothing to resume")
        if json.loads(manifest.read_text()) != plan.record():
            raise RunFolderError(f"{out_dir} holds another ladder (agents, players, games, seed or format "
                                 f"differ): give the same options to --resume, or another --out")
    elif out_dir.exists() and any(out_dir.iterdir()):
        raise RunFolderError(f"{out_dir} exists and is not empty: give a new --out (a ladder never "
                             f"overwrites), or --resume to finish it")
    out_dir.mkdir(parents=True, exist_ok=True)
    write_text_file(manifest, json.dumps(plan.record(), indent=1) + "\n")
    results = []
    for i, pair in enumerate(plan.pairs):
        if on_pair is not None:
            on_pair(i, pair)
        folder = out_dir / "pairs" / pair.folder
        if resume and folder.exists() and _complete(folder):
            results.append(load_run(folder))
            continue
        again = resume and folder.exists()
        results.append(run(pair.spec, folder, jobs=jobs, progress=progress, resume=again))
    return results


def recorded_plan(out_dir: Path | str) -> dict:
    """The plan an existing ladder folder recorded (ladder.json), or {} when there is none to read:
    on --resume, what the command line leaves out comes from here (agents, games, players)."""
    try:
        record = json.loads((Path(out_dir) / LADDER_MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(record, dict):
        return {}
    whole: dict = {k: v for k, v in record.items() if k in ("games_per_pair", "n_players")
                   and isinstance(v, int) and not isinstance(v, bool)}
    agents = record.get("agents")
    if isinstance(agents, list) and all(isinstance(a, str) for a in agents):
        whole["agents"] = agents
    return whole        # a field of another type is left out: the options decide, and resume refuses


def pending_pairs(plan: LadderPlan, out_dir: Path | str) -> list[Pairing]:
    """The pairings of `plan` whose run folder in `out_dir` is not complete yet."""
    return [p for p in plan.pairs if not _complete(Path(out_dir) / "pairs" / p.folder)]


def _complete(folder: Path) -> bool:
    try:
        return read_manifest(folder).get("status") == "complete"
    except RunFolderError:
        return False


@dataclass(frozen=True)
class LadderResult:
    plan: dict
    ratings: pd.DataFrame          # Plackett–Luce over every game of every pairing
    pairs: tuple[PairResult, ...]
    depth: SkillDepth
    #: the rules the pairings played (from their run folders; ladder.json does not hold them)
    config: GameConfig | None = None

    def budgets(self) -> dict[str, int]:
        """Agents that are ISMCTS, with the iteration budgets they played: at the ladder's player
        count and rules where no `iterations=` is given (simkit/search/defaults.py)."""
        found = {a: search_budget(a, self.plan.get("game", ""), self.plan.get("n_players"), self.config)
                 for a in self.plan["agents"]}
        return {a: b for a, b in found.items() if b is not None}


def _pair_result(a: str, b: str, seats: pd.DataFrame, lineup: list[str]) -> PairResult:
    is_a, is_b = sides_from_slots(seats, *lineup_sides(lineup))
    units = pairwise_units(seats, is_a, is_b)
    est = pairwise_elo(units)
    return PairResult(a, b, est.score, elo_to_score(est.elo_low), elo_to_score(est.elo_high),
                      1.0 - est.los, units.n)


def analyse_ladder(out_dir: Path | str, alpha: float = 0.05, correction: str = "holm") -> LadderResult:
    """Ratings of the field, every pairing's pairwise score, and the skill chain."""
    out_dir = Path(out_dir)
    path = out_dir / LADDER_MANIFEST
    if not path.exists():
        raise RunFolderError(f"{out_dir} is not a ladder folder (no {LADDER_MANIFEST})")
    plan = json.loads(path.read_text())
    tables, results = [], []
    config: GameConfig | None = None
    for k, pair in enumerate(plan["pairs"]):
        folder = out_dir / "pairs" / pair["folder"]
        if not (folder / "seats.parquet").exists():
            continue
        loaded = load_run(folder)
        seats = loaded.seats
        if seats.empty:
            continue
        if config is None:
            config = config_from_dict(get_game(plan["game"]).config_cls, loaded.manifest["config"])
        results.append(_pair_result(pair["a"], pair["b"], seats,
                                    alternating_lineup(pair["a"], pair["b"], plan["n_players"])))
        tables.append(seats.assign(game=seats["game"] + k * (1 << 40)))
    if not results:
        raise RunFolderError(f"{out_dir} holds no finished pairing yet: run or --resume the ladder first")
    ratings = plackett_luce(pd.concat(tables, ignore_index=True))
    order = {a: i for i, a in enumerate(plan["agents"])}
    ratings = ratings.sort_values("player", key=lambda s: s.map(order)).reset_index(drop=True)
    depth = skill_depth(plan["agents"], results, alpha, correction)
    return LadderResult(plan, ratings, tuple(results), depth, config)
