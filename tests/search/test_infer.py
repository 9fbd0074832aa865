"""ISMCTS `infer`: determinizations redealt by the rollout strategy's opponent model
(`opponent_model(state, seat)`, 6 nimmt! `heuristic`: strategies/sixnimmt/model.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine import seeded_play
from simkit.engine.errors import ConfigError
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.state import new_state
from simkit.search.defaults import GENERIC, PER_GAME
from simkit.search.ismcts import ISMCTS
from strategies.sixnimmt.heuristic import HeuristicStrategy
from strategies.sixnimmt.model import HeuristicModel

N = 4
CONFIG = SixNimmtConfig(max_rounds=1)
INFO = GameInfo("sixnimmt", CONFIG, N)


def _mid_round(turns: int = 4, seed: int = 11):
    """A single round after `turns` turns of four `heuristic` players (N5-N12)."""
    start = new_state(CONFIG, N, np.random.default_rng(seed))
    return next(state for state in seeded_play.positions(start, [HeuristicStrategy() for _ in range(N)],
                                                         INFO, seed) if state.turn >= turns)


def _choices(bot_text: str, decisions: int = 4) -> list:
    state = _mid_round()
    out = []
    for k in range(decisions):
        bot = parse_strategy(bot_text, "sixnimmt").build()
        rng = np.random.default_rng(k)
        bot.setup(INFO, 0, rng)
        out.append(bot.act(Decision(state, 0, rng)))
    return out


def test_infer_is_off_by_default_except_where_a_game_switches_it_on():
    assert GENERIC.infer is False
    assert ISMCTS().infer is False
    assert ISMCTS(infer=True).infer is True
    assert all(not d.infer for game, d in PER_GAME.items() if game != "sixnimmt")


def test_a_bad_infer_value_is_refused_by_name():
    with pytest.raises(ConfigError, match="infer='maybe' is not a boolean"):
        parse_strategy("ismcts:infer=maybe", "sixnimmt").build()


def test_without_an_opponent_model_infer_changes_nothing():
    """`random` rollouts have no opponent model: no draw is added, the same choices."""
    base = "ismcts:iterations=30,rollout=random,prior_weight=0"
    assert _choices(base + ",infer=true") == _choices(base + ",infer=false")


def test_the_model_is_built_once_per_decision_and_redeals_every_iteration(monkeypatch):
    """In the Python loop (kernel=false); the compiled search builds it once per decision too
    and redeals in the kernel (tests/search/test_compiled_search.py: the same draws)."""
    built, redealt = [], []
    real_build, real_resample = HeuristicStrategy.opponent_model, HeuristicModel.resample

    def build(self, state, seat):
        built.append(seat)
        return real_build(self, state, seat)

    def resample(self, state, rng):
        redealt.append(state)
        return real_resample(self, state, rng)
    monkeypatch.setattr(HeuristicStrategy, "opponent_model", build)
    monkeypatch.setattr(HeuristicModel, "resample", resample)
    _choices("ismcts:iterations=25,infer=true,kernel=false", decisions=2)
    assert built == [0, 0]
    assert len(redealt) == 50 and len({id(s) for s in redealt}) == 50
    built.clear()
    redealt.clear()
    _choices("ismcts:iterations=25,infer=true", decisions=2)
    assert built == [0, 0] and redealt == []
    built.clear()
    _choices("ismcts:iterations=25,infer=false", decisions=1)
    assert built == []


def test_the_redeal_deals_no_ruled_out_card_to_a_seat_in_the_search(monkeypatch):
    """What the rollouts see: in every determinization of an inferring search, each other seat
    holds only cards its model allows (there are plenty of them at turn 4 of 10). In Python
    (kernel=false): the compiled redeal gives the same deals (test_compiled_search.py)."""
    seen = []
    real = HeuristicModel.resample

    def resample(self, state, rng):
        real(self, state, rng)
        hidden = len(state.aside) + sum(len(h) for h in state.hands[1:])
        seen.append((self.allowed, [list(h) for h in state.hands], hidden))
    monkeypatch.setattr(HeuristicModel, "resample", resample)
    _choices("ismcts:iterations=20,infer=true,kernel=false", decisions=1)
    assert len(seen) == 20
    for allowed, hands, hidden in seen:
        assert all(allowed[s] is not None for s in (1, 2, 3))     # heuristic players
        for s in (1, 2, 3):
            assert set(hands[s]) <= allowed[s]
            assert len(allowed[s]) < hidden              # something is ruled out for each


def test_inference_changes_what_the_search_plays_somewhere():
    """Control that the option reaches the search: over a few seeds and positions the choices
    with and without it are not all equal."""
    base = "ismcts:iterations=30"
    assert _choices(base + ",infer=true", 6) != _choices(base + ",infer=false", 6)


# ---- crn: common random numbers at the root ------------------------------------------------

def test_crn_is_off_by_default_and_a_bad_value_is_refused():
    assert GENERIC.crn is False and ISMCTS().crn is False
    assert all(not d.crn for game, d in PER_GAME.items() if game != "sixnimmt")
    with pytest.raises(ConfigError, match="crn='often' is not a boolean"):
        parse_strategy("ismcts:crn=often", "sixnimmt").build()


def _sweep_log(monkeypatch, text: str):
    """(forced root action, other hands, bots' generator states) of every iteration of one
    decision of `text` at turn 4 of a round, and what it played."""
    log = []
    real = ISMCTS._iterate

    def iterate(self, root, decision, sim, actions, state=None, forced=None):
        hands = None if state is None else tuple(tuple(h) for h in state.hands[1:])
        gens = [g["state"]["state"] for g in sim.generator_states()]
        log.append((forced, hands, gens))
        return real(self, root, decision, sim, actions, state, forced)
    monkeypatch.setattr(ISMCTS, "_iterate", iterate)
    played = _choices(text, decisions=1)[0]
    return log, played


def test_crn_sweeps_every_root_action_on_one_determinization_and_seed(monkeypatch):
    state = _mid_round()
    hand = state.hands[0]
    log, played = _sweep_log(monkeypatch, f"ismcts:iterations={3 * len(hand) + 2},crn=true,infer=false")
    assert played in hand
    assert len(log) == 3 * len(hand)                       # whole sweeps only
    sweeps = [log[k:k + len(hand)] for k in range(0, len(log), len(hand))]
    for sweep in sweeps:
        assert [forced for forced, _, _ in sweep] == list(hand)
        assert len({hands for _, hands, _ in sweep}) == 1          # one determinization
        assert len({tuple(gens) for _, _, gens in sweep}) == 1     # the same rollout seeds
    assert len({sweep[0][1] for sweep in sweeps}) == 3             # a fresh one per sweep


def test_without_crn_the_iterations_draw_their_own_samples(monkeypatch):
    """Control: the generic loop forces nothing and passes no shared state."""
    log, _ = _sweep_log(monkeypatch, "ismcts:iterations=12,crn=false,kernel=false")
    assert len(log) == 12 and all(forced is None and hands is None for forced, hands, _ in log)


def test_crn_plays_the_best_mean_root_action(monkeypatch):
    """Every root action gets the same visits; the choice is the highest mean reward."""
    roots = []
    real = ISMCTS._sweeps

    def sweeps(self, root, *args):
        roots.append(root)
        return real(self, root, *args)
    monkeypatch.setattr(ISMCTS, "_sweeps", sweeps)
    played = _choices("ismcts:iterations=40,crn=true,depth=1", decisions=1)[0]
    (root,) = roots
    visits = {e.visits for e in root.edges.values()}
    assert len(visits) == 1 and visits.pop() >= 4
    assert played == max(root.edges.values(), key=lambda e: e.mean).action
