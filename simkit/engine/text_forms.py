"""A game's text forms, taken from the modules of the game template by their names.

Every game package has `actions.py` (`format_action`, `parse_action`), `position.py`
(`format_position`, `parse_position`) and `render.py` (`render_log`, `describe_observation`).
`text_forms(actions, position, render)` hands those six functions to the `Game` entry at once,
and the type checker matches each module against the protocol below, so the entry stays
`Game[ConfigT, StateT]` as declared:

    GAME = Game(name="trains", ..., config_cls=TrainsConfig, new_state=new_state,
                **text_forms(actions, position, render))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Protocol, TypedDict, TypeVar

from simkit.engine.game import Action, ConfigT, StateT

_ConfigIn = TypeVar("_ConfigIn", contravariant=True)
_StateIn = TypeVar("_StateIn", contravariant=True)
_State = TypeVar("_State")


class ActionTexts(Protocol):
    """`actions.py`: an action as text and back."""

    def format_action(self, action: Any, /) -> str: ...

    def parse_action(self, text: str, /) -> Any: ...


class PositionTexts(Protocol[_ConfigIn, _State]):
    """`position.py`: a whole state as text and back (docs/architecture.md, positions)."""

    def format_position(self, state: _State, /) -> str: ...

    def parse_position(self, text: str, config: _ConfigIn, /) -> _State: ...


class Renderings(Protocol[_StateIn]):
    """`render.py`: the replay log and what `simkit play` shows a person."""

    def render_log(self, state: _StateIn, /) -> str: ...

    def describe_observation(self, observation: Any, /) -> str: ...


class TextForms(TypedDict, Generic[ConfigT, StateT]):
    """The `Game` fields of the text forms, by their field names."""

    render_log: Callable[[StateT], str]
    describe_observation: Callable[[Any], str]
    format_action: Callable[[Action], str]
    parse_action: Callable[[str], Action]
    format_position: Callable[[StateT], str]
    parse_position: Callable[[str, ConfigT], StateT]


def text_forms(actions: ActionTexts, position: PositionTexts[ConfigT, StateT],
               render: Renderings[StateT]) -> TextForms[ConfigT, StateT]:
    return TextForms(render_log=render.render_log, describe_observation=render.describe_observation,
                     format_action=actions.format_action, parse_action=actions.parse_action,
                     format_position=position.format_position, parse_position=position.parse_position)
