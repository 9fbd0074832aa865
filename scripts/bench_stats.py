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


def bench(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    import json

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
    small_games, small_seats = synth(2000, strengths=(0.6, 0.5, 0.4, 0.3), n_players=4, seed=2)
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        run.mkdir()
        small_games.to_parquet(run / "games.parquet", index=False)
        small_seats.to_parquet(run / "seats.parquet", index=False)
        (run / "manifest.json").write_text(json.dumps({"game": "synthetic", "n_players": 4,
                                                       "strategies": ["s0", "s1", "s2", "s3"]}))
        t0 = time.perf_counter()
        build_report([run], Path(tmp) / "rep")
        rows.append(("build_report, 2000 games x 4 seats", time.perf_counter() - t0, "s"))
    return rows


if __name__ == "__main__":
    for label, value, unit in bench():
        print(f"{label:<45} {value:10.2f} {unit}")
