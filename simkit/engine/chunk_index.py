"""The chunk index: what each chunk file of a run folder must hold, and the check against it.

Beside each chunk's two Parquet files (`chunks/games-N.parquet`, `chunks/seats-N.parquet`) the
runner writes, last, `chunks/chunk-N.json`: the chunk's game range, row counts and the SHA-256
of both files. A chunk counts as finished only when its entry exists and everything matches the
run's plan (the manifest's n_games, chunk_size and n_players). Anything else in `chunks/`
(a truncated file, a copy, a chunk of another plan, a temporary file of a killed writer) is
named; `--resume` moves it to `quarantine/` (never deletes it) and plays those games again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from simkit.engine.chunks import chunk_count, chunk_range

CHUNKS = "chunks"
QUARANTINE = "quarantine"
_NAME = re.compile(r"^(games|seats)-(\d{6,})\.parquet$|^chunk-(\d{6,})\.json$")
#: a temporary file of simkit.engine.records._atomic_write_bytes, left by a writer that was killed
_TEMP = re.compile(r"^\.(games|seats|chunk)-\d{6,}\.(parquet|json)\.\d+\.[0-9a-f]+\.tmp$")
NO_ENTRY = "no index entry (the writer stopped before the chunk was complete, or it was copied in)"


@dataclass(frozen=True)
class ChunkEntry:
    """The index entry of one finished chunk."""

    chunk: int
    start: int
    stop: int
    games_rows: int
    seats_rows: int
    games_sha256: str
    seats_sha256: str


@dataclass(frozen=True)
class Plan:
    """What the chunks of a run must be: from its manifest."""

    n_games: int
    chunk_size: int
    n_players: int

    @classmethod
    def of(cls, manifest: dict) -> Plan:
        """The plan a manifest records; ValueError or TypeError when a number is not a whole
        number of at least 1 (an edited `"chunk_size": 0` must not divide by zero)."""
        values = [manifest["n_games"], manifest["chunk_size"], manifest["n_players"]]
        if not all(type(v) is int and v >= 1 for v in values):
            raise ValueError("n_games, chunk_size and n_players must be whole numbers of at least 1")
        return cls(*values)


@dataclass
class ChunkCheck:
    """The finished chunks that passed; files that contradict the index or the plan (`bad`);
    and the debris of a writer stopped mid-chunk (`unfinished`: temporary files, chunk files
    without an index entry), which hold no finished game."""

    good: dict[int, ChunkEntry] = field(default_factory=dict)
    bad: list[tuple[Path, str]] = field(default_factory=list)
    unfinished: list[tuple[Path, str]] = field(default_factory=list)

    def describe(self, limit: int = 3, files: list[tuple[Path, str]] | None = None) -> str:
        """Files in one line (default: the bad ones): the first few with their reason, then a count."""
        files = self.bad if files is None else files
        shown = "; ".join(f"{p.name}: {why}" for p, why in files[:limit])
        more = len(files) - limit
        return shown + (f"; and {more} more" if more > 0 else "")


def chunk_files(run_dir: Path, chunk_id: int) -> tuple[Path, Path, Path]:
    """The games file, seats file and index entry of chunk `chunk_id`."""
    base = Path(run_dir) / CHUNKS
    return (base / f"games-{chunk_id:06d}.parquet", base / f"seats-{chunk_id:06d}.parquet",
            base / f"chunk-{chunk_id:06d}.json")


def file_sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def entry_for(run_dir: Path, chunk_id: int, start: int, stop: int, games_rows: int,
              seats_rows: int) -> ChunkEntry:
    """The entry describing chunk files just written (their checksums read back from disk)."""
    g_path, s_path, _ = chunk_files(run_dir, chunk_id)
    return ChunkEntry(chunk_id, start, stop, games_rows, seats_rows, file_sha256(g_path),
                      file_sha256(s_path))


def entry_text(entry: ChunkEntry) -> str:
    return json.dumps(asdict(entry), indent=1) + "\n"


_ENTRY_TYPES = {"chunk": int, "start": int, "stop": int, "games_rows": int, "seats_rows": int,
                "games_sha256": str, "seats_sha256": str}


def _read_entry(path: Path) -> ChunkEntry:
    """The entry in `path`; ValueError unless it is a regular file holding a JSON object with
    exactly the entry's fields, each of its type (`"stop": "x"` is damage, not a TypeError)."""
    if not path.is_file():
        raise ValueError("not a regular file")
    data = json.loads(path.read_text())
    if not isinstance(data, dict) or set(data) != set(_ENTRY_TYPES):
        raise ValueError(f"not a JSON object with the fields {', '.join(_ENTRY_TYPES)}")
    wrong = [k for k, kind in _ENTRY_TYPES.items() if type(data[k]) is not kind]
    if wrong:
        raise ValueError(f"{', '.join(wrong)} of the wrong kind")
    return ChunkEntry(**data)


