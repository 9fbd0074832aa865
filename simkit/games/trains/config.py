"""Game of Trains rule variants: every [CHOICE] of the spec as a validated field."""

from __future__ import annotations

from dataclasses import dataclass

from simkit.engine.config import GameConfig, setting
from simkit.engine.errors import ConfigError


@dataclass(frozen=True)
class TrainsConfig(GameConfig):
    effect_table: str = setting(
        "seed", "§1.2 number->effect table: 'seed' as printed in the rulebook, 'periodic' = CYCLE[(n-1)%8]",
        choices=("seed", "periodic"))
    max_turns: int = setting(
        1000, "T15 actions (setup not counted) after which the game ends as a draw", min=1, max=1_000_000)
    start_seat: int = setting(
        -1, "T4 start player: -1 = a uniformly random seat, 0..3 = that seat always starts", min=-1, max=3)
    setup_order: str = setting(
        "sequential", "T5-T7: 'sequential' (each player draws, keeps and places in turn) or "
        "'simultaneous' (all draw, then all keep, then all place)", choices=("sequential", "simultaneous"))
    used_card: str = setting(
        "after", "T10: the used card goes to the discard pile 'after' its effect resolved "
        "or 'before' (then it can be part of a reshuffle during effects 5-7)", choices=("after", "before"))
    used_card_stays: bool = setting(
        False, "T10/T11: the used card stays in the display while its effect resolves, so a card "
        "of the same effect that an effect 5-7 brings in pairs with it and both are discarded "
        "(default false: the card leaves the display when chosen); needs used_card='after'")
    pair_keep: str = setting(
        "last", "T11: with an odd number of same-effect cards entering together, the 'last' "
        "arrival stays (or the 'first' card)", choices=("last", "first"))
    reshuffle: str = setting(
        "lazy", "T13: shuffle the discard pile into a new draw pile when a draw finds it empty "
        "('lazy') or as soon as the last card is drawn ('eager')", choices=("lazy", "eager"))
    move_semantics: str = setting(
        "insert", "T19/T20 effects 3/4: 'insert' (the card passes 2 cards) or 'swap' "
        "(it swaps with the card 2 places away)", choices=("insert", "swap"))
    refill_stop: str = setting(
        "immediate", "T21-T23: refills stop at the first ascending train ('immediate') or all "
        "refills are made and the first ascending train clockwise from the actor wins ('complete')",
        choices=("immediate", "complete"))
    allow_all_locked_removal: bool = setting(
        True, "T21-T23: effect 5/6/7 may be used even when every affected slot is locked")
    lock_voiding: str = setting(
        "range", "T24: the owner's effect 1-4 voids a lock when its slot is in the 'range' of "
        "moved cards, or only when it holds a 'chosen' card", choices=("range", "chosen"))
    double_lock: bool = setting(
        False, "T24: allow a second (wasted) lock on an already locked slot")
    unseen_cards: bool = setting(
        False, "§8: also give each observation the set of cards whose place the seat cannot "
        "know (default: the public event log only)")

    def check(self) -> None:
        if self.used_card_stays and self.used_card != "after":
            raise ConfigError(f"used_card_stays=true keeps the used card in the display while its "
                              f"effect resolves, so it cannot be discarded before: allowed with it is "
                              f"used_card='after', not {self.used_card!r}")

    def check_players(self, n_players: int) -> None:
        if not 2 <= n_players <= 4:
            raise ConfigError(f"Game of Trains takes 2 to 4 players, not {n_players}")
        if self.start_seat >= n_players:
            raise ConfigError(f"start_seat={self.start_seat} is not a seat of a {n_players}-player "
                              f"game: allowed is -1 (random) or 0..{n_players - 1}")
