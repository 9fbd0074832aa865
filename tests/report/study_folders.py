"""Tiny study folders for the report tests, written from synthetic games in a second: a ladder
or tournament folder laid out as `simkit ladder` writes it (ladder.json, pairs/NN-A-vs-B/)."""

import json

from simkit.stats.synthetic import synth
from simkit.studies.ladder import _folder_name, pairings
from tests.report.test_report import _write_run

#: a field with two search budgets, so the ladder page draws its budget chart
FIELD = {"random": 0.2, "heuristic": 0.6, "ismcts:iterations=10": 0.5, "ismcts:iterations=100": 0.8}


def pairing_folder(folder, field=None, games=40, fmt="round-robin", seed=1):
    """A ladder folder of 2-player duplicate pairings; each agent's strength from `field`."""
    field = dict(field or FIELD)
    agents = list(field)
    pairs = []
    for k, (a, b) in enumerate(pairings(agents, fmt)):
        name = _folder_name(k, a, b)
        g, s = synth(games, strengths=(field[a], field[b]), labels=[a, b], seed=seed + k, duplicate=True)
        _write_run(folder / "pairs" / name, g, s, duplicate=True, strategies=[a, b])
        pairs.append({"a": a, "b": b, "folder": name})
    plan = {"game": "sixnimmt", "n_players": 2, "agents": agents, "format": fmt, "games_per_pair": games,
            "seed": seed, "pairs": pairs}
    (folder / "ladder.json").write_text(json.dumps(plan, indent=1) + "\n")
    return folder
