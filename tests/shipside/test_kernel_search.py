"""Shipside ISMCTS iterations compiled whole (strategies/shipside/kernel_search.py with
simkit/games/shipside/kernel_search.py, on simkit/search/kernel_tree.py) against the Python
search loop (`ISMCTS._iterate`): from positions met along seeded games (the main phase S15-S18,
rum after the action S17, the owner's direction choice inside a placement S25, the variant's
mark S56), at the game's defaults and other parameters, the root's edges (action, visits, total
reward, availability, bias, in insertion order), the chosen action and the search generator's
state afterwards are equal; the determinization is `views.determinize` draw for draw."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.config import with_overrides
from simkit.engine.registry import get_game
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.shipside.config import ShipsideConfig
from simkit.search.ismcts import ISMCTS
from tests.compiled_searches import edges as _edges
from tests.compiled_searches import search as _search
from tests.kernel_rollouts import positions

pytest.importorskip("numba")

from simkit.games.shipside import kernel_search as ks  # noqa: E402
from strategies.shipside import kernel_search as compiled  # noqa: E402

GAME = get_game("shipside")

#: (config overrides, seed) of the seeded games the positions come from (as test_kernel_rollout)
CONFIGS = [
    ({}, 1),                                                                        # S1-S55
    # S25 the owner chooses the direction
    ({"movement.chooser": "owner", "setup.crew_start": "28-empty", "movement.before_scoring": "false"}, 2),
    ({"variant.enabled": "true"}, 3),                                               # S56-S58 own piles
    ({"variant.enabled": "true", "variant.mark_assignment": "chooser", "variant.personal_decks": "false"}, 4),
    ({"octopus.reuse": "free", "octopus.draw": "true", "rum.timing": "before"}, 5),  # S41, S44, S17
    ({"scoring.threshold_inclusive": "false", "scoring.full_tie": "stay", "scoring.ship_points": "2",
      "end.points_to_win": "0", "end.tie_result": "tiebreak"}, 7),                  # S32, S34, S53-S55
    ({"rum.defense_bonus": "10", "rum.uses_per_player": "3", "rum.max_per_ship": "2",
      "rum.on_scored": "returned"}, 8),                                             # S38, S47, S48, S52
]
#: ISMCTS parameters: the game's defaults (octopus rollouts to the end, depth 1, margin reward,
#: octopus prior), random rollouts to the end (the generic search), and other readings. The
#: defaults' rollouts are capped at 100 steps here (25 in the octopus config, `STALLING`):
#: octopus against octopus stalls in the octopus config until the 400-turn limit, and its
#: Python rollouts cost 25 s a decision uncapped (the defaults' rollouts to the end are the
#: whole games' test below).
SEARCHES = {
    "defaults": dict(iterations=40, max_rollout_steps=100),
    "random rollouts to the end, win": dict(iterations=40, rollout="random", reward="win", c=1.414, horizon=0,
                                            prior_weight=0.0),
    "octopus rollouts, rank, depth 2, guard": dict(iterations=30, rollout="octopus", reward="rank", depth=2,
                                                   guard=0.05, horizon=6),
    "random rollouts, margin, horizon 3, step cap 9": dict(iterations=30, rollout="random", horizon=3,
                                                          max_rollout_steps=9, prior_weight=3.0),
}


def _true_positions(overrides, seed, every=9, first=4):
    """True states where the seat to act has a choice."""
    return [(info, state) for info, kind, state in positions("shipside", 2, overrides, ["random"], seed,
                                                            every, first)
            if kind == "true" and len(state.legal_actions(state.to_act()[0])) > 1]


def _python(params, info, state, seed):
    return _search(params, info, state, seed, kernel=False)[:3]


def _compiled(params, info, state, seed):
    """The compiled search's answer, or None where it leaves the position to Python."""
    found = _search(params, info, state, seed, kernel=True)
    return None if found[3] is not None else found[:3]


_SEARCHES: dict = {}


