"""`simkit play`'s view of Trains and Shipside (their describe_observation): what a person needs,
with players counted as the logs count them (P1.., A/B), never a raw 0-based seat field."""

import numpy as np

from simkit.engine.registry import get_game


def _mid_game(name: str, n: int, steps: int):
    game = get_game(name)
    state = game.new_state(game.config_cls(), n, np.random.default_rng(3))
    for _ in range(steps):
        state.apply([state.legal_actions(s)[0] for s in state.to_act()])
    seat = state.to_act()[0]
    return game, state.observe(seat)


def test_trains_view_names_every_player_from_p1_with_trains_display_and_own_card():
    game, obs = _mid_game("trains", 3, 40)
    text = game.describe_observation(obs)
    assert text.startswith(f"you are P{obs.seat + 1};")
    for p, train in enumerate(obs.trains):
        line = next(x for x in text.splitlines() if x.strip().startswith(f"P{p + 1}"))
        shown = [int(c.rstrip("*")) for c in line.split(":", 1)[1].split() if c != "_"]
        assert shown == [c for c in train if c]
        assert ("(you)" in line) == (p == obs.seat)
    for e, card in enumerate(obs.display):
        assert (f"e{e}:{card}" in text) == bool(e and card)
    assert f"draw pile: {obs.draw_size} cards" in text
    assert "P0" not in text and "seat" not in text


def test_shipside_view_shows_each_ship_both_sides_and_the_own_hand():
    game, obs = _mid_game("shipside", 2, 14)
    text = game.describe_observation(obs)
    assert text.startswith(f"you are {'AB'[obs.seat]};")
    ship_lines = [x for x in text.splitlines() if x.strip().startswith("ship ")]
    assert len(ship_lines) == len(obs.row)
    for ship, line in zip(obs.row, ship_lines):
        assert f"ship {ship.defense:>3} (needs {ship.threshold})" in line
        side_b = line.split("| B")[1]
        assert f"= {ship.totals[0]} | B" in line and side_b.split("=")[1].split()[0] == str(ship.totals[1])
    assert text.splitlines()[-1 if not obs.pending_dirs else -2] == \
        "your hand: " + (" ".join(f"{s}{'*' if sym else ''}" for s, sym in obs.hand) or "-")
    assert f"holds {obs.opp_hand} cards" in text

