"""Paired comparisons of searchers on one row of scripts/search_strength.py: the same duplicate
deals, game by game.

`play` appends one JSON line per game to a file: the game's number, the search seat's win
share (a k-way tie for first counts 1/k) and rank, its score, the margin (the other seats'
mean score minus the seat's where fewer points are better, as in 6 nimmt!; the seat's minus
theirs otherwise) and the running CPU ms per decision. `compare` prints, per file, the win share
with its 95 % Wilson interval and the mean margin, and for every file after the first the
paired difference on the games both hold, with a 95 % normal interval over deals (each deal's
seatings averaged: they share the deal's luck).

    python scripts/search_paired.py play --row sixnimmt-round --first-game 600 --games 400 \\
        --searcher ismcts:iterations=1000 --out /tmp/it1000.jsonl
    python scripts/search_paired.py compare /tmp/it120.jsonl /tmp/it1000.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from search_strength import ROWS, _Clock


def play(row: str, searcher: str, first: int, games: int, out: Path, seed: int = 2026) -> None:
    from simkit.engine.play import play_range
    from simkit.engine.registry import get_game
    from simkit.engine.spec import RunSpec
    from simkit.search.flat import FlatMC
    from simkit.search.ismcts import ISMCTS

    setup = ROWS[row]
    n = setup.players
    first -= first % n
    games -= games % n
    spec = RunSpec.create(game=setup.game, n_players=n, strategies=[searcher] + [setup.opponent] * (n - 1),
                          n_games=first + games, seed=seed, overrides=dict(setup.rules), duplicate=True)
    sign = 1 if get_game(setup.game).higher_is_better else -1
    clock = _Clock()
    saved = ISMCTS.act, FlatMC.act
    clock.wrap(ISMCTS)
    clock.wrap(FlatMC)
    try:
        with out.open("a") as f:
            for start in range(first, first + games, n):      # one duplicate set at a time
                seats = play_range(spec, start, start + n).seats
                rows: dict[int, dict] = {}
                for g, slot, win, rank, score in zip(seats["game"], seats["slot"], seats["win"],
                                                     seats["rank"], seats["score"]):
                    r = rows.setdefault(int(g), {"game": int(g), "others": []})
                    if slot == 0:
                        r.update(win=float(win), rank=float(rank), score=float(score))
                    else:
                        r["others"].append(float(score))
                for g in sorted(rows):
                    r = rows[g]
                    others = r.pop("others")
                    r["margin"] = sign * (r["score"] - sum(others) / len(others))
                    r["ms"] = 1000 * clock.cpu / max(clock.calls, 1)
                    f.write(json.dumps(r) + "\n")
                f.flush()
    finally:
        ISMCTS.act, FlatMC.act = saved


def _load(path: Path) -> dict[int, dict]:
    return {r["game"]: r for r in map(json.loads, path.read_text().splitlines())}


def _paired(a: dict[int, dict], b: dict[int, dict], key: str, n: int) -> tuple[float, float, int]:
    """Mean per-deal difference b - a on the common games, its 95 % half-width, the deals."""
    deals: dict[int, list[float]] = {}
    for g in sorted(set(a) & set(b)):
        deals.setdefault(g // n, []).append(b[g][key] - a[g][key])
    diffs = [sum(d) / len(d) for d in deals.values()]
    k = len(diffs)
    if k < 2:
        return (diffs[0] if diffs else float("nan")), float("nan"), k
    mean = sum(diffs) / k
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (k - 1))
    return mean, 1.96 * sd / math.sqrt(k), k


def compare(paths: list[Path], players: int) -> list[str]:
    from simkit.stats.intervals import wilson

    data = [_load(p) for p in paths]
    lines = []
    for path, d in zip(paths, data):
        if not d:
            lines.append(f"{path.name}: no games")
            continue
        games = sorted(d)
        wins = sum(d[g]["win"] for g in games)
        low, high = wilson(wins, len(games))
        line = (f"{path.name:<28} {len(games):>4} games ({games[0]}-{games[-1]}) share "
                f"{wins / len(games):.3f} [{low:.3f}, {high:.3f}] margin "
                f"{sum(d[g]['margin'] for g in games) / len(games):+.2f} ms {d[games[-1]]['ms']:.1f}")
        if d is not data[0]:
            ws, wh, k = _paired(data[0], d, "win", players)
            ms, mh, _ = _paired(data[0], d, "margin", players)
            line += f" | vs first, {k} deals: share {ws:+.3f} ± {wh:.3f}, margin {ms:+.2f} ± {mh:.2f}"
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play games of a row and append one JSON line per game")
    p.add_argument("--row", choices=sorted(ROWS), required=True)
    p.add_argument("--searcher", default="ismcts")
    p.add_argument("--first-game", type=int, default=0)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare", help="win share, margin and paired differences of played files")
    c.add_argument("files", type=Path, nargs="+")
    c.add_argument("--row", choices=sorted(ROWS), default="sixnimmt-round",
                   help="the row the files were played on (its players make a deal)")
    args = parser.parse_args(argv)
    if args.command == "play":
        if args.games < 1 or args.first_game < 0:
            parser.error("--games must be 1 or more and --first-game 0 or more")
        play(args.row, args.searcher, args.first_game, args.games, args.out, args.seed)
        return 0
    missing = [str(f) for f in args.files if not f.is_file()]
    if missing:
        parser.error(f"no such file: {', '.join(missing)}")
    print("\n".join(compare(args.files, ROWS[args.row].players)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
