"""RunSpec: everything that determines a run's results, validated once and sent to every worker."""

from __future__ import annotations

import dataclasses
import importlib
import math
from dataclasses import dataclass
from typing import Any

from simkit.engine.chunks import check_game_count
from simkit.engine.config import GameConfig, config_from_dict, with_overrides
from simkit.engine.errors import ConfigError
from simkit.engine.isolation import isolated_specs
from simkit.engine.lineup import check_players
from simkit.engine.registry import all_games, get_game
from simkit.engine.seeding import DealRanges, deal_pieces, root_seed
from simkit.engine.strategy import StrategySpec, load_class, parse_strategy
from simkit.engine.timed import timed_specs

SEATINGS = ("rotate", "random", "fixed")
ENGINES = ("scalar", "batch", "kernel", "auto")
#: the engines `auto` tries, fastest first (the scalar engine plays every run)
FASTEST_FIRST = ("kernel", "batch")


def batch_module(game: str) -> Any:
    """The module of a game's array engine (`batch_supported`, `play_range_batch`), or None."""
    path = get_game(game).batch_engine
    return importlib.import_module(path) if path else None


def kernel_module(game: str) -> Any:
    """The module of a game's compiled kernel (`kernel_supported`, `play_range_kernel`), or None
    (importing it compiles nothing: simkit/engine/kernels.py)."""
    path = get_game(game).kernel_engine
    return importlib.import_module(path) if path else None


def engine_reason(spec: RunSpec, engine: str) -> str | None:
    """None if `engine` ("batch" or "kernel") can play `spec`, else why not (one sentence)."""
    if engine == "kernel":
        module = kernel_module(spec.game)
        return f"{spec.game} has no kernel" if module is None else module.kernel_supported(spec)
    module = batch_module(spec.game)
    return f"{spec.game} has no batch engine" if module is None else module.batch_supported(spec)


def choose_engine(spec: RunSpec, wanted: str) -> tuple[str, str]:
    """The engine for `--engine wanted` and a note saying why auto did not take a faster one.

    auto takes the fastest engine that can play every seat: the kernel, then the batch engine,
    then the scalar engine; asking for an engine that cannot play the run is a ConfigError
    with its reason."""
    if wanted not in ENGINES:
        raise ConfigError(f"--engine {wanted!r} is not allowed: one of {', '.join(ENGINES)}")
    if wanted == "scalar":
        return "scalar", ""
    if wanted != "auto":
        reason = engine_reason(spec, wanted)
        if reason is not None:
            raise ConfigError(f"--engine {wanted} cannot play this run: {reason}; use --engine "
                              f"scalar or auto")
        return wanted, ""
    passed: list[str] = []
    for engine in FASTEST_FIRST:
        reason = engine_reason(spec, engine)
        if reason is None:
            return engine, "; ".join(passed)
        passed.append(f"not the {engine} engine: {reason}")
    return "scalar", "; ".join(passed)


MAX_DECISION_TIMEOUT = 86_400.0
#: deal numbers are recorded in an int64 column
MAX_DEAL = (1 << 63) - 1


def _deal_range(item: Any) -> tuple[int, int]:
    try:
        low, high = item
    except (TypeError, ValueError):
        raise ConfigError(f"deal list entry {item!r} is not a (low, high) pair") from None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)) \
            or not 0 <= low <= high <= MAX_DEAL:
        raise ConfigError(f"deal list entry {item!r} is not allowed: whole deal numbers from 0 to "
                          f"2**63 - 1, low <= high")
    return low, high


def _joined_passes(ranges: Any) -> list[list[tuple[int, int]]]:
    """The ranges of a deal list as passes: each sorted and disjoint, adjacent ranges joined; a
    range starting at or below the previous one's end starts a new pass."""
    passes: list[list[tuple[int, int]]] = [[]]
    for low, high in map(_deal_range, ranges):
        joined = passes[-1]
        if joined and low <= joined[-1][1]:
            passes.append([(low, high)])
        elif joined and low == joined[-1][1] + 1:
            joined[-1] = (joined[-1][0], high)
        else:
            joined.append((low, high))
    return passes


def checked_deal_numbers(ranges: Any, deals_needed: int) -> DealRanges | None:
    """The first `deals_needed` deals of a deal list, as sorted, disjoint ranges with adjacent
    ones joined; None when they are deals 0 .. deals_needed-1 (a plain run). The one exception
    to "sorted and disjoint": the same list repeated, which plays every deal once per pass (the
    luck study's replays: the same deal again with the strategies' streams of another game). A
    malformed list, or one with too few deals, is a one-line ConfigError."""
    if ranges is None:
        return None
    passes = _joined_passes(ranges)
    for previous, joined in zip(passes, passes[1:]):
        if joined != passes[0]:
            low, high = joined[0]
            raise ConfigError(f"the deal list is not sorted and disjoint at {low}-{high} (after "
                              f"{previous[-1][0]}-{previous[-1][1]})")
    joined = [r for one in passes for r in one]
    listed = sum(high - low + 1 for low, high in joined)
    if listed < deals_needed:
        raise ConfigError(f"the deal list names {listed} deals, the run needs {deals_needed}: "
                          f"ask for fewer games or list more deals")
    first = tuple((a, b - 1) for a, b in deal_pieces(tuple(joined), 0, deals_needed))
    return None if first == ((0, deals_needed - 1),) else first


