"""The numbers of the report: every table of `simkit.stats` for one run (`RunAnalysis`), and the
comparison of several runs (a sweep's cells).

Nothing here is worded or rendered: `simkit.report.words` says it, `simkit.report.tables` lays
it out in cells, `simkit.report.html` / `markdown` render it, `simkit.report.writer` writes it.
The tables' rows are read as typed records (`StrategyFigures`, `SeatFigures`, ...) so the words
and cells are checked against the columns they use.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import pandas as pd

from simkit.engine.errors import RunFolderError
from simkit.engine.runner import RunResult
from simkit.stats.arc import (
    RUNNING_SCORE,
    arc_column,
    arc_table,
    lead_margins,
    running_scores,
    summarise_table,
)
from simkit.stats.arc import Figure as ArcFigure
from simkit.stats.elo import SPRT, EloEstimate
from simkit.stats.match import MatchSummary, match_summary, sides_from_slots
from simkit.stats.multiple import flag_significant, seat_effect_flags
from simkit.stats.pairwise import pairwise_elo, pairwise_units
from simkit.stats.ratings import plackett_luce
from simkit.stats.rounds import round_score_curves
from simkit.stats.strategy_tests import strategy_effect_flags
from simkit.stats.tables import (
    balance,
    head_to_head,
    paired_table,
    player_key,
    players,
    score_quantiles,
    seat_independence,
    summary_table,
)

RowT = TypeVar("RowT")


def typed_rows(df: pd.DataFrame, row: Callable[..., RowT], fields: Sequence[str]) -> list[RowT]:
    """The rows of `df` in order, each as `row(*columns named by fields)` (Python scalars, as
    pandas gives them in `to_dict("records")`)."""
    return [row(*(rec[f] for f in fields)) for rec in df[list(fields)].to_dict("records")]


class StrategyFigures(NamedTuple):
    """One row of `summary_table`: a strategy's win share against its fair share, its scores."""

    player: str
    games: int
    seats_per_game: float
    win_share: float
    win_low: float
    win_high: float
    fair_share: float
    mean_score: float
    score_low: float
    score_high: float
    forfeits: int


class QuantileFigures(NamedTuple):
    """One row of `score_quantiles` (`n`: the strategy's seats)."""

    player: str
    n: int
    min: float
    q05: float
    q25: float
    q50: float
    q75: float
    q95: float
    max: float
    sd: float


class SeatFigures(NamedTuple):
    """One row of `seat_effect_flags`; `seat` counts from 0 as in the run's tables."""

    seat: int
    games: int
    win_rate: float
    win_low: float
    win_high: float
    fair_rate: float
    advantage: float
    p_value: float
    p_adjusted: float
    significant: bool
    mean_score: float
    score_low: float
    score_high: float
    mean_rank: float


class RatingFigures(NamedTuple):
    """One row of `plackett_luce`: the rating on the Elo scale with its interval."""

    player: str
    rating: float
    low: float
    high: float
    se: float
    games: int


class PairedFigures(NamedTuple):
    """One row of `paired_table` (duplicate deals: figures averaged within each deal first)."""

    player: str
    deals: int
    win_share: float
    win_low: float
    win_high: float
    mean_score: float
    score_low: float
    score_high: float


@dataclass(frozen=True)
class ArcFigures:
    """The game's arc over a run's games: per game (`games`: length, lead changes, decided at,
    comeback, drama), their summary with intervals, and each strategy's lead margin per step."""

    games: pd.DataFrame
    summary: dict[str, ArcFigure]
    margins: pd.DataFrame | None
    #: what the running score counts, plural (the game's score unit, or its `Game.running_unit`)
    unit: str = ""


def arc_figures(seats: pd.DataFrame, higher_is_better: bool, unit: str = "") -> ArcFigures | None:
    """The arc from the seats' running scores; None for a run without them (or one step only)."""
    found = running_scores(seats)
    if found is None or found.cum.shape[2] < 2:
        return None
    table = arc_table(found.cum, found.length, found.win, higher_is_better)
    table.insert(0, "game", found.games)
    return ArcFigures(table, summarise_table(table), lead_margins(seats, higher_is_better), unit)


