"""Shipside rule configuration: every open question of the spec's §12 table is a field.

Dotted names match the table (`deck.values`, `movement.chooser`, `octopus.reuse`, ...).
Defaults are the spec's defaults. A few engine-only fields (`variant.enabled`,
`end.max_turns`) are marked as such in their help text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeGuard

from simkit.engine.config import ConfigSection, GameConfig, setting
from simkit.engine.errors import ConfigError
from simkit.games.shipside import crewstart

MARKS = ("starfish", "shell")


class FrozenMap(dict):
    """A read-only dict, so configs holding mappings stay hashable like any frozen dataclass."""

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items(), key=repr)))

    def _readonly(self, *args, **kwargs):
        raise TypeError("config mappings are read-only: use --set or dataclasses.replace")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly

    def __reduce__(self):
        return (FrozenMap, (dict(self),))


def _freeze_field(section, name: str) -> None:
    value = getattr(section, name)
    if isinstance(value, dict) and not isinstance(value, FrozenMap):
        object.__setattr__(section, name, FrozenMap(value))


def _is_whole(x: object) -> TypeGuard[int]:
    """An int and not a bool (True is an int to Python, not a whole number to a config)."""
    return isinstance(x, int) and not isinstance(x, bool)


CREW_KINDS = ("captain", "mate", "sailor")


def _default_values() -> dict[int, int]:
    values = {v: 4 for v in range(0, 11)}
    values.update({v: 2 for v in range(-4, 0)})
    return dict(sorted(values.items()))


def _default_crew_points() -> dict[str, int]:
    return {"captain": 1, "mate": 1, "sailor": 1}


@dataclass(frozen=True)
class DeckSection(ConfigSection):
    values: dict[int, int] = setting(
        default_factory=_default_values,
        help="S3: card strength -> number of copies (default 0..10 x4, -1..-4 x2 = 52 cards)")
    marks: dict[int, int] | None = setting(
        None, help="S7: strength -> copies carrying the starfish mark (the rest are shell); "
                   "None = an even split, starfish taking the odd copy")
    move_symbol: tuple = setting(
        (-4, -3, -2, -1),
        help="S6: cards with the move-sailor symbol: a strength (all its copies) or a "
             "[strength, mark, copy] triple; default all 8 jellyfish (negative) cards")
    jellyfish_values: tuple = setting(
        (-4, -3, -2, -1),
        help="S5: strengths that are jellyfish cards (no effect beyond their strength; shown "
             "as jellyfish in logs, dumped by the greedy bots)")

    def check(self) -> None:
        _freeze_field(self, "values")
        _freeze_field(self, "marks")
        self._check_values()
        self._check_marks()
        for entry in self.move_symbol:
            self._check_move_symbol(entry)
        for v in self.jellyfish_values:
            if not _is_whole(v):
                raise ConfigError(f"deck.jellyfish_values entry {v!r}: allowed are whole numbers")

    def _check_values(self) -> None:
        if not self.values:
            raise ConfigError("deck.values={} is empty: allowed is a mapping strength -> copies >= 1")
        for v, n in self.values.items():
            if not _is_whole(v) or not -50 <= v <= 50:
                raise ConfigError(f"deck.values has strength {v!r}: allowed are whole numbers from -50 to 50")
            if not _is_whole(n) or not 1 <= n <= 60:
                raise ConfigError(f"deck.values[{v}]={n!r}: allowed is a whole number of copies from 1 to 60")
        total = sum(self.values.values())
        if not 8 <= total <= 200:
            raise ConfigError(f"deck.values holds {total} cards: allowed are 8 to 200")

    def _check_marks(self) -> None:
        if self.marks is None:
            return
        for v, n in self.marks.items():
            if v not in self.values:
                raise ConfigError(f"deck.marks names strength {v!r}, which deck.values does not "
                                  f"hold: allowed are {sorted(self.values)}")
            if not _is_whole(n) or not 0 <= n <= self.values[v]:
                raise ConfigError(f"deck.marks[{v}]={n!r}: allowed is 0 to {self.values[v]} "
                                  f"(the copies of {v} in deck.values)")

    def _check_move_symbol(self, entry) -> None:
        """One deck.move_symbol entry: a strength of the deck, or a [strength, mark, copy] triple
        naming a copy the deck holds."""
        if _is_whole(entry):
            if entry not in self.values:
                raise ConfigError(f"deck.move_symbol names strength {entry}, which deck.values "
                                  f"does not hold: allowed are {sorted(self.values)}")
            return
        if (not isinstance(entry, (tuple, list)) or len(entry) != 3
                or entry[1] not in MARKS or not isinstance(entry[2], int)):
            raise ConfigError(f"deck.move_symbol entry {entry!r} is malformed: allowed is a strength "
                              f"or a [strength, mark, copy] triple with mark one of {MARKS}")
        if entry[0] not in self.values:
            raise ConfigError(f"deck.move_symbol entry {list(entry)!r}: strength {entry[0]} is not in "
                              f"deck.values")
        star = _starfish_counts(self)[entry[0]]
        copies = star if entry[1] == "starfish" else self.values[entry[0]] - star
        if not 0 <= entry[2] < copies:
            raise ConfigError(f"deck.move_symbol entry {list(entry)!r}: there are {copies} {entry[1]} "
                              f"cards of strength {entry[0]}: allowed copies are 0 to {copies - 1}")


@dataclass(frozen=True)
class ShipsSection(ConfigSection):
    defenses: tuple = setting((28, 30, 32, 34, 36),
                              help="S1: the defense value of each ship (one ship per value)")

    def check(self) -> None:
        d = self.defenses
        if not 3 <= len(d) <= 9:
            raise ConfigError(f"ships.defenses={list(d)} has {len(d)} ships: allowed are 3 to 9")
        if any(not _is_whole(x) or not 1 <= x <= 200 for x in d):
            raise ConfigError(f"ships.defenses={list(d)}: allowed are whole numbers from 1 to 200")
        if len(set(d)) != len(d):
            raise ConfigError(f"ships.defenses={list(d)} repeats a value: each ship needs its own "
                              f"defense (ships are named by it)")


@dataclass(frozen=True)
class SetupSection(ConfigSection):
    ship_order: str = setting("random", help="S10: order of the ship row",
                              choices=("random", "ascending"))
    crew_start: str = setting(
        "34-empty",
        help="S11: where the crew start. 34-empty (default): ship 34 (the second-strongest) is "
             "empty, captain/mate/sailor/sailor on 36/32/30/28; 28-empty: the weakest is empty; "
             "middle-empty: the middle ship of the row. General forms: 'empty:30' or "
             "'empty:30+32' (those ships empty, the crew on the others by falling defense), "
             "'empty:#3' (the 3rd ship of the row empty, the crew on the others left to right), "
             "or each token's ship, e.g. '36:captain+34:mate+32:sailor+30:sailor' (#k = the k-th "
             "ship of the row)")
    hand_size: int = setting(4, help="S12: cards dealt to (or chosen by) each player", min=1, max=10)
    first_player: str = setting("random", help="S14: start player (a seat number or random)",
                                choices=("random", "0", "1"))


@dataclass(frozen=True)
class CrewSection(ConfigSection):
    points: dict[str, int] = setting(default_factory=_default_crew_points,
                                     help="S54: points of a captured captain, mate and sailor")
    max_per_ship: int = setting(1, help="S26: crew tokens a ship may hold", min=1, max=4)

    def check(self) -> None:
        _freeze_field(self, "points")
        if set(self.points) != set(CREW_KINDS):
            raise ConfigError(f"crew.points={dict(self.points)!r}: allowed is a mapping with exactly the "
                              f"keys {list(CREW_KINDS)}")
        for k, v in self.points.items():
            if not _is_whole(v) or not 0 <= v <= 10:
                raise ConfigError(f"crew.points[{k!r}]={v!r}: allowed is a whole number from 0 to 10")


@dataclass(frozen=True)
class RulesSection(ConfigSection):
    max_cards_per_side: int = setting(5, help="S20: cards a side of a ship may hold", min=1, max=10)
    play_on_any_side: bool = setting(True, help="S19: cards (and octopus moves) may go to the "
                                                "opponent's side; false = own side only")
    pass_when_stuck: bool = setting(True, help="S18: a player who can take no action passes; "
                                               "false = the game ends at once instead")


@dataclass(frozen=True)
class MovementSection(ConfigSection):
    chooser: str = setting("player", help="S25: who picks the crew's direction: the player who "
                                          "played/moved the card, or the owner of the side it lies on",
                           choices=("player", "owner"))
    wrap_around: bool = setting(True, help="S28: the row's ends are neighbours")
    skip_occupied: bool = setting(True, help="S26: a moving token skips occupied ships; false = an "
                                             "occupied neighbour blocks that direction")
    freeze_when_full: bool = setting(True, help="S29: no movement once ships left = crew on ships")
    before_scoring: bool = setting(True, help="S30: crew moves before the ship is checked; false = "
                                              "after (a captured ship takes its crew)")


@dataclass(frozen=True)
class ScoringSection(ConfigSection):
    threshold_inclusive: bool = setting(True, help="S32: a side captures at total >= defense; false = >")
    full_tie: str = setting("remove", help="S34: both sides full and equal: remove ship and crew, or "
                                           "the ship stays (its cards are cleared)",
                            choices=("remove", "stay"))
    ship_points: int = setting(1, help="S54: points of a captured ship", min=0, max=10)


@dataclass(frozen=True)
class EndSection(ConfigSection):
    points_to_win: int = setting(4, help="S53: reaching this many points ends the game at once; "
                                         "0 = play until every ship is scored", min=0, max=50)
    tie_result: str = setting("draw", help="S55: equal final scores: a draw, or a tiebreak on "
                                           "ships captured (then a draw)",
                              choices=("draw", "tiebreak"))
    max_turns: int = setting(400, help="engine safety cap (not a rule): turns before the game is "
                                       "stopped and scored as it stands", min=10, max=100_000)


@dataclass(frozen=True)
class OctopusSection(ConfigSection):
    reuse: str = setting("on_return", help="S44: on_return = usable again once the ship under it is "
                                           "scored; free = may be picked up and used at once; once = "
                                           "once per game",
                         choices=("on_return", "free", "once"))
    draw: bool = setting(False, help="S41: draw a card after the octopus action")
    as_placement: bool = setting(True, help="S42: the moved card triggers its move symbol and the "
                                            "ship checks, like a played card")
    check_origin: bool = setting(True, help="S45: also check the ship the card left "
                                            "(destination first)")


@dataclass(frozen=True)
class RumSection(ConfigSection):
    defense_bonus: int = setting(6, help="S48: defense added by a rum mug", min=0, max=50)
    uses_per_player: int = setting(1, help="S47: rum mugs each player may place per game", min=0, max=5)
    timing: str = setting("either", help="S17: rum is placed before or after the action (either), "
                                         "or only before", choices=("either", "before"))
    max_per_ship: int = setting(1, help="S52: rum mugs one ship may carry", min=1, max=2)
    on_scored: str = setting("removed", help="S38: when its ship is scored the mug leaves the game, "
                                             "or returns to its owner (one more use)",
                             choices=("removed", "returned"))


@dataclass(frozen=True)
class VariantSection(ConfigSection):
    enabled: bool = setting(False, help="§10 variant 'from bow to stern' on (engine switch)")
    mark_assignment: str = setting("random", help="S56: who gets starfish: random, or the start "
                                                  "player chooses", choices=("random", "chooser"))
    personal_decks: bool = setting(True, help="S58: each player draws from their own pile; false "
                                              "= the remaining cards form one shared pile")


@dataclass(frozen=True)
class ShipsideConfig(GameConfig):
    deck: DeckSection = field(default_factory=DeckSection)
    ships: ShipsSection = field(default_factory=ShipsSection)
    setup: SetupSection = field(default_factory=SetupSection)
    crew: CrewSection = field(default_factory=CrewSection)
    rules: RulesSection = field(default_factory=RulesSection)
    movement: MovementSection = field(default_factory=MovementSection)
    scoring: ScoringSection = field(default_factory=ScoringSection)
    end: EndSection = field(default_factory=EndSection)
    octopus: OctopusSection = field(default_factory=OctopusSection)
    rum: RumSection = field(default_factory=RumSection)
    variant: VariantSection = field(default_factory=VariantSection)

    def check(self) -> None:
        defenses = tuple(self.ships.defenses)
        crewstart.parse(self.setup.crew_start, defenses, crewstart.tokens_for(len(defenses)),
                        self.crew.max_per_ship)
        total = sum(self.deck.values.values())
        if 2 * self.setup.hand_size > total:
            raise ConfigError(f"setup.hand_size={self.setup.hand_size} needs {2 * self.setup.hand_size} "
                              f"cards but deck.values holds {total}")
        if self.variant.enabled:
            starfish = sum(_starfish_counts(self.deck).values())
            smallest = min(starfish, total - starfish)
            if self.setup.hand_size > smallest:
                raise ConfigError(f"setup.hand_size={self.setup.hand_size} is more than the {smallest} "
                                  f"cards of the smaller mark (variant.enabled=true)")

    def check_players(self, n_players: int) -> None:
        if n_players != 2:
            raise ConfigError(f"shipside is a 2-player game: {n_players} players is not allowed")


def _starfish_counts(deck: DeckSection) -> dict[int, int]:
    if deck.marks is None:
        return {v: (n + 1) // 2 for v, n in deck.values.items()}
    return {v: deck.marks.get(v, 0) for v in deck.values}


def starfish_counts(deck: DeckSection) -> dict[int, int]:
    """Copies of each strength carrying the starfish mark (S7); the rest carry the shell."""
    return _starfish_counts(deck)