def _direct(params, info, state, seed):
    """`KernelSearch.run` called directly (a search of this module's own, `_SEARCHES`)."""
    bot = ISMCTS(**params)
    seat = state.to_act()[0]
    rng = np.random.default_rng(seed)
    bot.setup(info, seat, rng)
    key = (info.config, bot.rollout_spec)
    if key not in _SEARCHES:
        _SEARCHES[key] = compiled.KernelSearch(info, bot.rollout_spec)
    decision = Decision(state.clone(), seat, rng)
    actions = decision.legal_actions
    prior = bot.root_prior(decision, actions)
    root = _SEARCHES[key].run(decision, actions, prior, bot.prior_weight, bot.iterations, bot.c, bot.depth,
                              bot.max_rollout_steps or GAME.max_steps(info.config, 2), bot.horizon,
                              bot.round_cut, bot.reward)
    return _edges(root), root.most_visited(actions.__contains__).action, rng.bit_generator.state


#: seeds of configs where octopus against octopus stalls until the 400-turn cap (S41, S44: the
#: octopus free to reuse, drawing after it): every defaults' rollout there hits the 100-step cap,
#: each step of the Python loop's costs the same, and steps past 25 only go on round the stall;
#: the cap is 25 there (still hit by every rollout, as at 100)
STALLING = {5: 25}


@pytest.mark.parametrize("name", list(SEARCHES))
@pytest.mark.parametrize("overrides,seed", CONFIGS)
def test_compiled_iterations_leave_the_root_the_python_loop_leaves(overrides, seed, name):
    params = SEARCHES[name]
    if seed in STALLING and "max_rollout_steps" in params:
        params = dict(params, max_rollout_steps=min(params["max_rollout_steps"], STALLING[seed]))
    phases, checked = set(), 0
    for i, (info, state) in enumerate(_true_positions(overrides, seed)[:16]):
        if checked == 6:
            break
        got = _compiled(params, info, state, seed * 100 + i)
        if got is None:
            assert state.phase == "pick"                     # the variant's opening picks: Python
            continue
        want = _python(params, info, state, seed * 100 + i)
        assert got[0] == want[0], f"position {i} ({state.phase}): root statistics differ"
        assert got[1:] == want[1:], f"position {i} ({state.phase}): choice or generator differ"
        assert sum(e[1] for e in got[0]) == params["iterations"]     # every iteration backed up
        phases.add(state.phase)
        checked += 1
    assert checked >= 4 and "main" in phases


def test_the_positions_cover_every_phase_the_compiled_search_plays():
    """The comparison meets the main phase, rum after the action (S17), the owner's direction
    choice (S25) and the mark (S56); the picks (S57) search in Python (below)."""
    phases = {state.phase for overrides, seed in CONFIGS
              for _, state in _true_positions(overrides, seed)[:16]}
    assert {"main", "rum", "dir", "mark"} <= phases


def test_the_comparison_can_fail():
    """Control: the compiled search with another c, or from another seed, gives other root
    statistics (and another generator state) than the Python loop."""
    info, state = _true_positions({}, 1)[3]
    want = _python(SEARCHES["defaults"], info, state, 5)
    shifted = _compiled(dict(SEARCHES["defaults"], c=0.9), info, state, 5)
    assert shifted is not None and shifted[0] != want[0]
    other = _compiled(SEARCHES["defaults"], info, state, 6)
    assert other is not None and other[0] != want[0] and other[2] != want[2]


def test_a_search_meeting_more_actions_than_the_tree_has_codes_is_played_again_wider(monkeypatch):
    """With codes for the root's actions only, every search meets more and is played again (a
    tree twice as wide each time) from the same generator state: the Python loop's result. The
    tree is uncapped (`depth=0`): under the defaults' depth 1 a search meets the root's actions only."""
    search = dict(SEARCHES["defaults"], depth=0)
    widths = []
    width = compiled.KernelSearch._width

    def kept(self, n_codes, iterations):
        widths.append(n_codes)
        width(self, n_codes, iterations)

    monkeypatch.setattr(compiled, "_CODES", 1)
    monkeypatch.setattr(compiled.KernelSearch, "_width", kept)
    _SEARCHES.clear()
    try:
        positions_ = _true_positions({}, 1)[:4]
        for i, (info, state) in enumerate(positions_):
            _SEARCHES.clear()                                   # each search starts narrow
            got = _direct(search, info, state, i)
            assert got == _python(search, info, state, i)
        doubled = sum(1 for a, b in zip(widths, widths[1:]) if b == 2 * a)
        assert doubled >= len(positions_)
    finally:
        _SEARCHES.clear()


