"""The forward model of one search decision: rollout bots for every seat, their generators, and
`rollout`, the one function that plays a determinized state on and values the result.

`Simulator.rollout(state, seat, steps_done)` is the single rollout path of both search
strategies: it plays the rollout policy for every seat until the game ends, the step cap, the
rollout horizon or (optionally) the end of the round, and returns the seat's reward. It keeps
the conventions of `simkit.engine.play.play_out` that matter inside a search (one `act` per
acting seat in seat order, a strategy's `act_many` when every seat acts with the same class, a
numpy value accepted as the equal plain action).

**Kernel rollouts.** Where the game names a `Game.kernel_rollout` and the rollout strategy has a
kernel form, the rollout is played by the game's compiled kernel instead of `_play` (the Python
path), with the same result, generators included (the contract in docs/search.md, "Kernel
rollouts"); `kernel=False` forces the Python path. A kernel that cannot play (no kernel form, a
config field it lacks, no numba) leaves the Python path, its reason kept in `kernel_reason`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from simkit.engine.errors import IllegalAction
from simkit.engine.game import Action, Game, State
from simkit.engine.strategy import Decision, GameInfo, Strategy, StrategySpec
from simkit.search.rewards import cut_value, neutral_reward, reward_function


class Simulator:
    """Rollout policy for every seat of one decision's determinizations.

    The bots' generators are drawn from the searching strategy's own generator, so a search is
    reproducible from the game's seed. (Not `Generator.spawn`: it derives children from the
    generator's original seed sequence, not from its current state, and the runner re-seeds
    pooled generators by setting their state.)

    `horizon`: rollout steps after the tree before the position is valued by `Game.evaluate`
    (None: to the end). `round_cut`: also stop where the game's `round_of` changes (a 6 nimmt!
    round's end). `evaluate`: value cut rollouts with the game's `evaluate` (else neutral).
    `kernel`: play rollouts in the game's kernel where it can (the same results, faster).
    """

    def __init__(self, game: Game, info: GameInfo, rollout: StrategySpec, rng: np.random.Generator,
                 reward: str, max_steps: int | None, horizon: int | None = None,
                 round_cut: bool = False, evaluate: bool = True, kernel: bool = True):
        n = info.n_players
        self.info = info
        self.n = n
        self.reward = reward
        self.bots: list[Strategy] = [rollout.build() for _ in range(n)]
        self.rngs = [np.random.Generator(np.random.PCG64(int(seed)))
                     for seed in rng.integers(1 << 63, size=n)]
        self._reward = reward_function(reward, game.higher_is_better)
        self.neutral = neutral_reward(reward, n)
        self.max_steps = game.max_steps(info.config, n) if max_steps is None else max_steps
        self.horizon = horizon
        self.round_of = game.round_of if round_cut else None
        self.evaluate = game.evaluate if evaluate else None
        kind = type(self.bots[0])
        many = getattr(kind.act_many, "__func__", None)
        self._together: Callable | None = (kind.act_many if many is not _BASE_ACT_MANY else None)
        self._everyone = tuple(range(n))
        self.kernel: Any = None
        #: why rollouts play in Python (None when the kernel plays them)
        self.kernel_reason: str | None = "kernel=false"
        if kernel:
            self.kernel, self.kernel_reason = kernel_rollout(game, info, rollout)
        #: the kernel continues bots already asked since `start` (else only fresh ones)
        self._carries = bool(getattr(self.kernel, "carries_bots", False))
        #: optional `worth(state, left, round_cut)`: False where Python is faster (a short rollout)
        self._worth: Callable | None = getattr(self.kernel, "worth", None)
        self._fresh = True
        self._round_cut = round_cut

    def start(self) -> None:
        """Set the bots up afresh for a new determinization (they forget the previous one)."""
        for seat, bot in enumerate(self.bots):
            bot.setup(self.info, seat, self.rngs[seat])
        self._fresh = True

    def generator_states(self) -> list[Mapping[str, Any]]:
        """The bots' generator states, to replay the same rollout draws (`restore`)."""
        return [r.bit_generator.state for r in self.rngs]

    def restore(self, states: Sequence[Mapping[str, Any]]) -> None:
        for r, s in zip(self.rngs, states):
            r.bit_generator.state = s

    def choose(self, state: State, seat: int) -> Action:
        """`seat`'s rollout action, decided from its own view of `state`."""
        self._fresh = False
        return self.bots[seat].act(Decision(state, seat, self.rngs[seat]))

    def step(self, state: State, seat: int, action: Action) -> None:
        """One decision step: `seat` plays `action`, every other acting seat its rollout choice."""
        joint = [action if s == seat else self.choose(state, s) for s in state.to_act()]
        state.apply(joint)

    def rollout(self, state: State, seat: int, steps_done: int) -> float:
        """Play `state` on with the rollout bots (at most the cap less `steps_done` steps, and
        `horizon` steps); `seat`'s reward, or the cut value if it stopped before the end."""
        left = self.max_steps - steps_done
        if self.horizon is not None and self.horizon < left:
            left = self.horizon
        if left > 0 and not state.is_over():
            kernel = self.kernel
            if kernel is None or not (self._carries or self._fresh) or \
                    (self._worth is not None and not self._worth(state, left, self._round_cut)):
                self._play(state, left)
            elif self._carries:
                kernel.play(state, self.rngs, left, self._round_cut, bots=self.bots)
            else:
                kernel.play(state, self.rngs, left, self._round_cut)
        if state.is_over():
            return self._reward(state.outcome(), seat)
        if self.evaluate is None:
            return self.neutral
        return cut_value(self.reward, self.evaluate(state, seat), self.n)

    def _play(self, state: State, left: int) -> None:
        """The Python path of a rollout: at most `left` steps of the bots (the reference every
        game's `KernelRollout.play` reproduces)."""
        bots = self.bots
        decisions = Decision.for_seats(state, self.rngs)
        acts = [bot.act for bot in bots]
        together, everyone = self._together, self._everyone
        round_of = self.round_of
        start_round = round_of(state) if round_of is not None else None
        to_act, apply, is_over = state.to_act, state.apply, state.is_over
        while left > 0 and not is_over():
            seats = to_act()
            if len(seats) == 1:
                joint = [acts[seats[0]](decisions[seats[0]])]
            elif together is not None and seats == everyone:
                joint = together(bots, decisions)
            else:
                joint = [acts[s](decisions[s]) for s in seats]
            try:
                apply(joint)
            except IllegalAction:
                plain = [a.item() if isinstance(a, np.generic) else a for a in joint]
                if all(p is a for p, a in zip(plain, joint)):
                    raise
                apply(plain)
            left -= 1
            if round_of is not None and round_of(state) != start_round:
                break


