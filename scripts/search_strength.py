"""Does the search beat each game's strongest built-in bot? Issue 20's targets table.

Each row plays one search seat against the game's strongest bot(s) on duplicate deals (every
deal once per seat rotation), and prints the search seat's win share (a k-way tie for first
counts 1/k) with its 95 % Wilson interval, the row's target, and the search's CPU milliseconds
per decision (process time inside its `act`, every decision of the seat counted).

    row              game      players  opponents        rules               target
    sixnimmt-round   sixnimmt  4        3 x heuristic    max_rounds=1        share >= 0.40
    sixnimmt-match   sixnimmt  4        3 x heuristic    (to 66 points)      interval above 0.25
    trains-2p        trains    2        rival                                interval above 0.50
    trains-4p        trains    4        3 x rival                            interval above 0.25
    shipside         shipside  2        octopus                              interval above 0.50
    rummikub         rummikub  2        greedy_tiles                         interval above 0.50

Run (one process: the CPU time per decision is read in-process, so there is no --jobs):

    python scripts/search_strength.py --row sixnimmt-round --games 200
    python scripts/search_strength.py --row trains-2p --games 200 --searcher ismcts:iterations=100
    python scripts/search_strength.py --row shipside --games 40 --searcher mc:samples=10
    python scripts/search_strength.py --row trains-2p --games 100 --first-game 100   # games 100-199

`--searcher` is any strategy text of the game (default `ismcts`: its per-game defaults);
`--set field=value` changes a rule of the row's game. Results are a function of the seed and the
options (iteration budgets); the CPU column depends on the machine and its load.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Setup:
    game: str
    players: int
    opponent: str
    rules: dict[str, str]
    target: str            # "share>=X" or "above"

    def reached(self, share: float, low: float) -> bool:
        if self.target.startswith("share>="):
            return share >= float(self.target.partition(">=")[2]) and low > 1 / self.players
        return low > 1 / self.players


ROWS: dict[str, Setup] = {
    "sixnimmt-round": Setup("sixnimmt", 4, "heuristic", {"max_rounds": "1"}, "share>=0.40"),
    "sixnimmt-match": Setup("sixnimmt", 4, "heuristic", {}, "above"),
    "trains-2p": Setup("trains", 2, "rival", {}, "above"),
    "trains-4p": Setup("trains", 4, "rival", {}, "above"),
    "shipside": Setup("shipside", 2, "octopus", {}, "above"),
    "rummikub": Setup("rummikub", 2, "greedy_tiles", {}, "above"),
}


@dataclass(frozen=True)
class Result:
    row: str
    searcher: str
    games: int
    wins: float
    low: float
    high: float
    forfeits: int
    decisions: int
    cpu_s: float
    seconds: float
    reached: bool

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else float("nan")

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.cpu_s / self.decisions if self.decisions else float("nan")


class _Clock:
    """Process time spent inside the search strategies' `act` (this process only)."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.calls = 0

    def wrap(self, cls) -> None:
        act = cls.act
        clock = self

        def timed(self, decision):
            start = time.process_time()
            try:
                return act(self, decision)
            finally:
                clock.cpu += time.process_time() - start
                clock.calls += 1
        cls.act = timed


def measure(row: str, searcher: str, n_games: int, seed: int = 2026,
            overrides: dict[str, str] | None = None, progress: int = 0, first_game: int = 0) -> Result:
    """The row's games; with `progress`, a running line on stderr every `progress` games (whole
    duplicate sets), so a long row can be read before it ends. `first_game` skips the run's
    first games (whole duplicate sets): a later run adds games 200-399 to a row that measured
    0-199, so the two add up to one row of the same seed."""
    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec
    from simkit.search.flat import FlatMC
    from simkit.search.ismcts import ISMCTS
    from simkit.stats.intervals import wilson

    setup = ROWS[row]
    n = setup.players
    n_games -= n_games % n                                   # whole duplicate sets
    first_game -= first_game % n
    spec = RunSpec.create(game=setup.game, n_players=n, strategies=[searcher] + [setup.opponent] * (n - 1),
                          n_games=first_game + n_games, seed=seed,
                          overrides={**setup.rules, **(overrides or {})}, duplicate=True)
    clock = _Clock()
    saved = ISMCTS.act, FlatMC.act
    clock.wrap(ISMCTS)
    clock.wrap(FlatMC)
    start = time.perf_counter()
    wins, forfeits, played = 0.0, 0, 0
    step = n * max(1, progress // n) if progress else n_games
    try:
        for first in range(0, n_games, step):
            chunk = play_range(spec, first_game + first, first_game + min(first + step, n_games))
            forfeits += sum(1 for f in chunk.games["forfeit_seat"] if f >= 0)
            forfeits += sum(1 for e in chunk.games["error"] if e)    # engine errors: no winner
            wins += sum(w for w, slot in zip(chunk.seats["win"], chunk.seats["slot"])
                        if slot == 0 and w == w)
            played = min(first + step, n_games)
            if progress and played < n_games:
                low, high = wilson(wins, played)
                print(f"#   {row} {searcher}: {played} games, share {wins / played:.3f} "
                      f"[{low:.3f}, {high:.3f}], {1000 * clock.cpu / max(clock.calls, 1):.1f} ms/decision",
                      file=sys.stderr, flush=True)
    finally:
        ISMCTS.act, FlatMC.act = saved
    seconds = time.perf_counter() - start
    low, high = wilson(wins, n_games)
    return Result(row, searcher, n_games, wins, low, high, forfeits, clock.calls, clock.cpu, seconds,
                  setup.reached(wins / n_games, low))


HEADER = (f"{'row':<15} {'searcher':<44} {'games':>5} {'wins':>6} {'share':>6} {'95% Wilson':>15} "
          f"{'target':<11} {'reached':<7} {'ms/dec':>7} {'decisions':>9} {'forfeits':>8} {'seconds':>7}")


def format_result(r: Result) -> str:
    return (f"{r.row:<15} {r.searcher:<44} {r.games:>5} {r.wins:>6.1f} {r.share:>6.3f} "
            f"[{r.low:.3f}, {r.high:.3f}] {ROWS[r.row].target:<11} {'yes' if r.reached else 'no':<7} "
            f"{r.ms_per_decision:>7.1f} {r.decisions:>9} {r.forfeits:>8} {r.seconds:>7.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--row", action="append", choices=sorted(ROWS),
                        help="rows to measure (repeatable; default all but rummikub)")
    parser.add_argument("--searcher", action="append", default=[],
                        help="strategy text of the search seat (repeatable; default ismcts)")
    parser.add_argument("--games", type=int, default=200, help="games per row (rounded down to "
                        "whole duplicate sets)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--first-game", type=int, default=0, metavar="K",
                        help="start at game K of the seed's run (to add games to a row measured before)")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE")
    parser.add_argument("--progress", type=int, default=0, metavar="GAMES",
                        help="print a running share on stderr every GAMES games")
    args = parser.parse_args(argv)
    overrides = dict(kv.partition("=")[::2] for kv in args.set)
    rows = args.row or [r for r in ROWS if r != "rummikub"]
    print(f"# seed {args.seed}, {args.games} games per row from game {args.first_game} "
          f"(duplicate deals, seats rotated), rules changed: {overrides or 'none'}", flush=True)
    print(HEADER, flush=True)
    for row in rows:
        for searcher in args.searcher or ["ismcts"]:
            print(format_result(measure(row, searcher, args.games, args.seed, overrides, args.progress,
                                         args.first_game)),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
