"""6 nimmt! rule configuration: the spec's [CHOICE] points and the knobs a designer sweeps."""

from __future__ import annotations

from dataclasses import dataclass

from simkit.engine.config import GameConfig, setting
from simkit.engine.errors import ConfigError

DECK_SIZE = 104


@dataclass(frozen=True)
class SixNimmtConfig(GameConfig):
    advanced: bool = setting(False, "N18-N19 advanced version: known cards 1..(hand_size*n+rows), open draft")
    rows: int = setting(4, "N2 number of rows on the table", min=1, max=10)
    row_capacity: int = setting(5, "N2/N9 cards a row holds; the next card takes the row", min=1, max=20)
    hand_size: int = setting(10, "N1 cards dealt to each player per round (= turns per round)", min=1, max=50)
    end_threshold: int = setting(66, "N16 the match ends after a round in which some total reaches this "
                                 "(at most 10000: a match of millions of rounds is no study)",
                                 min=1, max=10_000)
    end_inclusive: bool = setting(True, "N16 true: end at total >= threshold (Chinese text); "
                                  "false: > (English)")
    max_rounds: int | None = setting(None, "N16 end after this many rounds even below the threshold "
                                     "(1 = single rounds)", min=1)
    tie_break: str = setting("share", "N17 ties for the fewest bullheads: share (co-winners), last_round "
                             "(fewest in the last round, then share), play_on (more rounds until broken, "
                             "within max_rounds)", choices=("share", "last_round", "play_on"))
    first_drafter: str = setting("random_then_rotate", "N19 first drafter: random in round 1 then clockwise, "
                                 "always seat 0, or highest total (then lowest seat)",
                                 choices=("random_then_rotate", "seat0", "highest_total"))
    public_penalties: bool = setting(True, "§7 penalty-pile contents public (perfect recall); false: only "
                                     "past-round totals")

    def check_players(self, n_players: int) -> None:
        need = n_players * self.hand_size + self.rows
        if need > DECK_SIZE:
            raise ConfigError(
                f"{n_players} players x hand_size {self.hand_size} + rows {self.rows} = {need} cards, "
                f"but the deck has {DECK_SIZE}: lower hand_size or rows (at most "
                f"{(DECK_SIZE - self.rows) // n_players} cards each with {self.rows} rows)")

    def deck_cards(self, n_players: int) -> int:
        """N18: the advanced game uses only cards 1..hand_size*n+rows."""
        return n_players * self.hand_size + self.rows if self.advanced else DECK_SIZE
