"""Actions' text round trip, illegal actions, hidden information, determinize, render_log."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.errors import IllegalAction
from simkit.engine.play import play_out
from simkit.engine.seeding import game_streams
from simkit.engine.strategy import GameInfo, parse_strategy
from simkit.games.shipside import (
    GAME,
    Direction,
    EndTurn,
    Mark,
    Octopus,
    Pass,
    Pick,
    Play,
    Rum,
    ShipsideState,
    format_action,
    parse_action,
)

from .helpers import ALTERNATIVES, A, B, config, play_randomly, position


@pytest.mark.parametrize("action, text", [
    (Play(7, False, 30, A, None), "play 7 on 30/A"),
    (Play(-2, True, 34, B, "L"), "play -2* on 34/B, crew left"),
    (Octopus(9, False, 30, B, 30, A, None), "octopus 9 from 30/B to 30/A"),
    (Octopus(-1, True, 28, A, 36, B, "R"), "octopus -1* from 28/A to 36/B, crew right"),
    (Rum(30, "before"), "rum on 30 before"),
    (Rum(32, "after"), "rum on 32 after"),
    (Direction("R"), "crew right"),
    (EndTurn(), "end turn"),
    (Pass(), "pass"),
    (Pick(10, False), "pick 10"),
    (Mark("starfish"), "take starfish"),
])
def test_action_text_round_trip(action, text):
    assert format_action(action) == text
    assert parse_action(text) == action
    assert hash(parse_action(text)) == hash(action)


def test_actions_of_different_kinds_never_equal():
    assert Pick(5, False) != Rum(5, False)
    assert len({Play(1, False, 30, 0, None), Pick(1, False), Direction("L"), EndTurn(), Pass()}) == 5


def test_unreadable_action_text():
    with pytest.raises(IllegalAction, match="cannot read action"):
        parse_action("sail away")


def test_illegal_action_leaves_state_unchanged():
    st = position(hands=((5, 1), (2,)), sides={30: ((1, 1, 2, 2, 3), ())})
    before = (st.observe(A), st.observe(B), len(st.events))
    for bad, rule in [(Play(5, False, 30, A, None), "S20"),       # side full
                      (Play(9, False, 32, A, None), "S19"),       # not in hand
                      (Play(5, False, 33, A, None), "S27"),       # no such ship
                      (Octopus(1, False, 30, A, 30, A, None), "S46"),
                      (Pass(), "S18")]:
        with pytest.raises(IllegalAction) as err:
            st.apply([bad])
        assert err.value.rule == rule and err.value.seat == A
        assert (st.observe(A), st.observe(B), len(st.events)) == before


def test_direction_required_exactly_when_the_player_chooses():
    """S23-S25: a symbol card on a crewed ship needs a direction; elsewhere none is allowed."""
    st = position(hands=((-2, 1), (2,)))
    with pytest.raises(IllegalAction, match="must move"):
        st.apply([Play(-2, True, 30, A, None)])
    with pytest.raises(IllegalAction, match="no crew movement"):
        st.apply([Play(-2, True, 34, A, "L")])          # 34 is empty (S24)


def test_observation_hides_the_other_hand_and_the_pile():
    st = position(hands=((10, 9), (1, 2)))
    obs = st.observe(A)
    assert obs.hand == ((9, False), (10, False)) and obs.opp_hand == 2
    text = repr(obs)
    assert "opp_hand=2" in text
    other = st.determinize(A, np.random.default_rng(5))
    assert other.observe(A) == obs
    assert sorted(other.hands[B] + other.piles[0]) == sorted(st.hands[B] + st.piles[0])


def test_variant_determinize_keeps_personal_piles_apart():
    cfg = config(variant__enabled="true")
    st = ShipsideState(cfg, 2, np.random.default_rng(4))
    while st.phase == "pick":
        st.apply([st.legal_actions(0)[0], st.legal_actions(1)[0]])
    det = st.determinize(A, np.random.default_rng(9))
    assert det.observe(A) == st.observe(A)
    assert sorted(det.piles[A]) == sorted(st.piles[A])   # own pile: same cards, new order
    assert sorted(det.hands[B] + det.piles[B]) == sorted(st.hands[B] + st.piles[B])


def test_clone_is_independent():
    st = position(hands=((5, 1), (2, 3)))
    c = st.clone()
    c.apply([Play(5, False, 30, A, None)])
    assert st.hands[A] != c.hands[A] and st.tot != c.tot and len(st.events) < len(c.events)


def _played_game(seed=2, cfg=None):
    cfg = cfg or config(setup__ship_order="random", setup__first_player="random")
    streams = game_streams(seed, 0, 2)
    st = GAME.new_state(cfg, 2, streams.chance)
    lineup = [parse_strategy("octopus", "shipside"), parse_strategy("random", "shipside")]
    play_out(st, lineup, GameInfo("shipside", cfg, 2), streams.seats, forfeit_on_error=False)
    return st


def test_render_log_draws_the_row():
    st = _played_game()
    text = GAME.render_log(st)
    assert text.startswith("Shipside: row ")
    assert "Turn 1:" in text and "Game over" in text
    assert "ship  28" in text and "crew " in text and "| A: " in text and "| B: " in text
    assert "captures" in text
    # the final line agrees with the outcome
    a, b = (int(x) for x in st.outcome().scores)
    assert f"A {a} - B {b}" in text.splitlines()[-1]


def test_render_log_shows_mugs_and_octopi():
    for seed in range(40):
        text = GAME.render_log(_played_game(seed))
        if "uses the octopus" in text and "rum mug" in text:
            assert "{A}" in text or "{B}" in text          # a card carrying an octopus
            assert "rum A" in text or "rum B" in text      # a ship carrying a mug
            return
    raise AssertionError("no game with both octopus and rum in 40 seeds")


def test_render_log_variant():
    text = GAME.render_log(_played_game(1, config(variant__enabled="true")))
    assert "Variant:" in text and "picks" in text


def test_same_seed_same_game():
    assert _played_game(5).events == _played_game(5).events
    assert _played_game(5).events != _played_game(6).events


def test_render_log_every_rule_variant():
    """render_log follows every event kind (crew stays, ties that keep the ship, passes, picks)."""
    seen = set()
    for i, overrides in enumerate(ALTERNATIVES + [{"variant__enabled": "true",
                                                   "variant__mark_assignment": "chooser"}]):
        cfg = config(setup__ship_order="random", setup__first_player="random", **overrides)
        for seed in range(15):
            st = GAME.new_state(cfg, 2, game_streams(seed, i, 2).chance)
            play_randomly(st, seed)
            text = GAME.render_log(st)
            assert text.splitlines()[-1].startswith("Game over")
            seen.update(e[0] for e in st.events)
    assert {"play", "octopus", "move", "stay", "score", "rum", "draw", "pass", "pick", "marks",
            "turn", "end"} <= seen


def test_variant_determinize_draws_later_chance_from_the_sample_generator():
    """The determinize chance contract (docs/architecture.md): a copy made while opening hands
    are picked (S57) shuffles the unpicked cards (S58) with the sampler's generator, never with a
    copy of the real game's, so a search cannot foresee the real piles."""
    cfg = config(variant__enabled="true")
    st = ShipsideState(cfg, 2, np.random.default_rng(4))
    assert st.phase == "pick"
    piles = []
    for sample_seed in (9, 10):
        real, det = st.clone(), st.determinize(A, np.random.default_rng(sample_seed))
        for game in (real, det):
            while game.phase == "pick":
                game.apply([game.legal_actions(0)[0], game.legal_actions(1)[0]])
        assert sorted(det.piles[A]) == sorted(real.piles[A])
        assert det.piles[A] != real.piles[A]
        piles.append(det.piles[A])
    assert piles[0] != piles[1]