@pytest.mark.parametrize("overrides,seed", CONFIGS)
def test_the_kernel_determinizes_as_views_determinize(overrides, seed):
    """`determinize` on the real position's array draws what `views.determinize` draws (the same
    array as the Python sample's, the generator in the same state); `real_position` recovers the
    real array from a sample and the generator's state before it."""
    kernel = compiled.KernelSearch(*_info_and_rollout(overrides)).kernel
    g = kernel.blank.copy()
    pool = np.zeros(400, dtype=np.int64)
    from simkit.engine.kernel_positions import generator_rows, restore_generators
    from simkit.engine.kernel_rng import ROW_WORDS

    checked = 0
    for i, (_, state) in enumerate(_true_positions(overrides, seed, every=5)[:12]):
        seat = state.to_act()[0]
        real = kernel.to_kernel(state)
        rng = np.random.default_rng([seed, i])
        before = rng.bit_generator.state
        sample = state.determinize(seat, rng)
        row = generator_rows([np.random.default_rng([seed, i])], ROW_WORDS)
        ks.determinize(g, real, row[0], seat, pool)
        assert np.array_equal(g, kernel.to_kernel(sample)), f"position {i} ({state.phase})"
        copy = np.random.default_rng(0)
        restore_generators([copy], row)
        assert copy.bit_generator.state == rng.bit_generator.state
        recovered = ks.real_position(sample, seat, rng, before, kernel.to_kernel)
        if state.phase == "pick" and state.own is not None:
            assert recovered is None
        else:
            assert recovered is not None and np.array_equal(recovered, real)
        checked += 1
    assert checked >= 8


def _info_and_rollout(overrides, rollout="greedy"):
    config = with_overrides(ShipsideConfig(), overrides)
    return GameInfo("shipside", config, 2), parse_strategy(rollout, "shipside")


def test_the_opening_picks_search_in_python_and_leave_the_generator_alone():
    """S57: the other seat's own deck is kept sorted in a sample, which hides the order of its
    picks: the compiled search answers None (ISMCTS then searches in Python, the same decision),
    drawing nothing."""
    info, state = next((info, s) for info, s in _true_positions({"variant.enabled": "true"}, 3)
                       if s.phase == "pick")
    found = _search(SEARCHES["defaults"], info, state, 3, kernel=True)
    assert found[3] == "a position the compiled search does not play"
    assert found[:3] == _python(SEARCHES["defaults"], info, state, 3)
    search = compiled.KernelSearch(info, parse_strategy("greedy", "shipside"))
    rng = np.random.default_rng(1)
    seat = state.to_act()[0]
    decision = Decision(state, seat, rng)
    before = rng.bit_generator.state
    answer = search.run(decision, decision.legal_actions, None, 0.0, 10, 0.5, None, 50, 2, False, "margin")
    assert answer is None
    assert rng.bit_generator.state == before


def test_a_plug_in_kernel_form_is_refused_with_a_reason():
    info, _ = _info_and_rollout({})
    with pytest.raises(ValueError, match="no kernel form"):
        compiled.KernelSearch(info, parse_strategy("ismcts", "shipside"))


def test_whole_games_with_compiled_searches_are_the_python_loops_games(monkeypatch):
    """Two seeded games of `ismcts` (the game's defaults, 12 iterations) against `octopus`, and of
    `ismcts` with random rollouts against itself: every column of the results (but the strategy's
    text) equal with kernel=true (compiled whole) and kernel=false (the Python loop)."""
    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec

    runs = []
    run = compiled.KernelSearch.run

    def counted(self, *args):
        runs.append(1)
        return run(self, *args)

    monkeypatch.setattr(compiled.KernelSearch, "run", counted)
    for lineup in (["ismcts:iterations=12", "octopus"],
                   ["ismcts:iterations=8,rollout=random,horizon=0", "ismcts:iterations=8,reward=win"]):
        tables = []
        for kernel in ("true", "false"):
            strategies = [f"{s},kernel={kernel}" if s.startswith("ismcts") else s for s in lineup]
            spec = RunSpec.create(game="shipside", n_players=2, strategies=strategies, n_games=2, seed=11)
            chunk = play_range(spec, 0, 2)
            seats = {k: v for k, v in chunk.seats.items() if k != "strategy"}    # it names kernel=
            tables.append((chunk.games, seats))
        assert all(f < 0 for f in tables[0][0]["forfeit_seat"])
        assert tables[0] == tables[1]
    assert len(runs) > 20                        # the kernel=true games searched compiled
