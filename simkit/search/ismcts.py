"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) over the protocol.

No `from __future__ import annotations` here: the CLI reads the constructor's annotations
(`int | None`) as real types to parse `-s ...:ISMCTS:iterations=500`.
"""

import math
import time
from collections.abc import Sequence

from simkit.engine.game import Action
from simkit.engine.strategy import Decision
from simkit.search.base import SearchStrategy, check_rollout_params, searchable_actions
from simkit.search.simulator import Simulator
from simkit.search.tree import Edge, Node

DEFAULT_ITERATIONS = 200


class ISMCTS(SearchStrategy):
    name = "ismcts"
    description = (
        "Information-set MCTS: each iteration searches a fresh determinization (hidden cards "
        "resampled from this seat's view); a tree over this seat's own actions with availability "
        "UCB (c on rewards in [0,1]); other seats and rollouts play the `rollout` strategy. Budget: "
        "iterations (200 when neither is given) and/or time_ms per decision; iteration budgets are "
        "reproducible from the seed, time budgets are not (they depend on machine load). Under a "
        "game's per-decision time budget (Rummikub time_budget_s) it also stops in time for it "
        "(half the budget, the rest margin), so its answers then depend on the machine too. "
        "reward=win (win share) or rank (share of seats beaten, ties half).")

    def __init__(self, iterations: int | None = None, time_ms: float | None = None,
                 c: float = math.sqrt(2), rollout: str = "random", reward: str = "win",
                 max_rollout_steps: int | None = None):
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations={iterations} is not allowed: 1 or more")
        if time_ms is not None and not time_ms > 0:
            raise ValueError(f"time_ms={time_ms} is not allowed: above 0")
        if not c >= 0:
            raise ValueError(f"c={c} is not allowed: 0 or more")
        check_rollout_params(reward, max_rollout_steps)
        self.iterations = DEFAULT_ITERATIONS if iterations is None and time_ms is None else iterations
        self.time_ms = time_ms
        self.c = c
        self.rollout = rollout
        self.reward = reward
        self.max_rollout_steps = max_rollout_steps

    def act(self, decision: Decision) -> Action:
        budget = self.budget()
        actions = self.root_actions(decision)
        if len(actions) == 1:
            return actions[0]
        root = Node()
        sim = self.simulator(decision.rng)
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        done = 0
        while self.iterations is None or done < self.iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            if budget is not None and not budget.more():
                break
            self._iterate(root, decision, sim, actions)
            done += 1
        listed = decision.legal_actions is not None
        best = root.most_visited(actions.__contains__ if listed else decision.is_legal)
        return actions[0] if best is None else best.action

    def _iterate(self, root: Node, decision: Decision, sim: Simulator,
                 root_actions: Sequence[Action]) -> None:
        """Select and expand on a fresh determinization, roll out, back the reward up.

        At the root the seat's actions are `root_actions` (what it can do in the real game: they
        depend only on what it sees, so every determinization offers the same ones); they are
        not asked again per iteration, which saves a `candidate_actions` call where the game
        cannot list its moves (Rummikub's solver)."""
        state = decision.sample_state()
        sim.start()
        me, game, rng, c = decision.seat, self.game, decision.rng, self.c
        node: Node = root
        path: list[Edge] = []
        steps = 0
        while steps < sim.max_steps and not state.is_over():
            seats = state.to_act()
            if me not in seats:
                state.apply([sim.choose(state, s) for s in seats])
                steps += 1
                continue
            offered = root_actions if node is root else searchable_actions(game, state, me)
            edge = node.select(offered, c, rng)
            expanding = edge.visits == 0
            sim.step(state, me, edge.action)
            steps += 1
            path.append(edge)
            if expanding:
                break
            node = node.descend(edge)
        reward = sim.finish(state, me, steps)
        for edge in path:
            edge.visits += 1
            edge.total += reward
