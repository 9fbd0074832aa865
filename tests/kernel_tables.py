"""The check every kernel's equality tests share: two chunks (the scalar engine's and a kernel's)
as the Parquet tables `write_chunk` writes, with the same schema and the same values, row by row."""

from __future__ import annotations

import pyarrow as pa

from simkit.engine.records import _table


def _same(a, b) -> bool:
    return a == b or (a != a and b != b)        # NaN (a game without a result) equals NaN


def assert_same_tables(scalar, kernel) -> None:
    """Both chunks' games and seats tables: same schema, same values in every column."""
    for name in ("games", "seats"):
        a: pa.Table = _table(getattr(scalar, name))
        b: pa.Table = _table(getattr(kernel, name))
        assert a.schema == b.schema, f"{name}: {a.schema} vs {b.schema}"
        for col in a.column_names:
            x, y = a.column(col).to_pylist(), b.column(col).to_pylist()
            bad = [i for i, (p, q) in enumerate(zip(x, y)) if not _same(p, q)]
            assert len(x) == len(y) and not bad, f"{name}.{col} differs at rows {bad[:5]}"
