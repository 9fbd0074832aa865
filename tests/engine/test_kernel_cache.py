"""numba's disk cache of a kernel's game loop is found again by a later process (issue 21: a later
run's start <= 2 s). numba keys a cached function by its argument types; a bot typed as its own
dispatcher has a type whose text and identity belong to one process (it holds the function's
address), so a later process would miss the cache and compile the loop again. The bots reach the
game loops as first-class function types (one signature for every bot), and 6 nimmt!'s simple
bots (`random`, `lowest`, `highest`) are played directly by a slot's code, not through a type of
their own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

from numba.core import types  # noqa: E402

from simkit.engine.spec import RunSpec  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

# one 4-player game of `random` (the lineup whose loop was typed by its bot's dispatcher), then
# what numba's cache did for the game loop; `pad` objects first move where later objects land,
# and `first` imports a module first (another import order: other addresses)
_CHILD = """
import json, sys
pad = [(lambda i=i: i) for i in range({pad})]
import {first}
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt.kernel import play_range_kernel
from simkit.games.sixnimmt.kernel_play import play_games
play_range_kernel(RunSpec.create("sixnimmt", 4, ["random"], 1, seed=1), 0, 1)
print(json.dumps({{"hits": sum(play_games.stats.cache_hits.values()),
                  "misses": sum(play_games.stats.cache_misses.values()),
                  "signatures": [str(s) for s in play_games.signatures]}}))
"""


def _child(cache: Path, pad: int, first: str) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _CHILD.format(pad=pad, first=first)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_second_process_loads_the_game_loop_from_the_cache(tmp_path):
    cache = tmp_path / "numba-cache"
    first = _child(cache, 0, "numpy")
    assert first["misses"] == 1 and first["hits"] == 0          # an empty cache: it compiled
    later = _child(cache, 5000, "strategies.sixnimmt.kernel_bots")
    assert later["signatures"] == first["signatures"]
    assert later == {**first, "hits": 1, "misses": 0}           # loaded, not compiled again
    saved = list(cache.rglob("kernel_play.play_games-*.nbc"))
    assert len(saved) == 1, saved                                # one entry in numba's index


def _holds_dispatcher(t: types.Type) -> bool:
    if isinstance(t, types.Dispatcher):
        return True
    return isinstance(t, types.BaseTuple) and any(_holds_dispatcher(e) for e in t.types)


@pytest.mark.parametrize("game, lineups", [
    ("sixnimmt", (["random"], ["lowest"], ["heuristic", "random", "lowest", "highest"])),
    ("trains", (["random"], ["greedy"], ["random", "greedy", "rival"])),
    ("shipside", (["random"], ["octopus"], ["greedy", "random"])),
])
def test_no_game_loop_is_typed_by_a_bot_of_its_own(game, lineups):
    """Every compiled function of a game's kernel, after uniform and mixed lineups, takes its
    bots as function types: no argument type is a dispatcher's (a cache key of one process)."""
    import importlib

    kernel = importlib.import_module(f"simkit.games.{game}.kernel")
    play = importlib.import_module(f"simkit.games.{game}.kernel_play")
    for lineup in lineups:
        n = len(lineup) if len(lineup) > 1 else 2 if game == "shipside" else 4
        kernel.play_range_kernel(RunSpec.create(game, n, lineup, 1, seed=1), 0, 1)
    compiled = {name: f for name, f in vars(play).items() if hasattr(f, "signatures") and f.signatures}
    assert "play_games" in compiled
    for name, function in compiled.items():
        for signature in function.signatures:
            assert not any(_holds_dispatcher(t) for t in signature), (name, signature)
