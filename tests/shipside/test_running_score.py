"""The running score of Shipside (the game's arc, docs/arc.md): both seats' points (S54) after
each round of turns and at the end; a hand-built game whose track is known, and every game's
record against its event log."""

import numpy as np
import pytest

from simkit.engine.running import CAP
from simkit.games.shipside import GAME
from simkit.games.shipside.actions import END_TURN, Play
from simkit.stats.arc import game_arc

from .helpers import ALTERNATIVES, A, B, config, play_randomly, position

#: (seat, card value, ship, side) turn by turn from A: B captures ship 30 (S32, a ship and its
#: sailor: 2 points, S54), A ship 28, then A ship 32 with its mate (4 points: A wins, S53)
TURNS = [(A, 0, 36, A), (B, 2, 30, B), (A, 2, 28, A), (B, 1, 36, B), (A, 7, 32, A)]


def hand_built():
    st = position(config(), hands=((0, 2, 7, 1), (2, 1, 0, 0)),
                  sides={28: ((10, 10, 6), ()), 30: ((), (10, 10, 8)), 32: ((9, 9, 7), ())})
    for seat, value, ship, side in TURNS:
        assert st.to_act() == (seat,)
        play = next(a for a in st.legal_actions(seat)
                    if type(a) is Play and (a.value, a.ship, a.side) == (value, ship, side))
        st.apply([play])
        if not st.is_over() and st.to_act() == (seat,):     # S17: no rum after the action
            st.apply([END_TURN])
    return st


def test_a_hand_built_game_records_the_points_after_each_round_and_at_the_end():
    """Round 1 ends 0:2, round 2 2:2; A reaches 4 points in the middle of round 3 (S53)."""
    st = hand_built()
    out = st.outcome()
    assert st.is_over() and out.scores == (4.0, 2.0)
    assert out.running == ((0.0, 2.0), (2.0, 2.0), (4.0, 2.0))


def test_the_hand_built_games_arc_figures():
    """No lead change (B alone, then shared, then A alone), decided after step 2 of 3, the
    winner 2 points behind at worst, tied at half time (step 2): no comeback."""
    arc = game_arc(list(hand_built().outcome().running), [A])
    assert (arc.length, arc.lead_changes, arc.comeback, arc.drama) == (3, 0, False, 2.0)
    assert arc.decided_at == pytest.approx(2 / 3)


def from_the_log(events, points) -> list[tuple[float, float]]:
    """The record rebuilt from the event log: the points when each even turn starts (a round of
    turns done), then the final points."""
    score = [0, 0]
    record = []
    for event in events:
        if event[0] == "score" and event[2] >= 0:
            score[event[2]] += points(event)
        elif event[0] == "turn" and event[1] > 0 and event[1] % 2 == 0:
            record.append(tuple(map(float, score)))
        elif event[0] == "end":
            assert tuple(score) == event[2]
    return thinned(record) + [tuple(map(float, score))]


def thinned(rounds: list) -> list:
    """The points a record keeps of a game of len(rounds) rounds (simkit/engine/running.py):
    after every stride-th round, the stride the smallest power of 2 that keeps fewer than CAP."""
    stride = 1
    while len(rounds) // stride >= CAP:
        stride *= 2
    return rounds[stride - 1::stride]


@pytest.mark.parametrize("overrides", [{}, *ALTERNATIVES])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_games_record_is_its_points_round_by_round(overrides, seed):
    """Also past CAP rounds (the free octopus: 46 and 61 rounds), where it is thinned."""
    cfg = config(**overrides)
    st = play_randomly(GAME.new_state(cfg, 2, np.random.default_rng(seed)), seed)
    ship_points, crew = cfg.scoring.ship_points, cfg.crew.points
    expected = from_the_log(st.events, lambda e: ship_points + sum(crew[k] for k in e[7]))
    assert list(st.outcome().running) == expected


def test_the_kernel_records_the_same_running_score_thinned_games_too():
    """The kernel's record equals the scalar engine's, also past CAP rounds (an octopus used
    again and again, drawing a card each time: S41, S44; 47 to 83 rounds)."""
    import pyarrow as pa

    from simkit.engine.play import play_range
    from simkit.engine.spec import RunSpec

    def chunk(engine: str):
        spec = RunSpec.create("shipside", 2, ["random"], 8, seed=2, engine=engine,
                              overrides={"octopus.reuse": "free", "octopus.draw": "true"})
        return play_range(spec, 0, 8)

    scalar, kernel = chunk("scalar"), chunk("kernel")
    assert pa.array(kernel.seats["running_score"]).to_pylist() == scalar.seats["running_score"]
    assert max(scalar.games["turns"]) // 2 > CAP                    # some game was thinned
