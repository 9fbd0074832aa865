"""ISMCTS iterations compiled whole (6 nimmt!, strategies/sixnimmt/kernel_search.py): the same
root statistics (visits, totals, availability per action, in the same order), the same action
and the same search generator state as the Python loop, over positions of seeded games in every
phase (cards N5, row picks N10, draft picks N19), single rounds, matches and the advanced game;
with `infer` (the opponent model's redeal of every determinization) over positions of games
played by `heuristic` bots, whose plays constrain their hands."""

from dataclasses import replace

import numpy as np
import pytest

from simkit.engine.config import with_overrides
from simkit.engine.registry import get_game
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.search import compiled as compiled_module
from simkit.search.compiled import unsupported
from simkit.search.defaults import PER_GAME
from simkit.search.ismcts import ISMCTS

pytest.importorskip("numba")

CONFIGS = {"single round": {"max_rounds": "1"}, "match": {},
           "advanced": {"advanced": "true", "max_rounds": "2"}}

#: searches without `infer` (the 6 nimmt! default since issue 20's third session; compared with
#: it on below, over positions where the model constrains the other hands)
SEARCHES = {
    "defaults": dict(),
    "random rollouts to the end": dict(rollout="random", reward="win", c=1.4, round_cut=False,
                                       prior_weight=0),
    "margin, depth 2, horizon 4, lowest": dict(rollout="lowest", reward="margin", depth=2, horizon=4),
    "win, guard, step cap": dict(reward="win", guard=0.05, max_rollout_steps=6, rollout="highest"),
}


def _positions(overrides, n=4, seed=5):
    """Every position of a seeded random game where the first acting seat has a choice."""
    game = get_game("sixnimmt")
    config = with_overrides(game.config_cls(), overrides)
    state = game.new_state(config, n, np.random.default_rng(seed))
    rng = np.random.default_rng(seed + 1)
    found = []
    while not state.is_over():
        seats = state.to_act()
        if len(state.legal_actions(seats[0])) > 1:
            found.append((state.clone(), config))
        state.apply([state.legal_actions(s)[rng.integers(len(state.legal_actions(s)))] for s in seats])
    return found


def _search(params, state, config, seed, kernel):
    """(root statistics, action, search generator state, why Python) of one decision."""
    seat = state.to_act()[0]
    bot = ISMCTS(kernel=kernel, **{"iterations": 30, "infer": False, **params})
    rng = np.random.default_rng(seed)
    bot.setup(GameInfo("sixnimmt", config, state.n), seat, rng)
    decision = Decision(state.clone(), seat, rng)
    actions = bot.root_actions(decision)
    prior = bot.root_prior(decision, actions)
    root = bot.search(decision, actions, prior)
    stats = [(a, e.visits, e.total, e.available, e.bias) for a, e in root.edges.items()]
    after = rng.bit_generator.state
    rng2 = np.random.default_rng(seed)
    bot2 = ISMCTS(kernel=kernel, **{"iterations": 30, "infer": False, **params})
    bot2.setup(GameInfo("sixnimmt", config, state.n), seat, rng2)
    action = bot2.act(Decision(state.clone(), seat, rng2))
    return stats, action, after, bot.compiled_reason


