"""The game protocol shared by every game: registry entry, State, Outcome.

A game package exposes one `Game` value (its registry entry). The runner, the strategies, the
conformance checker and the CLI only ever talk to games through this protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Self, TypeVar

import numpy as np

from simkit.engine.cloning import Cloning, clone_function
from simkit.engine.config import GameConfig

#: An action is a value of the game's own: one immutable, hashable class per kind of action,
#: whose `str()` is the text the game's `parse_action` reads back (Rummikub's frozen dataclasses,
#: 6 nimmt!'s `TakeRow`, Shipside's NamedTuples, Trains' kind-tagged tuples `Place(3)`); a plain
#: int where the action is just a card number (a 6 nimmt! card).
Action = Hashable

#: seats.parquet column of games with rounds (`Game.has_rounds`): a list of the seat's points per round
ROUND_SCORES = "round_scores"
#: seats.parquet column of games with a running score (`Game.running_unit`): the seat's standing
#: after each step of the game's arc (simkit/engine/running.py)
RUNNING_SCORE = "running_score"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    scores: the game's own per-seat score (e.g. bullheads; higher or lower is better per
    `Game.higher_is_better`). ranks: 1 is best, tied seats share the best rank of their tie.
    win_shares: per seat, 1/k for each of k co-winners, 0 otherwise; all zero for a draw with no
    winner. extras: game-level columns for games.parquet (e.g. rounds played, turn cap hit).
round_scores: one tuple of per-seat points per round played (games with rounds only).
running: one tuple of every seat's standing per step of the game's arc (games with a
`Game.running_unit` only; simkit/engine/running.py).
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    win_shares: tuple[float, ...]
    extras: dict[str, Any] = field(default_factory=dict)
    #: per round (hand), each seat's points in it, for games with `Game.has_rounds`
    round_scores: tuple[tuple[float, ...], ...] = ()
    #: per step (a round of turns), each seat's standing after it, for games with `Game.running_unit`
    running: tuple[tuple[float, ...], ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, w in enumerate(self.win_shares) if w > 0)


def ranks_from_scores(scores: Sequence[float], higher_is_better: bool) -> tuple[int, ...]:
    """Competition ranks (1 = best; ties share the best rank of the tie)."""
    keyed = [(-s if higher_is_better else s) for s in scores]
    return tuple(1 + sum(1 for other in keyed if other < mine) for mine in keyed)


def outcome_from_scores(scores: Sequence[float], higher_is_better: bool,
                        extras: dict | None = None,
                        round_scores: tuple[tuple[float, ...], ...] = ()) -> Outcome:
    """Outcome where every seat tied for the best score is a co-winner."""
    ranks = ranks_from_scores(scores, higher_is_better)
    best = [s for s, r in enumerate(ranks) if r == 1]
    share = 1.0 / len(best)
    wins = tuple(share if r == 1 else 0.0 for r in ranks)
    return Outcome(tuple(scores), ranks, wins, dict(extras or {}), round_scores)


class State:
    """One game in progress. Mutable; `clone()` is cheap and fully independent.

    Subclasses implement the methods below; rules live in the game's pure `rules.py`. For
    `clone()` a subclass declares how its fields are copied (`cloning`, simkit/engine/cloning.py)
    and gets the method written for it.
    """

    #: events of the game as plain tuples, rendered by the game's `render_log`
    events: list
    #: how `clone()` copies each field; a class declaring it gets its `clone` generated
    cloning: ClassVar[Cloning | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        inherited = getattr(cls.clone, "generated_from", None)
        written = "clone" in cls.__dict__ or (cls.clone is not State.clone and inherited is None)
        if cls.cloning is not None and not written:
            cls.clone = clone_function(cls, cls.cloning, State)  # type: ignore[method-assign]
            cls.reseeded_clone = clone_function(  # type: ignore[method-assign]
                cls, cls.cloning, State, reseeded=True)

    def to_act(self) -> tuple[int, ...]:
        """Seats that must decide now: several for a simultaneous choice, one otherwise."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> Sequence[Action] | None:
        """Every legal action of `seat`, or None where they cannot be listed (use is_legal)."""
        raise NotImplementedError

    def is_legal(self, seat: int, action: Action) -> bool:
        legal = self.legal_actions(seat)
        return legal is not None and action in legal

    def observe(self, seat: int) -> Any:
        """What `seat` may see now, and nothing more. Comparable with ==."""
        raise NotImplementedError

    def apply(self, actions: Sequence[Action]) -> None:
        """Apply one decision step: one action per seat of `to_act()`, in that order.

        Raises IllegalAction (with the offending seat) and leaves the state unchanged then.
        """
        raise NotImplementedError

    def is_over(self) -> bool:
        raise NotImplementedError

    def outcome(self) -> Outcome:
        raise NotImplementedError

    def clone(self) -> Self:
        """A fully independent copy: playing on it never changes this state."""
        raise NotImplementedError

    def reseeded_clone(self, rng: np.random.Generator) -> Self:
        """`clone()` with `rng` as the copy's chance generator (generated with `clone` from
        `cloning`): for `determinize`, which hands the copy the searcher's generator anyway."""
        copy = self.clone()
        for name in self.cloning.generators if self.cloning is not None else ():
            setattr(copy, name, rng)
        return copy

    def determinize(self, seat: int, rng: np.random.Generator) -> State:
        """A full state consistent with `seat`'s observation, hidden information resampled."""
        raise NotImplementedError

    def audit(self) -> list[str]:
        """Invariant violations (conservation of cards, legality of zones); empty when sound."""
        return []


