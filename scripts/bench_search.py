"""ISMCTS on one core: searched decisions per second and win share against the game's baseline,
at 10, 100 and 1000 iterations per decision, 2 players, for every game whose actions can be
listed (or that offers Game.candidate_actions). Run: `python scripts/bench_search.py [seconds]`.

Each (game, budget) plays whole games, the searcher's seat alternating, until about `seconds`
of CPU time have passed (at least one game), so the win share of a large budget rests on few
games: the unit column gives the count. Short rule variants keep one game affordable (6 nimmt!
single rounds, Shipside to 2 points); Game of Trains rolls out with `greedy`, since random
trains games run into the 1000-action cap and say nothing about the position. Even so, the
1000-iteration rows take minutes: Shipside's move generation dominates its rollouts.
"""

from __future__ import annotations

import sys
import time

BUDGETS = (10, 100, 1000)
N_PLAYERS = 2
#: game -> (rule overrides, rollout policy); other games: no overrides, `random`
SETTINGS = {
    "sixnimmt": ({"max_rounds": "1"}, "random"),
    "shipside": ({"end.points_to_win": "2"}, "random"),
    "trains": ({}, "greedy"),
}


def _searchable(game) -> bool:
    import numpy as np

    if getattr(game, "candidate_actions", None) is not None:
        return True
    state = game.new_state(game.config_cls(), max(N_PLAYERS, game.min_players), np.random.default_rng(0))
    return state.legal_actions(state.to_act()[0]) is not None


def _counting_ismcts(iterations: int, rollout: str, tally: dict):
    from simkit.search.ismcts import ISMCTS

    class CountingISMCTS(ISMCTS):
        def act(self, decision):
            start = time.process_time()
            action = super().act(decision)
            legal = decision.legal_actions
            if legal is None or len(legal) > 1:        # a lone legal action is not a search
                tally["decisions"] += 1
                tally["cpu"] += time.process_time() - start
            return action

    return CountingISMCTS(iterations=iterations, rollout=rollout)


def _measure(game_name: str, iterations: int, seconds: float) -> tuple[float, float, int]:
    """(searched decisions per CPU second, win share of the searcher, games played)."""
    import numpy as np

    from simkit.core.config import with_overrides
    from simkit.core.play import play_out
    from simkit.core.registry import get_game
    from simkit.core.strategy import GameInfo, available_strategies, parse_strategy

    game = get_game(game_name)
    overrides, rollout = SETTINGS.get(game_name, ({}, "random"))
    config = with_overrides(game.config_cls(), overrides)
    info = GameInfo(game_name, config, N_PLAYERS)
    baseline = parse_strategy("random" if "random" in available_strategies(game_name)
                              else sorted(available_strategies(game_name))[0], game_name)
    tally = {"decisions": 0, "cpu": 0.0}
    wins, games, start = 0.0, 0, time.process_time()
    while games == 0 or time.process_time() - start < seconds:
        me = games % N_PLAYERS
        lineup = [baseline] * N_PLAYERS
        lineup[me] = _counting_ismcts(iterations, rollout, tally)
        state = game.new_state(config, N_PLAYERS, np.random.default_rng([1, games]))
        rngs = [np.random.default_rng([2, games, s]) for s in range(N_PLAYERS)]
        played = play_out(state, lineup, info, rngs, forfeit_on_error=False)
        wins += state.outcome().win_shares[me] if played.forfeit < 0 and state.is_over() else 0.0
        games += 1
    rate = tally["decisions"] / tally["cpu"] if tally["cpu"] else 0.0
    return rate, wins / games, games


def bench(seconds: float = 3.0) -> list[tuple[str, float, str]]:
    """(label, value, unit) rows: each game and budget is played for about `seconds` CPU seconds."""
    from simkit.core.registry import all_games

    rows = []
    for game in all_games():
        if not _searchable(game):
            continue
        for iterations in BUDGETS:
            rate, win, games = _measure(game.name, iterations, seconds)
            label = f"{game.name} ismcts {iterations} it"
            rows.append((label, rate, "decisions/s"))
            rows.append((f"{label} vs baseline", win, f"win share over {games} games"))
    return rows


if __name__ == "__main__":
    secs = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for label, value, unit in bench(secs):
        print(f"{label:<48} {value:10.3f} {unit}", flush=True)