def arc_unit(manifest: dict[str, Any], seats: pd.DataFrame) -> str:
    """What the arc's running score counts, plural: the game's score unit for points per round,
    its `Game.running_unit` for a `running_score` (Game of Trains: cards in order)."""
    if arc_column(seats) == RUNNING_SCORE:
        try:
            from simkit.engine.registry import get_game

            unit = get_game(str(manifest.get("game", "?"))).running_unit
            if unit is not None:
                return unit[1]
        except Exception:  # an unknown or uninstalled game: the neutral word
            return "points"
    return score_units(manifest)[1]


def arc_reason(manifest: dict[str, Any], seats: pd.DataFrame) -> str | None:
    """Why a run of a game with an arc has none, in one line (None: the game has no arc, or
    the run has one)."""
    try:
        from simkit.engine.registry import get_game

        game = get_game(str(manifest.get("game", "?")))
    except Exception:  # an unknown or uninstalled game: nothing to say
        return None
    if game.running_unit is None:
        return None
    if arc_column(seats) is None:
        return (f"No arc: this run was recorded before simkit kept the running score of {game.title} "
                f"({game.running_unit[1]} after each round of turns); a new run shows it.")
    return ("No arc: no game of this run had a winner and more than one round of turns, so the "
            "lead had no time to move.")


@dataclass
class RunAnalysis:
    """Every table of one run, ready to render. `name` is the run folder's name as typed
    (`p3-rows=3`), `slug` the file-system-safe form used for tables/ and figures/."""

    name: str
    path: Path
    manifest: dict[str, Any]
    games: pd.DataFrame
    seats: pd.DataFrame
    summary: pd.DataFrame
    quantiles: pd.DataFrame
    seat_table: pd.DataFrame
    independence: dict[str, Any]
    h2h_score: pd.DataFrame
    h2h_count: pd.DataFrame
    ratings: pd.DataFrame
    balance: dict[str, Any]
    match: MatchSummary | None = None
    paired: pd.DataFrame | None = None
    compare: dict[str, Any] | None = None
    round_curves: pd.DataFrame | None = None     # score after each round (games with rounds)
    arc: ArcFigures | None = None                # the game's arc (games with running scores)
    #: why a game with an arc has none in this run, one line (an old run folder)
    arc_reason: str | None = None
    #: the summary with each strategy's p-value against its fair share, Holm-adjusted over the
    #: strategies (`strategy_effect_flags`): who is stronger only when it is significant
    strategy_table: pd.DataFrame | None = None
    figures: dict[str, bytes] = field(default_factory=dict)   # name -> PNG bytes
    figure_fonts: dict[str, float] = field(default_factory=dict)   # name -> smallest font (pt)
    slug: str = ""

    @property
    def higher_is_better(self) -> bool:
        return bool(self.manifest.get("higher_is_better", True))

    @property
    def n_players(self) -> int:
        return int(self.manifest.get("n_players") or self.balance.get("n_players") or 0)

    @property
    def score_unit(self) -> str:
        """The game's score unit, plural: `bullheads`, `points`."""
        return score_units(self.manifest)[1]

    @property
    def round_word(self) -> str:
        """What the game calls a round: `hand` for games that count hands (Rummikub)."""
        return "hand" if "hands" in self.games.columns else "round"

    def strategy_figures(self, df: pd.DataFrame | None = None) -> list[StrategyFigures]:
        """The summary's rows (or those of `df`, the summary reordered or filtered)."""
        return typed_rows(self.summary if df is None else df, StrategyFigures,
                          StrategyFigures._fields)

    def quantile_figures(self) -> list[QuantileFigures]:
        return typed_rows(self.quantiles, QuantileFigures, QuantileFigures._fields)

    def seat_figures(self, df: pd.DataFrame | None = None) -> list[SeatFigures]:
        return typed_rows(self.seat_table if df is None else df, SeatFigures, SeatFigures._fields)

    def flagged_seats(self) -> pd.DataFrame:
        """The seats whose win rate is off its fair rate after the correction over the seats."""
        return self.seat_table[self.seat_table["significant"].fillna(False).astype(bool)]

    def strategy_tests(self) -> pd.DataFrame:
        """`strategy_table`, computed from the seats when the analysis was built without it."""
        if self.strategy_table is None:
            self.strategy_table = strategy_effect_flags(self.seats, method="holm")
        return self.strategy_table

    def pl_difference(self) -> tuple[float, float] | None:
        """The match's Plackett–Luce rating difference, A minus B, and its standard error (the
        ratings are centred, so with two strategies rating B = -rating A and the error of the
        difference is se_A + se_B); None without a match of exactly these two strategies."""
        m = self.match
        if m is None:
            return None
        r = {x.player: x for x in self.rating_figures()}
        if m.a not in r or m.b not in r or len(r) != 2:
            return None
        return float(r[m.a].rating - r[m.b].rating), float(r[m.a].se + r[m.b].se)

    def rating_figures(self, df: pd.DataFrame | None = None) -> list[RatingFigures]:
        return typed_rows(self.ratings if df is None else df, RatingFigures, RatingFigures._fields)

    def paired_figures(self) -> list[PairedFigures]:
        assert self.paired is not None
        return typed_rows(self.paired, PairedFigures, PairedFigures._fields)


