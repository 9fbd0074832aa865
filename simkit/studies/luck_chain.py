"""The skill chain beside the luck study (`simkit luck --ladder FOLDER`).

A ladder (`simkit ladder`) measures the game's skill depth: the longest chain of agents each
beating the one before it significantly (simkit.stats.depth). The luck study's split says how
much of the outcome its agents' skill decides; the chain says over how many levels skill keeps
paying. `ladder_chain` reads a finished (or partly finished) ladder folder of the same game and
returns what luck.json records: the chain, its length, the correction, and whether the ladder
played the study's player count and rules (a chain of another setting is shown, marked so).
"""

from __future__ import annotations

from pathlib import Path

from simkit.engine.errors import ConfigError, RunFolderError
from simkit.engine.records import read_manifest
from simkit.engine.spec import RunSpec


def ladder_chain(folder: Path | str, spec: RunSpec) -> dict:
    """The skill chain of the ladder in `folder`, for the luck study of `spec`; a folder that is
    no ladder of this game is a one-line error."""
    from simkit.studies.ladder import LADDER_MANIFEST, analyse_ladder

    folder = Path(folder)
    if not (folder / LADDER_MANIFEST).is_file():
        raise ConfigError(f"--ladder {folder}: not a ladder folder (no {LADDER_MANIFEST}); give the folder "
                          f"`simkit ladder` wrote")
    try:
        result = analyse_ladder(folder)
    except (RunFolderError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"--ladder {folder}: {exc}") from None
    game = result.plan.get("game")
    if game != spec.game:
        raise ConfigError(f"--ladder {folder} is a ladder of {game}, the luck study plays {spec.game}: "
                          f"give a ladder of the same game")
    rules = None
    for pair in result.plan["pairs"]:
        try:
            rules = read_manifest(folder / "pairs" / pair["folder"]).get("config")
            break
        except RunFolderError:
            continue
    depth = result.depth
    return {"folder": str(folder), "players": int(result.plan["n_players"]),
            "agents": len(result.plan["agents"]), "pairings": len(result.pairs),
            "chain": list(depth.chain), "length": depth.length, "correction": depth.correction,
            "same_players": int(result.plan["n_players"]) == spec.n_players,
            "same_rules": rules == spec.config.to_dict()}
