"""What `simkit tune` aims at: targets over a run's tables, their loss and its bootstrap interval.

A target is `NAME` (make the figure as small as it goes) or `NAME=VALUE±TOL` (`+-` also works;
without a tolerance it is 0): bring the figure within TOL of VALUE. The figures:

    seat_fairness   the largest gap between a seat's win share and the fair 1/n (0 is fair)
    length          decision steps per game
    rounds          rounds (hands) per game
    draws           share of games without a single winner
    score           mean final score of a seat
    win:NAME        win share of the seats played by strategy NAME

A target's loss is the figure itself for `NAME`, and the distance beyond the tolerance in units
of the tolerance for `NAME=VALUE±TOL` (in units of |VALUE|, or 1, when TOL is 0); the loss of a
rule setting is the sum over targets, 0 when every target is met. Its interval comes from
resampling the games (percentile bootstrap).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.engine.errors import ConfigError

FIGURES = ("seat_fairness", "length", "rounds", "draws", "score", "win:NAME")
_TARGET = re.compile(r"^\s*(?P<name>[a-z_]+(?::[^=]+)?)\s*(?:=\s*(?P<value>[-+0-9.eE]+)\s*"
                     r"(?:(?:±|\+-|\+/-)\s*(?P<tol>[0-9.eE]+))?)?\s*$")


@dataclass(frozen=True)
class Target:
    name: str
    value: float | None = None       # None: make the figure small
    tolerance: float = 0.0

    @property
    def text(self) -> str:
        if self.value is None:
            return self.name
        return f"{self.name}={self.value:g}±{self.tolerance:g}"

    def loss(self, figure: np.ndarray) -> np.ndarray:
        if self.value is None:
            return figure
        scale = self.tolerance if self.tolerance > 0 else max(abs(self.value), 1.0)
        return np.maximum(0.0, np.abs(figure - self.value) - self.tolerance) / scale


def figure_range(name: str, n_players: int) -> tuple[float, float]:
    """The values a figure can take at `n_players` players (a win share, the draw share and the
    seat gap are shares; lengths are not negative; a score may be anything)."""
    if name == "seat_fairness":
        return 0.0, 1.0 - 1.0 / n_players
    if name == "draws" or name.startswith("win:"):
        return 0.0, 1.0
    if name in ("length", "rounds"):
        return 0.0, float("inf")
    return float("-inf"), float("inf")


def check_targets(targets: list[Target], n_players: int, lineup: list[str]) -> None:
    """Refuse, before anything is played, a target listed twice, a `win:NAME` no seat plays, and
    a VALUE±TOL the figure can never come within."""
    texts = [t.text for t in targets]
    twice = sorted({t for t in texts if texts.count(t) > 1})
    if twice:
        raise ConfigError(f"--target {twice[0]} is given twice: give each target once")
    for target in targets:
        if target.name.startswith("win:") and target.name[4:] not in lineup:
            raise ConfigError(f"--target {target.text}: no seat plays {target.name[4:]!r}; the lineup has "
                              f"{', '.join(dict.fromkeys(lineup))} (-s)")
        if target.value is None:
            continue
        low, high = figure_range(target.name, n_players)
        if target.value + target.tolerance < low or target.value - target.tolerance > high:
            span = f"between {low:.3g} and {high:.3g}" if np.isfinite(high) else f"at least {low:.3g}"
            raise ConfigError(f"--target {target.text} cannot be met: {target.name} is {span} "
                              f"at {n_players} players")


def parse_target(text: str) -> Target:
    match = _TARGET.match(text)
    if match is None:
        raise ConfigError(f"--target {text!r} is malformed: use NAME (as small as it goes) or "
                          f"NAME=VALUE±TOL (e.g. length=40±5); figures: {', '.join(FIGURES)}")
    name = match["name"]
    if name not in FIGURES and not name.startswith("win:"):
        from simkit.engine.errors import did_you_mean
        raise ConfigError(f"--target {text!r}: unknown figure {name!r}; allowed are {', '.join(FIGURES)}"
                          f"{did_you_mean(name, list(FIGURES))}")
    try:
        value = None if match["value"] is None else float(match["value"])
        tol = 0.0 if match["tol"] is None else float(match["tol"])
    except ValueError:
        raise ConfigError(f"--target {text!r}: VALUE and TOL must be numbers, e.g. length=40±5") from None
    if value is None and match["tol"] is not None:
        raise ConfigError(f"--target {text!r}: a tolerance needs a value, e.g. length=40±5")
    if not np.isfinite(tol) or (value is not None and not np.isfinite(value)):
        raise ConfigError(f"--target {text!r}: VALUE and TOL must be finite numbers")
    return Target(name, value, tol)


@dataclass(frozen=True)
class GameFigures:
    """Per game, what every figure is computed from; `figure(target, rows)` over chosen games."""

    n_players: int
    steps: np.ndarray            # [game]
    rounds: np.ndarray           # [game]
    draw: np.ndarray             # [game] 1.0 when no single winner
    seat_wins: np.ndarray        # [game, seat]
    seat_scores: np.ndarray      # [game, seat]
    strategy_wins: dict[str, np.ndarray]     # name -> [game] mean win of its seats (nan if absent)

    def figures(self, target: Target, rows: np.ndarray) -> np.ndarray:
        """The figure over the games `rows` ([resample, game] indices) -> [resample]."""
        if target.name == "seat_fairness":
            shares = self.seat_wins[rows].mean(axis=1)                   # [resample, seat]
            return np.abs(shares - 1.0 / self.n_players).max(axis=1)
        if target.name.startswith("win:"):
            strategy = target.name[4:]
            if strategy not in self.strategy_wins:
                raise ConfigError(f"--target {target.text}: no seat plays {strategy!r}; the lineup has "
                                  f"{', '.join(self.strategy_wins)}")
            return np.nanmean(self.strategy_wins[strategy][rows], axis=1)
        per_game: dict[str, Callable[[], np.ndarray]] = {
            "length": lambda: self.steps, "rounds": lambda: self.rounds, "draws": lambda: self.draw,
            "score": lambda: self.seat_scores.mean(axis=1)}
        return per_game[target.name]()[rows].mean(axis=1)


def game_figures(games: pd.DataFrame, seats: pd.DataFrame, n_players: int) -> GameFigures:
    """From a run's tables (games the engine could not finish are left out)."""
    done = games[games["game"].isin(seats["game"].unique())].sort_values("game")
    order = {g: i for i, g in enumerate(done["game"])}
    rows = seats["game"].map(order).to_numpy()
    wins = np.zeros((len(done), n_players))
    scores = np.zeros((len(done), n_players))
    wins[rows, seats["seat"].to_numpy()] = seats["win"].to_numpy()
    scores[rows, seats["seat"].to_numpy()] = seats["score"].to_numpy()
    by_strategy: dict[str, np.ndarray] = {}
    for name, part in seats.groupby("strategy", observed=True):
        total = np.zeros(len(done))
        count = np.zeros(len(done))
        np.add.at(total, part["game"].map(order).to_numpy(), part["win"].to_numpy())
        np.add.at(count, part["game"].map(order).to_numpy(), 1)
        with np.errstate(invalid="ignore"):
            by_strategy[str(name)] = total / count
    rounds = done["rounds"].to_numpy(float) if "rounds" in done else np.ones(len(done))
    draw = (wins.max(axis=1) < 1.0).astype(float)
    return GameFigures(n_players, done["steps"].to_numpy(float), rounds, draw, wins, scores, by_strategy)


