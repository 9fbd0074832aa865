"""Luck and skill: how much of a game's outcome the deal decides, and how much who plays it.

The design (the luck study, `simkit luck`): every deal is played once in each of the n seatings
of a lineup of n agent slots, the cards staying with the seat and the agents rotating (duplicate
deals). So for a deal d, a seat s (its cards: the hand) and a lineup slot a (the agent) there
is exactly one outcome y[d, s, a] (a win share, or a score margin): a three-way crossed table,
deals random, seats and slots fixed, one observation per cell.

Its variance splits by the usual method of moments (Montgomery, "Design and Analysis of
Experiments", ch. 13, mixed models; the three-way interaction serves as the error term, as it
must with one observation per cell):

    rest         MS_E * (n-1)/n
    the deal     (MS_DS - MS_E) / n * (n-1)/n      how much a hand decides, whoever plays it
    deal x agent (MS_DA - MS_E) / n * (n-1)/n      deals that suit one agent more than another
    seat         (MS_S - MS_DS) / (D n) * (n-1)/n
    skill        (MS_A - MS_DA) / (D n) * (n-1)/n
    seat x agent (MS_SA - MS_E) / D * ((n-1)/n)^2

Each is the variance of its effects over the n seats or agents of a deal (sum of squares over n,
not n-1), so the parts add up to the variance of one seat's outcome within its game; a negative
estimate is read as 0. The error term E is the three-way interaction less whatever is the same
for every seat of one game (its total, constant for wins), which is nobody's luck or skill: the
rotation and deal x rotation parts leave SA and DSA with their degrees of freedom. With two
players nothing is left for E beside deal x agent, so the two are pooled (the split then assumes
that no deal suits one agent more than the other). The shares are each part over their total.
"Rest" is what neither the deal nor the agents explain: chance after the deal (later draws, a
random bot's choices) and everything particular to one game. Intervals come from resampling
whole deals (the independent unit; the games of one deal are not independent), percentile
bootstrap.

Replays (`simkit luck --replays R`): every deal played R times in each seating, the same deal
(its chance stream) with the strategies' streams of other games, gives R outcomes per cell, a
table [deal, seat, slot, replay]. The split above is taken of the cell means, which estimates
the same deal, skill, seat and interaction parts (their mean squares' expectations differ from
one game's only in the error term, which cancels); the error term of cell means holds only 1/R
of the replay-to-replay variance, so the rest of one game adds back (1 - 1/R) times the pooled
variance within cells (each replay is another game, so that is one seat's variance within its
game, as every part is). The shares thus estimate the same quantities with or without replays,
more tightly with them; R = 1 is the table above exactly. Per deal, a hand's win share is then
over n R seatings (steps of 1/(n R) instead of 1/n).

The deal's main effect is left out on purpose: every game hands out the same total of win share
(and a score margin sums to 0 over the seats), so it is 0 by construction.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: the parts of the outcome's variance, in the order they are reported
PARTS = ("deal", "skill", "seat", "deal_x_agent", "seat_x_agent", "rest")

#: a deal is lopsided when some hand wins at most this share of its seatings (Red7's threshold)
LOPSIDED_AT = 0.10


@dataclass(frozen=True)
class Share:
    """One part's share of the outcome variance with its bootstrap interval."""

    value: float
    low: float
    high: float


@dataclass(frozen=True)
class LuckSplit:
    """The variance split of one outcome (win or score margin) over `deals` deals."""

    outcome: str
    deals: int
    players: int
    total_variance: float
    shares: dict[str, Share]

    def to_dict(self) -> dict:
        return {"outcome": self.outcome, "deals": self.deals, "players": self.players,
                "total_variance": self.total_variance,
                "shares": {k: {"value": s.value, "low": s.low, "high": s.high}
                           for k, s in self.shares.items()}}


