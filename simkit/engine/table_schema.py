"""The run folder's table schema: its version, its columns, and the one converter from older folders.

Version 1 (folders whose manifest has no `schema_version`): sentinels for "none" (`forfeit_seat`
-1, `error` ''), NaN scores and win shares in the chunk files, `strategy` a plain string column.
Version 2 (`SCHEMA_VERSION`): nulls for "none", `strategy` dictionary-encoded (a pandas
categorical). docs/tables.md documents every column; a test checks it against `GAMES`/`SEATS`.

The play loop keeps its sentinels (GameRecord.forfeit == -1, error ''): `to_current` turns any
table, of either version, into the current one at the boundary (chunks as they are written,
every table as it is read). It is idempotent, so a folder mixing chunks of both versions (an
old run resumed by this version) reads as one current table.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

#: the version written into manifest.json as `schema_version`; a manifest without one is version 1
SCHEMA_VERSION = 2
STRATEGY_TYPE = pa.dictionary(pa.int32(), pa.string())


@dataclass(frozen=True)
class Column:
    """One column of a run table: its Arrow type, what it holds, and what a null means
    (None: never null)."""

    name: str
    type: pa.DataType
    meaning: str
    null: str | None = None

    @property
    def type_name(self) -> str:
        """The type as docs/tables.md names it (Arrow's names; the dictionary one shortened)."""
        if pa.types.is_dictionary(self.type):
            return f"dictionary<{self.type.index_type}, {self.type.value_type}>"
        return str(self.type)


GAMES = (
    Column("game", pa.int64(), "the game's index in the run, 0 to n_games - 1 (its seed streams)"),
    Column("deal", pa.int64(), "the deal's number (the game index, or index // n_players with "
           "--duplicate, or the listed number with --deals)"),
    Column("rotation", pa.int64(), "how far the lineup is rotated round the seats"),
    Column("n_players", pa.int64(), "players in the game"),
    Column("steps", pa.int64(), "decision steps played"),
    Column("forfeit_seat", pa.int64(), "the seat (from 0) that forfeited the game",
           null="no seat forfeited"),
    Column("error", pa.string(), "why the game was forfeited or not finished (`engine error: ...` "
           "when the engine failed: no result)", null="no error"),
    Column("draw", pa.bool_(), "no seat has a share of the win (a game that ends without winner)"),
)

SEATS = (
    Column("game", pa.int64(), "the game's index (joins games.parquet)"),
    Column("deal", pa.int64(), "the deal's number, as in games.parquet"),
    Column("rotation", pa.int64(), "the lineup's rotation, as in games.parquet"),
    Column("seat", pa.int64(), "the seat, from 0 (the first player)"),
    Column("slot", pa.int64(), "the strategy's place in the lineup (-s order), from 0"),
    Column("strategy", STRATEGY_TYPE, "the strategy's label as given (`name` or `name:key=value`)"),
    Column("score", pa.float64(), "the seat's final score, in the game's own unit",
           null="no score: the game was forfeited (by any seat) or the engine failed"),
    Column("rank", pa.int64(), "1 for the best; tied seats share the best rank of their tie; a seat "
           "that forfeited, and every seat of a game the engine failed, is ranked n_players"),
    Column("win", pa.float64(), "the seat's share of the win: 1, 1/k for a k-way tie, 0",
           null="no result: the engine failed"),
    Column("forfeit", pa.bool_(), "this seat forfeited the game"),
)

#: the type of `round_scores` (seats of games played in rounds: one value per round), and of
#: `running_score` (seats of Game of Trains and Shipside: one standing per step of the arc)
ROUND_SCORES_TYPE = pa.list_(pa.float64())


def _null_where(column, mask) -> pa.ChunkedArray:
    return pc.if_else(mask, pa.scalar(None, column.type), column)


def _forfeit_seat(column):
    column = column.cast(pa.int64())
    return _null_where(column, pc.less(column, 0))


def _error(column):
    column = column.cast(pa.string())
    return _null_where(column, pc.equal(column, ""))


def _no_nan(column):
    column = column.cast(pa.float64())
    return _null_where(column, pc.is_nan(column))


def _strategy(column):
    if column.type == STRATEGY_TYPE:
        return column
    return pc.dictionary_encode(column.cast(pa.string()).combine_chunks())


CONVERT = {"forfeit_seat": _forfeit_seat, "error": _error, "score": _no_nan, "win": _no_nan,
           "strategy": _strategy}


def to_current(table: pa.Table) -> pa.Table:
    """A games or seats table of any schema version in the current one (see module docstring).

    pandas metadata left by version 1's writer describes the old types, so it is dropped (it
    held only the default index)."""
    for i, name in enumerate(table.column_names):
        convert = CONVERT.get(name)
        if convert is not None:
            table = table.set_column(i, name, convert(table.column(i)))
    return table.replace_schema_metadata(None) if table.schema.metadata else table


def settled(table: pa.Table) -> pa.Table:
    """One table in one piece with one strategy dictionary in order of first appearance, so the
    merged file's bytes depend only on its rows, never on how the run was cut into chunks."""
    if "strategy" in table.column_names:
        i = table.schema.get_field_index("strategy")
        plain = table.column(i).cast(pa.string()).combine_chunks()
        table = table.set_column(i, "strategy", pc.dictionary_encode(plain))
    return table.combine_chunks()
