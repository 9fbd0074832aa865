"""Deals files (`--deals FILE`): two studies play the same deals.

Game i of a run draws its deal (and every later chance event: reshuffles, draws) from the
chance stream of SeedSequence(seed, spawn_key=(i,)); a duplicate run plays deal d in games
d*n .. d*n+n-1 from the same stream (simkit/core/seeding.py). So a seed and a number of deals
name a fixed list of deals, and a deals file is just that, two lines:

    # simkit deals: deal i is the chance stream of game i under this seed
    seed 1234567
    deals 1000

`--deals` also takes a run folder (its seed and its deals). Deals are the same cards only for
the same game, player count and rules config: the stream is the same, what it deals depends
on them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from simkit.core.errors import ConfigError
from simkit.core.records import MANIFEST, read_manifest
from simkit.core.seeding import root_seed


@dataclass(frozen=True)
class Deals:
    seed: int
    count: int

    def text(self) -> str:
        return (f"# simkit deals: deal i is the chance stream of game i under this seed\n"
                f"seed {self.seed}\ndeals {self.count}\n")


def read_deals(path: Path | str) -> Deals:
    """A deals file, or a run folder's deals; a malformed file is a one-line ConfigError."""
    path = Path(path)
    if path.is_dir():
        if not (path / MANIFEST).exists():
            raise ConfigError(f"--deals {path}: a folder must be a run folder (no {MANIFEST})")
        m = read_manifest(path)
        try:
            n, players = int(m["n_games"]), int(m["n_players"])
            count = n // players if m.get("duplicate") else n
            return Deals(root_seed(int(m["seed"])), count)
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"--deals {path}: its {MANIFEST} has no usable seed and game count "
                              f"({exc})") from None
    try:
        lines = path.read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        why = getattr(exc, "strerror", None) or exc
        raise ConfigError(f"--deals {path}: cannot read it ({why})") from None
    fields: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, _, value = line.partition(" ")
        if key not in ("seed", "deals") or key in fields:
            raise ConfigError(f"--deals {path}, line {number}: {line!r} is not allowed: the file has "
                              f"one 'seed N' line and one 'deals N' line")
        try:
            fields[key] = int(value.strip())
        except ValueError:
            raise ConfigError(f"--deals {path}, line {number}: {value.strip()!r} is not a whole "
                              f"number") from None
    if "seed" not in fields or "deals" not in fields:
        missing = "seed" if "seed" not in fields else "deals"
        raise ConfigError(f"--deals {path}: no '{missing} N' line (a deals file has 'seed N' and "
                          f"'deals N')")
    if fields["deals"] < 1:
        raise ConfigError(f"--deals {path}: deals {fields['deals']} is not allowed: at least 1")
    return Deals(root_seed(fields["seed"]), fields["deals"])


def games_for_deals(deals: Deals, seed: int | None, n_games: int | None, n_players: int,
                    duplicate: bool) -> tuple[int, int]:
    """(seed, games) of a study on `deals`: every deal once (once per rotation with
    --duplicate) unless fewer games are asked; a different --seed or more games are refused."""
    if seed is not None and seed != deals.seed:
        raise ConfigError(f"--seed {seed} differs from the deals' seed {deals.seed}: give one of "
                          f"--seed and --deals")
    per_deal = n_players if duplicate else 1
    if n_games is None:
        return deals.seed, deals.count * per_deal
    if math.ceil(n_games / per_deal) > deals.count:
        raise ConfigError(f"--games {n_games} needs {math.ceil(n_games / per_deal)} deals, the deals "
                          f"file has {deals.count}: ask for at most {deals.count * per_deal} games")
    return deals.seed, n_games
