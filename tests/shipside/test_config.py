"""The Config holds every parameter of the spec's §12 table, with the spec's defaults, validated."""

from __future__ import annotations

import pytest

from simkit.engine.config import describe_fields, with_overrides
from simkit.engine.errors import ConfigError, UnknownNameError
from simkit.games.shipside import GAME, ShipsideConfig

#: the `Parameter` column of §12, in table order, with the spec's default
SPEC_TABLE = {
    "deck.values": {**{v: 4 for v in range(0, 11)}, **{v: 2 for v in range(-4, 0)}},
    "deck.marks": None,                       # even split: 0..10 x2, -1..-4 x1 per mark
    "deck.move_symbol": (-4, -3, -2, -1),
    "deck.jellyfish_values": (-4, -3, -2, -1),
    "ships.defenses": (28, 30, 32, 34, 36),
    "setup.ship_order": "random",
    "setup.crew_start": "34-empty",
    "crew.points": {"captain": 1, "mate": 1, "sailor": 1},
    "crew.max_per_ship": 1,
    "setup.hand_size": 4,
    "setup.first_player": "random",
    "rules.max_cards_per_side": 5,
    "rules.play_on_any_side": True,
    "movement.chooser": "player",
    "movement.wrap_around": True,
    "movement.skip_occupied": True,
    "movement.freeze_when_full": True,
    "movement.before_scoring": True,
    "scoring.threshold_inclusive": True,
    "scoring.full_tie": "remove",
    "scoring.ship_points": 1,
    "end.points_to_win": 4,
    "end.tie_result": "draw",
    "octopus.reuse": "on_return",
    "octopus.draw": False,
    "octopus.as_placement": True,
    "octopus.check_origin": True,
    "rum.defense_bonus": 6,
    "rum.uses_per_player": 1,
    "rum.timing": "either",
    "rum.max_per_ship": 1,
    "rum.on_scored": "removed",
    "rules.pass_when_stuck": True,
    "variant.mark_assignment": "random",
    "variant.personal_decks": True,
}


def test_every_section_12_parameter_is_a_field_with_the_spec_default():
    fields = {f.name: f for f in describe_fields(ShipsideConfig)}
    for name, default in SPEC_TABLE.items():
        assert name in fields, f"§12 parameter {name} missing"
        assert fields[name].default == default, name
        assert fields[name].help, f"{name} has no help text"


def test_default_deck_is_52_cards_s2_s3():
    from simkit.games.shipside.rules import tables
    T = tables(ShipsideConfig())
    assert T.n_cards == 52
    assert sum(T.value) == 4 * sum(range(11)) + 2 * sum(range(-4, 0))
    assert sum(1 for m in T.mark if m == 0) == 26                     # S7: 26 starfish
    assert sorted(v for v, m in zip(T.value, T.mark) if m == 0) == \
        sorted(v for v, m in zip(T.value, T.mark) if m == 1)          # same values per mark
    assert sum(T.sym) == 8 and all(T.value[c] < 0 for c in range(52) if T.sym[c])   # S6 default


def test_overrides_by_dotted_name():
    cfg = with_overrides(ShipsideConfig(), {"movement.chooser": "owner", "rum.max_per_ship": "2",
                                            "deck.move_symbol": "[[-2, \"shell\", 0], 5]",
                                            "crew.points": '{"captain": 3, "mate": 2, "sailor": 1}'})
    assert cfg.movement.chooser == "owner" and cfg.rum.max_per_ship == 2
    assert cfg.deck.move_symbol == ((-2, "shell", 0), 5)
    assert cfg.crew.points["captain"] == 3


@pytest.mark.parametrize("overrides, words", [
    ({"movement.chooser": "nobody"}, ["chooser", "nobody", "player", "owner"]),
    ({"rum.max_per_ship": "3"}, ["max_per_ship", "3", "1 to 2"]),
    ({"ships.defenses": "[28, 28, 30]"}, ["ships.defenses", "repeats"]),
    ({"deck.values": "{\"5\": 0}"}, ["deck.values[5]=0"]),
    ({"deck.move_symbol": "[99]"}, ["deck.move_symbol", "99"]),
    ({"deck.move_symbol": "[[1, \"coral\", 0]]"}, ["deck.move_symbol", "coral"]),
    ({"deck.marks": "{\"3\": 9}"}, ["deck.marks[3]=9", "0 to 4"]),
    ({"crew.points": "{\"captain\": 1}"}, ["crew.points", "mate"]),
    ({"setup.hand_size": "30"}, ["hand_size", "30"]),
    ({"variant.enabled": "true", "setup.hand_size": "8", "deck.values": "{\"1\": 20}",
      "deck.marks": "{\"1\": 4}", "deck.move_symbol": "[1]", "deck.jellyfish_values": "[]"},
     ["hand_size=8", "smaller mark"]),
])
def test_bad_values_name_field_value_and_allowed(overrides, words):
    with pytest.raises(ConfigError) as err:
        with_overrides(ShipsideConfig(), overrides)
    for w in words:
        assert w in str(err.value), (w, str(err.value))


def test_unknown_field_is_named():
    with pytest.raises(UnknownNameError, match="movement.speed"):
        with_overrides(ShipsideConfig(), {"movement.speed": "3"})


def test_two_players_only():
    with pytest.raises(ConfigError, match="2-player"):
        ShipsideConfig().check_players(3)
    assert GAME.min_players == GAME.max_players == 2


def test_configs_are_hashable_and_read_only():
    """Frozen like every config: mappings are read-only, equal configs hash equal, a manifest
    round trip (to_dict -> config_from_dict) gives the same config back."""
    from simkit.engine.config import config_from_dict
    a = with_overrides(ShipsideConfig(), {"crew.points": '{"captain": 2, "mate": 1, "sailor": 1}'})
    b = with_overrides(ShipsideConfig(), {"crew.points": '{"captain": 2, "mate": 1, "sailor": 1}'})
    assert a == b and hash(a) == hash(b) and hash(a) != hash(ShipsideConfig())
    with pytest.raises(TypeError, match="read-only"):
        a.crew.points["captain"] = 5
    assert config_from_dict(ShipsideConfig, a.to_dict()) == a