def _load(run_dir: Path) -> RunResult:
    from simkit.engine.runner import load_run  # the runner imports stats users lazily

    if not (run_dir / "manifest.json").exists():
        raise RunFolderError(f"{run_dir} is not a run folder: it has no manifest.json "
                             f"(give a folder written by `simkit run` or `simkit compare`)")
    return load_run(run_dir)


def safe_name(name: str) -> str:
    """A folder name for tables/ and figures/: letters, digits and -_.= kept, others `_`."""
    keep = "".join(c if (c.isalnum() or c in "-_.=") else "_" for c in name)
    return keep.strip(".") or "run"


def run_names(run_dirs: Sequence[Path]) -> list[str]:
    """Each run's name: its folder's name, with `-2`, `-3`... where two would share a name
    (or a `safe_name`)."""
    names: list[str] = []
    for p in run_dirs:
        n = p.resolve().name or "run"
        base, k = n, 2
        while n in names or safe_name(n) in {safe_name(x) for x in names}:
            n, k = f"{base}-{k}", k + 1
        names.append(n)
    return names


def analyze_run(run_dir: Path | str, name: str | None = None) -> RunAnalysis:
    """Load a run folder and compute every table of the report."""
    run_dir = Path(run_dir)
    result = _load(run_dir)
    games, seats, manifest = result.games, result.seats, dict(result.manifest)
    if len(seats) == 0:
        raise RunFolderError(f"{run_dir} holds no finished games yet: nothing to report")
    hib = bool(manifest.get("higher_is_better", True))
    score, count = head_to_head(seats)
    compare = None
    cpath = run_dir / "compare.json"
    if cpath.exists():
        compare = json.loads(cpath.read_text())
    name = name or run_dir.name
    analysis = RunAnalysis(
        name=name, path=run_dir, manifest=manifest, games=games, seats=seats,
        summary=summary_table(seats), quantiles=score_quantiles(seats),
        seat_table=seat_effect_flags(seats, method="holm"),
        independence=seat_independence(seats),
        h2h_score=score, h2h_count=count, ratings=plackett_luce(seats),
        balance=balance(games, seats, hib), paired=paired_table(seats), compare=compare,
        round_curves=round_score_curves(seats), arc=arc_figures(seats, hib, arc_unit(manifest, seats)),
        slug=safe_name(name),
        strategy_table=strategy_effect_flags(seats, method="holm"))
    if analysis.arc is None:
        analysis.arc_reason = arc_reason(manifest, seats)
    analysis.match = _match(analysis)
    return analysis


def _match(a: RunAnalysis) -> MatchSummary | None:
    """A compare's match as it recorded its sides, else the match of a run's two strategies."""
    if a.compare:
        s = a.compare.get("sprt")
        sprt = SPRT(**s) if s else None
        is_a, is_b = sides_from_slots(a.seats, a.compare["a_slots"], a.compare["b_slots"])
        return match_summary(a.seats, is_a, is_b, a.compare["a"], a.compare["b"], sprt)
    names = players(a.seats)
    if len(names) != 2:
        return None
    key = player_key(a.seats)
    return match_summary(a.seats, (key == names[0]).to_numpy(), (key == names[1]).to_numpy(),
                         names[0], names[1])


def score_units(manifest: dict[str, Any]) -> tuple[str, str]:
    """What the game's score counts, singular and plural (`Game.score_unit`: bullheads, points);
    `score`/`scores` for a game the registry does not know."""
    try:
        from simkit.engine.registry import get_game

        return get_game(str(manifest.get("game", "?"))).score_unit
    except Exception:  # an unknown or uninstalled game: the neutral word
        return ("score", "scores")


