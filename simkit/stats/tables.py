"""Per-strategy, per-seat and per-game tables computed from `seats.parquet` / `games.parquet`.

Every function here is a pure function of the run tables (pandas DataFrames with the columns the
runner writes), so it works for every game. Conventions:

- A *player* is a strategy label as given on the command line. When every slot of the lineup has
  the same label (e.g. `-s random -s random`), the slots are told apart as `random#1`,
  `random#2` (1-based slot); see `player_key`.
- A strategy's *win share* in a game is the sum of its seats' win shares (1/k for k co-winners),
  so it lies in [0, 1] per game; its overall win share is the mean over the games it played.
  Shares of the strategies of a lineup sum to 1 - (draw rate). The *fair share* is its number of
  seats per game divided by the number of players.
- Scores are averaged over a strategy's seats within a game first (NaN, i.e. forfeited, seats
  dropped), then over games, so the interval treats games as the independent units.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

import numpy as np
import numpy.typing as npt
import pandas as pd
from scipy import stats as _st

from simkit.stats.intervals import Z95, mean_ci, mean_ci_from_moments, quantiles, wilson, wilson_arrays
from simkit.stats.seat_tests import blocked_score_test, blocked_seat_tests, has_repeated_deals
from simkit.stats.wording import ci, ci_pct, number, pct

SEAT_COLUMNS = ("game", "deal", "rotation", "seat", "slot", "strategy", "score", "rank", "win",
                "forfeit")


def player_key(seats: pd.DataFrame) -> pd.Series:
    """The label each seats row is grouped by (see module docstring)."""
    labels = seats["strategy"].astype(str)
    slots = seats["slot"]
    if labels.nunique() == 1 and slots.nunique() > 1:
        return labels + "#" + (slots.astype(int) + 1).astype(str)
    return labels


def players(seats: pd.DataFrame) -> list[str]:
    """Players in lineup order (first slot where each appears)."""
    key = player_key(seats)
    first_slot = pd.DataFrame({"p": key, "slot": seats["slot"]}).groupby("p")["slot"].min()
    return list(first_slot.sort_values(kind="stable").index)


def _per_game(seats: pd.DataFrame) -> pd.DataFrame:
    """One row per (player, game): win share, mean score, seats, forfeits."""
    df = pd.DataFrame({
        "player": player_key(seats).to_numpy(),
        "game": seats["game"].to_numpy(),
        "win": seats["win"].to_numpy(dtype=float),
        "score": seats["score"].to_numpy(dtype=float),
        "forfeit": seats["forfeit"].to_numpy(dtype=bool),
    })
    g = df.groupby(["player", "game"], sort=False)
    out = g.agg(win=("win", "sum"), score=("score", "mean"), seats=("win", "size"),
                forfeit=("forfeit", "sum"))
    return out.reset_index()


def summary_table(seats: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Per strategy: games, seats per game, win share with its Wilson interval, fair share,
    mean score with its Student-t interval, and forfeits. Rows in lineup order."""
    if len(seats) == 0:
        return pd.DataFrame(columns=["player", "games", "seats_per_game", "win_share", "win_low",
                                     "win_high", "fair_share", "mean_score", "score_low",
                                     "score_high", "forfeits"])
    n_players = int(seats.groupby("game")["seat"].size().max())
    pg = _per_game(seats)
    pg["score_sq"] = pg["score"] ** 2
    pg["has_score"] = pg["score"].notna()
    agg = pg.groupby("player", sort=False).agg(
        games=("game", "size"), wins=("win", "sum"), seats=("seats", "sum"),
        forfeits=("forfeit", "sum"), score_sum=("score", "sum"), score_sq=("score_sq", "sum"),
        score_n=("has_score", "sum"))
    order = players(seats)
    agg = agg.reindex(order)
    rows = []
    for player, r in agg.iterrows():
        games = int(r["games"])
        wins = float(min(r["wins"], games))
        lo, hi = wilson(wins, games, level)
        m, slo, shi = mean_ci_from_moments(float(r["score_sum"]), float(r["score_sq"]),
                                           int(r["score_n"]), level)
        spg = float(r["seats"]) / games
        rows.append({
            "player": player, "games": games, "seats_per_game": spg,
            "win_share": wins / games, "win_low": lo, "win_high": hi,
            "fair_share": spg / n_players,
            "mean_score": m, "score_low": slo, "score_high": shi,
            "forfeits": int(r["forfeits"]),
        })
    return pd.DataFrame(rows)


