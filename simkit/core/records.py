"""Run folders: manifest.json, chunk files written atomically, games/seats Parquet tables."""

from __future__ import annotations

import json
import os
import platform
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simkit.core.errors import RunFolderError

MANIFEST = "manifest.json"
CHUNKS = "chunks"


def _atomic_write_bytes(path: Path, write) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


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
        return json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise RunFolderError(f"{path} is not valid JSON ({exc})") from None


def _table(columns: dict[str, list]) -> pa.Table:
    return pa.Table.from_pydict(columns)


def chunk_paths(run_dir: Path, chunk_id: int) -> tuple[Path, Path]:
    base = Path(run_dir) / CHUNKS
    return base / f"games-{chunk_id:06d}.parquet", base / f"seats-{chunk_id:06d}.parquet"


def write_chunk(run_dir: Path, chunk_id: int, games: dict[str, list], seats: dict[str, list]) -> None:
    """Seats first, games last: a chunk counts as done only when its games file exists."""
    g_path, s_path = chunk_paths(run_dir, chunk_id)
    _atomic_write_bytes(s_path, lambda tmp: pq.write_table(_table(seats), tmp))
    _atomic_write_bytes(g_path, lambda tmp: pq.write_table(_table(games), tmp))


def done_chunks(run_dir: Path) -> set[int]:
    base = Path(run_dir) / CHUNKS
    if not base.is_dir():
        return set()
    done = set()
    for p in base.glob("games-*.parquet"):
        chunk_id = int(p.stem.split("-")[1])
        if chunk_paths(run_dir, chunk_id)[1].exists():
            done.add(chunk_id)
    return done


def read_chunks(run_dir: Path, chunk_ids) -> tuple[pd.DataFrame, pd.DataFrame]:
    games, seats = [], []
    for chunk_id in sorted(chunk_ids):
        g_path, s_path = chunk_paths(run_dir, chunk_id)
        games.append(pq.read_table(g_path))
        seats.append(pq.read_table(s_path))
    if not games:
        return pd.DataFrame(), pd.DataFrame()
    return (pa.concat_tables(games, promote_options="default").to_pandas(),
            pa.concat_tables(seats, promote_options="default").to_pandas())


def consolidate(run_dir: Path, chunk_ids) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Merge chunk files into games.parquet and seats.parquet, then remove the chunks."""
    games, seats = read_chunks(run_dir, chunk_ids)
    run_dir = Path(run_dir)
    _atomic_write_bytes(run_dir / "games.parquet", lambda tmp: games.to_parquet(tmp, index=False))
    _atomic_write_bytes(run_dir / "seats.parquet", lambda tmp: seats.to_parquet(tmp, index=False))
    for chunk_id in chunk_ids:
        for p in chunk_paths(run_dir, chunk_id):
            p.unlink(missing_ok=True)
    base = run_dir / CHUNKS
    if base.is_dir() and not any(base.iterdir()):
        base.rmdir()
    return games, seats


def read_tables(run_dir: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The run's tables: the merged files, or the finished chunks of an interrupted run."""
    run_dir = Path(run_dir)
    g, s = run_dir / "games.parquet", run_dir / "seats.parquet"
    if g.exists() and s.exists():
        return pd.read_parquet(g), pd.read_parquet(s)
    return read_chunks(run_dir, done_chunks(run_dir))


def versions() -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    found: dict[str, Any] = {"python": platform.python_version(), "platform": platform.platform()}
    for package in ("simkit", "numpy", "pandas", "pyarrow", "joblib", "click", "scipy"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = None
    return found