def _problem(run_dir: Path, chunk_id: int, plan: Plan, n_chunks: int) -> str | None:
    """Why chunk `chunk_id` cannot be trusted, or None when it matches the plan and its files."""
    g_path, s_path, e_path = chunk_files(run_dir, chunk_id)
    if chunk_id >= n_chunks:
        return f"chunk {chunk_id} is beyond the run's {n_chunks} chunks"
    if not os.path.lexists(e_path):
        return NO_ENTRY
    try:
        entry = _read_entry(e_path)
    except (ValueError, TypeError, UnicodeDecodeError) as exc:
        return f"unreadable index entry ({exc})"
    start, stop = chunk_range(chunk_id, plan.n_games, plan.chunk_size)
    if (entry.chunk, entry.start, entry.stop) != (chunk_id, start, stop):
        return (f"index entry says chunk {entry.chunk}, games {entry.start}..{entry.stop - 1}; the plan "
                f"has games {start}..{stop - 1} here (chunk_size edited, or files copied?)")
    if (entry.games_rows, entry.seats_rows) != (stop - start, (stop - start) * plan.n_players):
        return f"row counts {entry.games_rows}/{entry.seats_rows} do not fit games {start}..{stop - 1}"
    for path, digest in ((g_path, entry.games_sha256), (s_path, entry.seats_sha256)):
        if not os.path.lexists(path):
            return f"{path.name} is missing"
        if not path.is_file():          # a FIFO or device would block the reader: never opened
            return f"{path.name} is not a regular file"
        if file_sha256(path) != digest:
            return f"{path.name} does not match its checksum (truncated or changed)"
    return None


def chunk_problem(run_dir: Path, chunk_id: int, plan: Plan) -> str | None:
    """Why chunk `chunk_id` of `run_dir` cannot be trusted (NO_ENTRY: not finished), or None."""
    return _problem(run_dir, chunk_id, plan, chunk_count(plan.n_games, plan.chunk_size))


def check_chunks(run_dir: Path, plan: Plan) -> ChunkCheck:
    """Check every file of `run_dir/chunks` against the index and the plan."""
    base = Path(run_dir) / CHUNKS
    check = ChunkCheck()
    if not base.is_dir():
        return check
    by_chunk: dict[int, list[Path]] = {}
    for path in sorted(base.iterdir()):
        if _TEMP.match(path.name):
            check.unfinished.append((path, "temporary file of a stopped writer"))
            continue
        match = _NAME.match(path.name)
        if match is None or not path.is_file():
            check.bad.append((path, "not a chunk file of this run"))
            continue
        chunk_id = int(match.group(2) or match.group(3))
        by_chunk.setdefault(chunk_id, []).append(path)
    n_chunks = chunk_count(plan.n_games, plan.chunk_size)
    for chunk_id, paths in sorted(by_chunk.items()):
        problem = _problem(run_dir, chunk_id, plan, n_chunks)
        if problem is None:
            check.good[chunk_id] = _read_entry(chunk_files(run_dir, chunk_id)[2])
        else:
            (check.unfinished if problem == NO_ENTRY else check.bad).extend((p, problem) for p in paths)
    return check


def entry_ids(run_dir: Path) -> set[int]:
    """The chunks of `run_dir` whose index entry exists (written last, so complete unless a later
    check finds them damaged)."""
    base = Path(run_dir) / CHUNKS
    if not base.is_dir():
        return set()
    return {int(m.group(3)) for m in map(_NAME.match, os.listdir(base)) if m is not None and m.group(3)}


def quarantine(run_dir: Path, paths: list[Path]) -> Path:
    """Move `paths` into `run_dir/quarantine/` (a name already there gets a numbered suffix)."""
    target = Path(run_dir) / QUARANTINE
    target.mkdir(exist_ok=True)
    for path in paths:
        dest, k = target / path.name, 1
        while dest.exists():
            dest, k = target / f"{path.name}.{k}", k + 1
        os.replace(path, dest)
    return target