@dataclass(frozen=True)
class Estimate:
    """A rule setting's loss and each target's figure, with 95 % bootstrap intervals."""

    games: int
    loss: float
    low: float
    high: float
    figures: dict[str, tuple[float, float, float]]     # target text -> (value, low, high)

    def to_dict(self) -> dict:
        return {"games": self.games, "loss": self.loss, "low": self.low, "high": self.high,
                "figures": {k: list(v) for k, v in self.figures.items()}}


def estimate(data: GameFigures, targets: list[Target], rng: np.random.Generator,
             resamples: int = 400) -> Estimate:
    n = len(data.steps)
    if n == 0:
        raise ConfigError("no finished games to measure the targets on")
    everything = np.arange(n)[None, :]
    draws = rng.integers(0, n, (resamples, n))
    loss_point = np.zeros(1)
    loss_draws = np.zeros(resamples)
    figures = {}
    for target in targets:
        point, boot = data.figures(target, everything), data.figures(target, draws)
        loss_point = loss_point + target.loss(point)
        loss_draws = loss_draws + target.loss(boot)
        low, high = np.quantile(boot, [0.025, 0.975])
        figures[target.text] = (float(point[0]), float(low), float(high))
    low, high = np.quantile(loss_draws, [0.025, 0.975])
    value = float(loss_point[0])
    return Estimate(n, value, float(min(low, value)), float(max(high, value)), figures)
