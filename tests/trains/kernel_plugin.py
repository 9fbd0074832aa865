"""A plug-in Game of Trains strategy with a kernel form (docs/strategies.md, "Kernel forms"): the
scalar class, its form's declaration and the compiled bot (in one module here, which imports
numba; a real plug-in keeps the bot in its own module so that checking a run compiles nothing)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.engine.kernels import KernelForm
from simkit.engine.strategy import Decision, Strategy
from simkit.games.trains.kernel_play import BOT_SIG, legal_count


class LastListed(Strategy):
    """Always the last legal action (the last effect shown, else Draw; slot 7; the last card)."""

    name = "last_listed"
    kernel_form = "tests.trains.kernel_plugin:LAST_LISTED"

    def act(self, decision: Decision):
        return decision.legal_actions[-1]


class OutOfRange(LastListed):
    """A broken kernel form: answers a position beyond every legal list."""

    kernel_form = "tests.trains.kernel_plugin:OUT_OF_RANGE"


@njit(BOT_SIG, cache=True)
def last_listed(ask, seat, g, params, gen):
    return legal_count(ask, seat, g) - 1


@njit(BOT_SIG, cache=True)
def out_of_range(ask, seat, g, params, gen):
    return 99


def _params(config, n_players):
    return np.zeros(1)


LAST_LISTED = KernelForm("tests.trains.kernel_plugin:last_listed", _params)
OUT_OF_RANGE = KernelForm("tests.trains.kernel_plugin:out_of_range", _params)
