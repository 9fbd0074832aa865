"""Deals files (`--deals FILE`): two studies play the same deals.

Game i of a plain run draws its deal (and every later chance event: reshuffles, draws) from the
chance stream of SeedSequence(seed, spawn_key=(i,)); a duplicate run plays deal d in games
d*n .. d*n+n-1 from the same stream (simkit/engine/seeding.py). So a seed and deal numbers name
a fixed list of deals, and a deals file is just that, two lines:

    # simkit deals: deal i is the chance stream of game i under this seed
    seed 1234567
    deals 1000

`deals N` names the first N deals of the seed (0 to N-1). `deals` also takes a list of deal
numbers and ranges (both ends included), so two studies can share any subset of a seed's deals:

    deals 0-499, 1000-1499
    deals 3, 7, 12-20

(one number alone is a count, as above; a single deal is `deals 5-5`). `--deals` also takes a
run folder (its seed and its deals). Deals are the same cards only for the same game, player
count and rules config: the stream is the same, what it deals depends on them. So a run folder's
player count goes with its deals, and a file may name one (`players 5`): a study with another
count is refused. A file without that line serves any player count.

A run on a deals file plays its listed deals in order: its k-th deal is the k-th deal number
listed (`RunSpec.deal_numbers`), so game k (games k*n .. k*n+n-1 with --duplicate) is dealt the
cards of that deal, and the `deal` column records the deal number, on which two studies join.
The game's own index still decides the seats, their rotation and the strategies' random streams:
a run on `deals 500-599` deals game 0 the cards of game 500 of a plain run, in game 0's seating.
A run folder records its list (`deal_numbers` in manifest.json), so `--resume`, `replay` and
`--deals RUN_FOLDER` play the same deals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from simkit.engine.errors import ConfigError
from simkit.engine.records import MANIFEST, read_manifest
from simkit.engine.seeding import root_seed
from simkit.engine.spec import MAX_DEAL, checked_deal_numbers


@dataclass(frozen=True)
class Deals:
    """The deals of `seed` a study plays: the first `count`, or those of `ranges` (sorted,
    disjoint (low, high) pairs, both ends included; `count` is then their total)."""

    seed: int
    count: int
    ranges: tuple[tuple[int, int], ...] | None = None      # None: deals 0 .. count-1
    # the player count they were dealt for, when known; which deals they are does not depend on it
    players: int | None = field(default=None, compare=False)

    @property
    def first_only(self) -> bool:
        """The deals are the first `count` deals of the seed (a run without a deal list)."""
        return self.ranges is None or self.ranges == ((0, self.count - 1),)

    def text(self) -> str:
        listed = str(self.count) if self.first_only else ranges_text(self.ranges or ())
        players = f"players {self.players}\n" if self.players is not None else ""
        return (f"# simkit deals: deal i is the chance stream of game i under this seed\n"
                f"seed {self.seed}\ndeals {listed}\n{players}")


def ranges_text(ranges: tuple[tuple[int, int], ...]) -> str:
    """`0-499, 1000-1499, 1600-1600`: the form a deals file reads back."""
    return ", ".join(f"{a}-{b}" for a, b in ranges)


def parse_deal_ranges(value: str) -> tuple[tuple[int, int], ...]:
    """`0-499, 1000-1499` or `3, 7, 12-20` as sorted, disjoint (low, high) ranges (adjacent ones
    joined); ValueError with a one-line reason for a malformed item, a range that runs
    backwards, or a deal named twice."""
    ranges: list[tuple[int, int]] = []
    for item in value.split(","):
        item = item.strip()
        low, dash, high = item.partition("-")
        try:
            a = int(low.strip())
            b = int(high.strip()) if dash else a
        except ValueError:
            raise ValueError(f"{item!r} is not a deal number or a range like 1000-1499") from None
        if a < 0 or b < a:
            raise ValueError(f"{item!r} is not allowed: deal numbers start at 0 and a range "
                             f"runs upwards (low-high)")
        if b > MAX_DEAL:
            raise ValueError(f"{item!r} is not allowed: deal numbers go up to 2**63 - 1")
        ranges.append((a, b))
    ranges.sort()
    joined = [ranges[0]]
    for a, b in ranges[1:]:
        last_a, last_b = joined[-1]
        if a <= last_b:
            raise ValueError(f"deal {a} is named twice ({last_a}-{last_b} and {a}-{b} overlap)")
        joined[-1:] = [(last_a, b)] if a == last_b + 1 else [(last_a, last_b), (a, b)]
    return tuple(joined)


def _deals_value(value: str) -> tuple[int, tuple[tuple[int, int], ...] | None]:
    """The value of a `deals` line: a count N (the first N deals) or a list of deals."""
    if value.isdigit():
        return int(value), None
    if not value:
        raise ValueError("'deals' needs a count or a list of deals, e.g. deals 1000 or "
                         "deals 0-499, 1000-1499")
    ranges = parse_deal_ranges(value)
    count = sum(b - a + 1 for a, b in ranges)
    return count, (None if ranges == ((0, count - 1),) else ranges)   # 0-N is `deals N+1`


def read_deals(path: Path | str) -> Deals:
    """A deals file, or a run folder's deals; a malformed file is a one-line ConfigError."""
    path = Path(path)
    if path.is_dir():
        return _run_folder_deals(path)
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise ConfigError(f"--deals {path}: cannot read it ({why})") from None
    fields: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ")
        if key not in ("seed", "deals", "players") or key in fields:
            raise ConfigError(f"--deals {path}, line {number}: {line!r} is not allowed: the file has "
                              f"one 'seed N' line and one 'deals N' (or 'deals 0-499, ...') line, "
                              f"and may have one 'players N' line")
        fields[key] = value.strip()
        try:
            _check_line(key, fields[key])
        except ValueError as exc:
            raise ConfigError(f"--deals {path}, line {number}: {exc}") from None
    if "seed" not in fields or "deals" not in fields:
        missing = "seed" if "seed" not in fields else "deals"
        raise ConfigError(f"--deals {path}: no '{missing} N' line (a deals file has 'seed N' and "
                          f"'deals N')")
    count, ranges = _deals_value(fields["deals"])
    if count < 1:
        raise ConfigError(f"--deals {path}: deals {count} is not allowed: at least 1")
    players = int(fields["players"]) if "players" in fields else None
    return Deals(root_seed(int(fields["seed"])), count, ranges, players)


