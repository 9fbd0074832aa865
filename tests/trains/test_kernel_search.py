"""Game of Trains ISMCTS iterations compiled whole (strategies/trains/kernel_search.py with
simkit/games/trains/kernel_search.py, on simkit/search/kernel_tree.py) against the Python search
loop (`ISMCTS._iterate`): from positions met along seeded games with 2, 3 and 4 players (setup
T5-T7, turns T8, a drawn card to place T9; early and late, after T13 reshuffles), at the game's
defaults (2-3 players: greedy rollouts, horizon 12 + evaluate, rival prior 2.0, guard 0.15; 4
players: rival rollouts, depth 1, guard 0.075) and other parameters, the root's edges (action,
visits, total reward, availability, bias, in insertion order), the chosen action and the search
generator's state afterwards are equal; the determinization is `views.determinize` draw for draw.

The bots' discard memories (simkit/games/trains/kernel_search.py's module doc): a `greedy`/
`rival` bot asked for its turn right after a used card (T10) whose Draw reshuffles (T13)
forgets that card, where the kernel's one memory keeps it. The compiled search repeats the
forgetting; the tests below meet it and require the same statistics there too."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.registry import get_game
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.trains import kernel_layout as L
from simkit.games.trains.config import TrainsConfig
from simkit.search.compiled import compiled_search
from simkit.search.ismcts import ISMCTS
from strategies.trains import heuristic
from tests.compiled_searches import search as _search
from tests.kernel_rollouts import positions
from tests.trains.test_kernel_rollout import SharedMemory

pytest.importorskip("numba")

from simkit.engine.kernel_positions import generator_rows, restore_generators  # noqa: E402
from simkit.games.trains import kernel_search as ks  # noqa: E402
from simkit.games.trains.kernel_play import GEN_WORDS  # noqa: E402
from strategies.trains import kernel_search as compiled  # noqa: E402

GAME = get_game("trains")

#: (players, config overrides, seed) of the seeded `random` games the positions come from
CONFIGS = [
    (2, {}, 3),                                                                     # T1-T25
    (3, {}, 4),
    (4, {}, 5),
    # T5-T7 simultaneous setup, T13 eager reshuffle, T10 used card discarded before
    (2, {"setup_order": "simultaneous", "reshuffle": "eager", "used_card": "before"}, 6),
    # T19/T20 swap, T21-T23 complete refills, T11 pair_keep=first with the used card staying,
    # T24 chosen voiding and double locks, §1.2 periodic table
    (3, {"move_semantics": "swap", "refill_stop": "complete", "pair_keep": "first", "used_card_stays": "true",
         "lock_voiding": "chosen", "double_lock": "true", "allow_all_locked_removal": "false",
         "effect_table": "periodic", "setup_order": "simultaneous"}, 7),
]
#: ISMCTS parameters: the game's defaults, random rollouts to the end (the generic search), and
#: other readings
SEARCHES = {
    "defaults": dict(iterations=30),
    "random rollouts to the end, win": dict(iterations=30, rollout="random", reward="win", c=1.414, horizon=0,
                                            prior_weight=0.0, guard=0.0),
    "rival rollouts, rank, depth 2, horizon 30, guard": dict(iterations=25, rollout="rival", reward="rank",
                                                             depth=2, horizon=30, guard=0.05),
    "greedy without memory, margin, horizon 5, step cap 9": dict(
        iterations=25, rollout="greedy:memory=false", reward="margin", horizon=5, max_rollout_steps=9,
        prior_weight=3.0),
}


def _true_positions(n, overrides, seed, count=8):
    """True states where the seat to act has a choice: the setup's, then spread over the game."""
    met = positions("trains", n, overrides, ["random"], seed, 7, 2 * n + 1)
    found = [(info, state) for info, kind, state in met
             if kind == "true" and len(state.legal_actions(state.to_act()[0])) > 1]
    setup = [f for f in found if f[1].phase in ("keep", "setup_place")][:2]
    places = [f for f in found if f[1].phase == "place"]
    setup += places[len(places) // 2:][:1]                  # a drawn card to place (T9), mid-game
    rest = [f for f in found if f[1].phase == "turn"]
    spread = rest[::max(1, len(rest) // (count - len(setup)))]
    return setup + spread[:count - len(setup)]


def _python(params, info, state, seed):
    return _search(params, info, state, seed, kernel=False)[:3]


def _compiled(params, info, state, seed):
    found = _search(params, info, state, seed, kernel=True)
    assert found[3] is None, f"searched in Python: {found[3]}"
    return found[:3]


@pytest.mark.parametrize("name", list(SEARCHES))
@pytest.mark.parametrize("n,overrides,seed", CONFIGS)
def test_compiled_iterations_leave_the_root_the_python_loop_leaves(n, overrides, seed, name):
    params = SEARCHES[name]
    phases = set()
    found = _true_positions(n, overrides, seed)
    for i, (info, state) in enumerate(found):
        got = _compiled(params, info, state, seed * 100 + i)
        want = _python(params, info, state, seed * 100 + i)
        assert got[0] == want[0], f"position {i} ({state.phase}, turn {state.turns}): root statistics differ"
        assert got[1:] == want[1:], f"position {i} ({state.phase}): choice or generator differ"
        assert sum(e[1] for e in got[0]) == params["iterations"]     # every iteration backed up
        phases.add(state.phase)
    assert len(found) == 8 and {"turn", "place"} <= phases and phases & {"keep", "setup_place"}
    assert any(state.reshuffles for _, state in found)              # late positions (T13) too


def _searcher(info, rollout):
    return compiled.KernelSearch(info, parse_strategy(rollout, "trains"))


@pytest.mark.parametrize("n,overrides,seed", CONFIGS)
def test_the_kernel_determinizes_as_views_determinize(n, overrides, seed):
    """`determinize` on the real position's array draws what `views.determinize` draws (the same
    array as the Python sample's, the generator in the same state), also where other seats' setup
    discards sit in the discard pile (renamed) and another seat's drawn card is unknown (T9);
    `real_position` recovers the real array from a sample and the generator's state before it."""
    info, _ = _true_positions(n, overrides, seed, 2)[0]
    kernel = _searcher(info, "greedy").kernel
    g = kernel.blank.copy()
    pool = np.zeros(L.CARDS, dtype=np.int64)
    seen = set()
    for i, (_, kind, state) in enumerate(positions("trains", n, overrides, ["random"], seed, 11, 2 * n + 1)):
        if kind != "true":
            continue
        for seat in range(n):
            real = kernel.to_kernel(state)
            rng = np.random.default_rng([seed, i, seat])
            before = rng.bit_generator.state
            sample = state.determinize(seat, rng)
            row = generator_rows([np.random.default_rng([seed, i, seat])], GEN_WORDS)
            ks.determinize(g, real, row[0], seat, pool)
            assert np.array_equal(g, kernel.to_kernel(sample)), f"position {i} ({state.phase}), seat {seat}"
            copy = np.random.default_rng(0)
            restore_generators([copy], row)
            assert copy.bit_generator.state == rng.bit_generator.state
            recovered = ks.real_position(sample, seat, rng, before, kernel.to_kernel)
            assert np.array_equal(recovered, real)
            if any(state.hidden[p] for p in range(n) if p != seat):
                seen.add("hidden")
            if state.drawn and state.cur != seat:
                seen.add("drawn")
            if any(state.hands[p] for p in range(n) if p != seat):
                seen.add("hands")
    assert {"hidden", "drawn", "hands"} <= seen


def test_the_bots_forgetting_is_met_and_searched_exactly():
    """The drawer forgets a pending used card at its Draw's reshuffle (T10, T13; module doc):
    rival rollouts to the end (4 players: the defaults' rollouts and depth) meet it in many
    searches where the draw pile runs low; every one of those searches gives the Python loop's
    statistics. Control: Python bots reading the log as the kernel's one memory does
    (`SharedMemory`) give other statistics in at least one of them, so the case matters."""
    met = differs = 0
    params = dict(iterations=30, horizon=0)                      # 4 players: rival rollouts, depth 1
    for i, (info, kind, state) in enumerate(positions("trains", 4, {}, ["random"], 5, 3, 0)):
        if i > 137:
            break
        # two stretches of a seeded 4-player game where the draw pile runs low (T13)
        low = 56 <= i < 76 or 130 <= i
        if kind != "true" or not low or len(state.legal_actions(state.to_act()[0])) < 2:
            continue
        got = _compiled(params, info, state, i)
        search, _ = compiled_search(GAME, info, parse_strategy("rival", "trains"))
        if not search.forgotten:
            continue
        met += 1
        want = _python(params, info, state, i)
        assert got == want, f"position {i}: the forgetting search differs"
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(heuristic, "DiscardMemory", SharedMemory)
            differs += _python(params, info, state, i) != want
    assert met >= 10
    assert differs >= 1


def test_the_comparison_can_fail():
    """Control: the compiled search with another c, or from another seed, gives other root
    statistics (and another generator state) than the Python loop."""
    info, state = _true_positions(2, {}, 3)[4]
    want = _python(SEARCHES["defaults"], info, state, 5)
    shifted = _compiled(dict(SEARCHES["defaults"], c=1.2), info, state, 5)
    assert shifted[0] != want[0]
    other = _compiled(SEARCHES["defaults"], info, state, 6)
    assert other[0] != want[0] and other[2] != want[2]


def test_codes_and_actions_round_trip():
    """Every action of the game (Draw, Place, Keep, Use of §5's domain) has its own tree code
    below N_CODES, and `action_of` gives the interned action back."""
    from simkit.games.trains.actions import DRAW, KEEP, PLACE, USE

    every = [DRAW, *PLACE[1:], *KEEP[1:], *(a for acts in USE.values() for a in acts)]
    codes = [ks.code_of(a) for a in every]
    assert len(set(codes)) == len(every) and max(codes) < ks.N_CODES
    assert all(ks.action_of(c) is a for c, a in zip(codes, every))


def test_what_the_compiled_search_cannot_play_is_refused_or_left_to_python():
    """A strategy without a kernel form, or a plug-in's kernel form, is refused with a reason;
    ISMCTS then searches in Python (`compiled_reason`), as under a time budget."""
    info = GameInfo("trains", TrainsConfig(), 2)
    with pytest.raises(ValueError, match="no kernel form"):
        _searcher(info, "ismcts")
    bot = ISMCTS(iterations=5, time_ms=50)
    bot.setup(info, 0, np.random.default_rng(0))
    assert bot.compiled() is None and bot.compiled_reason == "a time budget"


def test_a_plug_in_kernel_form_searches_in_python(monkeypatch):
    """A kernel form the compiled search does not know (a plug-in's: its bot may keep what the
    Python bot does not) is refused; the search then plays in Python."""
    import dataclasses

    form = compiled.rollout_form
    monkeypatch.setattr(compiled, "rollout_form",
                        lambda *a: dataclasses.replace(form(*a), function="plugin.module:bot"))
    with pytest.raises(ValueError, match="not a built-in Game of Trains bot"):
        _searcher(GameInfo("trains", TrainsConfig(), 3), "greedy")


def test_whole_games_with_compiled_searches_are_the_python_loops_games(monkeypatch):
    """Seeded games of `ismcts` (the game's defaults, few iterations) against `rival` (2 and 4
    players), and of `ismcts` with random rollouts against itself: every column of the results
    (but the strategy's text) equal with kernel=true (compiled whole) and kernel=false."""
    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec

    runs = []
    run = compiled.KernelSearch.run

    def counted(self, *args):
        runs.append(1)
        return run(self, *args)

    monkeypatch.setattr(compiled.KernelSearch, "run", counted)
    for n, lineup in ((2, ["ismcts:iterations=6", "rival"]),
                      (4, ["ismcts:iterations=4", "rival", "greedy", "random"]),
                      (2, ["ismcts:iterations=5,rollout=random,horizon=0",
                           "ismcts:iterations=5,reward=rank"])):
        tables = []
        for kernel in ("true", "false"):
            strategies = [f"{s},kernel={kernel}" if s.startswith("ismcts") else s for s in lineup]
            spec = RunSpec.create(game="trains", n_players=n, strategies=strategies, n_games=2, seed=11)
            chunk = play_range(spec, 0, 2)
            seats = {k: v for k, v in chunk.seats.items() if k != "strategy"}    # it names kernel=
            tables.append((chunk.games, seats))
        assert all(f < 0 for f in tables[0][0]["forfeit_seat"])
        assert tables[0] == tables[1]
    assert len(runs) > 100                       # the kernel=true games searched compiled
