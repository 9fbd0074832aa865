"""Where a report reads from and writes to: sweep folders stand for their cells."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from simkit.engine.errors import RunFolderError
from simkit.studies.sweep import sweep_run_dirs

#: files whose presence means a folder already holds a report
REPORT_FILES = ("report.html", "summary.md")


def check_report_dir(out_dir: Path, force: bool = False) -> None:
    """Refuse an --out that is not a folder, or that holds a report already (unless `force`)."""
    if out_dir.exists() and not out_dir.is_dir():
        raise RunFolderError(f"--out {out_dir} exists and is not a folder: give a folder path")
    if not force and any((out_dir / name).exists() for name in REPORT_FILES):
        raise RunFolderError(f"{out_dir} already holds a report: add --force to replace it, "
                             f"or choose another --out")


def runs_to_report(given: list[Path]) -> list[Path]:
    """The run folders named, each sweep folder replaced by its cells in order."""
    return [cell for d in given for cell in (sweep_run_dirs(d) or [d])]


def default_report_dir(given: list[Path]) -> Path:
    """Inside the one run or sweep folder given; for several, `report-<time>` beside the first."""
    if len(given) == 1:
        return given[0] / "report"
    first = runs_to_report(given[:1])[0]
    return first.resolve().parent / f"report-{datetime.now():%Y%m%d-%H%M%S}"
