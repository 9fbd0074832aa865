"""Opening a run folder for writing: a new, empty folder or an unfinished run to resume.

The folder is locked (simkit/engine/folder_lock.py) before anything is checked or written, so two
writers never both pass the checks. On resume every chunk is checked against the chunk index;
the ones that fail are moved to `quarantine/` and their games are played again.

The manifest names the run (`run_id`, random: it identifies this run, never enters a table), the
code that wrote it (`code`: simkit/engine/code_version.py) and its tables' `schema_version`
(simkit/engine/table_schema.py). Resuming a folder of an older schema upgrades it: its old
chunks are read through the converter, the merged tables are written in the current schema, and
the manifest then says so; `resumed` lists the code of each resume.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from simkit.engine.chunk_index import quarantine
from simkit.engine.code_version import code_version
from simkit.engine.errors import RunFolderError
from simkit.engine.folder_lock import LOCK_NAME, FolderLock
from simkit.engine.records import (
    MANIFEST,
    REQUIRED,
    check_schema,
    read_manifest,
    require_fields,
    verified_chunks,
    versions,
)
from simkit.engine.spec import RunSpec
from simkit.engine.table_schema import SCHEMA_VERSION

#: manifest fields a resumed run must share with the command that resumes it
#: (a folder written before `deal_numbers` existed reads it as None: the first deals)
SAME_ON_RESUME = (*REQUIRED, "deal_numbers")


@dataclass
class OpenedFolder:
    """A locked run folder ready for chunks: its manifest, the finished chunks, and notices
    (chunks set aside) for the user."""

    manifest: dict
    done: set[int]
    lock: FolderLock
    notices: list[str] = field(default_factory=list)


def check_out_path(out_dir: Path) -> None:
    """Refuse an --out that names a file (or device) rather than a folder."""
    if out_dir.exists() and not out_dir.is_dir():
        raise RunFolderError(f"--out {out_dir} exists and is not a folder: give a folder path")


def _is_empty(out_dir: Path) -> bool:
    return not any(p.name != LOCK_NAME for p in out_dir.iterdir())


def _make_folder(out_dir: Path) -> None:
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunFolderError(f"cannot create the output folder {out_dir} ({exc.strerror}): "
                             f"choose an --out you can write to") from None


def open_new(spec: RunSpec, out_dir: Path, chunk_size: int) -> OpenedFolder:
    check_out_path(out_dir)
    refusal = (f"output folder {out_dir} already exists and is not empty: choose a new --out, "
               f"or add --resume to finish an interrupted run")
    if out_dir.is_dir() and not _is_empty(out_dir):
        raise RunFolderError(refusal)
    _make_folder(out_dir)
    lock = FolderLock(out_dir).acquire()
    if not _is_empty(out_dir):               # another writer got here first and finished
        lock.release()
        raise RunFolderError(refusal)
    manifest = {"run_id": uuid.uuid4().hex, "schema_version": SCHEMA_VERSION,
                **spec.manifest_fields(), "chunk_size": chunk_size, "status": "running",
                "games_done": 0, "versions": versions(), "code": code_version(),
                "started": _now(), "timings": {}}
    return OpenedFolder(manifest, set(), lock)


def open_resume(spec: RunSpec, out_dir: Path) -> OpenedFolder:
    check_out_path(out_dir)
    if not (out_dir / MANIFEST).exists():
        raise RunFolderError(f"--resume: {out_dir} has no manifest.json, so there is nothing to resume")
    lock = FolderLock(out_dir).acquire()
    try:
        return _resume_locked(spec, out_dir, lock)
    except BaseException:
        lock.release()
        raise


def _resume_locked(spec: RunSpec, out_dir: Path, lock: FolderLock) -> OpenedFolder:
    old = read_manifest(out_dir)
    require_fields(old, out_dir, (*REQUIRED, "chunk_size"))
    check_schema(old, out_dir)
    fields = spec.manifest_fields()
    differs = [k for k in SAME_ON_RESUME if old.get(k) != fields[k]]
    if differs:
        raise RunFolderError(f"--resume: {out_dir} was started with different "
                             f"{', '.join(differs)}; resume with the same options or use a new --out")
    if old.get("status") == "complete":
        raise RunFolderError(f"--resume: {out_dir} is already complete")
    check = verified_chunks(out_dir, old)
    notices = []
    aside = check.bad + check.unfinished
    if aside:
        where = quarantine(out_dir, [p for p, _ in aside])
        notices.append(f"set aside {len(aside)} chunk file(s) that cannot be trusted or were left "
                       f"unfinished, moved to {where} (their games are played again): "
                       f"{check.describe(files=aside)}")
        old.setdefault("set_aside", []).extend(
            {"file": p.name, "reason": why,
             "when": _now()} for p, why in aside)
    old.pop("tables", None)
    old["status"] = "running"
    _mark_resume(old)
    return OpenedFolder(old, set(check.good), lock, notices)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _mark_resume(manifest: dict) -> None:
    """A resumed run keeps its id (a folder from before run ids gets one now), records the code
    that resumed it, and is written in the current schema (see module docstring)."""
    manifest.setdefault("run_id", uuid.uuid4().hex)
    if manifest.get("schema_version") != SCHEMA_VERSION:
        manifest["schema_version_before_resume"] = manifest.get("schema_version", 1)
    manifest["schema_version"] = SCHEMA_VERSION
    manifest.setdefault("resumed", []).append({"when": _now(), "code": code_version(),
                                               "simkit": versions().get("simkit")})
