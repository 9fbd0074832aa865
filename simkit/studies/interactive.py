"""A person plays one seat against strategies in the terminal (`simkit play`)."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

from simkit.engine.errors import ConfigError, IllegalAction
from simkit.engine.game import Action, Game, State
from simkit.engine.play import play_out
from simkit.engine.seats import seat_label
from simkit.engine.seeding import game_streams
from simkit.engine.spec import RunSpec
from simkit.engine.strategy import Decision, GameInfo, Strategy, StrategySpec

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


def _visible_values(obs: Any) -> set:
    """Every hashable value inside an observation (fields, nested tuples): what the seat sees."""
    found: set = set()
    stack = [obs]
    while stack:
        value = stack.pop()
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            stack.extend(getattr(value, f.name) for f in dataclasses.fields(value))
        elif isinstance(value, (tuple, list, frozenset, set)):
            stack.extend(value)
        else:
            try:
                found.add(value)
            except TypeError:
                pass
    return found


def _takes_history(view: Callable[..., str]) -> bool:
    """Whether a game's describe_observation also reads `before` and `steps` (see `Person`)."""
    try:
        parameters = inspect.signature(view).parameters
    except (TypeError, ValueError):
        return False
    return "before" in parameters and "steps" in parameters


def _plain_number(text: str) -> bool:
    return text.strip().lstrip("-").isdigit()


