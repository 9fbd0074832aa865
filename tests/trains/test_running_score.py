"""The running score of Game of Trains (the game's arc, docs/arc.md): every seat's cards in order
(T25: the longest ascending run of its train, `evaluate.standings`) after each round of turns,
and the final position; a hand-built game whose track is known."""

import pytest

from simkit.engine.play import play_range
from simkit.engine.running import CAP
from simkit.engine.spec import RunSpec
from simkit.games.trains.actions import DRAW, PLACE
from simkit.games.trains.evaluate import standings
from simkit.stats.arc import game_arc

from .helpers import P0_TO_PLAY, position

#: P0 has 20..60 in order (5 cards), P1 11..14 80 81 (6); the draw pile's top cards are known
START = f"""{P0_TO_PLAY}
    P0: 70 20 30 40 50 60 5
    P1: 11 12 13 14 80 81 1
    display: -
    draw pile (top first): 4 15 10 16 65 ...
    discard pile (bottom first): -"""

#: (card drawn, slot it replaces) turn by turn (T9), from P0
TURNS = [(4, 7), (15, 7), (10, 1), (16, 6), (65, 7)]


def test_a_hand_built_game_records_cards_in_order_after_each_round_and_at_the_end():
    """T9/T25: round 1 ends 5:6 (P1 ahead), round 2 6:5 (P0 ahead), and P0 wins on turn 5,
    in the middle of round 3, with 7 in order: the record is its three standings."""
    state = position(START)
    for card, slot in TURNS:
        state.apply([DRAW])
        assert state.drawn == card
        state.apply([PLACE[slot]])
    out = state.outcome()
    assert out.win_shares == (1.0, 0.0)                       # T25: P0's train is ascending
    assert out.running == ((5.0, 6.0), (6.0, 5.0), (7.0, 5.0))


def test_the_hand_built_games_arc_figures():
    """One lead change (P1 alone ahead, then P0 alone), decided after step 2 of 3, the winner
    one card behind at worst, not last at half time (step 2)."""
    state = position(START)
    for _card, slot in TURNS:
        state.apply([DRAW])
        state.apply([PLACE[slot]])
    arc = game_arc(list(state.outcome().running), [0])
    assert (arc.length, arc.lead_changes, arc.comeback, arc.drama) == (3, 1, False, 1.0)
    assert arc.decided_at == pytest.approx(2 / 3)


def test_an_empty_slot_left_by_a_win_is_no_card_in_order():
    """T21-T23: a refill cut short by a win leaves a slot empty (0): it counts for nothing."""
    assert standings([[0, 5, 6, 7, 8, 9, 10], [3, 2, 1, 4, 5, 6, 7]]) == [6, 5]


@pytest.mark.parametrize("players, strategy", [(2, "greedy"), (4, "rival")])
def test_every_games_record_ends_with_its_final_standings(players, strategy):
    """Per game: one point per round of turns up to the end (thinning aside), the last one the
    final position: the winner (T25) has its 7 cards in order there."""
    chunk = play_range(RunSpec.create("trains", players, [strategy], 12, seed=3), 0, 12)
    turns = dict(zip(chunk.games["game"], chunk.games["turns"]))
    for game, win, record in zip(chunk.seats["game"], chunk.seats["win"], chunk.seats["running_score"]):
        rounds = -(-turns[game] // players)         # the last one may be cut short by the win
        assert rounds < CAP and len(record) == rounds
        if win == 1.0:
            assert record[-1] == 7.0


def test_the_kernel_records_the_same_running_score_thinned_games_too():
    """The kernel's record (engine/kernel_running.py) equals the scalar engine's, also for
    turn-capped games of 500 rounds (thinned to every 16th round, T15)."""
    import pyarrow as pa

    spec = RunSpec.create("trains", 2, ["random"], 4, seed=4)
    scalar = play_range(spec, 0, 4)
    kernel = play_range(RunSpec.create("trains", 2, ["random"], 4, seed=4, engine="kernel"), 0, 4)
    assert pa.array(kernel.seats["running_score"]).to_pylist() == scalar.seats["running_score"]
    assert max(scalar.games["turns"]) // 2 > CAP                    # some game was thinned
