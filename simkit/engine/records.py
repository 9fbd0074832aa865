"""Run folders: manifest.json, chunk files written atomically, games/seats Parquet tables.

Tables are written and read in the current schema (simkit/engine/table_schema.py,
docs/tables.md): every table read, of whatever schema version, passes through `to_current` here.
Nothing read back is trusted: chunks are checked against their index entries
(simkit/engine/chunk_index.py) and the merged tables against the row counts and checksums the
manifest records for them (`tables`).
"""

from __future__ import annotations

import json
import os
import platform
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simkit.engine.chunk_index import (
    CHUNKS,
    ChunkCheck,
    Plan,
    check_chunks,
    chunk_files,
    entry_for,
    entry_text,
    file_sha256,
)
from simkit.engine.errors import RunFolderError
from simkit.engine.folder_lock import is_locked
from simkit.engine.game import ROUND_SCORES, RUNNING_SCORE
from simkit.engine.table_schema import ROUND_SCORES_TYPE, SCHEMA_VERSION, settled, to_current

MANIFEST = "manifest.json"
TABLES = ("games.parquet", "seats.parquet")
#: a chunk's columns by name: lists, NumPy arrays or Arrow arrays
Columns = Mapping[str, Any]
#: manifest keys without which a folder cannot be read or replayed
REQUIRED = ("game", "n_players", "strategies", "n_games", "seed", "seating", "duplicate", "config")


def _atomic_write_bytes(path: Path, write) -> None:
    """Write through a temporary file in the same folder, then rename over `path`.

    The temporary file is created with mode 0o666 so the user's umask applies (as for any
    file the user creates), not the 0600 of tempfile.mkstemp.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp"
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_text_file(path: Path, text: str) -> None:
    """Write a small text file atomically."""
    def write(tmp):
        Path(tmp).write_text(text, encoding="utf-8")
    _atomic_write_bytes(Path(path), write)


def write_manifest(run_dir: Path, manifest: dict) -> None:
    def write(tmp):
        with open(tmp, "w") as fh:
            json.dump(manifest, fh, indent=2, sort_keys=False, default=str)
    _atomic_write_bytes(run_dir / MANIFEST, write)


def read_manifest(run_dir: Path) -> dict:
    path = Path(run_dir) / MANIFEST
    if not path.is_file():
        raise RunFolderError(f"{run_dir} is not a run folder: it has no {MANIFEST}")
    try:
        manifest = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RunFolderError(f"{path} is not valid JSON ({exc})") from None
    if not isinstance(manifest, dict):
        raise RunFolderError(f"{path} is not a run manifest: expected a JSON object, "
                             f"found a {type(manifest).__name__}")
    return manifest


def require_fields(manifest: dict, run_dir: Path, keys=REQUIRED) -> None:
    """Refuse a manifest that lacks a field the run cannot be read or replayed without."""
    missing = [k for k in keys if k not in manifest]
    if missing:
        raise RunFolderError(f"{Path(run_dir) / MANIFEST} lacks {', '.join(missing)}: it is not a "
                             f"complete run manifest (written by `simkit run`)")


def check_schema(manifest: dict, run_dir: Path) -> None:
    """Refuse a folder whose tables this simkit cannot read: a schema version from a newer
    simkit, or not a version at all. No `schema_version` is version 1 (read through the converter)."""
    version = manifest.get("schema_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise RunFolderError(f"{Path(run_dir) / MANIFEST}: schema_version {version!r} is not a "
                             f"table schema version (a whole number from 1)")
    if version > SCHEMA_VERSION:
        raise RunFolderError(f"{run_dir} was written by a newer simkit (table schema {version}); "
                             f"this one reads schemas 1 to {SCHEMA_VERSION}: upgrade simkit "
                             f"(docs/tables.md)")


def _table(columns: Columns) -> pa.Table:
    """A chunk's columns (with the play loop's sentinels) as a table in the current schema."""
    table = pa.Table.from_pydict(columns)
    for name in (ROUND_SCORES, RUNNING_SCORE):   # typed here: a chunk of forfeits only has no
        if name in columns:                       # float to infer from
            i = table.schema.get_field_index(name)
            table = table.set_column(i, name, table.column(i).cast(ROUND_SCORES_TYPE))
    return to_current(table)


def chunk_frames(games: Columns, seats: Columns) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A chunk's rows as the frames its files would read back as (current schema)."""
    return _table(games).to_pandas(), _table(seats).to_pandas()


def read_table_file(path: Path, filters=None) -> pa.Table:
    """A games or seats file (merged or chunk, any schema version) in the current schema;
    `filters` as for pyarrow.parquet.read_table."""
    return to_current(pq.read_table(path, filters=filters))


def chunk_paths(run_dir: Path, chunk_id: int) -> tuple[Path, Path, Path]:
    """The games file, seats file and index entry of a chunk."""
    return chunk_files(run_dir, chunk_id)


def write_chunk(run_dir: Path, chunk_id: int, games: Columns, seats: Columns) -> None:
    """Seats, then games, then the index entry: a chunk counts as done only when its entry
    exists and matches both files. A column is a list, a NumPy array or an Arrow array (the
    batch engine's): each gives the same file."""
    g_path, s_path, e_path = chunk_files(run_dir, chunk_id)
    _atomic_write_bytes(s_path, lambda tmp: pq.write_table(_table(seats), tmp))
    _atomic_write_bytes(g_path, lambda tmp: pq.write_table(_table(games), tmp))
    index = games["game"]
    entry = entry_for(run_dir, chunk_id, int(index[0]), int(index[-1]) + 1, len(index), len(seats["game"]))
    write_text_file(e_path, entry_text(entry))


