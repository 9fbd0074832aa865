"""A two-sided match summary (side A against side B) from the seats table.

Used by `simkit compare` (to decide when to stop) and by the report (for any run with two
strategies). Sides are boolean masks over the seats rows, so two copies of one strategy (e.g.
`random` against `random`) are told apart by their lineup slots.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt
import pandas as pd

from simkit.stats.elo import SPRT, EloEstimate, elo_pentanomial, elo_wdl
from simkit.stats.pairwise import PairwiseUnits, pairwise_elo, pairwise_units
from simkit.stats.sequential import SequentialEstimate, sequential_estimate
from simkit.stats.tables import game_results, pentanomial, trinomial
from simkit.stats.wording import ci, ci_pct, elo_text, nelo_text, number, pct


@dataclass(frozen=True)
class MatchSummary:
    """W/D/L of A against B, pentanomial pair counts when games come in duplicate pairs, the
    game-level Elo estimate (from the pentanomial counts when there are pairs, else the
    trinomial ones), the pairwise Elo (seat comparisons, the same meaning for any number of
    players; see `pairwise.py`) and the SPRT state when a test is given.

    The game-level W/D/L reduce a game to a win when A ranked better in most (A seat, B seat)
    comparisons: with more than two players that Elo grows with the player count for the same
    two strategies. `pairwise` does not; with two players both are the same. The SPRT (`llr`,
    `decision`) is computed on the pairwise unit scores, so its bounds are pairwise Elo.
    """

    a: str
    b: str
    games: int
    wins: int
    draws: int
    losses: int
    penta: list[int] | None
    estimate: EloEstimate
    trinomial_estimate: EloEstimate
    sprt: SPRT | None = None
    llr: float | None = None
    decision: str | None = None
    pairwise: EloEstimate | None = None
    units: PairwiseUnits | None = None

    @property
    def counts(self) -> list[int]:
        """Game-level counts: pentanomial when available, else [L, D, W]. With two players
        they are the counts of the SPRT's unit scores; with more, the SPRT uses `units`."""
        return self.penta if self.penta is not None else [self.losses, self.draws, self.wins]

    @cached_property
    def sequential(self) -> SequentialEstimate | None:
        """The bias-adjusted pairwise Elo and interval after the SPRT (see `sequential.py`);
        None without an SPRT. After a sequential stop use it, not `estimate` or `pairwise`:
        their intervals assume a fixed number of games."""
        if self.sprt is None or self.units is None:
            return None
        u = self.units
        return sequential_estimate(self.sprt, u.values, u.counts, u.games_per_unit)

    @property
    def two_seats(self) -> bool:
        """True when each game has one seat of A and one of B (two players): then a game is
        one seat comparison, and W/D/L are wins, draws and losses in the usual sense."""
        u = self.units
        return u is None or u.games == 0 or u.comparisons == u.games

    def to_dict(self) -> dict:
        d = asdict(self)
        seq = self.sequential
        d["sequential"] = asdict(seq) if seq is not None else None
        d["estimate"] = asdict(self.estimate)
        d["trinomial_estimate"] = asdict(self.trinomial_estimate)
        d["sprt"] = asdict(self.sprt) if self.sprt else None
        if self.sprt:
            d["bounds"] = [self.sprt.lower, self.sprt.upper]
        return d

    def verdict(self) -> str:
        """One sentence a person can act on."""
        if self.sprt is None or self.decision is None:
            return f"no decision: the SPRT bounds were not reached after {self.games} games"
        unit = "Elo" if self.sprt.model == "logistic" else "nElo"
        if self.decision == "H1":
            return (f"H1 accepted: {self.a} is stronger than {self.b} "
                    f"(at least {self.sprt.elo1:g} {unit} more likely than {self.sprt.elo0:g})")
        return (f"H0 accepted: {self.a} is not {self.sprt.elo1:g} {unit} stronger than {self.b} "
                f"({self.sprt.elo0:g} {unit} more likely)")


