"""A determinized state holds nothing its seat could not know (issue 20 item 7): its log is the
public one: the deal (S12) as hand sizes, a draw (S22) and an opening-hand pick (S57) without
their cards; the other events (plays on the row, scores) are public and kept."""

from __future__ import annotations

import numpy as np

from simkit.engine.play import play_out
from simkit.engine.strategy import Decision, GameInfo, parse_strategy
from simkit.games.shipside import GAME, ShipsideState

from .helpers import A, B, config

#: event kind -> the positions of card ids in it
_CARD_FIELDS = {"deal": (1, 2), "draw": (2,), "pick": (2,), "play": (2,), "octopus": (2,)}


def _cards_named(events) -> set[int]:
    found: set[int] = set()
    for event in events:
        for i in _CARD_FIELDS.get(event[0], ()):
            value = event[i] if i < len(event) else None
            if isinstance(value, tuple):
                found.update(value)
            elif isinstance(value, int):
                found.add(value)
    return found


def _played(cfg, steps: int, seed: int = 5) -> ShipsideState:
    st = GAME.new_state(cfg, 2, np.random.default_rng(seed))
    lineup = [parse_strategy("random", "shipside")] * 2
    rngs = [np.random.default_rng([seed, s]) for s in (A, B)]
    play_out(st, lineup, GameInfo("shipside", cfg, 2), rngs, forfeit_on_error=False, max_steps=steps)
    return st


def _hidden_from(st: ShipsideState, seat: int) -> set[int]:
    cards = set(st.hands[1 - seat])
    for pile in st.piles:
        cards.update(pile)
    if st.own is not None:
        cards.update(st.own[1 - seat])
    return cards


def test_a_sampled_state_names_no_card_hidden_from_the_seat():
    st = _played(config(), 12)
    assert any(e[0] == "draw" for e in st.events)
    for seat in (A, B):
        hidden = _hidden_from(st, seat)
        assert _cards_named(st.events) & hidden, "the true log names hidden cards (the deal)"
        sample = Decision(st, seat, np.random.default_rng(seat)).sample_state()
        assert not _cards_named(sample.events) & hidden
        assert len(sample.events) == len(st.events)
        assert [e for e in sample.events if e[0] == "play"] == [e for e in st.events if e[0] == "play"]
        assert "Hands:" not in GAME.render_log(sample) and "draws" in GAME.render_log(sample)


def test_the_other_players_opening_picks_are_hidden():
    cfg = config(variant__enabled="true")
    st = GAME.new_state(cfg, 2, np.random.default_rng(4))
    while st.phase == "mark":
        st.apply([st.legal_actions(st.to_act()[0])[0]])
    st.apply([st.legal_actions(0)[-1], st.legal_actions(1)[-1]])      # S57: one pick each
    picked_by_b = {e[2] for e in st.events if e[0] == "pick" and e[1] == B}
    assert picked_by_b
    sample = st.determinize(A, np.random.default_rng(2))
    assert not _cards_named(sample.events) & picked_by_b
    assert ("picked", B) in sample.events
