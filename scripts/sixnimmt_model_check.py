"""How much the 6 nimmt! `heuristic` opponent model (strategies/sixnimmt/model.py, ismcts `infer`)
rules out, and how often it wrongly rules out a card a seat really holds.

Plays single rounds of four `heuristic` bots (seeds 0..games-1); at every turn after the first,
builds the model for one seat (the game number mod 4) from a determinization and counts, over
the other seats, the hidden cards left to them and the held cards ruled out.

    python scripts/sixnimmt_model_check.py --games 60 --tolerance 0.01
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def check(games: int, tolerance: float,
          players: str = "heuristic") -> tuple[int, int, float, float, int, int]:
    """(held cards ruled out, held cards checked, mean cards left per seat, mean hidden cards,
    seats seen not to play like the heuristic (no constraint), seats modelled)."""
    import strategies.sixnimmt.model as model
    from simkit.engine import seeded_play
    from simkit.engine.strategy import Decision, GameInfo
    from simkit.games.sixnimmt.config import SixNimmtConfig
    from simkit.games.sixnimmt.state import new_state
    from strategies.sixnimmt.baseline import RandomStrategy
    from strategies.sixnimmt.heuristic import HeuristicStrategy

    model.TOLERANCE = tolerance
    n = 4
    config = SixNimmtConfig(max_rounds=1)
    info = GameInfo("sixnimmt", config, n)
    wrong = checked = dropped = seats = 0
    left: list[int] = []
    hidden: list[int] = []
    for g in range(games):
        seat = g % n
        start = new_state(config, n, np.random.default_rng(g))
        bots = [HeuristicStrategy() if players == "heuristic" else RandomStrategy() for _ in range(n)]
        for state in seeded_play.positions(start, bots, info, g):
            if state.phase == "play" and state.turn >= 1:
                sample = Decision(state, seat, np.random.default_rng(1)).sample_state()
                found = model.heuristic_model(sample, seat, 1.0)
                assert found is not None
                pool = len(state.aside) + sum(len(h) for s, h in enumerate(state.hands) if s != seat)
                for s in range(n):
                    allowed = found.allowed[s]
                    if s == seat:
                        continue
                    seats += 1
                    if allowed is None:
                        dropped += 1
                        continue
                    checked += len(state.hands[s])
                    wrong += sum(1 for c in state.hands[s] if c not in allowed)
                    left.append(len(allowed))
                    hidden.append(pool)
    return wrong, checked, float(np.mean(left)) if left else 0.0, float(np.mean(hidden)) if hidden else 0.0, \
        dropped, seats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--tolerance", type=float, action="append", default=[])
    parser.add_argument("--players", choices=("heuristic", "random"), default="heuristic")
    args = parser.parse_args(argv)
    for tolerance in args.tolerance or [0.01]:
        wrong, checked, left, hidden, dropped, seats = check(args.games, tolerance, args.players)
        print(f"{args.players} players, tolerance {tolerance}: seats seen not to play like the "
              f"heuristic {dropped}/{seats}; of the others, held cards ruled out {wrong}/{checked} = "
              f"{wrong / max(checked, 1):.4f}, cards left per seat {left:.1f} of {hidden:.1f} hidden",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