def check_strategy_game(spec: StrategySpec, game: str) -> None:
    """Refuse a strategy whose class lives under `strategies/<another game>/`: it would read
    observations and return actions of a game it was not written for."""
    module = load_class(spec.target).__module__
    parts = module.split(".")
    others = {g.name for g in all_games()} - {game}
    if len(parts) >= 2 and parts[0] == "strategies" and parts[1] in others:
        raise ConfigError(f"strategy {spec.text!r} is a {parts[1]} strategy ({module}): "
                          f"{game} needs one of its own (see `simkit strategies {game}`)")


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's results (picklable, sent to every worker)."""

    game: str
    n_players: int
    strategies: tuple[StrategySpec, ...]   # one per lineup slot (length n_players)
    n_games: int
    seed: int
    config: GameConfig
    seating: str = "rotate"
    duplicate: bool = False
    strict: bool = False
    command: str = ""
    #: seconds one decision may take before its seat forfeits the game (None: no limit)
    decision_timeout: float | None = None
    #: audit the state after every step, not only at the end of each game
    paranoid: bool = False
    #: "scalar" (one game at a time, every strategy), "batch" (the game's array engine) or
    #: "kernel" (its compiled kernel)
    engine: str = "scalar"
    #: why `--engine auto` did not take a faster engine ("" when it did, or was not asked)
    engine_note: str = ""
    #: the deal numbers the run plays, in order (its k-th deal is the k-th listed one); None:
    #: deals 0, 1, ... (simkit/engine/seeding.py)
    deal_numbers: DealRanges | None = None

    @classmethod
    def create(cls, game: str, n_players: int, strategies: list[str], n_games: int,
               seed: int | None = None, seating: str = "rotate", duplicate: bool = False,
               overrides: dict[str, str] | None = None, command: str = "",
               strict: bool = False, config: GameConfig | None = None,
               decision_timeout: float | None = None, paranoid: bool = False,
               engine: str = "scalar", deal_numbers: Any = None, isolate: str = "off") -> RunSpec:
        """Validate every option and resolve names; raises SimkitError subclasses. `isolate`
        ("off", "plugins", "all"): which seats play from a process of their own
        (simkit/engine/isolation.py); it changes no result of an honest strategy."""
        entry = get_game(game)
        check_players(entry, n_players)
        if not strategies:
            raise ConfigError("no strategy given: use -s NAME once for all seats or once per seat")
        if len(strategies) not in (1, n_players):
            raise ConfigError(f"{len(strategies)} strategies for {n_players} players: give -s once "
                              f"for all seats or exactly once per seat")
        check_game_count(n_games)
        if decision_timeout is not None and not (0 < decision_timeout <= MAX_DECISION_TIMEOUT):
            raise ConfigError(f"--decision-timeout {decision_timeout} is not allowed: seconds above 0 "
                              f"and at most {MAX_DECISION_TIMEOUT:g}")
        if seating not in SEATINGS:
            raise ConfigError(f"--seating {seating!r} is not allowed: one of {', '.join(SEATINGS)}")
        if duplicate and seating != "rotate":
            raise ConfigError(f"--duplicate plays every deal once per seat rotation, so it cannot be "
                              f"combined with --seating {seating}: drop --seating (or --duplicate)")
        specs = tuple(parse_strategy(s, game) for s in strategies)
        for spec in specs:
            check_strategy_game(spec, game)
        if len(specs) == 1:
            specs = specs * n_players
        base = config if config is not None else entry.config_cls()
        cfg = with_overrides(base, overrides or {})
        cfg.check_players(n_players)
        specs = isolated_specs(timed_specs(entry, cfg, specs), isolate)
        if duplicate:
            n_games = math.ceil(n_games / n_players) * n_players
            check_game_count(n_games)
        deals = checked_deal_numbers(deal_numbers, n_games // n_players if duplicate else n_games)
        planned = cls(game=game, n_players=n_players, strategies=specs, n_games=n_games,
                      seed=root_seed(seed), config=cfg, seating=seating, duplicate=duplicate,
                      strict=strict, command=command, decision_timeout=decision_timeout,
                      paranoid=paranoid, deal_numbers=deals)
        chosen, note = choose_engine(planned, engine)
        return dataclasses.replace(planned, engine=chosen, engine_note=note)

    def manifest_fields(self) -> dict:
        entry = get_game(self.game)
        return {"game": self.game, "rules_version": entry.rules_version,
                "higher_is_better": entry.higher_is_better, "n_players": self.n_players,
                "strategies": [s.text for s in self.strategies], "n_games": self.n_games,
                "seed": self.seed, "seating": self.seating, "duplicate": self.duplicate,
                "config": self.config.to_dict(), "command": self.command,
                "decision_timeout": self.decision_timeout, "paranoid": self.paranoid,
                "engine": self.engine, "engine_note": self.engine_note,
                "deal_numbers": None if self.deal_numbers is None else [list(r) for r in self.deal_numbers]}

    @classmethod
    def from_manifest(cls, manifest: dict) -> RunSpec:
        entry = get_game(manifest["game"])
        config = config_from_dict(entry.config_cls, manifest["config"])
        engine = manifest.get("engine", "scalar")
        try:
            return cls._from_manifest(manifest, config, engine)
        except ConfigError:
            if engine != "kernel":
                raise
            # a kernel run's games are the scalar engine's: replayed or resumed where the kernel
            # cannot run (no numba), the scalar engine plays them
            return cls._from_manifest(manifest, config, "scalar")

    @classmethod
    def _from_manifest(cls, manifest: dict, config: GameConfig, engine: str) -> RunSpec:
        return cls.create(manifest["game"], manifest["n_players"], manifest["strategies"],
                          manifest["n_games"], seed=manifest["seed"], seating=manifest["seating"],
                          duplicate=manifest["duplicate"], command=manifest.get("command", ""),
                          config=config, decision_timeout=manifest.get("decision_timeout"),
                          paranoid=manifest.get("paranoid", False),
                          engine=engine, deal_numbers=manifest.get("deal_numbers"))
