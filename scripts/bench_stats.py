"""Benchmarks of the statistics and the report on synthetic run tables.

`bench(seconds)` returns (label, value, unit) rows; `python scripts/bench_stats.py` prints them.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path


def _rate(fn, seconds: float) -> float:
    """Calls per second of fn over about `seconds` (at least one call)."""
    n, t0 = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        dt = time.perf_counter() - t0
        if dt >= seconds:
            return n / dt


def _real_run(out: Path) -> Path:
    """A 2,000-game run folder as `simkit run` writes it (a report needs a complete manifest)."""
    from simkit.engine.runner import RunSpec, run

    spec = RunSpec.create("sixnimmt", 4, ["heuristic", "random", "random", "random"], 2000, seed=2,
                          overrides={"max_rounds": "1"})
    run(spec, out, jobs=1, progress=False)
    return out


def bench(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    from simkit.report import build_report
    from simkit.stats import SPRT, balance, match_summary, plackett_luce, summary_table
    from simkit.stats.match import sides_from_slots
    from simkit.stats.synthetic import synth

    games, seats = synth(20000, strengths=(0.6, 0.5, 0.4, 0.3), n_players=4, seed=1)
    share = seconds / 6
    rows = [
        ("summary_table, 20000 games x 4 seats", 1000 / _rate(lambda: summary_table(seats), share), "ms"),
        ("plackett_luce, 20000 games x 4 seats", 1000 / _rate(lambda: plackett_luce(seats), share), "ms"),
    ]
    _, ds = synth(20000, strengths=(0.7, 0.3), n_players=2, seed=3, duplicate=True)
    a, b = sides_from_slots(ds, [0], [1])
    rows.append(("match_summary + SPRT, 20000 duplicate games",
                 1000 / _rate(lambda: match_summary(ds, a, b, sprt=SPRT(0, 10)), share), "ms"))
    rows.append(("balance, 20000 games x 4 seats",
                 1000 / _rate(lambda: balance(games, seats), share), "ms"))
    sprt = SPRT(0, 10, 0.05, 0.05, "normalized")
    rows.append(("SPRT LLR (normalized, pentanomial)",
                 1000 / _rate(lambda: sprt.llr([871, 26175, 55983, 26678, 821]), share), "ms"))
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = _real_run(Path(tmp) / "run")
        t0 = time.perf_counter()
        build_report([run_dir], Path(tmp) / "rep")
        rows.append(("build_report, 2000 games x 4 seats", time.perf_counter() - t0, "s"))
    return rows


if __name__ == "__main__":
    from script_args import args_or_help
    args_or_help(__doc__)
    for label, value, unit in bench():
        print(f"{label:<45} {value:10.2f} {unit}")
