"""Which code wrote a run: a content hash of simkit's source, and the git commit when there is one.

The package version alone does not tell two development checkouts apart. `source_sha256` hashes
every `.py` file of the simkit package in use (paths and bytes, in sorted order), so it changes
with any edit, committed or not; `git_commit` is HEAD of the git checkout whose top folder holds
the package (None otherwise, e.g. installed from a wheel, even into a venv inside some other
checkout). Computed once per process (about 120 small files, some 50 ms).
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


def source_sha256(root: Path = PACKAGE) -> str:
    """The SHA-256 of simkit's source files: each file's path (relative to `root`) and bytes."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def git_commit(root: Path = PACKAGE) -> str | None:
    """HEAD of the git checkout whose top folder holds `root`, or None (not such a checkout,
    or no git)."""
    try:
        done = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel", "HEAD"],
                              capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = done.stdout.split()
    if done.returncode != 0 or len(lines) != 2 or Path(lines[0]).resolve() != root.parent:
        return None
    return lines[1] if len(lines[1]) == 40 else None


@functools.cache
def code_version() -> dict[str, str | None]:
    """`{"source_sha256": ..., "git_commit": ...}` for the manifest (see module docstring)."""
    return {"source_sha256": source_sha256(), "git_commit": git_commit()}
