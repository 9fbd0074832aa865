"""Text positions of 6 nimmt!: worked positions, exact round trips, what a parse keeps, errors named."""

import copy

import numpy as np
import pytest

from simkit.engine.errors import PositionError
from simkit.games.sixnimmt import GAME
from simkit.games.sixnimmt.actions import TakeRow
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.position import format_position, parse_position
from simkit.games.sixnimmt.rules import DRAFT, PLAY, ROW_PICK
from tests.sixnimmt.helpers import new_game, play_on, position

# E5 of the spec at the moment of A's choice: 29 is below every row end, B's 62 waits
E5_ROW_PICK = """\
# 6 nimmt! basic game, 2 players: seat 0 takes a row of its choice: its 29 is below every row end (N10)
round: 1
turns played: 0
phase: row_pick
row 1: 61  # 1 bullhead
row 2: 63 66 70  # 9 bullheads
row 3: 33 41  # 6 bullheads
row 4: 34 36 39 40 42  # 7 bullheads
revealed: 29 by seat 0, 62 by seat 1
hand 0: 90
hand 1: 91
pile 0: -
pile 1: -
totals: 0 12
aside: rest
"""


def test_worked_row_pick_position_reads_and_plays_as_the_spec_says():
    state = parse_position(E5_ROW_PICK, SixNimmtConfig())
    assert state.phase == ROW_PICK and state.to_act() == (0,)
    assert state.legal_actions(0) == tuple(TakeRow(r) for r in range(4))
    assert state.observe(1).revealed == ((29, 0), (62, 1))
    assert len(state.aside) == 104 - 2 - 2 - 11
    state.apply([TakeRow(0)])           # E5: A takes [61], so B's 62 is the 6th card of row 4
    assert state.penalty == [[61], [34, 36, 39, 40, 42]]
    assert state.phase == PLAY and state.totals == [0, 12]


def test_written_position_is_the_canonical_text_apart_from_the_aside_list():
    text = format_position(parse_position(E5_ROW_PICK, SixNimmtConfig()))
    written, formatted = E5_ROW_PICK.splitlines(), text.splitlines()
    assert formatted[:-1] == written[:-1]
    assert formatted[-1].startswith("aside: 1 2 3 4 5 ") and formatted[-1].endswith(" 103 104")


def test_draft_position_names_the_next_drafter_from_the_draft_order():
    config = SixNimmtConfig(advanced=True, first_drafter="seat0")
    text = """\
round: 1
turns played: 0
phase: draft
pool: 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
hand 0: 3 1
hand 1: 2
pile 0: -
pile 1: -
totals: 0 0
"""
    state = parse_position(text, config)
    assert state.phase == DRAFT and state.to_act() == (1,)       # picks 0, 1, 0 made; seat 1 next
    assert state.legal_actions(1) == tuple(range(4, 25))
    assert format_position(state).splitlines()[1:] == text.splitlines()


def test_over_position_has_the_outcome_of_the_totals():
    text = position([[10], [20], [30], [40]], [[], []], phase="over", totals=[70, 12],
                    piles=[[11], []])
    state = parse_position(text, SixNimmtConfig())
    assert state.is_over() and state.to_act() == ()
    assert state.outcome().winners == (1,) and state.outcome().scores == (70.0, 12.0)
    assert format_position(state).splitlines()[0] == \
        "# 6 nimmt! basic game, 2 players: the match is over, seat 1 wins"



def _with_round_scores(line: str, totals=(12, 30), round_no: int = 3) -> str:
    text = position([[10], [20], [30], [40]], [[11], [21]], totals=list(totals), round_no=round_no)
    return text.replace("\naside:", f"\n{line}\naside:")


def test_round_scores_line_gives_the_matchs_earlier_rounds_to_its_outcome():
    """A match restored in round 3 with its two finished rounds ends with all three in its
    outcome's round_scores; without the line they are unknown (empty)."""
    config = SixNimmtConfig(max_rounds=3)
    known = parse_position(_with_round_scores("round scores: 5 10 | 7 20"), config)
    assert format_position(known).splitlines()[-2] == "round scores: 5 10 | 7 20"
    known.apply([11, 21])
    assert known.is_over()
    rounds = known.outcome().round_scores
    assert rounds[:2] == ((5.0, 10.0), (7.0, 20.0)) and len(rounds) == 3
    assert tuple(map(sum, zip(*rounds))) == known.outcome().scores
    unknown = parse_position(position([[10], [20], [30], [40]], [[11], [21]], totals=[12, 30], round_no=3),
                             config)
    unknown.apply([11, 21])
    assert unknown.outcome().round_scores == ()
    assert "round scores" not in format_position(unknown)


@pytest.mark.parametrize("line, message", [
    ("round scores: 5 10", "expected 2 groups of 2 whole numbers"),
    ("round scores: 5 10 | 7", "expected 2 groups of 2 whole numbers"),
    ("round scores: 5 10 | 7 x", "expected 2 groups of 2 whole numbers"),
    ("round scores: 5 10 | 7 19", "they add up to 12 29 per seat, not the totals 12 30"),
])
def test_round_scores_that_do_not_fit_are_refused(line, message):
    with pytest.raises(PositionError, match=message):
        parse_position(_with_round_scores(line), SixNimmtConfig(max_rounds=3))


