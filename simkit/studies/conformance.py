"""`check_game`: the conformance checker every game passes (and any new game can call).

It plays many games with the given strategies (the game's `random` by default) and checks,
after every decision step:
- while the game is not over, some seat must act and each acting seat has a legal action;
- the game's own `audit()` (conservation of cards, zone invariants) reports nothing;
- the game ends within `Game.max_steps` steps and its outcome is well formed;
- clones are independent: a clone played to the end with other actions leaves the original
  exactly as it was;
- same seed, same actions -> same event transcript;
- observations leak no hidden card: `determinize(seat)` keeps `observe(seat)` unchanged, so an
  observation that showed hidden cards would differ after resampling.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from simkit.engine.config import GameConfig
from simkit.engine.game import Action, Game, State
from simkit.engine.play import play_out
from simkit.engine.seeding import game_streams
from simkit.engine.strategy import Decision, GameInfo, Strategy, StrategySpec, parse_strategy

#: decision steps a clone is played on before the original is compared
CLONE_STEPS = 60


class ConformanceError(AssertionError):
    pass


@dataclass
class ConformanceReport:
    games: int = 0
    steps: int = 0
    by_players: dict = field(default_factory=dict)
    max_game_steps: int = 0


def _fail(game: Game, n: int, index: int, step: int, message: str) -> None:
    raise ConformanceError(f"{game.name} ({n} players, game {index}, step {step}): {message}")


class _LegalityChecked(Strategy):
    """Wraps a seat's strategy: an action that `is_legal` rejects fails the check at once."""

    def __init__(self, spec: StrategySpec, where: Callable[[], str]):
        self.spec = spec
        self.where = where

    def setup(self, info: GameInfo, seat: int, rng: np.random.Generator) -> None:
        super().setup(info, seat, rng)
        self.inner = self.spec.build()
        self.inner.setup(info, seat, rng)

    def act(self, decision: Decision) -> Action:
        action = self.inner.act(decision)
        if not decision.is_legal(action):
            raise ConformanceError(f"{self.where()}: seat {self.seat}'s strategy chose {action!r}, "
                                   f"which is_legal rejects")
        return action


def _play(game: Game, config: GameConfig, n: int, seed: int, index: int, strategy_names,
          deep: bool, extra_check: Callable[[State], None] | None) -> tuple[list, list, int]:
    streams = game_streams(seed, index, n)
    state = game.new_state(config, n, streams.chance)
    info = GameInfo(game.name, config, n)
    check_rng = np.random.Generator(np.random.PCG64(seed * 7919 + index))
    actions_taken: list[tuple] = []
    limit = game.max_steps(config, n)
    step = 0

    def where() -> str:
        return f"{game.name} ({n} players, game {index}, step {step})"

    def before(state: State, at: int, seats: tuple[int, ...]) -> None:
        nonlocal step
        step = at
        if not seats:
            _fail(game, n, index, step, "the game is not over but no seat is to act")
        for s in seats:
            legal = state.legal_actions(s)
            if legal is not None and len(legal) == 0:
                _fail(game, n, index, step, f"seat {s} must act but has no legal action")
        if deep:
            _check_observations(game, state, seats, n, index, step, check_rng)
            if check_rng.random() < 0.15:
                _check_clone_independence(game, state, config, n, strategy_names, index, step,
                                          check_rng)

    def after(state: State, at: int, seats: tuple[int, ...], joint: list) -> None:
        nonlocal step
        step = at
        actions_taken.append(tuple(joint))
        problems = state.audit()
        if problems:
            _fail(game, n, index, step, "audit: " + "; ".join(problems))
        if extra_check is not None:
            extra_check(state)
        if step > limit:
            _fail(game, n, index, step, f"no end after {limit} steps (Game.max_steps)")

    lineup = [_LegalityChecked(_spec(strategy_names[(s + index) % len(strategy_names)], game.name), where)
              for s in range(n)]
    played = play_out(state, lineup, info, streams.seats, forfeit_on_error=False, before=before, after=after)
    _check_outcome(game, state, n, index, played.steps)
    return list(state.events), actions_taken, played.steps


