"""Run folders as simkit wrote them before table schema 2 (issue 24), for the reader tests.

Schema 1 is what `simkit/engine/records.py` wrote up to commit 17f8186: chunks straight from the
play loop's columns (sentinels `forfeit_seat` -1, `error` '', NaN scores), merged tables through
pandas (`DataFrame.to_parquet`), and a manifest without `run_id`, `code` and `schema_version`.
`v1_run` plays a run with those two writers swapped in; a check against that commit's own output
(`games.parquet` and `seats.parquet` byte for byte, same pandas and pyarrow) was done when this
was written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import simkit.engine.records as records
import simkit.engine.runner as runner_mod
from simkit.engine.chunk_index import chunk_files, file_sha256
from simkit.engine.game import ROUND_SCORES
from simkit.engine.strategy import Strategy

NEW_KEYS = ("run_id", "schema_version", "code")


class SometimesFails(Strategy):
    """Plays its first legal card; raises on 2 % of its decisions (its own random stream), so a
    run mixes forfeited games and finished ones."""

    name = "sometimes"
    description = "First legal action; raises now and then."

    def act(self, decision):
        if decision.rng.random() < 0.02:
            raise RuntimeError("sometimes fails")
        return decision.legal_actions[0]


def v1_table(columns) -> pa.Table:
    """records._table before schema 2."""
    table = pa.Table.from_pydict(columns)
    if ROUND_SCORES in columns:
        i = table.schema.get_field_index(ROUND_SCORES)
        table = table.set_column(i, ROUND_SCORES, table.column(i).cast(pa.list_(pa.float64())))
    return table


def v1_write_tables(run_dir: Path, chunk_ids):
    """records.write_tables before schema 2: chunks read raw, merged through pandas."""
    run_dir = Path(run_dir)
    frames = []
    for k in (0, 1):
        parts = [pq.read_table(chunk_files(run_dir, c)[k]) for c in sorted(chunk_ids)]
        frames.append(pa.concat_tables(parts, promote_options="default").to_pandas())
    recorded = {}
    for name, frame in zip(records.TABLES, frames):
        frame.to_parquet(run_dir / name, index=False)
        recorded[name] = {"rows": len(frame), "sha256": file_sha256(run_dir / name)}
    return frames[0], frames[1], recorded


def strip_manifest(run_dir: Path) -> dict:
    """Drop the manifest keys schema 2 added; return the manifest."""
    path = Path(run_dir) / records.MANIFEST
    manifest = json.loads(path.read_text())
    for key in NEW_KEYS:
        manifest.pop(key, None)
    path.write_text(json.dumps(manifest, indent=2))
    return manifest


def v1_run(monkeypatch, spec, out: Path, *, chunk_size: int = 10, stop_after: int | None = None) -> Path:
    """Play `spec` into `out` as schema 1 (one worker); with `stop_after`, a Ctrl-C after that
    many chunks leaves an interrupted folder."""
    calls = {"n": 0}

    def write_chunk(*args, **kwargs):
        calls["n"] += 1
        if stop_after is not None and calls["n"] > stop_after:
            raise KeyboardInterrupt
        return records.write_chunk(*args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(records, "_table", v1_table)
        patch.setattr(runner_mod, "write_tables", v1_write_tables)
        patch.setattr(runner_mod, "write_chunk", write_chunk)
        if stop_after is None:
            runner_mod.run(spec, out, jobs=1, chunk_size=chunk_size, progress=False)
        else:
            with pytest.raises(KeyboardInterrupt):
                runner_mod.run(spec, out, jobs=1, chunk_size=chunk_size, progress=False)
    strip_manifest(out)
    return out
