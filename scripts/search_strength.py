"""Does ISMCTS beat each game's strongest built-in heuristic? Win share with a 95 % Wilson interval.

The target of issue 10: ISMCTS at N iterations per decision wins against the strongest built-in
bot of each game with a win share whose 95 % interval lies above fair share (1/players).

    game       players  lineup (seats rotated)                      ISMCTS rollout
    sixnimmt   4        ismcts, heuristic, heuristic, heuristic     random
    trains     2        ismcts, rival                               greedy
    rummikub   2        ismcts, greedy_tiles                        random
    shipside   2        ismcts, octopus                             random

Run (one row per game and budget; every game of a row uses seed --seed, seats rotated):

    python scripts/search_strength.py --iterations 100,300 --games 40 --jobs 1
    python scripts/search_strength.py --game sixnimmt --set sixnimmt:max_rounds=1 --games 200

`--set GAME:field=value` changes a rule of one game (validated like `simkit run --set`);
`--rollout GAME:strategy` the searcher's rollout policy. Seconds are wall-clock for the row.
Results are a function of the seed and the options, whatever --jobs (iteration budgets).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

#: game -> (players, opponent: the strongest built-in heuristic, default rollout of the searcher)
SETUPS: dict[str, tuple[int, str, str]] = {
    "sixnimmt": (4, "heuristic", "random"),
    "trains": (2, "rival", "greedy"),
    "rummikub": (2, "greedy_tiles", "random"),
    "shipside": (2, "octopus", "random"),
}


@dataclass(frozen=True)
class Row:
    game: str
    iterations: int
    opponent: str
    players: int
    games: int
    wins: float
    low: float
    high: float
    forfeits: int
    seconds: float

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else float("nan")

    @property
    def fair(self) -> float:
        return 1.0 / self.players

    @property
    def verdict(self) -> str:
        if self.low > self.fair:
            return "above fair"
        if self.high < self.fair:
            return "below fair"
        return "not resolved"


def measure(game: str, iterations: int, n_games: int, jobs: int = 1, seed: int = 2026,
            overrides: dict[str, str] | None = None, rollout: str | None = None) -> Row:
    """Play `n_games` games (seats rotated) of ISMCTS against the game's strongest heuristic."""
    from joblib import Parallel, delayed

    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec
    from simkit.stats.intervals import wilson

    players, opponent, default_rollout = SETUPS[game]
    searcher = f"ismcts:iterations={iterations},rollout={rollout or default_rollout}"
    spec = RunSpec.create(game=game, n_players=players, strategies=[searcher] + [opponent] * (players - 1),
                          n_games=n_games, seed=seed, overrides=overrides or {})
    start = time.perf_counter()
    bounds = [(i, i + 1) for i in range(n_games)]
    if jobs == 1:
        chunks = [play_range(spec, a, b) for a, b in bounds]
    else:
        chunks = Parallel(n_jobs=jobs)(delayed(play_range)(spec, a, b) for a, b in bounds)
    seconds = time.perf_counter() - start
    wins, forfeits = 0.0, 0
    for chunk in chunks:
        forfeits += sum(1 for f in chunk.games["forfeit_seat"] if f >= 0)
        forfeits += sum(1 for e in chunk.games["error"] if e)  # engine errors: no winner
        wins += sum(w for w, slot in zip(chunk.seats["win"], chunk.seats["slot"]) if slot == 0
                    and w == w)                                 # NaN (engine error) counts 0
    low, high = wilson(wins, n_games)
    return Row(game, iterations, opponent, players, n_games, wins, low, high, forfeits, seconds)


HEADER = (f"{'game':<9} {'players':>7} {'opponent':<13} {'iter':>5} {'games':>5} {'wins':>6} "
          f"{'share':>6} {'95% Wilson':>15} {'fair':>5} {'verdict':<12} {'forfeits':>8} {'seconds':>8}")


def format_row(r: Row) -> str:
    return (f"{r.game:<9} {r.players:>7} {r.opponent:<13} {r.iterations:>5} {r.games:>5} {r.wins:>6.1f} "
            f"{r.share:>6.3f} [{r.low:.3f}, {r.high:.3f}] {r.fair:>5.2f} {r.verdict:<12} "
            f"{r.forfeits:>8} {r.seconds:>8.0f}")


def _per_game(items: list[str], what: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for item in items:
        game, sep, rest = item.partition(":")
        if not sep or game not in SETUPS:
            raise SystemExit(f"{what} {item!r}: write GAME:value with GAME one of {', '.join(SETUPS)}")
        found.setdefault(game, []).append(rest)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", default="100,300", help="budgets, comma separated")
    parser.add_argument("--games", type=int, default=40, help="games per game and budget")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (joblib)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--game", action="append", choices=sorted(SETUPS),
                        help="only these games (repeatable; default all four)")
    parser.add_argument("--set", action="append", default=[], metavar="GAME:FIELD=VALUE")
    parser.add_argument("--rollout", action="append", default=[], metavar="GAME:STRATEGY")
    args = parser.parse_args(argv)
    budgets = [int(b) for b in args.iterations.split(",") if b.strip()]
    sets = {g: dict(kv.partition("=")[::2] for kv in kvs) for g, kvs in _per_game(args.set, "--set").items()}
    rollouts = {g: r[-1] for g, r in _per_game(args.rollout, "--rollout").items()}
    print(f"# seed {args.seed}, {args.games} games per row, jobs {args.jobs}, "
          f"rules changed: {sets or 'none'}, rollouts: "
          + ", ".join(f"{g}={rollouts.get(g, SETUPS[g][2])}" for g in (args.game or SETUPS)), flush=True)
    print(HEADER, flush=True)
    for game in args.game or list(SETUPS):
        for iterations in budgets:
            row = measure(game, iterations, args.games, args.jobs, args.seed, sets.get(game),
                          rollouts.get(game))
            print(format_row(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
