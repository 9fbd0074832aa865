"""Every game of a run as a readable log (`simkit replay RUN --all`), like a tournament
runner's PGN file.

Each game is replayed from its seed and checked against its recorded rows (as `simkit replay
--game` does, simkit/engine/replay_check.py); a game that replays differently gets no log and is
named. Logs go to one text file per game in a folder (`game-000017.txt`), or all into one
text file when the target ends in `.txt`, games separated by a header line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from simkit.engine.errors import RunFolderError
from simkit.engine.play import play_game
from simkit.engine.records import read_manifest, read_tables
from simkit.engine.registry import get_game
from simkit.engine.replay_check import differences, spec_of
from simkit.engine.seats import seat_label, seat_number

LOGS = "logs"


@dataclass
class Exported:
    target: Path
    written: int = 0
    differ: list[tuple[int, str]] = field(default_factory=list)


def game_header(run_dir: Path, index: int, strategies: list[str], slots) -> str:
    """`Game 3 of RUN (seat 1: heuristic, seat 2: random)`: a log's first line, seats from 1."""
    seats = ", ".join(f"{seat_label(s)}: {strategies[k]}" for s, k in enumerate(slots))
    return f"Game {index} of {run_dir} ({seats})"


def forfeit_line(record) -> str | None:
    """`Seat 2 forfeited: ...` under the log of a game a seat forfeited, else None."""
    if record.forfeit < 0:
        return None
    return f"Seat {seat_number(record.forfeit)} forfeited: {record.error}"


def export_logs(run_dir: Path | str, target: Path | str | None = None, *,
                on_start: Callable[[int], None] | None = None,
                on_game: Callable[[int], None] | None = None) -> Exported:
    """Write the log of every recorded game of a run; see the module docstring. `on_start(n)`
    hears how many games will be replayed, `on_game(index)` each one replayed (logged or not)."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    spec = spec_of(run_dir, manifest)
    games, seats = read_tables(run_dir, manifest)     # an unfinished run: its finished games
    out = Path(target) if target is not None else run_dir / LOGS
    one_file = out.suffix == ".txt"
    if out.exists() and (one_file or any(out.iterdir())):
        raise RunFolderError(f"{out} exists: give a new target (logs are never overwritten)")
    (out.parent if one_file else out).mkdir(parents=True, exist_ok=True)
    entry = get_game(spec.game)
    texts = [s.text for s in spec.strategies]
    seats_by_game = dict(tuple(seats.groupby("game"))) if len(seats) else {}
    result = Exported(out)
    handle = open(out, "w", encoding="utf-8") if one_file else None
    if on_start is not None:
        on_start(len(games))
    try:
        for index in games["game"].tolist():
            record, state = play_game(spec, int(index))
            row = games[games["game"] == index]
            found = differences(record, row, seats_by_game.get(index, pd.DataFrame(columns=seats.columns)))
            if on_game is not None:
                on_game(int(index))
            if found:
                result.differ.append((int(index), "; ".join(found)))
                continue
            text = game_header(run_dir, int(index), texts, record.slots) + "\n" + entry.render_log(state)
            forfeit = forfeit_line(record)
            if forfeit is not None:
                text += "\n" + forfeit
            if handle is not None:
                handle.write(("\n" if result.written else "") + text.rstrip("\n") + "\n")
            else:
                (out / f"game-{int(index):06d}.txt").write_text(text.rstrip("\n") + "\n", encoding="utf-8")
            result.written += 1
    finally:
        if handle is not None:
            handle.close()
    return result
