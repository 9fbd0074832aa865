"""What an array form's views show during a batch round: each seat's bullheads so far."""

from __future__ import annotations

import numpy as np

from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt import batch
from simkit.games.sixnimmt.arrays import CardView
from simkit.games.sixnimmt.batch import play_range_batch
from strategies.sixnimmt.arrays import LowestArrays


class _Recording(LowestArrays):
    """`lowest`, keeping each turn's `round_points` by game (rows of one seat's decisions)."""

    def __init__(self) -> None:
        self.seen: list[np.ndarray] = []

    def choose_cards(self, view: CardView) -> np.ndarray:
        points = view.round_points
        n = points.shape[1]
        assert points.shape == (view.seat.size, n)
        assert (view.seat.reshape(n, -1) == np.arange(n)[:, None]).all()    # seat-major decisions
        self.seen.append(points[:points.shape[0] // n])
        return super().choose_cards(view)


def test_round_points_start_at_zero_grow_per_seat_and_end_at_the_score(monkeypatch):
    form = _Recording()
    monkeypatch.setattr(batch, "build_array_form", lambda spec: form)
    spec = RunSpec.create("sixnimmt", 4, ["lowest"], 300, seed=3, overrides={"max_rounds": "1"},
                          seating="fixed")
    scores = np.asarray(play_range_batch(spec, 0, 300).seats["score"]).reshape(300, 4)
    seen = np.stack(form.seen)                                  # (turns, games, seats)
    assert seen.shape == (10, 300, 4) and not seen[0].any()
    assert (np.diff(seen, axis=0) >= 0).all() and (seen[-1] <= scores).all()
    grew = np.diff(np.concatenate([seen, scores[None]]), axis=0) > 0
    assert grew.any(axis=(0, 1)).all() and grew.sum() > 300   # every seat takes rows somewhere