def read_chunks(run_dir: Path, chunk_ids) -> tuple[pd.DataFrame, pd.DataFrame]:
    tables = _read_chunk_tables(run_dir, chunk_ids)
    if tables is None:
        return pd.DataFrame(), pd.DataFrame()
    return tables[0].to_pandas(), tables[1].to_pandas()


def _concat(tables: list[pa.Table]) -> pa.Table:
    return settled(pa.concat_tables(tables, promote_options="default"))


def _read_chunk_tables(run_dir: Path, chunk_ids) -> tuple[pa.Table, pa.Table] | None:
    """The chunks' games and seats as two current-schema tables; None for no chunk."""
    games, seats = [], []
    for chunk_id in sorted(chunk_ids):
        g_path, s_path, _ = chunk_files(run_dir, chunk_id)
        games.append(read_table_file(g_path))
        seats.append(read_table_file(s_path))
    if any(RUNNING_SCORE not in t.column_names for t in seats):     # an old run resumed: its
        seats = [t.drop_columns([RUNNING_SCORE]) if RUNNING_SCORE in t.column_names else t  # tables
                 for t in seats]                                     # keep their columns
    return (_concat(games), _concat(seats)) if games else None


def write_tables(run_dir: Path, chunk_ids) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Merge chunk files into games.parquet and seats.parquet (the chunks stay until
    `remove_chunks`); return the tables and their row counts and checksums for the manifest."""
    run_dir = Path(run_dir)
    tables = _read_chunk_tables(run_dir, chunk_ids)
    if tables is None:      # no finished game: empty files, as pandas writes an empty frame
        tables = (pa.Table.from_pandas(pd.DataFrame(), preserve_index=False),) * 2
    recorded = {}
    for name, table in zip(TABLES, tables):
        _atomic_write_bytes(run_dir / name, lambda tmp, t=table: pq.write_table(t, tmp))
        recorded[name] = {"rows": table.num_rows, "sha256": file_sha256(run_dir / name)}
    games, seats = (t.to_pandas() for t in tables)
    return games, seats, recorded


def remove_chunks(run_dir: Path, chunk_ids) -> None:
    """Remove the given chunks (merged, or played beyond an early stop), then `chunks/` if empty."""
    for chunk_id in chunk_ids:
        for p in chunk_files(run_dir, chunk_id):
            p.unlink(missing_ok=True)
    base = Path(run_dir) / CHUNKS
    if base.is_dir() and not any(base.iterdir()):
        base.rmdir()


def verified_chunks(run_dir: Path, manifest: dict) -> ChunkCheck:
    """The run's chunks checked against its plan (see simkit/engine/chunk_index.py)."""
    require_fields(manifest, run_dir, ("n_games", "n_players", "chunk_size"))
    try:
        plan = Plan.of(manifest)
    except (TypeError, ValueError):
        raise RunFolderError(f"{Path(run_dir) / MANIFEST}: n_games, n_players and chunk_size must be "
                             f"whole numbers of at least 1") from None
    return check_chunks(run_dir, plan)


def verified_table_paths(run_dir: Path, manifest: dict) -> tuple[Path, Path]:
    """The merged tables of a finished run, each checked against the checksum its manifest
    records under `tables`; a missing or malformed `tables` entry (deleted, a list, a string)
    refuses the folder, as unverifiable tables could be another run's."""
    recorded = manifest.get("tables")
    where = Path(run_dir) / MANIFEST
    if not isinstance(recorded, dict) or not all(isinstance(recorded.get(n), dict) for n in TABLES):
        raise RunFolderError(f"{where} records no checksums for {' and '.join(TABLES)} (its `tables` "
                             f"entry is missing or damaged): the tables cannot be verified")
    paths = []
    for name in TABLES:
        path = Path(run_dir) / name
        if not path.is_file():
            raise RunFolderError(f"{path} is missing or not a regular file: the run folder is damaged "
                                 f"(the manifest records it)")
        if file_sha256(path) != recorded[name].get("sha256"):
            raise RunFolderError(f"{path} does not match the checksum recorded in {MANIFEST} (truncated "
                                 f"or changed since the run): restore it or play the run again")
        paths.append(path)
    return paths[0], paths[1]


def read_tables(run_dir: Path, manifest: dict | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The run's tables, checked: the merged files, or the finished chunks of an unfinished run.

    A bad chunk (one that contradicts its index entry or the plan) refuses the folder, naming
    the file, unless a writer holds the folder's lock (its chunks may be mid-write); the debris
    of a stopped writer (temporary files, chunks without an entry) holds no finished game and is
    skipped.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir) if manifest is None else manifest
    check_schema(manifest, run_dir)
    if "tables" in manifest or manifest.get("status") in ("complete", "stopped"):
        g, s = verified_table_paths(run_dir, manifest)
        return read_table_file(g).to_pandas(), read_table_file(s).to_pandas()
    check = verified_chunks(run_dir, manifest)
    if check.bad and not is_locked(run_dir):
        raise RunFolderError(f"{run_dir} has chunk files that cannot be trusted ({check.describe()}): "
                             f"the same `simkit run` command with --resume sets them aside and plays "
                             f"those games again")
    return read_chunks(run_dir, check.good)


def versions() -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    found: dict[str, Any] = {"python": platform.python_version(), "platform": platform.platform()}
    for package in ("simkit", "numpy", "pandas", "pyarrow", "joblib", "click", "scipy"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = None
    return found