def format_summary(table: pd.DataFrame, title: str | None = None) -> str:
    """The summary as aligned plain text for the terminal, in the report's words, in two tables
    that each fit an 80-column terminal: win share per game with its Wilson interval against the
    fair share and their ratio (÷ fair); then the mean score with its interval and the forfeits.
    A strategy holding several seats gets a line under the tables with its win share per seat
    against the fair share per seat."""
    rows = table.to_dict("records")
    wins = [[str(r["player"]), f"{r['seats_per_game']:g}", f"{int(r['games'])}",
             pct(r["win_share"]), ci_pct(r["win_low"], r["win_high"]), pct(r["fair_share"]),
             number(r["win_share"] / r["fair_share"])] for r in rows]
    scores = [[str(r["player"]), number(r["mean_score"]), ci(r["score_low"], r["score_high"]),
               f"{int(r['forfeits'])}"] for r in rows]
    lines = [title] if title else []
    lines += aligned(["strategy", "seats", "games", "win share per game", "95% CI", "fair share",
                      "÷ fair"], wins)
    lines += [""] + aligned(["strategy", "mean score", "95% CI", "forfeits"], scores)
    lines += [f"per seat: {r['player']}, holding {r['seats_per_game']:g} seats, wins "
              f"{pct(r['win_share'] / r['seats_per_game'])} per seat against a fair "
              f"{pct(r['fair_share'] / r['seats_per_game'])}"
              for r in rows if r["seats_per_game"] > 1]
    return "\n".join(lines)


