"""Finding strategies: built-in names with parameters, module:Class plug-ins, clear errors."""

import pytest

from simkit.engine.errors import ConfigError, UnknownNameError
from simkit.engine.strategy import available_strategies, parse_strategy


def test_builtin_with_parameters():
    spec = parse_strategy("heuristic:caution=0.5", "sixnimmt")
    assert spec.target == "strategies.sixnimmt.heuristic:HeuristicStrategy"
    assert spec.params == (("caution", 0.5),) and spec.build().caution == 0.5


def test_module_class_plugin_with_parameters():
    spec = parse_strategy("tests.plugins:Crashes:after=5", "sixnimmt")
    assert spec.build().after == 5


@pytest.mark.parametrize("text, message", [
    ("nope", "unknown strategy 'nope' for sixnimmt: allowed are heuristic, highest, ismcts, lowest, mc, "
             "random"),
    ("heuristic:depth=2", "unknown parameter 'depth'; allowed are caution"),
    ("heuristic:caution", "must look like key=value"),
    ("heuristic:caution=x", "not a number"),
    ("heuristic:caution=-1", "caution=-1.0 is not allowed"),
    ("tests.nothere:Bot", "cannot import strategy module 'tests.nothere'"),
    ("tests.plugins:Missing", "is not a Strategy class"),
    ("random:", "nothing after ':': give key=value parameters or leave the ':' out"),
    ("heuristic:caution=0.5,caution=0.7", "parameter 'caution' is given twice; give it once"),
])
def test_bad_strategy_names_are_explained(text, message):
    with pytest.raises((UnknownNameError, ConfigError), match=message):
        parse_strategy(text, "sixnimmt")


def test_every_builtin_has_a_description():
    from simkit.engine.strategy import load_class
    for game in ("sixnimmt",):
        for name, target in available_strategies(game).items():
            assert load_class(target).description, name


PLUGIN_WITH_STRING_ANNOTATIONS = '''
from __future__ import annotations

from simkit.engine.strategy import Strategy


class Tuned(Strategy):
    def __init__(self, depth: int | None = None, weight: float = 1.0, label: str = "x") -> None:
        self.depth, self.weight, self.label = depth, weight, label

    def act(self, decision):
        return decision.legal_actions[0]
'''


def test_plugin_parameters_typed_by_string_annotations(tmp_path, monkeypatch):
    """`from __future__ import annotations` turns `int | None` into text; the value must still parse."""
    (tmp_path / "tuned_plugin.py").write_text(PLUGIN_WITH_STRING_ANNOTATIONS)
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = parse_strategy("tuned_plugin:Tuned:depth=3,weight=0.5,label=7", "sixnimmt").build()
    assert (bot.depth, bot.weight, bot.label) == (3, 0.5, "7")
    assert parse_strategy("tuned_plugin:Tuned:depth=none", "sixnimmt").build().depth is None
    with pytest.raises(ConfigError, match="depth"):
        parse_strategy("tuned_plugin:Tuned:depth=deep", "sixnimmt")
