"""Estimators over the run tables: win shares, intervals, seat effects, ratings, Elo and SPRT.

Everything here is a pure function of `games.parquet` / `seats.parquet` (as pandas DataFrames),
so it works for every game. See docs/statistics.md for the definitions.
"""

from simkit.stats.elo import (
    SPRT,
    EloEstimate,
    elo_pentanomial,
    elo_to_score,
    elo_wdl,
    llr_logistic,
    llr_normalized,
    score_to_elo,
)
from simkit.stats.intervals import MeanCI, mean_ci, quantiles, wilson
from simkit.stats.match import MatchSummary, format_paired, match_summary
from simkit.stats.multiple import (
    benjamini_hochberg,
    flag_significant,
    flag_sweep,
    holm,
    seat_effect_flags,
)
from simkit.stats.pairwise import PairwiseUnits, pairwise_elo, pairwise_units
from simkit.stats.ratings import plackett_luce
from simkit.stats.sequential import SequentialEstimate, sequential_estimate
from simkit.stats.strategy_tests import strategy_effect_flags, strategy_win_pvalues
from simkit.stats.tables import (
    balance,
    format_summary,
    game_results,
    head_to_head,
    paired_table,
    pentanomial,
    player_key,
    players,
    running_win_share,
    score_quantiles,
    seat_effects,
    seat_independence,
    seat_strategy_table,
    summary_table,
    trinomial,
    winning_margins,
)

__all__ = [
    "SPRT", "EloEstimate", "MatchSummary", "MeanCI", "format_paired", "match_summary", "balance",
    "elo_pentanomial", "elo_to_score", "elo_wdl",
    "format_summary", "game_results", "head_to_head", "llr_logistic", "llr_normalized",
    "mean_ci", "paired_table", "pentanomial", "plackett_luce", "player_key", "players",
    "quantiles", "running_win_share", "score_quantiles", "score_to_elo", "seat_effects",
    "seat_independence", "seat_strategy_table", "summary_table", "trinomial", "wilson",
    "winning_margins", "PairwiseUnits", "pairwise_elo", "pairwise_units", "SequentialEstimate",
    "sequential_estimate", "holm", "benjamini_hochberg", "flag_significant", "flag_sweep",
    "seat_effect_flags", "strategy_effect_flags", "strategy_win_pvalues",
]
