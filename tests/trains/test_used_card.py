"""T10/T11, the used card's place while its effect resolves (issue 14): the spec takes it out
of the display first (default); `used_card_stays=true` keeps it there, so a removed card of
the same effect pairs with it and both are discarded. Also the setup log's display (T7, T11)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.engine.errors import ConfigError
from simkit.games.trains import GAME, TrainsConfig
from simkit.games.trains.actions import USE_ONE
from simkit.games.trains.render import render_log
from simkit.games.trains.state import TrainsState

from .helpers import FirstLegal, at_turn, play_random, position

STAYS = TrainsConfig(used_card_stays=True)

#: P0 uses 7 (effect 5); P0's slot 1 holds 15, also effect 5; P1's slot 1 holds 70 (effect 4)
SAME_EFFECT = """
    P0: 15 66 51 40 22 13 5
    P1: 70 65 50 45 35 25 12
    display: e5:7
    draw pile (top first): 84 83 ...
    discard pile (bottom first): -"""


def use(e, p=None):
    return USE_ONE[(e, p)]


def test_T10_default_used_card_left_the_display_so_the_arrival_stays():
    """T10 [CHOICE] default: 7 left the display when chosen; the arriving 15 (e5) stays there."""
    s = at_turn(SAME_EFFECT)
    s.apply([use(5)])
    assert s.display[5] == 15
    assert s.discard == [7]
    assert not any(ev[0] == "pairs" for ev in s.events)
    assert s.audit() == []


def test_T10_T11_used_card_stays_pairs_with_the_arrival():
    """T10/T11 used_card_stays: 7 is still in the display when 15 (e5) arrives: both discarded."""
    s = at_turn(SAME_EFFECT, STAYS)
    s.apply([use(5)])
    assert s.display[5] == 0
    assert s.discard == [7, 15]
    assert ("pairs", 5, (7, 15)) in s.events
    assert s.display[4] == 70 and s.trains[0][0] == 84 and s.trains[1][0] == 83
    assert s.audit() == []


def test_T10_used_card_stays_without_a_pair_changes_nothing():
    """T10 used_card_stays: no arrival of the used card's effect: the same result as the default."""
    text = SAME_EFFECT.replace("P0: 15 66", "P0: 80 66")
    a, b = at_turn(text), at_turn(text, STAYS)
    a.apply([use(5)])
    b.apply([use(5)])
    assert b.display == a.display and b.discard == a.discard == [7]
    assert b.trains == a.trains and b.audit() == []


def test_T11_T13_paired_used_card_can_join_a_reshuffle():
    """T11/T13 used_card_stays: 7 leaves in a pair before the refills, so an empty draw pile's
    reshuffle during the refills takes it in (the default keeps it out, G10)."""
    text = """
        P0: 15 66 51 40 22 13 5
        P1: 70 60 50 45 35 24 16
        display: e5:7
        draw pile (top first): -
        discard pile (bottom first): ..."""
    s = at_turn(text, STAYS)
    pile = len(s.discard)
    s.apply([use(5)])
    assert ("reshuffle", pile + 2) in s.events
    assert 7 not in s.discard and 15 not in s.discard
    d = at_turn(text)
    d.apply([use(5)])
    assert ("reshuffle", pile) in d.events and 7 in d.discard


THREE = """
    P0: 15 66 51 40 22 13 5
    P1: 23 65 50 45 35 25 12
    P2: 80 62 54 43 34 24 9
    display: e5:7
    draw pile (top first): 84 83 82 ...
    discard pile (bottom first): -"""


@pytest.mark.parametrize("keep, stays_card, gone", [("last", 23, (7, 15)), ("first", 0, (15, 23))])
def test_T11_used_card_stays_with_two_arrivals(keep, stays_card, gone):
    """T11 [CHOICE] pair_keep with used_card_stays: 15 then 23 (e5) arrive at the waiting 7.
    'last': 7+15 go and 23 stays; 'first': 7 is the earliest card and stays, 15+23 go, and 7,
    being used, is discarded after the refills: no effect-5 card is left."""
    s = position("start: P0\nturn: 0\nphase: turn\ncurrent: P0\n" + THREE,
                 TrainsConfig(used_card_stays=True, pair_keep=keep))
    s.apply([use(5)])
    assert s.display[5] == stays_card
    assert ("pairs", 5, gone) in s.events
    assert 7 in s.discard and s.audit() == []


def test_T10_used_card_stays_needs_used_card_after():
    """T10: a used card cannot both stay in the display and be discarded before it resolves."""
    with pytest.raises(ConfigError, match="used_card_stays.*used_card='after'"):
        TrainsConfig(used_card_stays=True, used_card="before")


def _audited(state, *_):
    assert state.audit() == []


def test_T10_used_card_stays_plays_whole_games_soundly():
    """T10/T11 used_card_stays: random 3-player games keep every invariant (audit after each step)."""
    paired_with_used = 0
    for seed in range(40):
        s = TrainsState(TrainsConfig(used_card_stays=True, max_turns=300), 3, np.random.default_rng(seed))
        play_random(s, seed, after=_audited)
        assert s.is_over()
        used = {ev[4] for ev in s.events if ev[0] == "use"}
        paired_with_used += sum(1 for ev in s.events if ev[0] == "pairs" and ev[2][0] in used)
    assert paired_with_used > 0


def _setup_log_with_a_pair():
    for seed in range(300):
        s = GAME.new_state(TrainsConfig(), 4, np.random.default_rng(seed))
        play_random(s, seed, lineup=[FirstLegal() for _ in range(4)], max_steps=7)
        setup = render_log(s).split("Setup (T5-T7):")[1].splitlines()
        hits = [i for i, line in enumerate(setup) if "display pair rule" in line]
        if hits:
            return setup, hits[0]
    pytest.fail("no seed gave a display pair in setup")


def test_T7_T11_setup_log_shows_the_display_after_the_pair_rule():
    """T7/T11 replay: a setup placement whose replaced card pairs is logged as the placement,
    then the pair line, then the display as it is after the rule (no paired card in it)."""
    setup, i = _setup_log_with_a_pair()
    assert "goes face up to the display" in setup[i - 1]
    paired = setup[i].split(":", 1)[1].split("(effect")[0].replace(",", " ").split()
    shown = next(line for line in setup[i:] if line.strip().startswith("display:"))
    cards = [c.split(":")[1] for c in shown.split()[1:] if ":" in c]
    assert paired and set(paired).isdisjoint(cards)
