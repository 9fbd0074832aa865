"""`text_forms` wires a game's actions, position and render modules into its `Game` entry."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest

from simkit.engine.registry import GAME_PACKAGES, get_game
from simkit.engine.text_forms import text_forms

FORMS = {"actions": ("format_action", "parse_action"), "position": ("format_position", "parse_position"),
         "render": ("render_log", "describe_observation")}


@pytest.mark.parametrize("name", list(GAME_PACKAGES))
def test_every_built_in_entry_holds_its_template_modules_functions(name):
    game = get_game(name)
    for module, functions in FORMS.items():
        source = importlib.import_module(f"{GAME_PACKAGES[name]}.{module}")
        for function in functions:
            assert getattr(game, function) is getattr(source, function), (module, function)


def test_each_form_comes_from_its_own_module():
    def module(*names):
        return SimpleNamespace(**{n: (lambda n=n: n) for n in names})

    forms = text_forms(module(*FORMS["actions"]), module(*FORMS["position"]), module(*FORMS["render"]))
    assert sorted(forms) == sorted(f for fs in FORMS.values() for f in fs)
    assert all(forms[name]() == name for name in forms)
