"""Kernel forms of the 6 nimmt! bots, declared without compiling anything: which compiled
function plays (kernel_bots.py) and the float parameters it reads. Each scalar strategy names
its form in its `kernel_form` attribute (docs/strategies.md, "Kernel forms")."""

from __future__ import annotations

import functools

import numpy as np

from simkit.engine.kernels import KernelForm
from simkit.games.sixnimmt.config import SixNimmtConfig

_BOTS = "strategies.sixnimmt.kernel_bots"


def _random_params(config: SixNimmtConfig, n_players: int, row: str = "cheapest") -> np.ndarray:
    if row not in ("cheapest", "uniform"):
        raise ValueError(f"row={row!r} is not allowed: cheapest or uniform")
    return np.array([1.0 if row == "uniform" else 0.0])


def _no_params(config: SixNimmtConfig, n_players: int) -> np.ndarray:
    return np.zeros(1)


def _heuristic_params(config: SixNimmtConfig, n_players: int, caution: float = 1.0) -> np.ndarray:
    if caution < 0:
        raise ValueError(f"caution={caution} is not allowed: it must be >= 0")
    return _heuristic_tables(config.row_capacity, n_players - 1, config.deck_cards(n_players),
                             float(caution))


@functools.lru_cache(maxsize=16)
def _heuristic_tables(capacity: int, opponents: int, deck: int, caution: float) -> np.ndarray:
    """The heuristic's probabilities from its own functions, so the kernel computes the same
    floats: the take chances by (free places, unseen cards, gap), the chance that an opponent
    plays below a low card by (unseen cards, cards below), the draft rank by card."""
    from strategies.sixnimmt.heuristic import _draft_rank
    from strategies.sixnimmt.turn_table import take_chances

    size = deck + 1
    take = np.zeros((capacity + 1, size, size))
    saved = np.zeros((size, size))
    for n_unseen in range(1, size):
        for free in range(capacity + 1):
            take[free, n_unseen, :n_unseen + 1] = take_chances(free, opponents, n_unseen)
        saved[n_unseen, :n_unseen + 1] = [1 - (1 - lower / n_unseen) ** opponents
                                          for lower in range(n_unseen + 1)]
    rank = np.array(_draft_rank(deck), dtype=np.float64)
    head = 5
    out = np.concatenate([[caution, deck, head, head + take.size, head + take.size + saved.size],
                          take.reshape(-1), saved.reshape(-1), rank])
    return out


RANDOM = KernelForm(f"{_BOTS}:random_bot", _random_params)
LOWEST = KernelForm(f"{_BOTS}:lowest_bot", _no_params)
HIGHEST = KernelForm(f"{_BOTS}:highest_bot", _no_params)
HEURISTIC = KernelForm(f"{_BOTS}:heuristic_bot", _heuristic_params)
