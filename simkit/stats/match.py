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
    """Terminal text of the paired analysis of a duplicate run (None for other runs): the
    deal-averaged win share and score per strategy, and for two strategies the match figures
    (Elo, nElo, LOS) from the pentanomial counts of the seat-swapped game pairs."""
    from simkit.stats.tables import paired_table, player_key, players

    table = paired_table(seats)
    if table is None:
        return None
    width = max(8, *(len(str(p)) for p in table["player"]))
    lines = ["paired by deal (each deal played in every seat rotation):",
             f"{'strategy':<{width}}  {'deals':>6}  {'win share':>9}  {'95% CI':>13}  "
             f"{'mean score':>10}  {'95% CI':>17}"]
    for r in table.to_dict("records"):
        lines.append(f"{str(r['player']):<{width}}  {r['deals']:>6}  {100 * r['win_share']:>8.1f}%  "
                     f"{100 * r['win_low']:>5.1f}-{100 * r['win_high']:.1f}%  {r['mean_score']:>10.2f}  "
                     f"{r['score_low']:>7.2f} to {r['score_high']:.2f}")
    names = players(seats)
    if len(names) == 2:
        key = player_key(seats)
        m = match_summary(seats, (key == names[0]).to_numpy(), (key == names[1]).to_numpy(),
                          names[0], names[1])
        e = m.estimate
        lines.append(f"{m.a} against {m.b}: W {m.wins} / D {m.draws} / L {m.losses}"
                     + (f", pentanomial {m.penta}" if m.penta else "")
                     + f"; Elo {e.elo:+.1f} ± {e.elo_error:.1f}, nElo {e.nelo:+.1f} ± "
                       f"{e.nelo_error:.1f}, LOS {100 * e.los:.2f}%")
        if m.pairwise is not None and m.units is not None and len(set(seats["seat"])) > 2:
            p = m.pairwise
            lines.append(f"pairwise Elo (seat comparisons, {m.units.unit}s as units) "
                         f"{p.elo:+.1f}, 95% {p.elo_low:+.1f} to {p.elo_high:+.1f}")
    return "\n".join(lines)
