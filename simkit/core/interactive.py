"""A person plays one seat against strategies in the terminal (`simkit play`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from simkit.core.errors import ConfigError, IllegalAction
from simkit.core.game import Action, Game, State
from simkit.core.play import play_out
from simkit.core.seeding import game_streams
from simkit.core.spec import RunSpec
from simkit.core.strategy import Decision, GameInfo, Strategy, StrategySpec

_LONG = 16


def _short(values: tuple) -> str:
    """Space-separated values; a long history shows only its most recent entries."""
    if len(values) > _LONG:
        return f"... ({len(values) - _LONG} earlier) " + " ".join(map(str, values[-_LONG:]))
    return " ".join(map(str, values))


def describe_observation(obs: Any) -> str:
    """Field-by-field text of an observation (dataclass or NamedTuple), skipping empty fields."""
    if dataclasses.is_dataclass(obs):
        items = [(f.name, getattr(obs, f.name)) for f in dataclasses.fields(obs)]
    elif hasattr(obs, "_asdict"):
        items = list(obs._asdict().items())
    else:
        return str(obs)
    lines = []
    for name, value in items:
        if value is None or value == () or value == []:
            continue
        if isinstance(value, tuple) and value and all(isinstance(v, tuple) for v in value):
            lines.append(f"{name}:")
            shown = value[-_LONG:]
            if len(value) > _LONG:
                lines.append(f"  ... ({len(value) - _LONG} earlier)")
            first = len(value) - len(shown)
            lines.extend(f"  {first + i + 1}: {_short(v)}" for i, v in enumerate(shown))
        elif isinstance(value, tuple):
            lines.append(f"{name}: {_short(value)}")
        else:
            lines.append(f"{name}: {value}")
    return "\n".join(lines)


class Person(Strategy):
    """A seat played by a person: shows the observation, asks for a choice or a typed move.

    `ask(prompt, n)` returns a choice in 1..n; `ask_text(prompt)` a typed move (for games whose
    moves cannot be listed, read by Game.parse_action); `show(text)` prints.
    """

    name = "person"

    def __init__(self, game: Game, ask: Callable[[str, int], int], show: Callable[[str], None],
                 ask_text: Callable[[str], str] | None = None):
        self.game = game
        self.ask = ask
        self.show = show
        self.ask_text = ask_text
        self.view = game.describe_observation or describe_observation

    def act(self, decision: Decision) -> Action:
        legal = decision.legal_actions
        self.show("\n" + self.view(decision.observation))
        if legal is None:
            return self._typed_move(decision)
        try:
            legal = sorted(legal)
        except TypeError:
            legal = list(legal)
        fmt = self.game.format_action
        self.show("Your choices: " + "  ".join(f"[{k + 1}] {fmt(a)}" for k, a in enumerate(legal)))
        return legal[self.ask("Your choice", len(legal)) - 1]

    def _typed_move(self, decision: Decision) -> Action:
        game, ask_text = self.game, self.ask_text
        if game.parse_action is None or ask_text is None:
            raise ConfigError(f"{game.name} moves cannot be listed and the game reads no "
                              f"typed moves, so it cannot be played from the terminal")
        while True:
            text = ask_text("Your move")
            try:
                action = game.parse_action(text)
            except (ValueError, IllegalAction) as exc:    # games raise either for unreadable text
                self.show(f"cannot read {text!r}: {exc}")
                continue
            if decision.is_legal(action):
                return action
            self.show(f"{game.format_action(action)} is not legal here")


def play_interactive(game: Game, spec: RunSpec, human_seat: int, ask: Callable[[str, int], int],
                     show: Callable[[str], None], index: int = 0,
                     ask_text: Callable[[str], str] | None = None) -> State:
    """Play game `index` of `spec` with a person in `human_seat` (see `Person`); returns the final state."""
    n = spec.n_players
    if not 0 <= human_seat < n:
        raise ConfigError(f"--seat {human_seat} is not allowed: seats are 0 to {n - 1}")
    streams = game_streams(spec.seed, index, n)
    state = game.new_state(spec.config, n, streams.chance)
    lineup: list[StrategySpec | Strategy] = list(spec.strategies)
    lineup[human_seat] = Person(game, ask, show, ask_text)
    play_out(state, lineup, GameInfo(game.name, spec.config, n), streams.seats, forfeit_on_error=False)
    show("\n" + game.render_log(state))
    return state
