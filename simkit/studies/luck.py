"""The luck study (`simkit luck`): how much of a game's outcome the deal decides, how much who plays.

A luck study is a normal run on duplicate deals: a lineup of agents of different strength (by
default the game's `random` bot, its strongest bot and the search agent, cycled over the seats),
every deal played once in each seat rotation, the cards staying with the seat (with `replays`
R > 1, R times: the same deal again with the strategies' streams of other games; the run then
lists its deals R times over, `RunSpec.deal_numbers`). The run folder
gets `luck.json` beside the tables: the variance split of the outcome (win, and score margin)
into deal, skill, seat and their interactions (`simkit.stats.luck`), the share of lopsided
deals and the deals that are most lopsided, so `simkit replay` can show them. An interrupted
study resumes like any run.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.engine.chunks import whole_deal_chunk_size
from simkit.engine.errors import ConfigError, RunFolderError
from simkit.engine.lineup import check_players
from simkit.engine.records import write_text_file
from simkit.engine.registry import get_game
from simkit.engine.runner import RunResult, run
from simkit.engine.spec import RunSpec
from simkit.stats.luck import DealSpread, LuckSplit, deal_spread, luck_split, outcome_table
from simkit.studies.luck_chain import ladder_chain

LUCK_FILE = "luck.json"
DEFAULT_DEALS = 100
#: plays of each deal per seating, at most
MAX_REPLAYS = 1000
#: the bootstrap's own stream: SeedSequence(seed, spawn_key=(BOOTSTRAP_KEY,)), apart from every game's
BOOTSTRAP_KEY = 2**31 - 7


def default_agents(game: str, n_players: int) -> list[str]:
    """`random`, the game's strongest bot and `ismcts`; two players take the first two."""
    agents = ["random", get_game(game).strongest_bot, "ismcts"]
    return agents[:2] if n_players == 2 else agents


def luck_lineup(agents: list[str], n_players: int) -> list[str]:
    """One lineup slot per seat, the agents cycled: 4 seats, 3 agents -> a, b, c, a."""
    if len(agents) < 2:
        raise ConfigError("a luck study needs at least 2 agents of different strength (-s twice or more)")
    if len(agents) > n_players:
        raise ConfigError(f"{len(agents)} agents for {n_players} players: a luck study seats every agent "
                          f"in every game, so give at most {n_players} (-s)")
    return [agents[i % len(agents)] for i in range(n_players)]


@dataclass(frozen=True)
class LuckPlan:
    agents: list[str]
    spec: RunSpec
    deals: int
    replays: int = 1
    chain: dict | None = None       # the skill chain of a ladder of the game (--ladder), if given

    @property
    def chunk_size(self) -> int:
        return whole_deal_chunk_size(None, self.spec.n_players)


def plan_luck(game: str, n_players: int, agents: list[str] | None, deals: int, *,
              seed: int | None = None, overrides: dict[str, str] | None = None, command: str = "",
              decision_timeout: float | None = None, replays: int = 1,
              ladder: Path | str | None = None) -> LuckPlan:
    """Validate a luck study before anything runs. With `replays` R > 1 every deal is played R
    times per seating: the run lists deals 0 .. deals-1 R times over, so a replay of a deal is
    a later game of the run (other strategy streams) on the same deal. `ladder`: a ladder folder
    of the game whose skill chain is reported beside the split (read now, so a bad one fails
    before anything is played)."""
    check_players(get_game(game), n_players)
    if deals < 2:
        raise ConfigError(f"--deals {deals} is not allowed: the split needs at least 2 deals")
    if not 1 <= replays <= MAX_REPLAYS:
        raise ConfigError(f"--replays {replays} is not allowed: 1 (each deal once per seating) up to "
                          f"{MAX_REPLAYS}")
    chosen = list(agents) if agents else default_agents(game, n_players)
    lineup = luck_lineup(chosen, n_players)
    listed = None if replays == 1 else [(0, deals - 1)] * replays
    spec = RunSpec.create(game, n_players, lineup, deals * n_players * replays, seed=seed,
                          seating="rotate", duplicate=True, overrides=overrides, command=command,
                          decision_timeout=decision_timeout, deal_numbers=listed)
    chain = None if ladder is None else ladder_chain(ladder, spec)
    return LuckPlan(chosen, spec, deals, replays, chain)


