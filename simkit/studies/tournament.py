"""Tournaments: round robin or gauntlet over named strategies, with a crosstable.

A tournament is a ladder (simkit/studies/ladder.py plays it: one duplicate-deal run folder per
pairing, shared deals, resume pairing by pairing); this module only turns the ladder's
pairwise scores into a crosstable, the way chess tournament runners print one: a row per agent,
a column per opponent, the row agent's pairwise score against that opponent (the share of
seat comparisons it wins, draws half), and its mean over the opponents it met.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from simkit.engine.records import write_text_file
from simkit.studies.ladder import LadderResult

CROSSTABLE_CSV = "crosstable.csv"


def crosstable(result: LadderResult) -> pd.DataFrame:
    """Agents x opponents: the row agent's pairwise score (0..1, NaN where they did not meet),
    then `mean` (over the opponents met) and `rank` (1 = best mean)."""
    agents = list(result.plan["agents"])
    table = pd.DataFrame(math.nan, index=pd.Index(agents, name="agent"), columns=agents)
    for pair in result.pairs:
        table.loc[pair.a, pair.b] = pair.score
        table.loc[pair.b, pair.a] = 1.0 - pair.score
    table["mean"] = table[agents].mean(axis=1, skipna=True)
    table["rank"] = table["mean"].rank(ascending=False, method="min")
    return table


def crosstable_text(table: pd.DataFrame) -> str:
    """The crosstable for a terminal: agents numbered, opponents as column numbers, scores in %."""
    agents = [c for c in table.columns if c not in ("mean", "rank")]
    width = max(len(a) for a in agents) + 4
    head = f"{'':<{width}}" + "".join(f"{k + 1:>7}" for k in range(len(agents))) + f"{'mean':>8}{'rank':>6}"
    lines = [head]
    scores = table[agents].to_numpy(dtype=float)
    means, ranks = table["mean"].to_numpy(dtype=float), table["rank"].to_numpy(dtype=float)
    for k, agent in enumerate(agents):
        cells = []
        for j in range(len(agents)):
            value = scores[k, j]
            text = "-" if j == k else "" if math.isnan(value) else f"{100 * value:.1f}%"
            cells.append(f"{text:>7}")
        rank_text = "" if math.isnan(ranks[k]) else str(int(ranks[k]))
        mean = means[k]
        lines.append(f"{f'{k + 1}. {agent}':<{width}}" + "".join(cells) + f"{100 * mean:7.1f}%{rank_text:>6}")
    lines.append("each cell: the row agent's pairwise score against the column agent (the share of "
                 "seat comparisons it wins, draws half); mean over the opponents met")
    return "\n".join(lines)


def write_crosstable(out_dir: Path | str, table: pd.DataFrame) -> Path:
    path = Path(out_dir) / CROSSTABLE_CSV
    write_text_file(path, table.to_csv())
    return path
