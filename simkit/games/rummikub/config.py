"""Rummikub rule variants: every [CHOICE] of the spec is a field here (spec section 10)."""

from __future__ import annotations

from dataclasses import dataclass

from simkit.engine.config import GameConfig, setting
from simkit.engine.errors import ConfigError


@dataclass(frozen=True)
class RummikubConfig(GameConfig):
    rack_size: int = setting(14, "tiles dealt to each player (R2)", min=1, max=20)
    initial_meld_points: int = setting(30, "minimum value of the initial meld (R11)", min=0, max=200)
    joker_retrieval: str = setting(
        "strict", "R15: 'strict' = a retrieved table joker needs a replacement among its old "
        "meld-mates; 'free' = table jokers may be re-used at will", choices=("strict", "free"))
    joker_in_initial_meld: bool = setting(
        True, "R16: may rack jokers be part of the initial meld (counting their role's value)")
    on_illegal: str = setting(
        "penalty", "R18: an invalid submission -> 'penalty' (restore, draw penalty_tiles), "
        "'draw1' (an ordinary draw) or 'raise' (IllegalAction)", choices=("penalty", "draw1", "raise"))
    penalty_tiles: int = setting(3, "tiles drawn for an invalid submission under on_illegal=penalty (R18)",
                                 min=0, max=10)
    time_budget_s: float = setting(
        0.0, "R18: seconds a strategy may take per decision; over it, its turn is a failed "
        "rearrangement (the on_illegal consequence). 0 = no budget. Results with a budget depend "
        "on the machine's speed and load", min=0, max=3600)
    joker_points: int = setting(30, "rack value of a joker at the end of a hand (R17, R20)", min=0, max=100)
    joker_penalty_when_exhausted: bool = setting(
        True, "R20: jokers count joker_points in the pool-exhausted settlement (R21) too")
    end_rule: str = setting(
        "cycle_of_passes", "R21: with the pool empty the hand ends after a full cycle of passes "
        "('cycle_of_passes'), at once when the last tile is drawn ('pool_empty'), or after one more "
        "turn per player from then on ('one_more_cycle')",
        choices=("cycle_of_passes", "pool_empty", "one_more_cycle"))
    tie_rule: str = setting(
        "split", "R22: ties for the lowest rack total with the pool exhausted: 'split' (co-winners share) "
        "or 'fewest_tiles' (then fewer tiles, then the earlier seat counting from the hand's start player)",
        choices=("split", "fewest_tiles"))
    emulate_start_draw: bool = setting(
        False, "R1: draw start tiles literally (jokers and ties redraw) instead of a uniform start seat")
    hands_per_match: int = setting(1, "hands played in a match, scores summed (R23)", min=1, max=100)

    def check_players(self, n_players: int) -> None:
        if not 2 <= n_players <= 4:
            raise ConfigError(f"players={n_players} is not allowed: Rummikub takes 2 to 4 players")
        if n_players * self.rack_size > 106:
            raise ConfigError(f"rack_size={self.rack_size} with {n_players} players needs "
                              f"{n_players * self.rack_size} tiles; allowed is at most 106 in total")
