"""Generic tests every registered game passes (and the toy game of tests/highcard.py with them).

- golden transcripts: seeded games rendered and compared line by line with tests/golden/<game>/;
- text positions: at every step of those games, format -> parse -> format is the same text, and
  the parsed state has the same seats to act, legal actions and end;
- the conformance checker `check_game` on every game and player count.
"""

from __future__ import annotations

import difflib

import pytest

from simkit.engine.errors import PositionError
from simkit.engine.play import play_out
from simkit.engine.registry import game_names, get_game
from simkit.engine.seeding import game_streams
from simkit.engine.strategy import GameInfo
from simkit.studies.conformance import check_game
from tests.golden import CASES, golden_path, spec_of, transcript

GAMES = game_names()           # includes "highcard", registered by tests.golden
CASE_IDS = [(g, c) for g in GAMES for c in CASES.get(g, ())]
#: strategies of the conformance run; built-in games use their own `random`
CONFORMANCE_STRATEGIES = {"highcard": ("tests.highcard:RandomPlay",)}


def test_the_toy_game_is_registered_beside_the_four_games():
    assert {"sixnimmt", "trains", "rummikub", "shipside", "highcard"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_golden_transcripts(game):
    cases = CASES.get(game, ())
    assert cases, f"{game} has no golden cases: add some to tests/golden/__init__.py"
    missing = [str(golden_path(game, c)) for c in cases if not golden_path(game, c).exists()]
    assert not missing, f"missing golden files {missing}: run `python -m tests.golden {game}`"


@pytest.mark.parametrize("game,case", CASE_IDS, ids=[f"{g}/{c.name}" for g, c in CASE_IDS])
def test_golden_transcript(game, case):
    path = golden_path(game, case)
    expected = path.read_text(encoding="utf-8").splitlines()
    rules = f"# rules: {get_game(game).rules_version}"
    assert expected[1] == rules, (f"{path} was recorded under {expected[1][9:]!r}, the game is now "
                                  f"{rules[9:]!r}: regenerate with `python -m tests.golden {game}`")
    actual = transcript(game, case)
    if actual != expected:
        diff = "\n".join(list(difflib.unified_diff(expected, actual, "golden", "now", lineterm="", n=2))[:40])
        pytest.fail(f"{game}/{case.name} plays differently from {path} (same rules version "
                    f"{rules[9:]!r}). A rules change: bump the rules version, then regenerate. A "
                    f"strategy changed on purpose: regenerate (`python -m tests.golden {game}`) and "
                    f"check that only cases with that strategy moved.\n{diff}")


def _round_trip(game, state, config, where: str) -> None:
    text = game.format_position(state)
    parsed = game.parse_position(text, config)
    again = game.format_position(parsed)
    assert again == text, f"{where}: the position does not read back as itself:\n{text}\n---\n{again}"
    assert parsed.is_over() == state.is_over(), where
    assert parsed.audit() == [], f"{where}: {parsed.audit()}"
    if state.is_over():
        assert parsed.outcome().scores == state.outcome().scores, where
        return
    assert parsed.to_act() == state.to_act(), where
    for seat in state.to_act():
        legal, parsed_legal = state.legal_actions(seat), parsed.legal_actions(seat)
        assert (None if legal is None else sorted(map(repr, legal))) == \
               (None if parsed_legal is None else sorted(map(repr, parsed_legal))), f"{where}, seat {seat}"


@pytest.mark.parametrize("game,case", CASE_IDS, ids=[f"{g}/{c.name}" for g, c in CASE_IDS])
def test_positions_round_trip_at_every_step(game, case):
    entry = get_game(game)
    assert entry.format_position is not None and entry.parse_position is not None, \
        f"{game} has no text positions (Game.format_position / parse_position)"
    spec = spec_of(game, case)
    streams = game_streams(spec.seed, case.index, spec.n_players)
    state = entry.new_state(spec.config, spec.n_players, streams.chance)
    _round_trip(entry, state, spec.config, "start")

    def after(state, step, seats, joint):
        _round_trip(entry, state, spec.config, f"after step {step}")

    played = play_out(state, spec.strategies, GameInfo(game, spec.config, spec.n_players),
                      streams.seats, forfeit_on_error=False, after=after)
    assert state.is_over() and played.steps > 0


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text", ["", "no such position\n"])
def test_malformed_positions_are_refused_with_a_position_error(game, text):
    entry = get_game(game)
    assert entry.parse_position is not None, f"{game} has no parse_position"
    with pytest.raises(PositionError) as err:
        entry.parse_position(text, entry.config_cls())
    assert str(err.value)


@pytest.mark.parametrize("game", GAMES)
def test_check_game_on_every_registered_game(game):
    entry = get_game(game)
    report = check_game(entry, games=6, deep_every=2, seed=17,
                        strategies=CONFORMANCE_STRATEGIES.get(game, ("random",)))
    n_counts = entry.max_players - entry.min_players + 1
    assert report.games == 6 * n_counts and report.steps > report.games
