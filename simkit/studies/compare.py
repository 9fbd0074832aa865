"""Strategy A against strategy B on duplicate deals until a sequential test decides.

A compare is a normal run (every deal played once per seat rotation, A on the even lineup
slots, B on the odd ones) with a stop rule: after each whole-deal chunk the SPRT is updated and
the run stops once it crosses a bound. The run folder gets `compare.json` beside the tables.
While it runs, the progress display shows the interim Elo, LLR and bounds (`interim_text`); an
interrupted compare resumes (`resume=True`) and one already finished is read back, not replayed.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from simkit.engine.chunks import whole_deal_chunk_size
from simkit.engine.errors import RunFolderError
from simkit.engine.lineup import alternating_lineup
from simkit.engine.records import read_manifest, write_text_file
from simkit.engine.run_folder import SAME_ON_RESUME
from simkit.engine.runner import RunResult, load_run, run
from simkit.engine.spec import RunSpec
from simkit.stats.elo import SPRT
from simkit.stats.match import MatchSummary, lineup_sides, match_summary, sides_from_slots
from simkit.stats.wording import elo_text

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
        """The content of compare.json: the sides, then the match summary (valid JSON: see
        `json_safe`)."""
        a_slots, b_slots = self.sides
        rest = {k: v for k, v in summary.to_dict().items() if k not in ("a", "b")}
        return json_safe({"a": self.a, "b": self.b, "a_slots": a_slots, "b_slots": b_slots,
                          **rest})


def json_safe(value: Any) -> Any:
    """`value` with every number that is not finite (an Elo bound at +inf after a perfect
    score, an undefined nElo) replaced by None, so it is written as `null`: JSON has no
    Infinity or NaN. numpy scalars become Python numbers."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def plan_compare(game: str, a: str, b: str, n_players: int, max_games: int, sprt: SPRT, *,
                 batch: int | None = None, seed: int | None = None,
                 overrides: dict[str, str] | None = None, command: str = "",
                 decision_timeout: float | None = None) -> ComparePlan:
    """Validate a compare before anything runs; `batch` is the games between SPRT checks."""
    spec = RunSpec.create(game, n_players, alternating_lineup(a, b, n_players), max_games,
                          seed=seed, seating="rotate", duplicate=True, overrides=overrides,
                          command=command, decision_timeout=decision_timeout)
    return ComparePlan(a, b, spec, sprt, whole_deal_chunk_size(batch, n_players))


def interim_text(summary: MatchSummary) -> str:
    """One line of a compare in progress: the pairwise Elo (the scale of the SPRT) with its
    interval, the LLR and its bounds."""
    e = summary.pairwise if summary.pairwise is not None else summary.estimate
    text = f"pairwise Elo {elo_text(e, 0)}"
    if summary.sprt is not None and summary.llr is not None:
        text += f", LLR {summary.llr:.2f} [{summary.sprt.lower:.2f}, {summary.sprt.upper:.2f}]"
    if summary.decision is not None:
        text += f", {summary.decision} accepted"
    return text


def run_compare(plan: ComparePlan, out_dir: Path | str, *, jobs: int = -1,
                progress: bool | None = None, resume: bool = False,
                on_start: Callable[[], None] | None = None,
                on_check: Callable[[MatchSummary], None] | None = None,
                notify: Callable[[str], None] | None = None) -> tuple[RunResult, MatchSummary]:
    """Play until the SPRT decides or the games run out; write compare.json. `on_start` is
    called once the options and the folder are checked, before the first game; `on_check` with
    the interim summary at every SPRT check. `resume` finishes an interrupted compare in
    `out_dir` (one that already finished is read back as it is)."""
    if resume and _finished(Path(out_dir), plan.spec):
        result = load_run(out_dir)
        if on_start is not None:
            on_start()
    else:
        latest: list[MatchSummary] = []

        def decided(games: pd.DataFrame, seats: pd.DataFrame) -> bool:
            summary = plan.summarize(seats)
            latest[:] = [summary]
            if on_check is not None:
                on_check(summary)
            return summary.decision is not None

        def status() -> str:
            return interim_text(latest[0]) if latest else ""

        result = run(plan.spec, out_dir, jobs=jobs, chunk_size=plan.chunk_size, progress=progress,
                     stop=decided, on_start=on_start, resume=resume, status=status,
                     notify=notify if notify is not None else _stderr)
    summary = plan.summarize(result.seats)
    write_compare(out_dir, plan.record(summary))
    return result, summary


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def _finished(out_dir: Path, spec: RunSpec) -> bool:
    """A compare folder of this same compare whose run is over (decided, or every game played)."""
    if not (out_dir / "manifest.json").exists():
        return False
    old = read_manifest(out_dir)
    if old.get("status") not in ("complete", "stopped"):
        return False
    fields = spec.manifest_fields()
    differs = [k for k in SAME_ON_RESUME if old.get(k) != fields[k]]
    if differs:
        raise RunFolderError(f"--resume: {out_dir} was started with different {', '.join(differs)}; "
                             f"resume with the same options or use a new --out")
    return True


def write_compare(out_dir: Path | str, record: dict) -> Path:
    path = Path(out_dir) / COMPARE_FILE
    write_text_file(path, json.dumps(json_safe(record), indent=2, allow_nan=False))
    return path
