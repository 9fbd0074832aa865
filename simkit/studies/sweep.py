"""Sweeps: the same study over a grid of player counts and rule variants, one run per cell.

Every cell uses the same master seed, so cells share their deals as far as the rules allow
(common random numbers: differences between variants are not drowned in deal luck).
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from simkit.engine.chunk_index import CHUNKS
from simkit.engine.chunks import games_in_chunks
from simkit.engine.errors import ConfigError, RunFolderError
from simkit.engine.folder_lock import LOCK_NAME, FolderLock
from simkit.engine.lineup import filled_lineup
from simkit.engine.records import read_manifest, write_text_file
from simkit.engine.registry import get_game
from simkit.engine.run_folder import check_out_path
from simkit.engine.runner import RESULTS, RunResult, RunSpec, _duration, load_run, run, stamped_dir
from simkit.engine.seeding import DealRanges, root_seed

SWEEP_MANIFEST = "sweep.json"


@dataclass(frozen=True)
class Cell:
    label: str
    n_players: int
    overrides: tuple[tuple[str, str], ...]


def parse_vary(items: list[str]) -> dict[str, list[str]]:
    """`["rows=3,4", "advanced=false,true"]` -> {"rows": ["3", "4"], ...}."""
    axes: dict[str, list[str]] = {}
    for item in items:
        name, sep, values = item.partition("=")
        name = name.strip()
        if not sep or not name or not values.strip():
            raise ConfigError(f"--vary {item!r} is malformed: use --vary field=value1,value2")
        if name in axes:
            raise ConfigError(f"--vary {name} is given twice: list all its values once")
        axes[name] = [v.strip() for v in values.split(",")]
    return axes


def cells(players: list[int], axes: dict[str, list[str]]) -> list[Cell]:
    names = list(axes)
    out = []
    for n in players:
        for values in itertools.product(*(axes[k] for k in names)):
            pairs = tuple(zip(names, values))
            label = "-".join([f"p{n}", *(f"{k}={v}" for k, v in pairs)])
            out.append(Cell(label, n, pairs))
    return out


def plan(game: str, players: list[int], strategies: list[str], n_games: int, seed: int | None,
         axes: dict[str, list[str]], base_overrides: dict[str, str], seating: str = "rotate",
         duplicate: bool = False, command: str = "",
         deal_numbers: DealRanges | None = None) -> list[tuple[Cell, RunSpec]]:
    """Validate every cell before anything runs (a bad value fails fast, naming its cell);
    every cell plays the listed `deal_numbers` (RunSpec), if given."""
    seed = root_seed(seed)
    overlap = set(axes) & set(base_overrides)
    if overlap:
        raise ConfigError(f"{', '.join(sorted(overlap))} is both --set and --vary: use one")
    specs = []
    for cell in cells(players, axes):
        try:
            lineup = filled_lineup(strategies, cell.n_players, get_game(game))
            spec = RunSpec.create(game, cell.n_players, lineup, n_games, seed=seed, seating=seating,
                                  duplicate=duplicate,
                                  overrides={**base_overrides, **dict(cell.overrides)},
                                  command=command, deal_numbers=deal_numbers)
        except ConfigError as exc:
            raise type(exc)(f"sweep cell {cell.label}: {exc}") from None
        specs.append((cell, spec))
    _refuse_repeats(specs)
    return specs


def _refuse_repeats(specs: list[tuple[Cell, RunSpec]]) -> None:
    """Two cells that play the same game (a value given twice, `-p 4,4`, `rows=3,03`) are refused
    before any cell is played."""
    seen: dict[str, str] = {}
    for cell, spec in specs:
        key = json.dumps([spec.n_players, spec.config.to_dict()], sort_keys=True, default=str)
        if key in seen:
            raise ConfigError(f"sweep cells {seen[key]} and {cell.label} are the same game: give each "
                              f"--players count and --vary value once")
        seen[key] = cell.label


def default_sweep_dir(game: str, seed: int, root: Path = RESULTS) -> Path:
    return stamped_dir(f"{game}-sweep", seed, root)


def open_study_folder(out_dir: Path, listing: dict, resume: bool, manifest: str = SWEEP_MANIFEST,
                      kind: str = "sweep", same: tuple[str, ...] = ("cells", "seed")) -> FolderLock:
    """Check a study folder of several runs (new, or the same study on --resume: its listing
    `manifest` agrees on the `same` keys) and lock it."""
    check_out_path(out_dir)
    if (out_dir / manifest).exists():
        if not resume:
            raise RunFolderError(f"output folder {out_dir} already holds a {kind}: choose a new --out, "
                                 f"or add --resume to finish it")
        old = _read_listing(out_dir, manifest)
        if any(old.get(k) != listing.get(k) for k in same):
            raise RunFolderError(f"--resume: {out_dir} holds a different {kind} ({' or '.join(same)} differ)")
    elif out_dir.exists() and any(p.name != LOCK_NAME for p in out_dir.iterdir()):
        raise RunFolderError(f"output folder {out_dir} already exists and is not empty: choose a new --out")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunFolderError(f"cannot create the output folder {out_dir} ({exc.strerror}): "
                             f"choose an --out you can write to") from None
    return FolderLock(out_dir).acquire()


def _read_listing(path: Path, manifest: str = SWEEP_MANIFEST) -> dict:
    try:
        listing = json.loads((path / manifest).read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RunFolderError(f"{path / manifest} is not valid JSON ({exc})") from None
    if not isinstance(listing, dict) or not isinstance(listing.get("cells"), list):
        raise RunFolderError(f"{path / manifest} is not a study listing: it needs a list of cells")
    return listing


def _games_saved(cell_dir: Path, n_games: int) -> int:
    """Games a cell folder holds: all those of a finished run, else those of its finished
    chunks (their index entries); 0 before it starts."""
    try:
        manifest = read_manifest(cell_dir)
        if manifest.get("status") in ("complete", "stopped"):
            return int(manifest["games_done"])
        ids = [int(p.stem.split("-")[1]) for p in (cell_dir / CHUNKS).glob("chunk-*.json")]
        return games_in_chunks(ids, n_games, int(manifest["chunk_size"]))
    except (OSError, ValueError, KeyError, IndexError, RunFolderError):
        return 0


@dataclass
class SweepProgress:
    """Games done across every cell of a sweep, with the rate and ETA of this session.

    `status()` is the overall figure shown beside each cell's own progress bar (and appended to
    the cell's plain lines off a terminal); `cell_line()` is the plain line printed after each
    cell when stderr is not a terminal. Games found already saved (a resumed sweep) count as
    done but not towards the rate."""

    totals: list[int]
    clock: Callable[[], float] = time.monotonic
    finished: int = 0            # games of the cells done
    cells_done: int = 0
    carried: int = 0             # games saved before this session
    current: tuple[Path, int, int] | None = None     # folder, games and saved games at its start
    t0: float = field(init=False)

    def __post_init__(self) -> None:
        self.t0 = self.clock()

    def start_cell(self, cell_dir: Path, n_games: int) -> None:
        before = _games_saved(cell_dir, n_games)
        self.carried += before
        self.current = (cell_dir, n_games, before)

    def end_cell(self, games: int) -> None:
        self.finished += games
        self.cells_done += 1
        self.current = None

    def done(self) -> int:
        if self.current is None:
            return self.finished
        cell_dir, n_games, _ = self.current
        return self.finished + _games_saved(cell_dir, n_games)

    def figures(self) -> tuple[int, int, float, str]:
        """Games done, games planned, games per second this session, and the ETA (or the
        time taken once everything is done)."""
        done, total = self.done(), sum(self.totals)
        elapsed = max(self.clock() - self.t0, 1e-9)
        rate = max(0, done - self.carried) / elapsed
        if done >= total:
            return done, total, rate, f"done in {_duration(elapsed)}"
        return done, total, rate, f"ETA {_duration((total - done) / rate) if rate > 0 else '?'}"

    def status(self) -> str:
        """`sweep 43.3%, ETA 19 s (5,200/12,000 games, 350 games/s)` (most telling first:
        a narrow terminal cuts the end)."""
        done, total, rate, eta = self.figures()
        pct = 100 * done / total if total else 100.0
        return f"sweep {pct:.1f}%, {eta} ({done:,}/{total:,} games, {rate:,.0f} games/s)"

    def cell_line(self) -> str:
        """`sweep: 2/6 cells, 4,000/12,000 games (33.3%), 350 games/s, ETA 23 s`."""
        done, total, rate, eta = self.figures()
        pct = 100 * done / total if total else 100.0
        return (f"sweep: {self.cells_done}/{len(self.totals)} cells, {done:,}/{total:,} games "
                f"({pct:.1f}%), {rate:,.0f} games/s, {eta}")


def run_sweep(planned: list[tuple[Cell, RunSpec]], out_dir: Path, *, jobs: int = -1,
              progress: bool | None = None, resume: bool = False, backend: str = "loky",
              on_cell=None, on_start=None) -> list[tuple[Cell, RunResult]]:
    """Run every cell into its own folder of `out_dir`; `on_start` is called once the sweep
    folder is checked and locked, `on_cell` after each cell."""
    out_dir = Path(out_dir)
    listing = {"cells": [{"label": c.label, "n_players": c.n_players,
                          "overrides": dict(c.overrides)} for c, _ in planned],
               "seed": planned[0][1].seed if planned else None,
               "command": planned[0][1].command if planned else ""}
    with open_study_folder(out_dir, listing, resume):
        write_text_file(out_dir / SWEEP_MANIFEST, json.dumps(listing, indent=2) + "\n")
        if on_start is not None:
            on_start()
        overall = SweepProgress([spec.n_games for _, spec in planned])
        plain = progress is not False and not sys.stderr.isatty()
        results = []
        for cell, spec in planned:
            cell_dir = out_dir / cell.label
            overall.start_cell(cell_dir, spec.n_games)
            if resume and (cell_dir / "manifest.json").exists() and \
                    read_manifest(cell_dir).get("status") == "complete":
                result = load_run(cell_dir)
            else:
                cell_resume = resume and (cell_dir / "manifest.json").exists()
                result = run(spec, cell_dir, jobs=jobs, progress=progress, resume=cell_resume,
                             backend=backend, status=overall.status)
            overall.end_cell(len(result.games))
            results.append((cell, result))
            if on_cell is not None:
                on_cell(cell, result)
            if plain:
                print(overall.cell_line(), file=sys.stderr, flush=True)
    return results


def sweep_run_dirs(path: Path) -> list[Path]:
    """The run folders of a sweep folder, in cell order (empty if `path` is not a sweep)."""
    listing = Path(path) / SWEEP_MANIFEST
    if not listing.exists():
        return []
    cells = _read_listing(Path(path))["cells"]
    if not all(isinstance(c, dict) and isinstance(c.get("label"), str) for c in cells):
        raise RunFolderError(f"{listing} is not a sweep listing: every cell needs a label")
    return [Path(path) / c["label"] for c in cells]