_BASE_ACT_MANY = getattr(Strategy.act_many, "__func__", None)


#: built kernel rollouts of this process: (game, config, players, rollout) -> (kernel or None,
#: why not); building one loads (or the first time compiles) the compiled kernel
_KERNELS: dict[tuple[Any, ...], tuple[Any, str | None]] = {}


def kernel_rollout(game: Game, info: GameInfo, rollout: StrategySpec) -> tuple[Any, str | None]:
    """The game's `KernelRollout` for these rollouts, built once per process, or (None, the reason
    rollouts play in Python)."""
    return built_once(_KERNELS, game, "kernel_rollout", "kernel rollout", info, rollout)


def built_once(cache: dict, game: Game, hook: str, what: str, info: GameInfo,
               rollout: StrategySpec) -> tuple[Any, str | None]:
    """`Game.<hook>` ("module:Class") built as `Class(info, rollout)`, once per (game, config,
    players, rollout) in `cache`, or (None, why): the game has no such hook, or the class refused
    with a ValueError."""
    key = (game.name, info.config, info.n_players, rollout)
    found = cache.get(key)
    if found is None:
        found = cache[key] = _build(getattr(game, hook, None), f"{game.name} has no {what}", info, rollout)
    return found


def _build(hook: str | None, missing: str, info: GameInfo, rollout: StrategySpec) -> tuple[Any, str | None]:
    if hook is None:
        return None, missing
    module, _, name = hook.partition(":")
    try:
        return getattr(importlib.import_module(module), name)(info, rollout), None
    except ValueError as exc:
        return None, str(exc)