def match_summary(seats: pd.DataFrame, is_a: npt.ArrayLike, is_b: npt.ArrayLike, a: str = "A", b: str = "B",
                  sprt: SPRT | None = None) -> MatchSummary:
    """Summarise the games of `seats` as a match of side A against side B (see module doc)."""
    res = game_results(seats, is_a, is_b)
    losses, draws, wins = trinomial(res)
    penta = pentanomial(res)
    tri = elo_wdl(wins=wins, draws=draws, losses=losses)
    est = elo_pentanomial(penta) if penta is not None else tri
    units = pairwise_units(seats, is_a, is_b)
    llr = decision = None
    if sprt is not None:
        llr = sprt.llr_units(units.values, units.counts, units.games_per_unit)
        decision = sprt.decision(llr)
    return MatchSummary(a, b, int(len(res)), wins, draws, losses, penta, est, tri, sprt, llr,
                        decision, pairwise_elo(units), units)


def lineup_sides(strategies: list[str]) -> tuple[list[int], list[int]]:
    """Slots of side A and side B in a compare lineup (A on even slots, B on odd ones)."""
    n = len(strategies)
    return [k for k in range(n) if k % 2 == 0], [k for k in range(n) if k % 2 == 1]


def sides_from_slots(seats: pd.DataFrame, a_slots: Iterable[int], b_slots: Iterable[int]
                     ) -> tuple[np.ndarray, np.ndarray]:
    slot = seats["slot"].to_numpy()
    return np.isin(slot, list(a_slots)), np.isin(slot, list(b_slots))


def format_paired(seats: pd.DataFrame) -> str | None:
    """Terminal text of the paired analysis of a duplicate run (None for other runs), in the
    report's words: the deal-averaged win share per game and score per strategy, and for two
    strategies the match: the strength as pairwise Elo (the report's one rating scale), then
    the game-level W/D/L figures, labelled as such."""
    from simkit.stats.tables import aligned, paired_table, player_key, players

    table = paired_table(seats)
    if table is None:
        return None
    headers = ["strategy", "deals", "win share per game", "95% CI", "mean score", "95% CI"]
    body = [[str(r.player), f"{r.deals}", pct(r.win_share), ci_pct(r.win_low, r.win_high),
             number(r.mean_score), ci(r.score_low, r.score_high)] for r in table.itertuples()]
    lines = ["paired by deal (each deal played in every seat rotation; deals as units):"]
    lines += aligned(headers, body)
    names = players(seats)
    if len(names) == 2:
        key = player_key(seats)
        m = match_summary(seats, (key == names[0]).to_numpy(), (key == names[1]).to_numpy(),
                          names[0], names[1])
        lines += match_lines(m)
    return "\n".join(lines)


def outcome_labels(m: MatchSummary) -> str:
    """`W / D / L` with two players; with more, a game is a table A won, tied or lost (more
    than half, half or less than half of its seat comparisons), never called W/D/L."""
    return "W / D / L" if m.two_seats else "tables won / level / lost"


def outcome_counts(m: MatchSummary) -> str:
    """`434 / 55 / 11`: the game-level counts in the order of `outcome_labels`."""
    return f"{m.wins} / {m.draws} / {m.losses}"


def match_lines(m: MatchSummary) -> list[str]:
    """The strength line (pairwise Elo, its interval, units and LOS) and the game-level line
    (W/D/L, pentanomial, Elo, nElo, LOS) of a match, as the terminal prints them."""
    lines = []
    if m.pairwise is not None and m.units is not None:
        p = m.pairwise
        lines.append(f"strength: pairwise Elo {elo_text(p)} (95%, {m.a} against {m.b}: every "
                     f"{m.a} seat against every {m.b} seat of a game, {m.units.n} "
                     f"{m.units.unit}s as units), LOS {pct(p.los, 2)}")
    e = m.estimate
    counts = (f"W {m.wins} / D {m.draws} / L {m.losses}" if m.two_seats else
              f"won {m.wins} / level {m.draws} / lost {m.losses} tables")
    lines.append(f"game level: {m.a} {counts}"
                 + (f", pentanomial {m.penta} (LL, LD, WL+DD, WD, WW)" if m.penta else "")
                 + f"; Elo {elo_text(e)} (95%), nElo {nelo_text(e)}, LOS {pct(e.los, 2)}"
                   f"  [{e.model}]")
    return lines