GAMES = [
    ("basic 4 players", SixNimmtConfig(max_rounds=2), 4, ("heuristic", "lowest", "highest", "heuristic")),
    ("basic, hidden piles, last_round", SixNimmtConfig(public_penalties=False, tie_break="last_round",
                                                       end_threshold=25), 3, ("highest",)),
    ("advanced, random first drafter", SixNimmtConfig(advanced=True, max_rounds=2), 3,
     ("heuristic", "lowest", "highest")),
    ("advanced, highest total drafts", SixNimmtConfig(advanced=True, first_drafter="highest_total",
                                                      max_rounds=2, rows=3, hand_size=6), 5, ("lowest",)),
]


def _play_recording_positions(config, n, strategies, seed):
    """Play a game; after every step keep (position text, chance generator copy, events so far)."""
    state = new_game(config, n, seed)
    seen = [(format_position(state), copy.deepcopy(state.rng), len(state.events), state.clone())]

    def after(state, step, seats, joint):
        seen.append((format_position(state), copy.deepcopy(state.rng), len(state.events), state.clone()))

    play_on(state, strategies, after=after)
    return state, seen


@pytest.mark.parametrize("name,config,n,strategies", GAMES, ids=[g[0] for g in GAMES])
def test_parsed_state_observes_and_acts_like_the_original_at_every_step(name, config, n, strategies):
    """Every observation field that is not history is equal; seen_cards (the cards seen this
    round, in the order they were seen) is equal as a set."""
    _, seen = _play_recording_positions(config, n, strategies, seed=5)
    assert {text.split("\n")[3] for text, *_ in seen} >= {"phase: play", "phase: over"}
    for text, _, _, original in seen:
        parsed = parse_position(text, config)
        assert format_position(parsed) == text
        assert parsed.audit() == []
        assert parsed.to_act() == original.to_act()
        for seat in range(n):
            mine, theirs = parsed.observe(seat), original.observe(seat)
            assert mine._replace(seen_cards=()) == theirs._replace(seen_cards=())
            assert sorted(mine.seen_cards) == sorted(theirs.seen_cards)
            assert parsed.legal_actions(seat) == original.legal_actions(seat)


@pytest.mark.parametrize("name,config,n,strategies", GAMES, ids=[g[0] for g in GAMES])
def test_the_position_decides_the_rest_of_the_game(name, config, n, strategies):
    """Parsed with the original's chance generator and played by the same deterministic
    strategies, a position goes on exactly as the original game did."""
    final, seen = _play_recording_positions(config, n, strategies, seed=9)
    for text, rng, events_then, _ in seen[::7]:
        parsed = parse_position(text, config, rng=rng)
        play_on(parsed, strategies)
        assert parsed.events[1:] == final.events[events_then:]
        assert parsed.outcome() == final.outcome()


def test_rng_argument_deals_the_next_round():
    text = position([[10], [20], [30], [40]], [[11], [21]])

    def next_deal(rng):
        state = parse_position(text, SixNimmtConfig(max_rounds=2), rng=rng)
        state.apply([11, 21])
        return [list(h) for h in state.hands]

    assert next_deal(np.random.default_rng(1)) == next_deal(np.random.default_rng(1))
    assert next_deal(np.random.default_rng(1)) != next_deal(np.random.default_rng(2))


def test_replay_log_of_a_game_played_on_from_a_position():
    state = parse_position(E5_ROW_PICK, SixNimmtConfig(max_rounds=1))
    play_on(state)
    log = GAME.render_log(state)
    assert "== Round 1, from a position after 0 turns ==" in log
    assert "62 (seat 2) 6th card of a full row: takes row 4" in log      # the position's seat 1


ROW_PICK_LINES = E5_ROW_PICK.splitlines()


def _edited(old: str, new: str | None) -> str:
    """E5_ROW_PICK with the line starting with `old` replaced (or removed when new is None)."""
    lines = [line for line in ROW_PICK_LINES if not line.startswith(old)]
    assert len(lines) == len(ROW_PICK_LINES) - 1, old
    at = [line.startswith(old) for line in ROW_PICK_LINES].index(True)
    return "\n".join(lines[:at] + ([new] if new is not None else []) + lines[at:])


