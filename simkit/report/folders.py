"""Where a report reads from and writes to: sweep folders stand for their cells."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from simkit.core.sweep import sweep_run_dirs


def runs_to_report(given: list[Path]) -> list[Path]:
    """The run folders named, each sweep folder replaced by its cells in order."""
    return [cell for d in given for cell in (sweep_run_dirs(d) or [d])]


def default_report_dir(given: list[Path]) -> Path:
    """Inside the one run or sweep folder given; for several, `report-<time>` beside the first."""
    if len(given) == 1:
        return given[0] / "report"
    first = runs_to_report(given[:1])[0]
    return first.resolve().parent / f"report-{datetime.now():%Y%m%d-%H%M%S}"
