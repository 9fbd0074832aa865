"""Candidate moves for search strategies (`Game.candidate_actions`): Rummikub's plays are whole
new tables and cannot be listed, so a search chooses among a few good legal ones.

From the seat's own observation: drawing (or passing when the pool is empty), the solver's best
play for the most tiles and for the most points, and up to MAX_SIMPLE simple plays (a new meld
from the rack, a one-tile extension of a table meld) once the seat has opened.
"""

from __future__ import annotations

from simkit.games.rummikub.actions import DRAW, PASS, Play
from simkit.games.rummikub.moves import extension_plays, rack_melds
from simkit.games.rummikub.solver import solve_observation
from simkit.games.rummikub.state import RummikubState

MAX_SIMPLE = 8
#: the solver's plays per (table, rack, opened, config): a search meets the same own position in
#: many determinizations (issue 20); emptied past SOLVED_LIMIT entries. The answers are a function
#: of the key alone, so the cache changes no candidate list.
_SOLVED: dict[tuple, tuple] = {}
SOLVED_LIMIT = 20_000


def _solver_plays(obs, config) -> tuple:
    key = (obs.table, obs.rack, obs.opened[obs.seat], config)
    got = _SOLVED.get(key)
    if got is None:
        if len(_SOLVED) >= SOLVED_LIMIT:
            _SOLVED.clear()
        got = _SOLVED[key] = tuple(solve_observation(obs, config, objective)
                                   for objective in ("tiles", "points"))
    return got


def candidate_actions(state: RummikubState, seat: int) -> list:
    obs = state.observe(seat)
    found: list = [DRAW if obs.pool_size else PASS]
    for solution in _solver_plays(obs, state.config):
        if solution is not None and solution.action not in found:
            found.append(solution.action)
    if obs.opened[seat]:
        simple = [Play(obs.table + (meld,)) for meld in rack_melds(obs.rack)]
        simple += [Play(table) for table in extension_plays(obs.table, obs.rack)]
        found += [play for play in simple[:MAX_SIMPLE] if play not in found]
    return [action for action in found if state.is_legal(seat, action)]
