"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) over the protocol.

No `from __future__ import annotations` here: the CLI reads the constructor's annotations
(`int | None`) as real types to parse `-s ...:ISMCTS:iterations=500`.
"""

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from simkit.engine.game import Action, State
from simkit.engine.strategy import Decision, GameInfo, Strategy, parse_strategy
from simkit.search.base import Budget, SearchStrategy, check_rollout_params, searchable_actions
from simkit.search.compiled import compiled_search, unsupported
from simkit.search.defaults import GENERIC, SearchDefaults, defaults_for
from simkit.search.simulator import Simulator
from simkit.search.tree import Edge, Node

DEFAULT_ITERATIONS = GENERIC.iterations

#: the opponent model of a decision not yet built (`infer`)
_UNBUILT = object()


class ISMCTS(SearchStrategy):
    name = "ismcts"
    description = (
        "Information-set MCTS: each iteration searches a fresh determinization (hidden cards "
        "resampled from this seat's view); a tree over this seat's own actions with availability "
        "UCB (c on rewards in [0,1]); other seats and rollouts play the `rollout` strategy. "
        "Every parameter not given takes the game's default (simkit/search/defaults.py, chosen "
        "by measurement: docs/search.md). Budget: iterations and/or time_ms per decision; "
        "iteration budgets are reproducible from the seed, time budgets are not (they depend on "
        "machine load). Under a game's per-decision time budget (Rummikub time_budget_s) it also "
        "stops in time for it (half the budget), so its answers then depend on the machine too. "
        "reward=win, rank or margin (normalised score margin). horizon=N: rollouts stop N steps "
        "after the tree and the game's evaluate values the position (0: to the end); "
        "round_cut=true: they also stop at the end of a round. prior=STRATEGY, prior_weight=W: "
        "that strategy's choice at the root gets a progressive bias W/(visits+1); guard=G: the "
        "prior's choice is played unless the search's choice has a mean reward at least G above "
        "it. depth=D: at most D of this seat's own actions per iteration in the tree (0: no cap). "
        "infer=true: each determinization's hidden cards are redealt by the rollout strategy's "
        "opponent model (cards the other seats' past plays under that strategy rule out are "
        "not dealt to them), where the strategy has one (6 nimmt! `heuristic`). joint=true (with "
        "infer): each dealt hand is also checked as a whole against every past turn of the "
        "round and redealt while that strategy would not have played as the seat did (6 nimmt! "
        "`heuristic`; slower: searches in Python). crn=true: common "
        "random numbers at the root: each determinization (and the rollout bots' seeds) serves "
        "one iteration of every root action, and the best mean reward is played (the iteration "
        "budget is spent in whole sweeps of the root actions, at least one). "
        "kernel=false: rollouts in Python even where the game's compiled kernel could play them "
        "(the same decisions, slower).")

    #: why the last decision searched in Python (None: compiled whole; `compiled`)
    compiled_reason: str | None = None

    def __init__(self, iterations: int | None = None, time_ms: float | None = None,
                 c: float | None = None, rollout: str | None = None, reward: str | None = None,
                 max_rollout_steps: int | None = None, horizon: int | None = None,
                 round_cut: bool | None = None, prior: str | None = None,
                 prior_weight: float | None = None, depth: int | None = None,
                 guard: float | None = None, infer: bool | None = None, crn: bool | None = None,
                 kernel: bool = True, joint: bool | None = None):
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations={iterations} is not allowed: 1 or more")
        if time_ms is not None and not time_ms > 0:
            raise ValueError(f"time_ms={time_ms} is not allowed: above 0")
        if c is not None and not c >= 0:
            raise ValueError(f"c={c} is not allowed: 0 or more")
        if prior_weight is not None and not prior_weight >= 0:
            raise ValueError(f"prior_weight={prior_weight} is not allowed: 0 or more")
        if guard is not None and not guard >= 0:
            raise ValueError(f"guard={guard} is not allowed: 0 (off) or more")
        for key, value in (("horizon", horizon), ("depth", depth)):
            if value is not None and value < 0:
                raise ValueError(f"{key}={value} is not allowed: 0 (none) or more")
        if joint and infer is False:
            raise ValueError("joint=true is not allowed with infer=false: the joint check refines "
                             "the opponent model's deals (infer=true)")
        check_rollout_params(reward or GENERIC.reward, max_rollout_steps)
        self.given = dict(iterations=iterations, c=c, rollout=rollout, reward=reward, horizon=horizon,
                          round_cut=round_cut, prior=prior, prior_weight=prior_weight, depth=depth,
                          guard=guard, infer=infer, crn=crn, joint=joint)
        self.time_ms = time_ms
        self.max_rollout_steps = max_rollout_steps
        self.kernel = kernel
        self._model: object = _UNBUILT
        self._resolve(GENERIC)

    def _resolve(self, defaults: SearchDefaults) -> None:
        """Each parameter: as given, else the game's default."""
        given = dict(self.given)
        if given["iterations"] is None and self.time_ms is not None:
            given["iterations"] = -1                      # a time budget alone: no iteration cap
        p = defaults.merged(**given)
        self.params = p
        self.iterations = None if p.iterations == -1 else p.iterations
        self.c = p.c
        self.rollout = p.rollout
        self.reward = p.reward
        self.horizon = p.horizon or None
        self.round_cut = p.round_cut
        self.depth = p.depth or None
        self.prior_weight = p.prior_weight
        self.prior = p.prior if p.prior_weight > 0 or p.guard > 0 else None
        self.guard = p.guard
        self.infer = p.infer
        self.crn = p.crn
        self.joint = p.joint

    def setup(self, info: GameInfo, seat: int, rng: np.random.Generator) -> None:
        self._resolve(defaults_for(info.game, info.n_players, info.config))
        super().setup(info, seat, rng)
        self._prior: Strategy | None = None
        if self.prior is not None:
            self._prior = parse_strategy(self.prior, info.game).build()
            self._prior.setup(info, seat, np.random.Generator(np.random.PCG64(int(rng.integers(1 << 63)))))

    def simulator(self, rng: np.random.Generator) -> Simulator:
        return Simulator(self.game, self.info, self.rollout_spec, rng, self.reward,
                         self.max_rollout_steps, self.horizon, self.round_cut, kernel=self.kernel)

    def act(self, decision: Decision) -> Action:
        budget = self.budget()
        actions = self.root_actions(decision)
        prior = self.root_prior(decision, actions)
        if len(actions) == 1:
            return actions[0]
        root = self.search(decision, actions, prior, budget)
        listed = decision.legal_actions is not None
        best = self.best_edge(root, actions.__contains__ if listed else decision.is_legal, prior)
        return actions[0] if best is None else best.action

    def root_prior(self, decision: Decision, actions: Sequence[Action]) -> Action | None:
        """The prior strategy's choice at the root (it is asked even where one action is left:
        its draws are part of the game's), or None: no prior, or a choice outside `actions`."""
        prior = self._prior.act(decision) if self._prior is not None else None
        return prior if prior is not None and prior in actions else None

    def best_edge(self, root: Node, allowed: Callable[[Action], bool], prior: Action | None) -> Edge | None:
        """The root edge the search plays among the `allowed` actions (None: none searched): the
        best mean with `crn`, else the most visited; kept off the prior only by the `guard`."""
        best = root.best_mean(allowed) if self.crn else root.most_visited(allowed)
        if best is not None and prior is not None and self.guard > 0:
            best = root.guarded(best, prior, self.guard)
        return best

    def compiled(self) -> Any:
        """The game's compiled search iterations for this search, or None (why: `compiled_reason`):
        an iteration budget alone, kernel=true, every parameter one they play, a rollout
        strategy with a kernel form (docs/search.md, "Compiled search iterations")."""
        reason = None if self.kernel else "kernel=false"
        if reason is None and (self.iterations is None or self.time_ms is not None):
            reason = "a time budget"
        if reason is None:
            name = unsupported(self.params, self.info.game)
            reason = None if name is None else f"{name} is not played by compiled iterations"
        found = None
        if reason is None:
            found, reason = compiled_search(self.game, self.info, self.rollout_spec)
        self.compiled_reason = reason
        return found

    def search(self, decision: Decision, actions: Sequence[Action], prior: Action | None,
               budget: Budget | None = None) -> Node:
        """The root after this decision's iterations: compiled whole where the game can
        (`compiled`), else the Python loop; the same statistics and draws either way."""
        fast = self.compiled() if budget is None else None
        if fast is not None:
            assert self.iterations is not None
            max_steps = (self.game.max_steps(self.info.config, self.info.n_players)
                         if self.max_rollout_steps is None else self.max_rollout_steps)
            on = {"infer": True} if self.infer else {}     # only to a game whose search plays it
            root = fast.run(decision, actions, prior, self.prior_weight, self.iterations, self.c,
                            self.depth, max_steps, self.horizon, self.round_cut, self.reward, **on)
            if root is not None:            # None: not this position (the generator untouched)
                return root
            self.compiled_reason = "a position the compiled search does not play"
        root = Node()
        if prior is not None:
            root.set_bias(prior, self.prior_weight)
        sim = self.simulator(decision.rng)
        self._model = _UNBUILT
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000
        done = 0
        if self.crn:
            self._sweeps(root, decision, sim, actions, budget, deadline)
        while not self.crn and (self.iterations is None or done < self.iterations):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            if budget is not None and not budget.more():
                break
            self._iterate(root, decision, sim, actions)
            done += 1
        return root

    def _sweeps(self, root: Node, decision: Decision, sim: Simulator, actions: Sequence[Action],
                budget: Budget | None, deadline: float | None) -> None:
        """`crn`: sweeps of the root actions, each on a clone of one determinization with the
        rollout bots' generators reset to the same states, so two root actions' rewards differ by
        the action and what follows it, not by the luck of the sample."""
        sweeps = None if self.iterations is None else max(1, self.iterations // len(actions))
        done = 0
        while sweeps is None or done < sweeps:
            if deadline is not None and done and time.perf_counter() >= deadline:
                return
            shared = decision.sample_state()
            if self.infer:
                self._redeal(shared, decision, sim)
            seeds = sim.generator_states()
            for action in actions:
                if budget is not None and not budget.more():
                    return
                sim.restore(seeds)
                self._iterate(root, decision, sim, actions, shared.clone(), action)
            done += 1

    def _iterate(self, root: Node, decision: Decision, sim: Simulator,
                 root_actions: Sequence[Action], state: State | None = None,
                 forced: Action | None = None) -> None:
        """Select and expand on a fresh determinization, roll out, back the reward up.

        At the root the seat's actions are `root_actions` (what it can do in the real game: they
        depend only on what it sees, so every determinization offers the same ones); they are
        not asked again per iteration, which saves a `candidate_actions` call where the game
        cannot list its moves (Rummikub's solver). With a depth cap, the tree stops after that
        many of the seat's own actions and the rollout plays on from there. `state` and `forced`
        (`crn` sweeps): this determinization, and the root action played on it."""
        if state is None:
            state = decision.sample_state()
            if self.infer:
                self._redeal(state, decision, sim)
        sim.start()
        me, game, rng, c = decision.seat, self.game, decision.rng, self.c
        depth = self.depth
        node: Node = root
        path: list[Edge] = []
        steps = 0
        while steps < sim.max_steps and not state.is_over():
            seats = state.to_act()
            if me not in seats:
                state.apply([sim.choose(state, s) for s in seats])
                steps += 1
                continue
            if node is root and forced is not None:
                edge = root.take(forced)
            else:
                offered = root_actions if node is root else searchable_actions(game, state, me)
                edge = node.select(offered, c, rng)
            expanding = edge.visits == 0
            sim.step(state, me, edge.action)
            steps += 1
            path.append(edge)
            if expanding or (depth is not None and len(path) >= depth):
                break
            node = node.descend(edge)
        reward = sim.rollout(state, me, steps)
        for edge in path:
            edge.visits += 1
            edge.total += reward

    def _redeal(self, state, decision: Decision, sim: Simulator) -> None:
        """`infer`: the determinization's hidden cards redealt by the rollout strategy's
        `opponent_model(state, seat)` (built once per decision from the first determinization,
        which shows only what the seat sees), where the strategy has one."""
        model = self._model
        if model is _UNBUILT:
            build = getattr(sim.bots[0], "opponent_model", None)
            if build is None:
                model = None
            elif self.joint:                  # only asked of a model that offers the joint check
                model = build(state, decision.seat, joint=True)
            else:
                model = build(state, decision.seat)
            self._model = model
        if model is not None:
            model.resample(state, decision.rng)  # type: ignore[attr-defined]

