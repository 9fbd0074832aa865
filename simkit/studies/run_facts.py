"""A finished run as plain data: the facts of the run and its summary table, for `--json` and
`-v` (simkit/cli.py). Numbers that are not finite (an empty interval) become null."""

from __future__ import annotations

import json
import math
from typing import Any

from simkit.engine.runner import RunResult

FACT_KEYS = ("game", "rules_version", "n_players", "strategies", "n_games", "seed", "seating",
             "duplicate", "deal_numbers", "config", "status", "chunk_size", "command")


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def run_facts(result: RunResult) -> dict:
    """What was played, where, how fast: from the manifest and the tables."""
    m = result.manifest
    timings = result.timings or {}
    wall = float(timings.get("wall_seconds", 0) or 0)
    played = len(result.games)
    facts = {k: m.get(k) for k in FACT_KEYS}
    facts.update(out_dir=str(result.out_dir), games_played=played, stopped_early=result.stopped_early,
                 forfeits=result.forfeits, engine_errors=result.engine_errors,
                 wall_seconds=wall, games_per_second=round(played / wall, 1) if wall > 0 else None,
                 jobs=timings.get("jobs"), backend=timings.get("backend"))
    return facts


def summary_records(result: RunResult) -> list[dict]:
    """The summary table (per strategy: win share and mean score with their intervals)."""
    from simkit.stats.tables import summary_table

    table = summary_table(result.seats)
    return [{k: _plain(v) for k, v in row.items()} for row in table.to_dict(orient="records")]


def run_json(result: RunResult, **extra: Any) -> str:
    """`{"run": facts, "summary": rows, ...extra}` as indented JSON."""
    doc = {"run": run_facts(result), "summary": summary_records(result), **extra}
    return json.dumps(doc, indent=2, default=_plain, allow_nan=False)


def facts_text(result: RunResult) -> str:
    """The run facts as `key: value` lines (for -v)."""
    facts = run_facts(result)
    keys = ("out_dir", "seed", "deals", "status", "games_played", "jobs", "backend", "chunk_size",
            "wall_seconds", "games_per_second", "command")
    listed = facts.get("deal_numbers")
    facts["deals"] = ", ".join(f"{a}-{b}" for a, b in listed) if listed else None
    return "\n".join(f"{k}: {facts[k]}" for k in keys if facts.get(k) is not None)
