"""How often a hand dealt to a 6 nimmt! `heuristic` seat fails the exact joint check
(strategies/sixnimmt/joint_model.py, `ismcts:joint=true`): the hands the seats really hold,
hands dealt uniformly (a plain determinization), by the card-by-card model (model.py, `infer`)
and by the joint model.

Plays single rounds of four `heuristic` bots (seeds 0..games-1); from the third turn on, one
seat (the game number mod 4) draws `--deals` determinizations per turn and each other seat's
hand is checked.

    python scripts/sixnimmt_joint_check.py --games 8 --deals 10
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def check(games: int, deals: int) -> dict[str, tuple[int, int]]:
    """Per kind of hand: (hands failing the check, hands checked)."""
    from simkit.engine import seeded_play
    from simkit.engine.strategy import Decision, GameInfo
    from simkit.games.sixnimmt.config import SixNimmtConfig
    from simkit.games.sixnimmt.state import new_state
    from strategies.sixnimmt.heuristic import HeuristicStrategy
    from strategies.sixnimmt.joint_model import consistent, joint_model
    from strategies.sixnimmt.model import HeuristicModel

    n = 4
    config = SixNimmtConfig(max_rounds=1)
    info = GameInfo("sixnimmt", config, n)
    tally = {kind: [0, 0] for kind in ("real", "uniform", "model", "joint")}

    def count(kind: str, hand, checks) -> None:
        tally[kind][0] += not consistent(hand, checks)
        tally[kind][1] += 1

    for g in range(games):
        seat = g % n
        start = new_state(config, n, np.random.default_rng(g))
        for state in seeded_play.positions(start, [HeuristicStrategy() for _ in range(n)], info, g):
            if state.phase == "play" and state.turn >= 2:
                decision = Decision(state, seat, np.random.default_rng(g))
                model = joint_model(decision.sample_state(), seat)
                assert model is not None
                for s in model.order:
                    count("real", state.hands[s], model.checks[s])
                for _ in range(deals):
                    uniform = decision.sample_state()
                    by_card, joint = uniform.clone(), uniform.clone()
                    HeuristicModel.resample(model, by_card, decision.rng)
                    model.resample(joint, decision.rng)
                    for s in model.order:
                        count("uniform", uniform.hands[s], model.checks[s])
                        count("model", by_card.hands[s], model.checks[s])
                        count("joint", joint.hands[s], model.checks[s])
    return {kind: (bad, total) for kind, (bad, total) in tally.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--deals", type=int, default=10, help="determinizations per turn")
    args = parser.parse_args(argv)
    if args.games < 1 or args.deals < 1:
        parser.error("--games and --deals must be 1 or more")
    for kind, (bad, total) in check(args.games, args.deals).items():
        print(f"{kind:<8} {bad:>6} of {total:>6} hands fail the exact check ({bad / total:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
