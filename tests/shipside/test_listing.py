"""The memoised listing of moves.py against a plain reference listing (S16-S29, S40-S47), at every
decision of random games under the default rules and every alternative rule set."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.play import play_out
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.shipside import GAME, Octopus, Play, Rum, ShipsideConfig
from simkit.games.shipside.actions import PASS
from simkit.games.shipside.rules import MAIN, frozen, move_target

from .helpers import ALTERNATIVES, config


def reference_dirs(st, ship: int) -> tuple[str, ...]:
    """S23-S28 without memo: the directions in which the crew on `ship` can move."""
    m = st.config.movement
    found = [d for d, step in (("L", -1), ("R", 1))
             if move_target(st.row, st.crew, ship, step, m.wrap_around, m.skip_occupied,
                            st.config.crew.max_per_ship) >= 0]
    return tuple(found) if st.crew[ship] else ()


def reference_main_actions(st, p: int) -> list:
    """Every main-phase action of `p`, built one by one in the engine's order."""
    cfg = st.config
    T = st.T
    sides_allowed = (0, 1) if cfg.rules.play_on_any_side else (p,)
    still = frozen(st.row, sum(len(st.crew[s]) for s in st.row), cfg.movement.freeze_when_full)
    open_places = [(s, a) for s in st.row for a in sides_allowed
                   if len(st.sides[s][a]) < cfg.rules.max_cards_per_side]
    plain = [(T.defense[s], a, None) for s, a in open_places]
    moving = []
    for s, a in open_places:
        chooses = cfg.movement.chooser == "player" or a == p
        dirs = reference_dirs(st, s) if st.crew[s] and not still and chooses else ()
        moving += [(T.defense[s], a, d) for d in dirs] or [(T.defense[s], a, None)]
    out: list = []
    for value, sym in dict.fromkeys(T.kind[c] for c in st.hands[p]):
        out += [Play(value, sym, d, a, dr) for d, a, dr in (moving if sym else plain)]
    if st._octopus_ready(p):
        mine = st.octo_at[p] if cfg.octopus.reuse == "free" else -2
        for s1 in st.row:
            for a1 in (0, 1):
                free = [c for c in st.sides[s1][a1] if st.octo_on[c] < 0 or c == mine]
                for value, sym in dict.fromkeys(T.kind[c] for c in free):
                    opts = moving if sym and cfg.octopus.as_placement else plain
                    out += [Octopus(value, sym, T.defense[s1], a1, d, a, dr) for d, a, dr in opts
                            if (d, a) != (T.defense[s1], a1)]
    if not out:
        out.append(PASS)
    if st.rum_left[p] > 0 and not st.rum_turn:
        out += [Rum(T.defense[s], "before") for s in st.row
                if len(st.mugs[s]) < cfg.rum.max_per_ship]
    return out


def _compare_at_every_step(cfg: ShipsideConfig, seed: int, strategy: str) -> int:
    """Play one game; at each main-phase decision the listing must equal the reference."""
    st = GAME.new_state(cfg, 2, np.random.default_rng(seed))
    compared = []

    def check(state, step, seats):
        if state.phase == MAIN:
            seat = seats[0]
            assert state.legal_actions(seat) == reference_main_actions(state, seat), step
            compared.append(step)

    bots = [parse_strategy(strategy, "shipside")] * 2
    play_out(st, bots, GameInfo("shipside", cfg, 2), np.random.default_rng(seed).spawn(2),
             forfeit_on_error=False, before=check)
    return len(compared)


@pytest.mark.parametrize("overrides", [{}, *ALTERNATIVES], ids=lambda o: ",".join(o) or "default")
def test_listing_equals_the_reference_at_every_decision(overrides):
    cfg = config(**overrides)
    compared = sum(_compare_at_every_step(cfg, seed, "random") for seed in range(6))
    compared += _compare_at_every_step(cfg, 99, "octopus")
    assert compared > 100          # the games really reached the main phase many times


def test_listing_equals_the_reference_with_a_random_ship_row():
    cfg = ShipsideConfig()           # random row order and start player: the memo keys vary most
    assert sum(_compare_at_every_step(cfg, seed, "random") for seed in range(10)) > 200
