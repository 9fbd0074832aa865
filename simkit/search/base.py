"""What every search strategy shares: rollout parameters, the game entry, the actions to search."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from simkit.engine.errors import SimkitError
from simkit.engine.game import Action, Game, State
from simkit.engine.registry import get_game
from simkit.engine.strategy import Decision, GameInfo, Strategy, StrategySpec, parse_strategy
from simkit.engine.timed import budget_of
from simkit.search.rewards import REWARDS
from simkit.search.simulator import Simulator


class NoCandidateActions(SimkitError):
    """A game lists no legal actions at a decision and offers no `candidate_actions` hook."""


def searchable_actions(game: Game, state: State, seat: int) -> Sequence[Action]:
    """The actions a search considers for `seat`: the legal list, else the game's candidates.

    A game whose moves cannot be listed (`legal_actions` returns None) may offer
    `Game.candidate_actions(state, seat) -> Sequence[Action]`: a manageable set of legal moves.
    """
    legal = state.legal_actions(seat)
    if legal is not None:
        return legal
    candidates = getattr(game, "candidate_actions", None)
    if candidates is None:
        raise NoCandidateActions(
            f"{game.name} cannot list its legal actions and its Game entry has no candidate_actions "
            f"hook: search strategies need Game.candidate_actions(state, seat) for {game.name}")
    found = candidates(state, seat)
    if not found:
        raise NoCandidateActions(f"{game.name}: candidate_actions gave no action for seat {seat}")
    return found


def check_rollout_params(reward: str, max_rollout_steps: int | None) -> None:
    if reward not in REWARDS:
        raise ValueError(f"reward={reward!r} is not allowed: one of {', '.join(REWARDS)}")
    if max_rollout_steps is not None and max_rollout_steps < 1:
        raise ValueError(f"max_rollout_steps={max_rollout_steps} is not allowed: 1 or more")


#: share of the game's per-decision time budget a search plans to use (the rest is margin)
BUDGET_SHARE = 0.5


class Budget:
    """A search's own time limit for one decision, started when the decision starts: `more()`,
    asked before each step (iteration, rollout), is False once another step as long as the
    longest so far could pass the limit."""

    def __init__(self, seconds: float):
        self.deadline = time.perf_counter() + seconds
        self.last: float | None = None
        self.longest = 0.0

    def more(self) -> bool:
        now = time.perf_counter()
        if self.last is not None:
            self.longest = max(self.longest, now - self.last)
        self.last = now
        return now + self.longest < self.deadline


class SearchStrategy(Strategy):
    """Base of the search strategies: resolves the game and the rollout policy once per game,
    and the game's per-decision time budget (`Game.decision_budget`), if its config sets one."""

    rollout: str
    reward: str
    max_rollout_steps: int | None
    game: Game
    rollout_spec: StrategySpec
    budget_s: float | None = None
    #: play rollouts in the game's compiled kernel where it can (kernel=false: Python)
    kernel: bool = True

    def setup(self, info: GameInfo, seat: int, rng: np.random.Generator) -> None:
        super().setup(info, seat, rng)
        self.game = get_game(info.game)
        self.rollout_spec = parse_strategy(self.rollout, info.game)
        budget = budget_of(self.game, info.config)
        self.budget_s = None if budget is None else budget[0] * BUDGET_SHARE

    def budget(self) -> Budget | None:
        """This decision's time limit under the game's budget (None without one); ask it first
        thing in `act`, so the root actions' cost counts too."""
        return None if self.budget_s is None else Budget(self.budget_s)

    def simulator(self, rng: np.random.Generator) -> Simulator:
        """Rollout bots for one decision, their generators drawn from `rng`."""
        return Simulator(self.game, self.info, self.rollout_spec, rng, self.reward,
                         self.max_rollout_steps, kernel=self.kernel)

    def root_actions(self, decision: Decision) -> Sequence[Action]:
        """The actions to choose from now; candidates come from a determinization where the
        game cannot list its moves, kept only if legal in the real game."""
        legal = decision.legal_actions
        if legal is not None:
            return legal
        sampled = searchable_actions(self.game, decision.sample_state(), decision.seat)
        kept = [a for a in sampled if decision.is_legal(a)]
        if not kept:
            raise NoCandidateActions(
                f"{self.game.name}: no candidate action is legal for seat {decision.seat}")
        return kept