#: the config and state classes of one game: `Game[SixNimmtConfig, SixNimmtState]`
ConfigT = TypeVar("ConfigT", bound=GameConfig)
StateT = TypeVar("StateT", bound=State)


def _no_step_cap(config: GameConfig, n_players: int) -> int:
    return 100_000


@dataclass(frozen=True)
class Game(Generic[ConfigT, StateT]):
    """A registry entry: everything the runner and the CLI need to know about a game.

    Generic over the game's config and state classes, so that mypy checks each entry's functions
    against them; code that serves every game (the registry, the loop) holds a `Game[Any, Any]`.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    config_cls: type[ConfigT]
    new_state: Callable[[ConfigT, int, np.random.Generator], StateT]
    rules_version: str
    render_log: Callable[[StateT], str]
    format_action: Callable[[Action], str] = repr
    #: text -> action (the inverse of format_action), where the game offers it; `simkit play`
    #: uses it for moves that cannot be listed. Raises ValueError (or IllegalAction) on text it cannot read.
    parse_action: Callable[[str], Action] | None = None
    #: observation -> text for a person (`simkit play`); None uses a generic field listing
    describe_observation: Callable[[Any], str] | None = None
    #: state -> text: a readable, complete position (FEN-like), the inverse of parse_position
    format_position: Callable[[StateT], str] | None = None
    #: (text, config) -> state; raises PositionError naming what is wrong with the text
    parse_position: Callable[[str, ConfigT], StateT] | None = None
    #: (state, seat) -> a short list of good legal moves, for search strategies in games whose
    #: moves cannot be listed (legal_actions returns None); None where every move can be listed
    candidate_actions: Callable[[StateT, int], Sequence[Action]] | None = None
    #: (state, seat) -> float in [0, 1]: a cheap value of a position for a seat, 1/2 when level
    #: (`simkit.engine.evaluation.standing`); search strategies score a rollout they cut short
    #: with it (docs/search.md). None: a cut rollout scores the reward's neutral value
    evaluate: Callable[[StateT, int], float] | None = None
    #: state -> the round (hand) being played, in a game of several rounds: a search may cut
    #: its rollouts where it changes (the end of a 6 nimmt! round). None: no such boundary
    round_of: Callable[[StateT], int] | None = None
    #: module of an array engine playing many games at once (`batch_supported(spec)`,
    #: `play_range_batch(spec, start, stop)`), chosen by `--engine batch|auto`; None: scalar only
    batch_engine: str | None = None
    #: module of a compiled kernel (`kernel_supported(spec)`, `play_range_kernel(spec, start,
    #: stop)`; simkit/engine/kernels.py), chosen by `--engine kernel|auto`; None: no kernel
    kernel_engine: str | None = None
    #: "module:Class" of the game's `KernelRollout` (`KernelRollout(info, rollout_spec)`, whose
    #: `play(state, rngs, left, round_cut)` plays a search rollout in the compiled kernel exactly
    #: as `Simulator._play` does in Python: docs/search.md, "Kernel rollouts"); None: Python only
    kernel_rollout: str | None = None
    #: "module:Class" of the game's compiled search iterations, built as Class(info, rollout_spec)
    #: (ValueError: cannot), whose `run(...)` plays ISMCTS iterations exactly as the Python loop
    #: (docs/search.md, "Compiled search iterations"); None: the Python loop only
    kernel_search: str | None = None
    #: config -> (seconds, late action) when the config sets a per-decision time budget, else
    #: None: runs then wrap every seat in `simkit.engine.timed.Timed`, which submits the late
    #: action for a decision that took longer (Rummikub R18)
    decision_budget: Callable[[ConfigT], tuple[float, Action] | None] | None = None
    higher_is_better: bool = True
    #: the strongest built-in bot (measured; the bar a search agent must beat), used as a study's
    #: default skilled player (`simkit luck`)
    strongest_bot: str = "random"
    #: what a score counts, singular and plural ("bullhead", "bullheads"): the report's score
    #: axes and sentences name it
    score_unit: tuple[str, str] = ("point", "points")
    #: a game of several scored rounds (hands): its Outcome has round_scores, and seats.parquet
    #: a `round_scores` column (one list of points per seat row)
    has_rounds: bool = False
    #: a game without rounds that records a running score (singular, plural: what it counts):
    #: its Outcome has `running`, and seats.parquet a `running_score` column (the game's arc)
    running_unit: tuple[str, str] | None = None
    description: str = ""
    #: (config, players) -> upper bound on decision steps of one game (the loop's hard cap)
    max_steps: Callable[[ConfigT, int], int] = _no_step_cap

    def players_allowed(self) -> str:
        """`3 to 5`, or `2` for a game of one player count."""
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players} to {self.max_players}"
