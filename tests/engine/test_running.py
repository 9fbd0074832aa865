"""The running score's record (simkit/engine/running.py): a point per round of turns, thinned
to at most CAP points, and the final standing."""

import pytest

from simkit.engine.running import CAP, Running


def play(turns: int, players: int) -> tuple[Running, tuple]:
    """A record of `turns` turns whose standing after turn t is (t, -t)."""
    record = Running()
    for t in range(1, turns + 1):
        if record.turn_end(t % players == 0):
            record.push((t, -t))
    return record, record.close((turns, -turns))


@pytest.mark.parametrize("turns, players", [(1, 2), (7, 2), (8, 2), (12, 3), (2 * CAP - 2, 2)])
def test_a_short_game_has_a_point_per_round_and_its_end(turns, players):
    _, points = play(turns, players)
    rounds = [r * players for r in range(1, turns // players + 1)]
    ends = [] if turns % players == 0 else [turns]          # ended in the middle of a round
    assert [p[0] for p in points] == rounds + ends
    assert all(b == -a for a, b in points)


@pytest.mark.parametrize("rounds", [CAP, CAP + 1, 3 * CAP, 500])
def test_a_long_game_keeps_evenly_spread_points_within_the_cap(rounds):
    """At CAP the points after odd rounds go and a point is kept every second round, and so
    on: every point is after a multiple of the stride; the final standing comes last."""
    record, points = play(2 * rounds + 1, 2)                 # ends one turn into a new round
    stride = record.stride
    assert stride > 1 and CAP // 2 <= len(points) - 1 < CAP
    assert [p[0] for p in points[:-1]] == [2 * stride * k for k in range(1, len(points))]
    assert points[-1] == (2 * rounds + 1, -(2 * rounds + 1))


def test_the_end_adds_no_point_when_the_last_turn_recorded_one():
    _, points = play(6, 2)
    assert [p[0] for p in points] == [2, 4, 6]


def test_a_copy_goes_on_alone():
    record, _ = play(5, 2)
    other = record.copy()
    other.push((9, 9))
    assert len(record.points) == 2 and len(other.points) == 3