@functools.cache
def _spec(name: str, game: str):
    return parse_strategy(name, game)


def _snapshot(state: State, n: int):
    return (tuple(state.to_act()) if not state.is_over() else (), len(state.events),
            tuple(repr(state.observe(s)) for s in range(n)))


def _check_clone_independence(game, state, config, n, strategy_names, index, step, rng) -> None:
    """Play a clone on with fresh strategies (their own generators) and check the original."""
    before = _snapshot(state, n)
    clone = state.clone()
    lineup = [_spec(strategy_names[(s + index + 1) % len(strategy_names)], game.name) for s in range(n)]
    rngs = [np.random.Generator(np.random.PCG64(int(rng.integers(1 << 63)))) for _ in range(n)]
    play_out(clone, lineup, GameInfo(game.name, config, n), rngs, forfeit_on_error=False,
             max_steps=CLONE_STEPS)
    if _snapshot(state, n) != before:
        _fail(game, n, index, step, "playing on a clone changed the original state")


def _check_observations(game, state, seats, n, index, step, rng) -> None:
    for s in range(n):
        seen = state.observe(s)
        if seen != state.observe(s):
            _fail(game, n, index, step, f"observe({s}) is not deterministic")
        det = state.determinize(s, rng)
        if det.observe(s) != seen:
            _fail(game, n, index, step,
                  f"determinize({s}) changed what seat {s} observes: the observation leaks hidden "
                  f"information or determinize ignores it")
        if det.to_act() != state.to_act():
            _fail(game, n, index, step, f"determinize({s}) changed who is to act")


def _check_outcome(game: Game, state: State, n: int, index: int, step: int) -> None:
    out = state.outcome()
    if not (len(out.scores) == len(out.ranks) == len(out.win_shares) == n):
        _fail(game, n, index, step, "outcome has the wrong number of seats")
    total = sum(out.win_shares)
    if not (abs(total - 1.0) < 1e-9 or total == 0.0):
        _fail(game, n, index, step, f"win shares sum to {total}, not 1 (or 0 for a draw)")
    if any(r < 1 or r > n for r in out.ranks):
        _fail(game, n, index, step, f"ranks {out.ranks} out of 1..{n}")
    for s in range(n):
        if (out.win_shares[s] > 0) != (out.ranks[s] == 1 and total > 0):
            _fail(game, n, index, step,
                  f"seat {s}: win share {out.win_shares[s]} disagrees with rank {out.ranks[s]}")


def check_game(game: Game, *, games: int = 200, players: Iterable[int] | None = None,
               configs: Iterable[GameConfig] | None = None, seed: int = 0,
               strategies: tuple[str, ...] = ("random",), deep_every: int = 10,
               extra_check: Callable[[State], None] | None = None) -> ConformanceReport:
    """Play `games` games per (config, player count) and check the protocol's guarantees.

    Every game is checked for legality, audit invariants, termination and outcome; every
    `deep_every`-th game also for observation leaks, clone independence and a replayed
    transcript identical to the first play.
    """
    players = list(players) if players is not None else list(range(game.min_players, game.max_players + 1))
    configs = list(configs) if configs is not None else [game.config_cls()]
    report = ConformanceReport()
    index = 0
    for config in configs:
        for n in players:
            config.check_players(n)
            for _ in range(games):
                deep = deep_every > 0 and index % deep_every == 0
                events, _, steps = _play(game, config, n, seed, index, strategies, deep, extra_check)
                if deep:
                    again, _, _ = _play(game, config, n, seed, index, strategies, False, None)
                    if again != events:
                        _fail(game, n, index, steps, "same seed and strategies gave a different transcript")
                report.games += 1
                report.steps += steps
                report.max_game_steps = max(report.max_game_steps, steps)
                report.by_players[n] = report.by_players.get(n, 0) + 1
                index += 1
    return report