def outcome_table(deal: np.ndarray, seat: np.ndarray, slot: np.ndarray, y: np.ndarray,
                  n_players: int, replay: np.ndarray | None = None, replays: int = 1
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Rows (deal, seat, slot, outcome) -> (deal numbers, table[d, s, a]); with `replays` > 1
    and each row's `replay` (0 .. replays-1), table[d, s, a, r]. Only deals with every cell
    present are kept, so a study cut short mid-deal is read as its whole deals."""
    deal, seat, slot = (np.asarray(v, dtype=np.int64) for v in (deal, seat, slot))
    y = np.asarray(y, dtype=float)
    rep = np.zeros(len(deal), dtype=np.int64) if replay is None else np.asarray(replay, dtype=np.int64)
    if not (len(deal) == len(seat) == len(slot) == len(y) == len(rep)):
        raise ValueError("deal, seat, slot, replay and outcome must have the same length")
    if len(y) and (seat.min() < 0 or seat.max() >= n_players or slot.min() < 0 or slot.max() >= n_players):
        raise ValueError(f"seats and slots must lie within 0..{n_players - 1}")
    if len(y) and (rep.min() < 0 or rep.max() >= replays):
        raise ValueError(f"replays must lie within 0..{replays - 1}")
    numbers, index = np.unique(deal, return_inverse=True)
    table = np.full((len(numbers), n_players, n_players, replays), np.nan)
    table[index, seat, slot, rep] = y
    counts = np.zeros(table.shape, dtype=np.int64)
    np.add.at(counts, (index, seat, slot, rep), 1)
    if (counts > 1).any():
        raise ValueError("a (deal, seat, slot, replay) cell appears twice: each deal must be played "
                         "once per seating and replay")
    whole = (counts == 1).all(axis=(1, 2, 3))
    table = table[whole]
    return numbers[whole], (table[..., 0] if replays == 1 else table)


def within_cells(table: np.ndarray) -> float:
    """The pooled variance of the replays of one cell of a [deal, seat, slot, replay] table,
    each outcome taken against its game's mean first (what is the same for every seat of one
    game is nobody's luck or skill; for wins and score margins it is constant anyway)."""
    d, n, _, r = table.shape
    rot = (np.arange(n)[:, None] - np.arange(n)[None, :]) % n          # [seat, slot] -> rotation
    games = np.stack([table[:, rot == k, :].mean(axis=1) for k in range(n)], axis=1)   # [deal, rot, replay]
    own = table - games[:, rot, :]
    cells = own.mean(axis=3, keepdims=True)
    return float(((own - cells) ** 2).sum() / (d * n * n * (r - 1)))


def variance_parts(table: np.ndarray) -> dict[str, float]:
    """The variance components of a [deal, seat, slot] table, or of a [deal, seat, slot, replay]
    one (see the module text); needs at least 2 deals and 2 players."""
    if table.ndim == 4:
        replays = table.shape[3]
        parts = variance_parts(table.mean(axis=3))
        if replays > 1:
            parts["rest"] += (1.0 - 1.0 / replays) * within_cells(table)
        return parts
    d, n, _ = table.shape
    if d < 2 or n < 2:
        raise ValueError("the split needs at least 2 whole deals and 2 players")
    m = table.mean()
    md = table.mean(axis=(1, 2))
    ms = table.mean(axis=(0, 2))
    ma = table.mean(axis=(0, 1))
    mds = table.mean(axis=2)
    mda = table.mean(axis=1)
    msa = table.mean(axis=0)
    ss_ds = n * ((mds - md[:, None] - ms[None, :] + m) ** 2).sum()
    ss_da = n * ((mda - md[:, None] - ma[None, :] + m) ** 2).sum()
    resid = (table - mds[:, :, None] - mda[:, None, :] - msa[None, :, :]
             + md[:, None, None] + ms[None, :, None] + ma[None, None, :] - m)
    # the games: seat s holds slot a in the game of rotation r = (s - a) mod n. Whatever is the
    # same for every seat of one game (its total: constant for wins) is no seat's luck or skill,
    # so the rotation and deal x rotation parts are taken out of SA and DSA (and their degrees
    # of freedom with them: (n-1) and (D-1)(n-1)).
    rot = (np.arange(n)[:, None] - np.arange(n)[None, :]) % n          # [seat, slot] -> rotation
    games = np.stack([table[:, rot == r].mean(axis=1) for r in range(n)], axis=1)   # [deal, rot]
    mr = games.mean(axis=0)
    ss_r = d * n * ((mr - m) ** 2).sum()
    ss_dr = n * ((games - md[:, None] - mr[None, :] + m) ** 2).sum()
    ss_sa = d * ((msa - ms[:, None] - ma[None, :] + m) ** 2).sum() - ss_r
    ss_e = (resid ** 2).sum() - ss_dr
    ms_s = d * n * ((ms - m) ** 2).sum() / (n - 1)
    ms_a = d * n * ((ma - m) ** 2).sum() / (n - 1)
    ms_ds = ss_ds / ((d - 1) * (n - 1))
    ms_da = ss_da / ((d - 1) * (n - 1))
    levels = (n - 1) / n
    if n == 2:
        # two games a deal leave no error degrees of freedom beside deal x agent: it is pooled
        # into the rest (the split then assumes no deal suits one agent more than the other)
        ms_e, ms_da_term, sa = ms_da, ms_da, 0.0
    else:
        ms_e = max(ss_e, 0.0) / ((d - 1) * (n - 1) * (n - 2))
        ms_da_term = ms_da
        sa = max(0.0, (max(ss_sa, 0.0) / ((n - 1) * (n - 2)) - ms_e) / d) * levels ** 2
    return {
        "deal": max(0.0, (ms_ds - ms_e) / n) * levels,
        "skill": max(0.0, (ms_a - ms_da) / (d * n)) * levels,
        "seat": max(0.0, (ms_s - ms_ds) / (d * n)) * levels,
        "deal_x_agent": max(0.0, (ms_da_term - ms_e) / n) * levels,
        "seat_x_agent": sa,
        "rest": ms_e * levels,
    }


def _shares(parts: dict[str, float]) -> dict[str, float]:
    total = sum(parts.values())
    return {k: (v / total if total > 0 else 0.0) for k, v in parts.items()}


def luck_split(table: np.ndarray, outcome: str, rng: np.random.Generator, *,
               resamples: int = 1000, level: float = 0.95) -> LuckSplit:
    """The shares of each part with percentile-bootstrap intervals over deals."""
    parts = variance_parts(table)
    point = _shares(parts)
    d = table.shape[0]
    draws = np.empty((resamples, len(PARTS)))
    for i in range(resamples):                  # one resample of the deals gives every part's share
        drawn = _shares(variance_parts(table[rng.integers(0, d, d)]))
        draws[i] = [drawn[k] for k in PARTS]
    tail = (1.0 - level) / 2.0
    low = np.quantile(draws, tail, axis=0)
    high = np.quantile(draws, 1.0 - tail, axis=0)
    shares = {k: Share(point[k], float(min(low[i], point[k])), float(max(high[i], point[k])))
              for i, k in enumerate(PARTS)}
    return LuckSplit(outcome, d, table.shape[1], float(sum(parts.values())), shares)


@dataclass(frozen=True)
class DealSpread:
    """Per deal, how unequal its hands are: each hand's win share over the deal's seatings."""

    deals: int
    lopsided: int                   # deals on which some hand wins at most LOPSIDED_AT of its seatings
    lopsided_low: float
    lopsided_high: float
    decided: int                    # deals on which one hand won every seating, whoever held it
    most_lopsided: list[tuple[int, list[float]]]   # (deal number, win share of each seat's hand)

    @property
    def lopsided_share(self) -> float:
        return self.lopsided / self.deals if self.deals else 0.0

    def to_dict(self) -> dict:
        return {"deals": self.deals, "lopsided": self.lopsided, "lopsided_share": self.lopsided_share,
                "lopsided_low": self.lopsided_low, "lopsided_high": self.lopsided_high,
                "lopsided_at": LOPSIDED_AT, "decided": self.decided,
                "decided_share": self.decided / self.deals if self.deals else 0.0,
                "most_lopsided": [{"deal": d, "hand_win_shares": w} for d, w in self.most_lopsided]}


def deal_spread(numbers: np.ndarray, wins: np.ndarray, *, show: int = 5) -> DealSpread:
    """From the win table [deal, seat, slot] (or [deal, seat, slot, replay]): the hands' win
    shares per deal, the deals where a hand (nearly) never wins whoever holds it, and the `show`
    deals whose hands differ most."""
    from simkit.stats.intervals import wilson

    # [deal, seat]: the hand's share over all agents (and replays, if any)
    hands = wins.reshape(wins.shape[0], wins.shape[1], -1).mean(axis=2)
    lopsided = hands.min(axis=1) <= LOPSIDED_AT + 1e-12
    low, high = wilson(float(lopsided.sum()), float(len(hands)))
    spread = hands.max(axis=1) - hands.min(axis=1)
    order = np.lexsort((numbers, -spread))[:show]
    most = [(int(numbers[i]), [round(float(w), 4) for w in hands[i]]) for i in order]
    decided = int((hands.max(axis=1) >= 1.0 - 1e-12).sum())
    return DealSpread(len(hands), int(lopsided.sum()), low, high, decided, most)
