"""Golden transcripts: seeded games of every registered game, rendered as text and pinned.

Each case below is played through the public runner (`play_game` of a RunSpec with fixed
seating) and rendered as the replay log plus the outcome; `tests/test_games.py` compares the
result line by line with `tests/golden/<game>/<case>.txt`. The header of each file records the
game's rules version: a rules change must bump `Game.rules_version`; after it (or after a
strategy's deliberate change, where only the cases using that strategy may move) the goldens are
regenerated on purpose with

    python -m tests.golden            # every game
    python -m tests.golden trains     # one game
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from simkit.engine.play import play_game
from simkit.engine.registry import get_game, register_game
from simkit.engine.spec import RunSpec

#: the toy game of tests/highcard.py, written from docs/architecture.md alone
register_game("highcard", "tests.highcard")

GOLDEN_DIR = Path(__file__).parent


@dataclass(frozen=True)
class Case:
    name: str
    players: int
    strategies: tuple[str, ...]
    seed: int
    index: int = 0
    overrides: tuple[tuple[str, str], ...] = ()


CASES: dict[str, tuple[Case, ...]] = {
    "sixnimmt": (
        Case("basic-4p-mixed", 4, ("heuristic", "random", "lowest", "highest"), seed=7),
        Case("advanced-3p-random", 3, ("random",), seed=11, overrides=(("advanced", "true"),)),
        Case("basic-10p-single-round", 10, ("random",) * 8 + ("heuristic", "lowest"), seed=3, index=1,
             overrides=(("max_rounds", "1"),)),
    ),
    "trains": (
        Case("3p-greedy-rival-random", 3, ("greedy", "rival", "random"), seed=42,
             overrides=(("max_turns", "200"),)),
        Case("2p-random", 2, ("random",), seed=5, index=2, overrides=(("max_turns", "120"),)),
        Case("4p-rival-greedy", 4, ("rival", "greedy", "rival", "greedy"), seed=9),
        Case("3p-random-long", 3, ("random",), seed=42, index=1, overrides=(("max_turns", "200"),)),
    ),
    "rummikub": (
        Case("2p-simple-greedy", 2, ("simple", "greedy_tiles"), seed=4),
        Case("3p-random-simple-patient", 3, ("random", "simple", "patient"), seed=8),
    ),
    "highcard": (
        Case("3p-random", 3, ("tests.highcard:RandomPlay",), seed=1),
    ),
    "shipside": (
        Case("basic-random", 2, ("random",), seed=1),
        Case("random-setup-random", 2, ("random",), seed=2,
             overrides=(("setup.ship_order", "random"), ("setup.first_player", "random"))),
        Case("basic-greedy-octopus", 2, ("greedy", "octopus"), seed=2),
        Case("variant-owner-random", 2, ("random",), seed=3,
             overrides=(("variant.enabled", "true"), ("movement.chooser", "owner"))),
        Case("free-octopus-stacked-rum", 2, ("octopus", "random"), seed=4,
             overrides=(("octopus.reuse", "free"), ("rum.max_per_ship", "2"),
                        ("rum.uses_per_player", "2"))),
    ),
}


def spec_of(game: str, case: Case) -> RunSpec:
    return RunSpec.create(game, case.players, list(case.strategies), case.index + 1, seed=case.seed,
                          seating="fixed", overrides=dict(case.overrides))


def header(game: str, case: Case) -> list[str]:
    sets = " ".join(f"{k}={v}" for k, v in case.overrides) or "-"
    return [f"# golden transcript {game}/{case.name}: regenerate with `python -m tests.golden {game}`",
            f"# rules: {get_game(game).rules_version}",
            f"# players: {case.players}; strategies: {' '.join(case.strategies)}; "
            f"seed: {case.seed}; game: {case.index}; set: {sets}"]


def transcript(game: str, case: Case) -> list[str]:
    """The golden text of one case: header, replay log and outcome, as lines."""
    entry = get_game(game)
    record, state = play_game(spec_of(game, case), case.index)
    lines = header(game, case)
    lines += ["", "== log", *entry.render_log(state).splitlines(), "", "== result",
              f"steps: {record.steps}", f"forfeit: {record.forfeit} {record.error}".rstrip(),
              f"scores: {list(record.scores)}", f"ranks: {list(record.ranks)}",
              f"wins: {list(record.wins)}",
              "extras: " + ", ".join(f"{k}={v}" for k, v in sorted(record.extras.items()))]
    return lines


def golden_path(game: str, case: Case) -> Path:
    return GOLDEN_DIR / game / f"{case.name}.txt"


def regenerate(games: list[str]) -> list[Path]:
    written = []
    for game in games:
        for case in CASES[game]:
            path = golden_path(game, case)
            path.parent.mkdir(exist_ok=True)
            path.write_text("\n".join(transcript(game, case)) + "\n", encoding="utf-8")
            written.append(path)
    return written
