"""One writer per folder: an OS lock (fcntl.flock) on a lock file that names its owner's pid.

The kernel releases the lock when its owner exits, even after SIGKILL, so a lock is never
stale; the pid in the file only makes the refusal message useful. The lock file stays in the
folder after release (removing it would let two processes lock two different files).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from simkit.engine.errors import RunFolderError

LOCK_NAME = ".simkit.lock"


class FolderBusyError(RunFolderError):
    """Another process holds the folder's lock (a run or sweep still going)."""


class FolderLock:
    """Exclusive, non-blocking lock of `folder` (which must exist). Use as a context manager."""

    def __init__(self, folder: Path | str):
        self.path = Path(folder) / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> FolderLock:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as exc:
            raise RunFolderError(f"cannot lock {self.path.parent} ({exc.strerror}): "
                                 f"choose a folder you can write to") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            owner = os.read(fd, 64).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise FolderBusyError(f"{self.path.parent} is in use by process {owner} (a run still "
                                  f"going): wait for it to end or stop it, then try again") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> FolderLock:
        return self.acquire() if self._fd is None else self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def is_locked(folder: Path | str) -> bool:
    """True while another process holds `folder`'s lock (a writer is at work there)."""
    path = Path(folder) / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False