def _check_line(key: str, value: str) -> None:
    """ValueError with the reason when the value of a deals file's line cannot be read."""
    if key == "deals":
        _deals_value(value)
        return
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a whole number") from None
    if key == "players" and number < 1:
        raise ValueError(f"players {number} is not allowed: at least 1")


def _run_folder_deals(path: Path) -> Deals:
    """The deals a run folder played: its first deals, or those of its recorded list."""
    if not (path / MANIFEST).exists():
        raise ConfigError(f"--deals {path}: a folder must be a run folder (no {MANIFEST})")
    m = read_manifest(path)
    try:
        n, players = int(m["n_games"]), int(m["n_players"])
        count = n // players if m.get("duplicate") else n
        ranges = checked_deal_numbers(m.get("deal_numbers"), count)
        return Deals(root_seed(int(m["seed"])), count, ranges, players)
    except (KeyError, TypeError, ValueError, ConfigError) as exc:
        raise ConfigError(f"--deals {path}: its {MANIFEST} has no usable seed, game count and deal "
                          f"list ({exc})") from None


def games_for_deals(deals: Deals, seed: int | None, n_games: int | None, n_players: int,
                    duplicate: bool) -> tuple[int, int]:
    """(seed, games) of a study on `deals`: every deal once (once per rotation with
    --duplicate) unless fewer games are asked, the first of them in the listed order; a
    different --seed, another player count than the deals' or more games are refused. The
    run plays `deals.ranges` (RunSpec's `deal_numbers`)."""
    if seed is not None and seed != deals.seed:
        raise ConfigError(f"--seed {seed} differs from the deals' seed {deals.seed}: give one of "
                          f"--seed and --deals")
    if deals.players is not None and deals.players != n_players:
        raise ConfigError(f"--players {n_players} differs from the deals' {deals.players} players: the "
                          f"same deals give other cards to another player count (give -p {deals.players})")
    per_deal = n_players if duplicate else 1
    if n_games is None:
        return deals.seed, deals.count * per_deal
    if math.ceil(n_games / per_deal) > deals.count:
        raise ConfigError(f"--games {n_games} needs {math.ceil(n_games / per_deal)} deals, the deals "
                          f"file has {deals.count}: ask for at most {deals.count * per_deal} games")
    return deals.seed, n_games
