"""Replaying one game of a run from its seed, checked against the row the run recorded.

A replay is only worth reading if it is the game that was played: when the code, a strategy or
the environment changed since the run, the regenerated game can differ. The whole replayed game
is compared with its row in games.parquet (and its rows in seats.parquet); a mismatch is refused
with the differences named.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa

from simkit.engine.chunk_index import NO_ENTRY, Plan, chunk_problem
from simkit.engine.errors import ConfigError, RunFolderError, SimkitError
from simkit.engine.play import GameRecord, play_game
from simkit.engine.records import (
    MANIFEST,
    check_schema,
    chunk_paths,
    read_manifest,
    read_table_file,
    require_fields,
    verified_table_paths,
)
from simkit.engine.registry import get_game
from simkit.engine.spec import RunSpec


def spec_of(run_dir: Path, manifest: dict) -> RunSpec:
    """The RunSpec a manifest describes; a damaged manifest is a one-line RunFolderError."""
    require_fields(manifest, run_dir)
    try:
        return RunSpec.from_manifest(manifest)
    except SimkitError as exc:
        raise RunFolderError(f"{run_dir}/manifest.json does not describe a run simkit can "
                             f"replay: {exc}") from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise RunFolderError(f"{run_dir}/manifest.json has a field of the wrong kind "
                             f"({type(exc).__name__}: {exc})") from None


def _recorded_paths(run_dir: Path, manifest: dict, index: int) -> tuple[Path, Path] | None:
    """The verified files holding game `index`'s rows: the merged tables (checked against the
    manifest's checksums) or its chunk (checked against its index entry and the plan); None when
    its chunk is not finished yet. A damaged file or manifest is a RunFolderError."""
    if "tables" in manifest or manifest.get("status") in ("complete", "stopped"):
        return verified_table_paths(run_dir, manifest)
    try:
        plan = Plan.of(manifest)
    except (KeyError, TypeError, ValueError) as exc:
        raise RunFolderError(f"{run_dir / MANIFEST} cannot say where game {index} is recorded "
                             f"({exc})") from None
    chunk_id = index // plan.chunk_size
    problem = chunk_problem(run_dir, chunk_id, plan)
    if problem == NO_ENTRY:
        return None
    g_path, s_path, _ = chunk_paths(run_dir, chunk_id)
    if problem is not None:
        raise RunFolderError(f"{g_path.name}/{s_path.name} in {run_dir / 'chunks'} cannot be trusted "
                             f"({problem}): the same `simkit run` command with --resume plays those "
                             f"games again")
    return g_path, s_path


def _recorded_rows(run_dir: Path, manifest: dict, index: int) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """Game `index`'s rows in the merged tables, or in its chunk; None if not recorded (yet)."""
    paths = _recorded_paths(run_dir, manifest, index)
    if paths is None:
        return None
    try:
        g, s = (read_table_file(p, filters=[("game", "==", index)]).to_pandas() for p in paths)
    except (OSError, ValueError, pa.ArrowException) as exc:      # verified, yet unreadable
        raise RunFolderError(f"cannot read game {index}'s rows in {run_dir}: {exc}") from None
    return (g, s) if len(g) == 1 else None


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def differences(record: GameRecord, games: pd.DataFrame, seats: pd.DataFrame) -> list[str]:
    """What differs between a replayed game and its recorded rows (empty when they agree)."""
    row = games.iloc[0]
    found = []
    # the table's null (NaN in pandas) for no forfeit is the record's -1
    forfeit = record.forfeit if record.forfeit >= 0 else math.nan
    game_fields: list[tuple[str, Any]] = [("steps", record.steps), ("forfeit_seat", forfeit),
                                          ("draw", record.draw)]
    for name, replayed in game_fields:
        if not _same(replayed, _plain(row[name])):
            found.append(f"{name} {row[name]} recorded, {replayed} replayed")
    seats = seats.sort_values("seat")
    seat_fields: list[tuple[str, Sequence[float]]] = [("slot", record.slots), ("score", record.scores),
                                                      ("rank", record.ranks), ("win", record.wins)]
    for name, values in seat_fields:
        recorded = [_plain(v) for v in seats[name]]
        replayed = list(values)
        if len(recorded) != len(replayed) or not all(
                _same(float(a), float(b)) for a, b in zip(recorded, replayed)):
            found.append(f"{name}s {recorded} recorded, {replayed} replayed")
    return found


def replay_game(run_dir: Path | str, index: int, step: int | None = None):
    """Re-play game `index` of a run from its seed (up to decision `step` if given).

    Returns (state, record, spec); the record's outcome is empty when play stopped at `step`.
    A whole game that differs from its recorded row raises RunFolderError.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    spec = spec_of(run_dir, manifest)
    check_schema(manifest, run_dir)
    if not 0 <= index < spec.n_games:
        raise ConfigError(f"--game {index} is out of range: the run has games 0 to {spec.n_games - 1}")
    if step is not None and step < 0:
        raise ConfigError(f"--position {step} is not allowed: a step number from 0 (the start)")
    record, state = play_game(spec, index, max_steps=step)
    if step is not None and record.steps < step:
        raise ConfigError(f"--position {step} is out of range: game {index} has steps 0 to {record.steps}")
    rows = _recorded_rows(run_dir, manifest, index) if step is None else None
    if rows is not None:
        found = differences(record, *rows)
        if found and "decision-timeout" in str(rows[0].iloc[0].get("error", "")):
            raise RunFolderError(
                f"game {index} was decided by the decision time limit ({rows[0].iloc[0]['error']}), "
                f"which depends on the machine's speed: its replay ({'; '.join(found)}) is not the "
                f"recorded game, so no log is shown")
        if found and spec.engine == "batch":
            raise RunFolderError(
                f"game {index} was played by the batch engine, whose random choices are drawn "
                f"differently from the scalar engine that replays games ({'; '.join(found)}): "
                f"play the run with --engine scalar to replay its games")
        if found:
            now = get_game(spec.game).rules_version
            then = manifest.get("rules_version", "?")
            raise RunFolderError(
                f"game {index} replays differently from its recorded row ({'; '.join(found)}): the "
                f"rules, a strategy or a library changed since the run (rules {then} then, {now} now); "
                f"refusing to show a log that is not the recorded game")
    return state, record, spec