def game_title(manifest: dict[str, Any]) -> str:
    """The game's title from the registry (`6 nimmt!`), else its name as recorded."""
    name = str(manifest.get("game", "?"))
    try:
        from simkit.engine.registry import get_game

        return get_game(name).title
    except Exception:  # an unknown or uninstalled game: the report still works from the tables
        return name


# ---------------------------------------------------------------------------------------------
# comparison of several runs (a sweep's cells)

class CellFigures(NamedTuple):
    """One row of `comparison_table`: a cell's seat effect and length, normalised to compare."""

    run: str
    players: int | None
    variant: str
    games: int
    first_seat_ratio: float
    seat_p_holm: float
    seat_effect: bool
    draw_rate: float
    mean_steps: float


def _differing_fields(configs: list[dict[str, Any]]) -> list[str]:
    """The config fields whose values differ between these configs (of one game)."""
    keys = sorted({k for c in configs for k in c})
    return [k for k in keys if len({json.dumps(c.get(k), sort_keys=True) for c in configs}) > 1]


def comparison_table(runs: list[RunAnalysis]) -> pd.DataFrame:
    """One row per run: what differs (config, players, lineup; config fields only between runs
    of the same game) and the headline figures,
    normalised so that cells with different player counts compare: each strategy's win share,
    fair share and their ratio, the first seat's win rate ÷ its fair rate, and the seat-effect
    p-value with its Holm adjustment over the cells."""
    cfgs = [r.manifest.get("config", {}) or {} for r in runs]
    games = [r.manifest.get("game") for r in runs]
    differing = {game: _differing_fields([c for c, g in zip(cfgs, games) if g == game])
                 for game in set(games)}
    rows = []
    for r, c, game in zip(runs, cfgs, games):
        fs = r.balance["first_seat"]
        row = {"run": r.name, "game": r.manifest.get("game"),
               "players": r.manifest.get("n_players"),
               "lineup": ", ".join(map(str, r.manifest.get("strategies", []))),
               "variant": ", ".join(f"{k}={c.get(k)}" for k in differing[game]) or "-",
               "games": len(r.games),
               "first_seat_advantage": fs["advantage"],
               "first_seat_ratio": fs["win_rate"] / fs["fair"] if fs["fair"] else float("nan"),
               "seat_p": r.independence.get("wins_p", float("nan")),
               "seat_test": r.independence.get("wins_test"),
               "draw_rate": r.balance["draw"]["rate"],
               "mean_steps": r.balance["length"].get("steps", {}).get("mean", float("nan")),
               "mean_margin": r.balance["margin"]["mean"]}
        against = pairwise_against_the_rest(r)
        for t in r.strategy_figures():
            row[f"win_share[{t.player}]"] = t.win_share
            row[f"fair_share[{t.player}]"] = t.fair_share
            row[f"balance[{t.player}]"] = t.win_share / t.fair_share
            e = against.get(t.player)
            if e is not None:
                row[f"pairwise_elo[{t.player}]"] = e.elo
                row[f"pairwise_low[{t.player}]"] = e.elo_low
                row[f"pairwise_high[{t.player}]"] = e.elo_high
        rows.append(row)
    df = pd.DataFrame(rows)
    flagged = flag_significant(df, "seat_p", "holm")
    df["seat_p_holm"] = flagged["p_adjusted"]
    df["seat_effect"] = flagged["significant"]
    df.attrs["correction"] = flagged.attrs["correction"]
    return df


def pairwise_against_the_rest(a: RunAnalysis) -> dict[str, EloEstimate]:
    """Each strategy's pairwise Elo against every other seat of its games (with two
    strategies: the match's pairwise Elo, and its negative for the other side)."""
    key = player_key(a.seats).to_numpy()
    out: dict[str, EloEstimate] = {}
    for t in a.strategy_figures():
        mine = key == t.player
        units = pairwise_units(a.seats, mine, ~mine)
        if units.n:
            out[str(t.player)] = pairwise_elo(units)
    return out


def cell_figures(df: pd.DataFrame) -> list[CellFigures]:
    """The rows of a `comparison_table`."""
    return typed_rows(df, CellFigures, CellFigures._fields)


def all_players(runs: list[RunAnalysis]) -> list[str]:
    """Every strategy of the runs, in the order `simkit.stats.tables.players` gives."""
    return players(pd.concat([r.seats[["strategy", "slot"]] for r in runs]))