def aligned(headers: list[str], body: list[list[str]]) -> list[str]:
    """Lines of a plain-text table: the first column left-aligned, the others right-aligned,
    a rule of dashes under the header."""
    widths = [max([len(h)] + [len(row[i]) for row in body]) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return [line(headers), "  ".join("-" * w for w in widths)] + [line(row) for row in body]


def score_quantiles(seats: pd.DataFrame, probs: Sequence[float] = (0.05, 0.25, 0.5, 0.75, 0.95)
                    ) -> pd.DataFrame:
    """Per strategy: score quantiles over its seats (forfeited seats dropped), min, max, sd."""
    key = player_key(seats)
    rows = []
    for p in players(seats):
        x = seats.loc[key == p, "score"].to_numpy(dtype=float)
        x = x[~np.isnan(x)]
        row = {"player": p, "n": int(x.size)}
        row.update(quantiles(x, probs))
        row["min"] = float(x.min()) if x.size else float("nan")
        row["max"] = float(x.max()) if x.size else float("nan")
        row["sd"] = float(x.std(ddof=1)) if x.size > 1 else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def seat_effects(seats: pd.DataFrame, level: float = 0.95) -> pd.DataFrame:
    """Per seat (turn order): games, win rate with Wilson interval, fair rate 1/n, advantage
    (win rate - 1/n), mean score with interval, mean rank."""
    rows = []
    n_players = int(seats["seat"].max()) + 1 if len(seats) else 0
    for key, grp in seats.groupby("seat", sort=True):
        seat = int(cast(np.integer, key))  # the stubs type a group key as any scalar
        n = len(grp)
        wins = float(grp["win"].sum())
        lo, hi = wilson(min(wins, n), n, level)
        ci = mean_ci(grp["score"].to_numpy(dtype=float), level)
        rows.append({
            "seat": seat, "games": n, "win_rate": wins / n, "win_low": lo, "win_high": hi,
            "fair_rate": 1.0 / n_players, "advantage": wins / n - 1.0 / n_players,
            "mean_score": ci.mean, "score_low": ci.low, "score_high": ci.high,
            "mean_rank": float(grp["rank"].mean()),
        })
    return pd.DataFrame(rows)


def seat_strategy_table(seats: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each strategy in each seat (rows: strategy, columns: seat)."""
    df = pd.DataFrame({"player": player_key(seats), "seat": seats["seat"], "win": seats["win"]})
    tab = df.pivot_table(index="player", columns="seat", values="win", aggfunc="mean")
    return tab.reindex(players(seats))


def seat_independence(seats: pd.DataFrame) -> dict:
    """Tests of 'the seat does not matter'.

    wins: chi-square goodness of fit of the total win share per seat against equal shares
    (df = n - 1); scores: Friedman test of per-game seat scores, games as blocks (Wilcoxon
    signed-rank for two seats). Both p-values are for the null hypothesis of no seat effect.
    Under fixed seating a seat effect is confounded with the strategies sitting there.

    In duplicate runs (a deal played in several games) the games of a deal share the seat's
    cards, so the deals are the blocks instead (`seat_tests.blocked_seat_tests`: Hotelling's
    T² on the deal totals for wins, reported as wins_chi2; Friedman/Wilcoxon over deals for
    scores). `blocks` ("games" or "deals") and `wins_test` ("chi-square" or "hotelling") say
    which was used.
    """
    out: dict = {"n_players": int(seats["seat"].max()) + 1 if len(seats) else 0}
    if has_repeated_deals(seats):
        out.update(blocked_seat_tests(seats))
        return out
    out.update(blocks="games", wins_test="chi-square")
    wins = seats.groupby("seat")["win"].sum().to_numpy(dtype=float)
    total = wins.sum()
    if len(wins) >= 2 and total > 0:
        chi2, p = _st.chisquare(wins)
        out.update(wins_chi2=float(chi2), wins_df=len(wins) - 1, wins_p=float(p))
    else:
        out.update(wins_chi2=float("nan"), wins_df=max(len(wins) - 1, 0), wins_p=float("nan"))
    wide = seats.pivot_table(index="game", columns="seat", values="score", aggfunc="first")
    out.update(blocked_score_test(wide.dropna()))
    return out


def head_to_head(seats: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Pairwise results between strategies.

    For every game and every pair of seats held by strategies i and j, i scores 1 if it ranked
    better, 1/2 if tied, 0 if worse. Returns (score matrix, count matrix): entry [i, j] is the
    mean score of i against j and the number of seat pairs. The diagonal compares different
    seats of the same strategy (1/2 by symmetry).
    """
    order = players(seats)
    k = len(order)
    code = player_key(seats).map({p: i for i, p in enumerate(order)}).to_numpy()
    games, seat, rank = _wide(seats, code, seats["rank"].to_numpy(dtype=float))
    total = np.zeros(k * k)
    count = np.zeros(k * k)
    n = seat.shape[1]
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            ok = (seat[:, i] >= 0) & (seat[:, j] >= 0)
            ri, rj = rank[ok, i], rank[ok, j]
            res = np.where(ri < rj, 1.0, np.where(ri == rj, 0.5, 0.0))
            idx = (seat[ok, i] * k + seat[ok, j]).astype(np.int64)
            total += np.bincount(idx, weights=res, minlength=k * k)
            count += np.bincount(idx, minlength=k * k)
    with np.errstate(invalid="ignore", divide="ignore"):
        score = pd.DataFrame((total / count).reshape(k, k), index=order, columns=order)
    counts = pd.DataFrame(count.reshape(k, k).astype(int), index=order, columns=order)
    return score, counts


def _wide(seats: pd.DataFrame, code: np.ndarray, rank: np.ndarray
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(game ids, code[g, seat], rank[g, seat]) as games x seats arrays; -1 / NaN where a game
    has fewer seats."""
    game = seats["game"].to_numpy()
    seat = seats["seat"].to_numpy(dtype=np.int64)
    games, gi = np.unique(game, return_inverse=True)
    n = int(seat.max()) + 1 if len(seat) else 0
    codes = np.full((len(games), n), -1, dtype=np.int64)
    ranks = np.full((len(games), n), np.nan)
    codes[gi, seat] = code
    ranks[gi, seat] = rank
    return games, codes, ranks


def running_win_share(seats: pd.DataFrame, max_points: int = 400, level: float = 0.95
                      ) -> pd.DataFrame:
    """Cumulative win share of each strategy after each game, with its Wilson band.

    Columns: player, games (games so far), win_share, low, high; at most `max_points` rows per
    strategy (geometrically spaced, for a log axis; always including the last game)."""
    pg = _per_game(seats)
    out = []
    for p in players(seats):
        sub = pg[pg["player"] == p].sort_values("game")
        w = np.minimum(sub["win"].to_numpy(dtype=float), 1.0)
        cum = np.cumsum(w)
        n = np.arange(1, len(w) + 1, dtype=float)
        if len(n) == 0:
            continue
        pts = min(max_points, len(n))
        idx = np.unique(np.r_[np.geomspace(1, len(n), pts).round().astype(int) - 1, len(n) - 1])
        lo, hi = wilson_arrays(cum[idx], n[idx], level)
        out.append(pd.DataFrame({"player": p, "games": n[idx].astype(int),
                                 "win_share": cum[idx] / n[idx], "low": lo, "high": hi}))
    if not out:
        return pd.DataFrame(columns=["player", "games", "win_share", "low", "high"])
    return pd.concat(out, ignore_index=True)


# ---------------------------------------------------------------------------------------------
# balance figures per game


def winning_margins(seats: pd.DataFrame, higher_is_better: bool = True) -> pd.Series:
    """Per game: how far the winner's score is ahead of the best other seat (>= 0, in the
    game's score units). Games with a forfeited (NaN) score are left out."""
    sign = 1.0 if higher_is_better else -1.0
    games, _, good = _wide(seats, np.zeros(len(seats), dtype=np.int64),
                           sign * seats["score"].to_numpy(dtype=float))
    n_seats = seats.groupby("game")["seat"].size().reindex(games).to_numpy()
    full = ~np.isnan(good).any(axis=1) if good.shape[1] else np.zeros(len(games), bool)
    full &= n_seats == good.shape[1]
    srt = -np.sort(-good[full], axis=1)
    margin = srt[:, 0] - srt[:, 1] if srt.shape[1] >= 2 else np.zeros(len(srt))
    return pd.Series(margin, index=pd.Index(games[full], name="game"), name="margin")


def balance(games: pd.DataFrame, seats: pd.DataFrame, higher_is_better: bool = True,
            level: float = 0.95) -> dict:
    """Balance figures of a game: first-player advantage, decisiveness and game length.

    Returns a dict with
    - first_seat: win rate of the first player with Wilson interval, the fair rate 1/n and the
      difference; the first player is seat 0, or the game's `start_seat` column where the game
      draws its start player (Trains, Rummikub, Shipside);
    - draw_rate, shared_win_rate (several co-winners), forfeit_rate and error_rate with intervals;
    - margin: winning margin (winner ahead of the runner-up, score units) mean with interval and
      quantiles, plus zero_rate (share of games whose winner was only tied or shared: margin 0);
    - length: for `steps` and every numeric game-specific column: mean with interval and
      quantiles; boolean game-specific columns (e.g. a turn cap hit) as rates with intervals.
    """
    n_games = len(games)
    out: dict = {"games": n_games}
    n_players = int(games["n_players"].iloc[0]) if n_games and "n_players" in games else (
        int(seats["seat"].max()) + 1 if len(seats) else 0)
    out["n_players"] = n_players
    if "start_seat" in games.columns and len(games):
        start_of = games.set_index("game")["start_seat"]
        first = seats[seats["seat"].to_numpy() == seats["game"].map(start_of).to_numpy()]
    else:
        first = seats[seats["seat"] == 0]
    w = float(first["win"].sum())
    lo, hi = wilson(min(w, len(first)), len(first), level)
    fair = 1.0 / n_players if n_players else float("nan")
    out["first_seat"] = {"win_rate": w / len(first) if len(first) else float("nan"),
                         "low": lo, "high": hi, "fair": fair,
                         "advantage": (w / len(first) - fair) if len(first) else float("nan")}

    def rate(x: int) -> dict:
        lo_, hi_ = wilson(x, n_games, level)
        return {"count": int(x), "rate": x / n_games if n_games else float("nan"),
                "low": lo_, "high": hi_}

    out["draw"] = rate(int(games["draw"].sum()) if "draw" in games else 0)
    winners = seats[seats["win"] > 0].groupby("game").size()
    out["shared_win"] = rate(int((winners > 1).sum()))
    forfeit = int((games["forfeit_seat"] >= 0).sum()) if "forfeit_seat" in games else 0
    out["forfeit"] = rate(forfeit)
    # null (the tables since schema 2) or '' (frames built with the play loop's sentinel): no error
    errors = int((games["error"].fillna("").astype(str) != "").sum()) if "error" in games else 0
    out["error"] = rate(errors)

    margins = winning_margins(seats, higher_is_better)
    ci = mean_ci(margins.to_numpy(), level)
    out["margin"] = {"mean": ci.mean, "low": ci.low, "high": ci.high, "n": ci.n,
                     **quantiles(margins.to_numpy()),
                     "zero_rate": float((margins == 0).mean()) if len(margins) else float("nan")}

    base = {"game", "deal", "rotation", "n_players", "forfeit_seat", "error", "draw", "start_seat"}
    length = {}
    rates = {}
    for col in games.columns:
        if col in base:
            continue
        s = games[col]
        if pd.api.types.is_bool_dtype(s):
            rates[col] = rate(int(s.sum()))
        elif pd.api.types.is_numeric_dtype(s):
            c = mean_ci(s.to_numpy(dtype=float), level)
            length[col] = {"mean": c.mean, "low": c.low, "high": c.high,
                           **quantiles(s.to_numpy(dtype=float)),
                           "min": float(s.min()), "max": float(s.max())}
    out["length"] = length
    out["flags"] = rates
    return out


# ---------------------------------------------------------------------------------------------
# two-strategy matches (compare, duplicate runs)


def game_results(seats: pd.DataFrame, is_a: npt.ArrayLike, is_b: npt.ArrayLike) -> pd.DataFrame:
    """Per game, the result of side A against side B.

    `is_a`, `is_b`: boolean masks over the seats rows. A's result in a game is the mean over all
    (A seat, B seat) pairs of 1 (A ranked better), 1/2 (tie) or 0; a game is a win for A when
    that mean is above 1/2, a draw at exactly 1/2, a loss below. With two players this is simply
    who ranked better. Columns: game, deal, rotation, result, a_mask, b_mask (seat bitmasks).
    """
    is_a = np.asarray(is_a, dtype=bool)
    is_b = np.asarray(is_b, dtype=bool)
    side = np.where(is_a, 1, np.where(is_b, 2, 0))
    games, sides, rank = _wide(seats, side, seats["rank"].to_numpy(dtype=float))
    n = sides.shape[1]
    total = np.zeros(len(games))
    pairs = np.zeros(len(games))
    a_mask = np.zeros(len(games), dtype=np.int64)
    b_mask = np.zeros(len(games), dtype=np.int64)
    for i in range(n):
        a_mask += np.where(sides[:, i] == 1, 1 << i, 0)
        b_mask += np.where(sides[:, i] == 2, 1 << i, 0)
        for j in range(n):
            if i == j:
                continue
            ok = (sides[:, i] == 1) & (sides[:, j] == 2)
            ri, rj = rank[:, i], rank[:, j]
            total += np.where(ok, np.where(ri < rj, 1.0, np.where(ri == rj, 0.5, 0.0)), 0.0)
            pairs += ok
    first = seats.drop_duplicates("game").set_index("game")
    keep = pairs > 0
    g = games[keep]
    return pd.DataFrame({"game": g, "deal": first.loc[g, "deal"].to_numpy(),
                         "rotation": first.loc[g, "rotation"].to_numpy(),
                         "result": total[keep] / pairs[keep], "a_mask": a_mask[keep],
                         "b_mask": b_mask[keep]})


def trinomial(results: pd.DataFrame) -> list[int]:
    """[losses, draws, wins] of side A from `game_results`."""
    r = results["result"].to_numpy()
    return [int((r < 0.5).sum()), int((r == 0.5).sum()), int((r > 0.5).sum())]


def pair_games(results: pd.DataFrame) -> list[tuple[int, int]]:
    """Pairs of games of the same deal in which A and B swapped seats exactly (the game-pair
    of duplicate play), matched in rotation order; games without a partner are left out."""
    if len(results) == 0:
        return []
    am = results["a_mask"].to_numpy(dtype=np.int64)
    bm = results["b_mask"].to_numpy(dtype=np.int64)
    df = pd.DataFrame({"game": results["game"].to_numpy(), "deal": results["deal"].to_numpy(),
                       "lo": np.minimum(am, bm), "hi": np.maximum(am, bm),
                       "orient": am > bm}).sort_values("game", kind="stable")
    # first-come matching within a deal: the k-th game of one orientation pairs with the k-th
    # game of the other orientation
    df["k"] = df.groupby(["deal", "lo", "hi", "orient"], sort=False).cumcount()
    left = df[~df["orient"]]
    right = df[df["orient"]]
    m = left.merge(right, on=["deal", "lo", "hi", "k"], suffixes=("_x", "_y"))
    first = np.minimum(m["game_x"].to_numpy(), m["game_y"].to_numpy())
    second = np.maximum(m["game_x"].to_numpy(), m["game_y"].to_numpy())
    order = np.argsort(first, kind="stable")
    return [(int(a), int(b)) for a, b in zip(first[order], second[order])]


def pentanomial(results: pd.DataFrame) -> list[int] | None:
    """[LL, LD, WL+DD, WD, WW] of side A over duplicate game pairs, or None if no pairs."""
    pairs = pair_games(results)
    if not pairs:
        return None
    r = results["result"].to_numpy()
    pts = np.where(r > 0.5, 2, np.where(r == 0.5, 1, 0))        # half-points of each game
    pos = pd.Series(np.arange(len(results)), index=results["game"].to_numpy())
    g = pos.loc[[p[0] for p in pairs]].to_numpy()
    h = pos.loc[[p[1] for p in pairs]].to_numpy()
    return np.bincount(pts[g] + pts[h], minlength=5).astype(int).tolist()


def paired_table(seats: pd.DataFrame, level: float = 0.95) -> pd.DataFrame | None:
    """Deal-paired analysis of a duplicate run: per strategy, the win share and mean score
    averaged within each deal first, then over deals (deal luck cancels, so the interval is
    narrower). None when the run has one game per deal. Normal intervals, deals as units."""
    if "deal" not in seats or seats["deal"].nunique() == seats["game"].nunique():
        return None
    pg = _per_game(seats)
    deal_of = seats.drop_duplicates("game").set_index("game")["deal"]
    pg["deal"] = pg["game"].map(deal_of)
    per_deal = pg.groupby(["player", "deal"]).agg(win=("win", "mean"), score=("score", "mean"))
    rows = []
    z = Z95 if level == 0.95 else float(_st.norm.ppf(0.5 + level / 2))
    for p in players(seats):
        d = per_deal.loc[p]
        n = len(d)
        w = d["win"].to_numpy()
        s = d["score"].dropna().to_numpy()
        wse = w.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")
        sse = s.std(ddof=1) / math.sqrt(len(s)) if len(s) > 1 else float("nan")
        rows.append({"player": p, "deals": n, "win_share": w.mean(),
                     "win_low": w.mean() - z * wse, "win_high": w.mean() + z * wse,
                     "mean_score": s.mean() if len(s) else float("nan"),
                     "score_low": s.mean() - z * sse, "score_high": s.mean() + z * sse})
    return pd.DataFrame(rows)
