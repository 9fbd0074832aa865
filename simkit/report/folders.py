"""Where a report reads from and writes to: sweep folders stand for their cells, a ladder or
tournament folder gets its own page."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from simkit.engine.errors import RunFolderError
from simkit.studies.ladder import LADDER_MANIFEST
from simkit.studies.sweep import sweep_run_dirs
from simkit.studies.tournament import CROSSTABLE_CSV

#: files whose presence means a folder already holds a report
REPORT_FILES = ("report.html", "summary.md", "ladder.html", "tournament.html")
#: the study folders with a page of their own (simkit.report.ladder)
PAIRING_STUDIES = ("ladder", "tournament")


def study_kind(folder: Path) -> str:
    """`tournament` or `ladder` (a folder of pairings; a tournament has its crosstable.csv),
    `sweep` (a folder of cells) or `run` (anything else: the run reader says what is missing)."""
    if (folder / LADDER_MANIFEST).exists():
        return "tournament" if (folder / CROSSTABLE_CSV).exists() else "ladder"
    return "sweep" if sweep_run_dirs(folder) else "run"


def pairing_study(given: list[Path]) -> tuple[Path, str] | None:
    """The one ladder or tournament folder given, with its kind; None when none is given.
    Refuses one mixed with other folders: its page stands alone."""
    found = [(d, study_kind(d)) for d in given]
    pairing = [(d, k) for d, k in found if k in PAIRING_STUDIES]
    if not pairing:
        return None
    if len(given) > 1:
        d, k = pairing[0]
        raise RunFolderError(f"{d} is a {k} folder: report it on its own (simkit report {d}); "
                             f"runs and sweeps are compared in another call")
    return pairing[0]


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
