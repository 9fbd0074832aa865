"""Strategy A against strategy B on duplicate deals until a sequential test decides.

A compare is a normal run (every deal played once per seat rotation, A on the even lineup
slots, B on the odd ones) with a stop rule: after each whole-deal chunk the SPRT is updated and
the run stops once it crosses a bound. The run folder gets `compare.json` beside the tables.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from simkit.core.chunks import whole_deal_chunk_size
from simkit.core.lineup import alternating_lineup
from simkit.core.records import write_text_file
from simkit.core.runner import RunResult, run
from simkit.core.spec import RunSpec
from simkit.stats.elo import SPRT
from simkit.stats.match import MatchSummary, lineup_sides, match_summary, sides_from_slots

COMPARE_FILE = "compare.json"


@dataclass(frozen=True)
class ComparePlan:
    """A validated compare: the run to play, the sides' lineup slots and the test."""

    a: str
    b: str
    spec: RunSpec
    sprt: SPRT
    chunk_size: int

    @property
    def sides(self) -> tuple[list[int], list[int]]:
        """Lineup slots of A and of B."""
        return lineup_sides([s.text for s in self.spec.strategies])

    def summarize(self, seats: pd.DataFrame) -> MatchSummary:
        is_a, is_b = sides_from_slots(seats, *self.sides)
        return match_summary(seats, is_a, is_b, self.a, self.b, self.sprt)

    def decided(self, games: pd.DataFrame, seats: pd.DataFrame) -> bool:
        """The stop rule: the SPRT has accepted one hypothesis."""
        return self.summarize(seats).decision is not None

    def record(self, summary: MatchSummary) -> dict:
        """The content of compare.json: the sides, then the match summary."""
        a_slots, b_slots = self.sides
        rest = {k: v for k, v in summary.to_dict().items() if k not in ("a", "b")}
        return {"a": self.a, "b": self.b, "a_slots": a_slots, "b_slots": b_slots, **rest}


def plan_compare(game: str, a: str, b: str, n_players: int, max_games: int, sprt: SPRT, *,
                 batch: int | None = None, seed: int | None = None,
                 overrides: dict[str, str] | None = None, command: str = "",
                 decision_timeout: float | None = None) -> ComparePlan:
    """Validate a compare before anything runs; `batch` is the games between SPRT checks."""
    spec = RunSpec.create(game, n_players, alternating_lineup(a, b, n_players), max_games,
                          seed=seed, seating="rotate", duplicate=True, overrides=overrides,
                          command=command, decision_timeout=decision_timeout)
    return ComparePlan(a, b, spec, sprt, whole_deal_chunk_size(batch, n_players))


def run_compare(plan: ComparePlan, out_dir: Path | str, *, jobs: int = -1,
                progress: bool | None = None,
                on_start: Callable[[], None] | None = None) -> tuple[RunResult, MatchSummary]:
    """Play until the SPRT decides or the games run out; write compare.json. `on_start` is
    called once the options and the folder are checked, before the first game."""
    result = run(plan.spec, out_dir, jobs=jobs, chunk_size=plan.chunk_size, progress=progress,
                 stop=plan.decided, on_start=on_start)
    summary = plan.summarize(result.seats)
    write_compare(out_dir, plan.record(summary))
    return result, summary


def write_compare(out_dir: Path | str, record: dict) -> Path:
    path = Path(out_dir) / COMPARE_FILE
    write_text_file(path, json.dumps(record, indent=2))
    return path
