"""A person plays one seat against strategies in the terminal (`simkit play`)."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from simkit.core.errors import ConfigError
from simkit.core.game import Game
from simkit.core.seeding import game_streams
from simkit.core.strategy import Decision, GameInfo


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


def _ask_text(game: Game, state, seat: int, ask_text: Callable[[str], str],
              show: Callable[[str], None]):
    """A typed move for games whose moves cannot be listed (parsed by Game.parse_action)."""
    while True:
        text = ask_text("Your move")
        try:
            action = game.parse_action(text)
        except ValueError as exc:
            show(f"cannot read {text!r}: {exc}")
            continue
        if state.is_legal(seat, action):
            return action
        show(f"{game.format_action(action)} is not legal here")


def play_interactive(game: Game, spec, human_seat: int, ask: Callable[[str, int], int],
                     show: Callable[[str], None], index: int = 0,
                     ask_text: Callable[[str], str] | None = None):
    """Play game `index` of `spec` with a person in `human_seat`; returns the final state.

    `ask(prompt, n)` returns a choice in 1..n; `ask_text(prompt)` a typed move (for games whose
    moves cannot be listed); `show(text)` prints.
    """
    n = spec.n_players
    if not 0 <= human_seat < n:
        raise ConfigError(f"--seat {human_seat} is not allowed: seats are 0 to {n - 1}")
    streams = game_streams(spec.seed, index, n)
    state = game.new_state(spec.config, n, streams.chance)
    info = GameInfo(game.name, spec.config, n)
    bots: dict[int, Any] = {}
    for s in range(n):
        if s != human_seat:
            bot = spec.strategies[s].build()
            bot.setup(info, s, streams.seats[s])
            bots[s] = bot
    decisions = [Decision(state, s, streams.seats[s]) for s in range(n)]
    view = game.describe_observation or describe_observation
    while not state.is_over():
        joint = []
        for s in state.to_act():
            if s != human_seat:
                joint.append(bots[s].act(decisions[s]))
                continue
            legal = state.legal_actions(s)
            if legal is None:
                if game.parse_action is None or ask_text is None:
                    raise ConfigError(f"{game.name} moves cannot be listed and the game reads no "
                                      f"typed moves, so it cannot be played from the terminal")
                show("\n" + view(state.observe(s)))
                joint.append(_ask_text(game, state, s, ask_text, show))
                continue
            try:
                legal = sorted(legal)
            except TypeError:
                legal = list(legal)
            show("\n" + view(state.observe(s)))
            show("Your choices: " + "  ".join(f"[{k + 1}] {game.format_action(a)}"
                                             for k, a in enumerate(legal)))
            joint.append(legal[ask("Your choice", len(legal)) - 1])
        state.apply(joint)
    show("\n" + game.render_log(state))
    return state