@dataclass(frozen=True)
class LuckResult:
    agents: list[str]
    lineup: list[str]
    win: LuckSplit
    score: LuckSplit
    spread: DealSpread
    left_out: int                # deals not counted: a game of theirs was forfeited or did not finish
    first_games: dict[int, int]  # deal number -> the run's first game of that deal (for replay)
    replays: int = 1             # plays of each deal per seating
    chain: dict | None = None    # the skill chain of the ladder given with --ladder


    def to_dict(self) -> dict:
        spread = self.spread.to_dict()
        for row in spread["most_lopsided"]:
            row["first_game"] = self.first_games[row["deal"]]
        out = {"agents": self.agents, "lineup": self.lineup, "win": self.win.to_dict(),
               "score_margin": self.score.to_dict(), "spread": spread,
               "deals_left_out": self.left_out}
        if self.replays > 1:    # (a study without replays writes the file it always wrote)
            out["replays"] = self.replays
        if self.chain is not None:
            out["skill_chain"] = self.chain
        return out


def analyse_luck(seats: pd.DataFrame, lineup: list[str], seed: int, *, resamples: int = 1000,
                 replays: int = 1) -> LuckResult:
    """The split of the win and of the score margin (score minus the game's mean score), from a
    duplicate run's seat rows; with `replays` > 1 each (deal, seat, slot) cell's plays are its
    replays in game order."""
    n = len(lineup)
    played = seats["deal"].nunique()
    # a deal with a forfeited game (no score) is left out whole: its seatings no longer compare
    spoiled = seats.loc[seats["forfeit"].fillna(False).astype(bool) | seats["score"].isna(), "deal"]
    seats = seats[~seats["deal"].isin(set(spoiled))]
    if seats.empty:
        raise RunFolderError("the luck study has no finished games to analyse")
    margin = seats["score"] - seats.groupby("game")["score"].transform("mean")
    replay: np.ndarray | None = None
    if replays > 1:     # a cell's plays in game order: replay 0, 1, ...
        order = seats.sort_values("game").groupby(["deal", "seat", "slot"]).cumcount()
        replay = order.reindex(seats.index).to_numpy()
    cells = (seats["deal"].to_numpy(), seats["seat"].to_numpy(), seats["slot"].to_numpy())
    numbers, wins = outcome_table(*cells, seats["win"].to_numpy(), n, replay, replays)
    _, scores = outcome_table(*cells, margin.to_numpy(), n, replay, replays)
    if len(numbers) < 2:
        raise RunFolderError(f"the luck study has {len(numbers)} whole deal(s); the split needs at least 2")
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(BOOTSTRAP_KEY,)))
    win = luck_split(wins, "win", rng, resamples=resamples)
    score = luck_split(scores, "score_margin", rng, resamples=resamples)
    agents = list(dict.fromkeys(lineup))
    spread = deal_spread(numbers, wins)
    firsts = seats.groupby("deal")["game"].min()
    return LuckResult(agents, list(lineup), win, score, spread, played - len(numbers),
                      {d: int(firsts[d]) for d, _ in spread.most_lopsided}, replays)


def run_luck(plan: LuckPlan, out_dir: Path | str, *, jobs: int = -1, progress: bool | None = None,
             resume: bool = False, on_start: Callable[[], None] | None = None
             ) -> tuple[RunResult, LuckResult]:
    """Play the study (or finish an interrupted one), analyse it and write luck.json."""
    result = run(plan.spec, out_dir, jobs=jobs, chunk_size=plan.chunk_size, progress=progress,
                 resume=resume, on_start=on_start)
    seed = int(result.manifest["seed"])
    luck = analyse_luck(result.seats, [s.text for s in plan.spec.strategies], seed, replays=plan.replays)
    luck = dataclasses.replace(luck, chain=plan.chain)
    write_luck(out_dir, luck)
    return result, luck


def write_luck(out_dir: Path | str, luck: LuckResult) -> Path:
    path = Path(out_dir) / LUCK_FILE
    write_text_file(path, json.dumps(luck.to_dict(), indent=2, allow_nan=False))
    return path