class Person(Strategy):
    """A seat played by a person: shows the observation, asks for a move.

    The person types a move as shown (`83` for a card, `take row 2`) when the game reads typed
    moves; where the shown moves are not plain numbers, their number in the list works too.
    Without `ask_text`, `ask(prompt, n)` picks the n-th choice. Before each decision, what the
    other seats played since the person's last one is shown, for the moves the person can see
    in the observation anyway (a card played face up; never a hidden choice). A typed move that
    is not legal is explained where the game says why (a state's `violation(seat, action)`).

    A game whose `describe_observation` takes the keywords `before`, `steps` and `config` says
    itself what happened since the person's last decision: it gets the person's previous
    observation, the (seats, actions) of every step since, and the rule config. Such a game
    decides which of those moves a seat may see; the generic line above is then left out.
    """

    name = "person"

    def __init__(self, game: Game, ask: Callable[[str, int], int], show: Callable[[str], None],
                 ask_text: Callable[[str], str] | None = None, names: list[str] | None = None):
        self.game = game
        self.ask = ask
        self.show = show
        self.ask_text = ask_text
        self.view = game.describe_observation or describe_observation
        self.names = names or []
        self.moves: list[tuple[int, Action]] = []      # (seat, action) since the last decision
        #: the game's view when it also tells what happened since the last decision
        self.view_since: Callable[..., str] | None = self.view if _takes_history(self.view) else None
        self.before: Any = None                         # the observation of the last decision
        self.steps: list[tuple[tuple[int, ...], tuple]] = []     # (seats, actions) since then

    def record(self, state: State, step: int, seats: tuple[int, ...], joint: list) -> None:
        """play_out's after-step hook: remember the moves chosen together with the person's
        (a simultaneous reveal, as 6 nimmt!'s cards) since the person's last decision."""
        if self.seat in seats and len(seats) > 1:
            self.moves.extend(zip(seats, joint))
        if self.view_since is not None:
            self.steps.append((tuple(seats), tuple(joint)))

    def _last_moves(self, obs: Any) -> str | None:
        seen = _visible_values(obs)
        shown = []
        for seat, action in self.moves:
            try:
                visible = action in seen
            except TypeError:
                visible = False
            if seat != self.seat and visible:
                who = self.names[seat] if seat < len(self.names) else ""
                shown.append(f"{seat_label(seat)}{f' ({who})' if who else ''} played "
                             f"{self.game.format_action(action)}")
        self.moves = []
        return "Since your last move: " + "; ".join(shown) if shown else None

    def _describe(self, obs: Any) -> str:
        if self.view_since is None:
            last = self._last_moves(obs)
            return (last + "\n" if last else "") + self.view(obs)
        text = self.view_since(obs, before=self.before, steps=tuple(self.steps), config=self.info.config)
        self.before, self.steps = obs, []
        return text

    def act(self, decision: Decision) -> Action:
        legal = decision.legal_actions
        obs = decision.observation
        self.show("\n" + self._describe(obs))
        if legal is None:
            return self._typed_move(decision)
        try:
            legal = sorted(legal)
        except TypeError:
            legal = list(legal)
        fmt = self.game.format_action
        texts = [fmt(a) for a in legal]
        by_value = any(_plain_number(t) for t in texts) and len(set(texts)) == len(texts)
        if self.ask_text is None:
            self.show("Your choices: " + "  ".join(f"[{k + 1}] {t}" for k, t in enumerate(texts)))
            return legal[self.ask("Your choice", len(legal)) - 1]
        if by_value:
            self.show("Your choices: " + "  ".join(texts))
        else:
            self.show("Your choices: " + "  ".join(f"[{k + 1}] {t}" for k, t in enumerate(texts)))
        while True:
            text = self.ask_text("Your move" if by_value else "Your choice")
            chosen = self._choice(text, legal, texts, by_value, decision)
            if chosen is not None:
                return chosen[0]

    def _choice(self, text: str, legal: list, texts: list[str], by_value: bool,
                decision: Decision) -> tuple[Action] | None:
        """The move `text` names (in a 1-tuple), or None after saying why it names none."""
        typed = text.strip().lower()
        for action, shown in zip(legal, texts):
            if shown.lower() == typed:
                return (action,)
        if not by_value and typed.isdigit() and 1 <= int(typed) <= len(legal):
            return (legal[int(typed) - 1],)
        parse = self.game.parse_action
        if parse is not None:
            try:
                action = parse(text)
            except (ValueError, IllegalAction):
                pass
            else:
                for candidate in legal:
                    if candidate == action:
                        return (candidate,)
                self.show(f"{self.game.format_action(action)} is not one of your choices: "
                          f"{self._why(decision, action) or 'type one as shown'}")
                return None
        hint = "type one as shown" if by_value else f"type one as shown or its number 1-{len(legal)}"
        self.show(f"{text.strip()!r} is not one of your choices: {hint}")
        return None

    @staticmethod
    def _why(decision: Decision, action: Action) -> str | None:
        """Why `action` is not legal, where the game's state can say (`violation`)."""
        try:
            explain = getattr(decision.sample_state(), "violation", None)
            reason = explain(decision.seat, action) if explain is not None else None
        except Exception:      # an explanation must never end the person's game
            return None
        return str(reason) if reason is not None else None

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
            why = self._why(decision, action)
            self.show(f"{game.format_action(action)} is not legal here" + (f": {why}" if why else ""))


def play_interactive(game: Game, spec: RunSpec, human_seat: int, ask: Callable[[str, int], int],
                     show: Callable[[str], None], index: int = 0,
                     ask_text: Callable[[str], str] | None = None) -> State:
    """Play game `index` of `spec` with a person in the 0-based `human_seat` (see `Person`; `simkit
    play --seat` counts from 1 and converts); returns the final state."""
    n = spec.n_players
    if not 0 <= human_seat < n:
        raise ConfigError(f"human_seat {human_seat} is not a seat index: seats are 0 to {n - 1}")
    streams = game_streams(spec.seed, index, n)
    state = game.new_state(spec.config, n, streams.chance)
    lineup: list[StrategySpec | Strategy] = list(spec.strategies)
    person = Person(game, ask, show, ask_text, names=[s.text for s in spec.strategies])
    lineup[human_seat] = person
    play_out(state, lineup, GameInfo(game.name, spec.config, n), streams.seats, forfeit_on_error=False,
             after=person.record)
    show("\n" + game.render_log(state))
    return state
