"""A plug-in strategy with a kernel form, written as docs/strategies.md ("Kernel forms") says:
the scalar class, its kernel form's declaration, and the compiled bot (here in one module, which
imports numba; a real plug-in keeps the bot in its own module so that checking a run compiles
nothing)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.engine.kernels import KernelForm
from simkit.engine.strategy import Decision, Strategy
from simkit.games.sixnimmt.kernel_play import BOT_SIG


class FirstListed(Strategy):
    """Always the first legal action (the first card of its hand as the engine lists it)."""

    name = "first_listed"
    kernel_form = "tests.sixnimmt.kernel_plugin:FIRST_LISTED"

    def act(self, decision: Decision):
        return decision.legal_actions[0]


class OutOfRange(FirstListed):
    """A broken kernel form: answers a position beyond every legal list."""

    kernel_form = "tests.sixnimmt.kernel_plugin:OUT_OF_RANGE"


@njit(BOT_SIG, cache=True)
def first_listed(ask, seat, g, params, gen):
    return 0


@njit(BOT_SIG, cache=True)
def out_of_range(ask, seat, g, params, gen):
    return 99


def _params(config, n_players):
    return np.zeros(1)


FIRST_LISTED = KernelForm("tests.sixnimmt.kernel_plugin:first_listed", _params)
OUT_OF_RANGE = KernelForm("tests.sixnimmt.kernel_plugin:out_of_range", _params)