ERRORS = [
    (_edited("hand 1:", "hand 1: 105"), "line 11 ('hand 1: 105'): unknown card '105': cards are 1..104"),
    (_edited("hand 1:", "hand 1: 62"), "card 62 is listed twice (also on line 11 ('hand 1: 62'))"),
    (_edited("row 4:", None), "3 'row N:' lines: this config has rows=4"),
    (_edited("hand 1:", "hand 1: 91 92"), "hand sizes [1, 2] differ"),
    (_edited("aside:", "aside: 1 2 3"), "cards missing: 4 5 6 7 8 9 10"),
    (_edited("aside:", None), "no 'aside:' line, needed because the basic game sets cards aside"),
    (_edited("phase:", "phase: bidding"), "line 4 ('phase: bidding'): unknown phase 'bidding'"),
    (_edited("phase:", "phase: play"), "'revealed:' line is only given when the phase is row_pick"),
    (_edited("revealed:", None), "no 'revealed:' line, needed because the phase is row_pick"),
    (_edited("revealed:", "revealed: 29 by seat 0"), "expected one card from each of the 2 seats"),
    (_edited("revealed:", "revealed: 29 by seat 0, 62 by 1"), "'62 by 1' is not 'CARD by seat SEAT'"),
    (_edited("revealed:", "revealed: 65 by seat 0, 62 by seat 1"), "no row pick is pending"),
    (_edited("row 3:", "row 3: 41 33"), "line 7 ('row 3: 41 33'): a row is ascending"),
    (_edited("row 1:", "row 1: 1 2 3 4 5 6"), "6 cards: a row holds 1..5"),
    (_edited("totals:", "totals: 0"), "expected 2 whole numbers, one per seat"),
    (_edited("round:", "round: 0"), "line 2 ('round: 0'): expected a whole number 1 or more"),
    (_edited("round:", "round 1"), "line 2 ('round 1'): expected 'key: value'"),
    (_edited("round:", "score: 3"), "unknown key 'score'"),
    (_edited("pile 1:", "pile 0: -"), "line 13 ('pile 0: -'): 'pile 0' is given twice (first on line 12)"),
    (_edited("hand 1:", "hand 2: 91"), "'hand <seat>' lines are numbered 0, 2"),
    (_edited("hand 1:", None), "1 'hand N:' lines: 6 nimmt! has 2 to 10 players"),
    (_edited("pile 1:", None), "1 'pile N:' lines for 2 hands"),
    (_edited("turns played:", "turns played: two"), "line 3 ('turns played: two'): expected a whole number"),
    ("", "the position is empty"),
]


@pytest.mark.parametrize("text,message", ERRORS, ids=[m.split(":")[0][:40] for _, m in ERRORS])
def test_bad_positions_are_refused_naming_the_line_and_the_fault(text, message):
    with pytest.raises(PositionError) as err:
        parse_position(text, SixNimmtConfig())
    assert message in str(err.value)


ROWS = [[10], [20], [30], [40]]
SMALL_ROWS, SMALL_HANDS = [[1], [2], [3], [4]], [[5], [6]]       # the advanced deck of hand_size=1


@pytest.mark.parametrize("config,text,message", [
    (SixNimmtConfig(), position(ROWS, [[], []], phase="over", totals=[12, 3]),
     "totals [12, 3] after round 1 do not end the match"),
    (SixNimmtConfig(), position(ROWS, [[], []]), "every hand is empty but the phase is play"),
    (SixNimmtConfig(hand_size=20), position(ROWS, [[11]] * 6),
     "6 hands do not fit this config: 6 players x hand_size 20"),
    (SixNimmtConfig(advanced=True, hand_size=1), position(SMALL_ROWS, SMALL_HANDS, aside=None),
     "no 'round 1 first drafter:' line, needed because the advanced game's first_drafter is "
     "random_then_rotate"),
    (SixNimmtConfig(advanced=True, first_drafter="seat0", hand_size=1), position(SMALL_ROWS, SMALL_HANDS),
     "a 'aside:' line is only given when the basic game sets cards aside"),
    (SixNimmtConfig(advanced=True, first_drafter="seat0", hand_size=2),
     "round: 1\nturns played: 0\nphase: draft\npool: 2 3 4 5 6 7 8\nhand 0: -\nhand 1: 1\n"
     "pile 0: -\npile 1: -\ntotals: 0 0\n",
     "hand sizes [0, 1] do not fit the draft: after 1 picks from seat 0 clockwise the hands hold [1, 0]"),
])
def test_positions_that_contradict_the_config_or_the_rules_are_refused(config, text, message):
    with pytest.raises(PositionError) as err:
        parse_position(text, config)
    assert message in str(err.value)


def test_mangled_positions_raise_only_position_errors():
    """Every line of real positions dropped, doubled or garbled: a PositionError or a sound state."""
    rng = np.random.default_rng(3)
    _, seen = _play_recording_positions(SixNimmtConfig(advanced=True, max_rounds=1), 3, ("lowest",), seed=2)
    texts = [text for text, *_ in seen[::9]]
    _, seen = _play_recording_positions(SixNimmtConfig(max_rounds=1), 4, ("highest",), seed=2)
    texts += [text for text, *_ in seen[::5]]
    refused = 0
    for text in texts:
        lines = text.splitlines()
        for i, line in enumerate(lines):
            garbled = line[:int(rng.integers(len(line) + 1))] + rng.choice(["", "x", " 7", ",", ":", " -"])
            for edit in ([], [line, line], [garbled]):
                try:
                    state = parse_position("\n".join(lines[:i] + edit + lines[i + 1:]), _config_of(text))
                except PositionError:
                    refused += 1
                    continue
                assert state.audit() == []
    assert refused > len(texts) * 10


def _config_of(text: str) -> SixNimmtConfig:
    return SixNimmtConfig(advanced="first drafter" in text, max_rounds=1)