@pytest.mark.parametrize("search", list(SEARCHES))
@pytest.mark.parametrize("config", list(CONFIGS))
def test_compiled_iterations_give_the_python_loops_statistics_action_and_draws(config, search):
    found = _positions(CONFIGS[config])
    positions = found[::max(1, len(found) // 8)]
    phases = {state.phase for state, _ in positions}
    assert len(positions) >= 6
    for i, (state, cfg) in enumerate(positions):
        python = _search(SEARCHES[search], state, cfg, i, kernel=False)
        fast = _search(SEARCHES[search], state, cfg, i, kernel=True)
        assert python[3] == "kernel=false" and fast[3] is None, fast[3]
        assert fast[:3] == python[:3], f"position {i} ({state.phase})"
        assert sum(v for _, v, *_ in python[0]) == 30
    assert phases >= ({"play", "draft"} if config == "advanced" else {"play"})


def test_every_phase_is_searched_row_picks_and_drafts_too():
    """N10 row picks and N19 draft picks as root decisions, compiled and in Python."""
    picks = [p for p in _positions({}, seed=9) if p[0].phase == "row_pick"][:3]
    drafts = [p for p in _positions(CONFIGS["advanced"])if p[0].phase == "draft"][:3]
    assert picks and drafts
    for i, (state, cfg) in enumerate(picks + drafts):
        python = _search({}, state, cfg, i, kernel=False)
        fast = _search({}, state, cfg, i, kernel=True)
        assert fast[3] is None and fast[:3] == python[:3]


HEURISTIC = ["heuristic"] * 4
MIXED = ["heuristic", "random", "heuristic", "random"]


def _played_positions(overrides, lineup, seed, n=4):
    """Every position with a choice of a game played by `lineup` (`heuristic` seats' plays
    constrain their hands in the opponent model; `random` seats' mostly do not)."""
    game = get_game("sixnimmt")
    config = with_overrides(game.config_cls(), overrides)
    state = game.new_state(config, n, np.random.default_rng(seed))
    info = GameInfo("sixnimmt", config, n)
    bots = []
    for s, name in enumerate(lineup):
        bot, rng = parse_strategy(name, "sixnimmt").build(), np.random.default_rng([seed, s])
        bot.setup(info, s, rng)
        bots.append((bot, rng))
    found = []
    while not state.is_over():
        seats = state.to_act()
        if len(state.legal_actions(seats[0])) > 1:
            found.append((state.clone(), config))
        state.apply([bots[s][0].act(Decision(state.clone(), s, bots[s][1])) for s in seats])
    return found


def _model(state):
    """The opponent model the search of the first acting seat builds (model.py), or None."""
    from strategies.sixnimmt.model import heuristic_model

    seat = state.to_act()[0]
    return heuristic_model(state.determinize(seat, np.random.default_rng(0)), seat)


def _short(model, state):
    """Whether a constrained seat may hold fewer cards than it holds (`resample` fills it with any)."""
    return model is not None and any(len(model.allowed[s]) < len(state.hands[s]) for s in model.order)


INFERRED = {   # rule overrides, lineup, game seeds, positions taken per game
    "single rounds of heuristics": ({"max_rounds": "1"}, HEURISTIC, (0, 1, 2, 3), 8),
    "single rounds, two random seats": ({"max_rounds": "1"}, MIXED, (0, 2, 4), 8),
    "matches of heuristics": ({}, HEURISTIC, (3, 4), 12),
}


@pytest.mark.parametrize("case", list(INFERRED))
def test_compiled_infer_gives_the_python_loops_statistics_action_and_draws(case):
    """`infer=true` (the 6 nimmt! defaults): each determinization redealt by the heuristic's
    opponent model in the kernel as `HeuristicModel.resample` redeals it, over early and late
    turns (N5 card plays, N10 row picks) of every round, where the model constrains none, some
    or all of the other seats, some of them tightly."""
    overrides, lineup, seeds, per_game = INFERRED[case]
    positions = []
    for seed in seeds:
        found = _played_positions(overrides, lineup, seed)
        positions += found[::max(1, len(found) // per_game)]
    models = [_model(state) for state, _ in positions]
    constrained = [len(m.order) if m else 0 for m in models]
    spare = [len(m.allowed[s]) - len(state.hands[s]) for m, (state, _) in zip(models, positions)
             if m for s in m.order]
    assert len(positions) >= 20 and 0 in constrained and max(constrained) == 3
    assert min(spare) < 10                          # late turns: few cards left to choose from
    if not overrides:
        assert any(c and state.round > 1 for c, (state, _) in zip(constrained, positions))
    for i, (state, cfg) in enumerate(positions):
        python = _search({"infer": True}, state, cfg, i, kernel=False)
        fast = _search({"infer": True}, state, cfg, i, kernel=True)
        assert python[3] == "kernel=false" and fast[3] is None, fast[3]
        assert fast[:3] == python[:3], f"position {i} ({state.phase}, round {state.round})"


def test_compiled_infer_fills_a_seat_with_too_few_allowed_cards_as_python_does():
    """A `random` seat that happened to play like the heuristic is constrained to fewer cards
    than it holds: `resample` fills its hand with any cards (the second pass), the kernel too."""
    short = [p for seed in (0, 2) for p in _played_positions({"max_rounds": "1"}, MIXED, seed)
             if _short(_model(p[0]), p[0])]
    assert short
    for i, (state, cfg) in enumerate(short[:4]):
        for params in ({"infer": True}, {"infer": True, "rollout": "heuristic:caution=0.5", "reward": "win"}):
            python = _search(params, state, cfg, i, kernel=False)
            fast = _search(params, state, cfg, i, kernel=True)
            assert fast[3] is None and fast[:3] == python[:3], f"position {i}"


@pytest.mark.parametrize("config", ["advanced", "match"])
def test_compiled_infer_without_a_model_is_the_plain_search(config):
    """No model, no redeal and no draw: the advanced game (hands public, N19) and a rollout bot
    without one (`random`): infer=true gives what infer=false gives, compiled and in Python."""
    params = {"rollout": "random"} if config == "match" else {}
    for i, (state, cfg) in enumerate(_positions(CONFIGS[config])[::10][:4]):
        plain = _search(params, state, cfg, i, kernel=True)
        python = _search({**params, "infer": True}, state, cfg, i, kernel=False)
        fast = _search({**params, "infer": True}, state, cfg, i, kernel=True)
        assert fast[3] is None and fast[:3] == python[:3] == plain[:3]


def test_the_infer_control_fails_when_the_constrained_seats_are_redealt_in_another_order(monkeypatch):
    """The comparison can fail: the model passed to the kernel with its seats in seat order (not
    the most constrained first) changes the statistics; infer on and off differ too."""
    from simkit.games.sixnimmt import kernel_search as ks

    state, cfg = next(p for p in _played_positions({"max_rounds": "1"}, HEURISTIC, 0)
                      if p[0].phase == "play" and len(_model(p[0]).order) >= 2
                      and list(_model(p[0]).order) != sorted(_model(p[0]).order))
    params = {"infer": True, "rollout": "heuristic", "reward": "win", "prior_weight": 0}
    python = _search(params, state, cfg, 0, kernel=False)
    assert _search(params, state, cfg, 0, kernel=True)[:3] == python[:3]
    assert _search({**params, "infer": False}, state, cfg, 0, kernel=True)[0] != python[0]
    real = ks.model_arrays

    def seat_order(model, allowed, order):
        count = real(model, allowed, order)
        order[:count] = sorted(order[:count])
        return count

    monkeypatch.setattr(ks, "model_arrays", seat_order)
    fast = _search(params, state, cfg, 0, kernel=True)
    assert fast[3] is None
    assert fast[0] != python[0]


def test_the_control_fails_when_the_unknown_cards_are_dealt_from_another_order(monkeypatch):
    """The comparison can fail: dealing the determinizations from the unknown cards sorted (not
    in the real state's order) changes the statistics of a basic-game search."""
    from simkit.games.sixnimmt import kernel_search as ks

    state, cfg = _positions(CONFIGS["single round"])[2]
    python = _search(SEARCHES["random rollouts to the end"], state, cfg, 0, kernel=False)
    real = ks.unknown_order
    monkeypatch.setattr(ks, "unknown_order", lambda *args: sorted(real(*args)))
    fast = _search(SEARCHES["random rollouts to the end"], state, cfg, 0, kernel=True)
    assert fast[3] is None
    assert fast[0] != python[0]


def test_another_seed_gives_other_statistics():
    state, cfg = _positions(CONFIGS["match"])[0]
    one = _search({}, state, cfg, 0, kernel=True)
    other = _search({}, state, cfg, 1, kernel=True)
    assert one[0] != other[0] and one[2] != other[2]


def test_the_python_loop_plays_what_the_compiled_search_cannot_and_says_why(monkeypatch):
    state, cfg = _positions(CONFIGS["single round"])[0]
    assert _search({"time_ms": 5, "iterations": None}, state, cfg, 0, True)[3] == "a time budget"
    plugin = _search({"rollout": "tests.search.test_kernel_rollouts:FirstCard"}, state, cfg, 0, True)
    assert "no kernel form" in plugin[3]
    # a parameter the compiled iterations do not know, set away from its default: Python
    monkeypatch.setattr(compiled_module, "SUPPORTED", compiled_module.SUPPORTED - {"depth"})
    assert _search({"depth": 2}, state, cfg, 0, True)[3] == "depth is not played by compiled iterations"
    # `infer` is played by 6 nimmt!'s compiled search only: any other game's stays in Python
    assert _search({"infer": True}, state, cfg, 0, True)[3] is None
    assert unsupported(PER_GAME["sixnimmt"], "sixnimmt") is None
    assert unsupported(PER_GAME["sixnimmt"], "shipside") == "infer"
    assert unsupported(replace(PER_GAME["sixnimmt"], infer=False), "shipside") is None
    assert unsupported(replace(PER_GAME["sixnimmt"], crn=True), "sixnimmt") == "crn"


def test_infer_keeps_a_game_whose_compiled_search_lacks_it_in_python():
    """Shipside has a compiled search but no `infer` in it: infer=true searches in Python."""
    game = get_game("shipside")
    assert game.kernel_search is not None
    config = game.config_cls()
    state = game.new_state(config, 2, np.random.default_rng(3))
    seat = state.to_act()[0]
    reasons = []
    for infer in (False, True):
        bot = ISMCTS(iterations=4, infer=infer)
        rng = np.random.default_rng(0)
        bot.setup(GameInfo("shipside", config, 2), seat, rng)
        bot.act(Decision(state.clone(), seat, rng))
        reasons.append(bot.compiled_reason)
    assert reasons == [None, "infer is not played by compiled iterations"]


def test_a_game_without_the_hook_searches_in_python():
    game = get_game("highcard")
    assert game.kernel_search is None
    found, reason = compiled_module.compiled_search(game, GameInfo("highcard", game.config_cls(), 2), None)
    assert found is None and "no compiled search" in reason


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**32 - 1, 2**32, 2**63 - 1, 987654321987654321])
def test_seed_row_is_numpys_pcg64_of_a_seed(seed):
    """The determinization's chance generator, `Generator(PCG64(seed))`, made in the kernel; and
    the seed drawn as `integers(2**63)` is the next 64-bit output halved."""
    from simkit.engine import kernel_rng as kr
    from simkit.engine.kernel_positions import generator_rows, restore_generators

    row = np.zeros(kr.ROW_WORDS, dtype=np.uint64)
    kr.seed_row(seed, row, np.zeros(4, dtype=np.uint64))
    made = np.random.Generator(np.random.PCG64())
    restore_generators([made], row[None, :])
    assert made.random(5).tolist() == np.random.Generator(np.random.PCG64(seed)).random(5).tolist()
    search = np.random.default_rng(seed)
    words = generator_rows([search], kr.ROW_WORDS)[0]
    assert int(search.integers(1 << 63)) == int(kr.next64(words)) >> 1


@pytest.mark.parametrize("infer", ["false", "true"])
@pytest.mark.parametrize("overrides", [{"max_rounds": "1"}, {"advanced": "true", "max_rounds": "1"}],
                         ids=["basic", "advanced"])
def test_whole_seeded_games_with_compiled_searches_equal_the_python_loops(overrides, infer):
    """Games of two ISMCTS seats against heuristic bots: every column of the games and seats
    tables the same with the compiled iterations and with kernel=false (N1-N19 as played)."""
    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec

    tables = []
    for flag in ("", ",kernel=false"):
        lineup = [f"ismcts:iterations=15,infer={infer}{flag}", "heuristic",
                  f"ismcts:iterations=15,infer={infer},rollout=random{flag}", "random"]
        chunk = play_range(RunSpec.create("sixnimmt", 4, lineup, 2, seed=11, overrides=overrides), 0, 2)
        tables.append((chunk.games, {k: v for k, v in chunk.seats.items() if k != "strategy"}))
    assert tables[0] == tables[1]
    assert len(tables[0][0]["game"]) == 2
