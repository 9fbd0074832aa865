"""Config validation and --set overrides (flat and dotted section names)."""

from dataclasses import dataclass

import pytest

from simkit.engine.config import (
    ConfigSection,
    GameConfig,
    config_from_dict,
    describe_fields,
    parse_set_options,
    setting,
    with_overrides,
)
from simkit.engine.errors import ConfigError, UnknownNameError


@dataclass(frozen=True)
class Movement(ConfigSection):
    chooser: str = setting("player", "who chooses", choices=("player", "owner"))
    steps: int = setting(1, "how far", min=1, max=3)


@dataclass(frozen=True)
class DemoConfig(GameConfig):
    rounds: int | None = setting(None, "rounds", min=1)
    ratio: float = setting(0.5, "a ratio", min=0.0, max=1.0)
    fast: bool = setting(False, "a flag")
    values: tuple[int, ...] = setting((1, 2), "some values")
    movement: Movement = setting(default_factory=Movement)


def test_overrides_parse_text_by_field_type():
    cfg = with_overrides(DemoConfig(), {"rounds": "3", "ratio": "0.25", "fast": "yes",
                                        "values": "[4, 5]", "movement.chooser": "owner"})
    assert cfg.rounds == 3 and cfg.ratio == 0.25 and cfg.fast is True
    assert cfg.values == (4, 5) and cfg.movement.chooser == "owner"
    assert with_overrides(cfg, {"rounds": "none"}).rounds is None


@pytest.mark.parametrize("overrides, message", [
    ({"nope": "1"}, "unknown config field 'nope': allowed are rounds, ratio"),
    ({"movement.nope": "1"}, "unknown config field 'movement.nope'"),
    ({"ratio": "2"}, "ratio=2.0 is out of range: allowed is float from 0.0 to 1.0"),
    ({"fast": "maybe"}, "not a boolean"),
    ({"rounds": "x"}, "not a whole number"),
    ({"movement.chooser": "me"}, "chooser='me' is not allowed: allowed is one of 'player', 'owner'"),
    ({"movement": "x"}, "is a section"),
])
def test_bad_overrides_name_the_field_and_the_allowed_values(overrides, message):
    pattern = message.replace("(", r"\(").replace(")", r"\)")
    with pytest.raises((ConfigError, UnknownNameError), match=pattern):
        with_overrides(DemoConfig(), overrides)


def test_describe_fields_flattens_sections():
    names = [f.name for f in describe_fields(DemoConfig)]
    assert names == ["rounds", "ratio", "fast", "values", "movement.chooser", "movement.steps"]


def test_round_trip_through_a_manifest_dict():
    cfg = with_overrides(DemoConfig(), {"values": "[7]", "movement.steps": "2"})
    assert config_from_dict(DemoConfig, cfg.to_dict()) == cfg


def test_set_option_must_have_an_equals_sign():
    assert parse_set_options(["a=1", "b.c = x"]) == {"a": "1", "b.c": "x"}
    with pytest.raises(ConfigError, match="malformed"):
        parse_set_options(["novalue"])
