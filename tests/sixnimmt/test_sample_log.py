"""A determinized state holds nothing its seat could not know (§7, issue 20 item 7): its event
log is the public one, the deal (N1) showing the row starts and not the hands."""

from __future__ import annotations

import numpy as np

from simkit.engine.play import play_out
from simkit.engine.strategy import Decision, GameInfo
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.render import render_log
from simkit.games.sixnimmt.state import new_state
from strategies.sixnimmt.baseline import RandomStrategy


def _numbers(events) -> set[int]:
    """Every int inside the tuples an event carries (cards; the top-level fields are skipped
    only where they are not tuples, so a card placed (`place`) counts too)."""
    found: set[int] = set()

    def walk(x):
        if isinstance(x, tuple):
            for y in x:
                walk(y)
        elif isinstance(x, int):
            found.add(x)
    for event in events:
        walk(event[1:])
    return found


def _state_after(turns: int, seed: int = 3, n: int = 4):
    config = SixNimmtConfig(max_rounds=2)
    state = new_state(config, n, np.random.default_rng(seed))
    rngs = [np.random.default_rng([seed, s]) for s in range(n)]
    play_out(state, [RandomStrategy() for _ in range(n)], GameInfo("sixnimmt", config, n), rngs,
             max_steps=turns)
    return state


def test_a_sampled_state_names_no_card_hidden_from_the_seat():
    state = _state_after(3)
    seat = 0
    # cards above 10 cannot be a round, turn, seat, row or hand-size number of the log
    hidden = {c for s, h in enumerate(state.hands) if s != seat for c in h} | set(state.aside)
    hidden = {c for c in hidden if c > 10}
    assert _numbers(state.events) & hidden, "the true log names hidden cards (the deal)"
    sample = Decision(state, seat, np.random.default_rng(1)).sample_state()
    assert not _numbers(sample.events) & hidden
    assert len(sample.events) == len(state.events)        # the same history, in public form
    assert sample.observe(seat) == state.observe(seat)


def test_the_public_deal_shows_the_row_starts_in_row_order():
    state = _state_after(0)
    sample = state.determinize(2, np.random.default_rng(0))
    assert sample.events[0] == ("rows", 1, tuple(state.seen))     # N2: one start card per row
    text = render_log(sample)
    assert all(str(c) in text for c in state.seen)


def test_a_second_round_deal_is_hidden_too():
    state = _state_after(25)                # round 1 (10 turns and its row picks), then N4
    assert state.round == 2
    sample = state.determinize(1, np.random.default_rng(4))
    assert [e[0] for e in sample.events].count("deal") == 0
    assert [e[0] for e in state.events].count("deal") == 2
