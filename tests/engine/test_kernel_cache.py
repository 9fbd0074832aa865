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
import shutil
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


def _child(cache: Path, pad: int, first: str, code: str = _CHILD) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code.format(pad=pad, first=first)], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _seed_without_the_game_loop(cache: Path, skip: tuple[str, ...] = ()) -> int:
    """Fill `cache` (a NUMBA_CACHE_DIR) with this process's cached kernels of the modules the
    child plays, all but `play_games`: the first child then compiles the game loop alone (about
    3 s), not every bot and engine kernel under it too (about 15 s more). This process's own
    play (the default cache, shared with the rest of the suite) writes them first. The number
    of files copied (none where this process's cache holds nothing: the child compiles all).
    Files whose names start with one of `skip` stay out too."""
    from numba.core.caching import _CacheLocator
    from numba.core.registry import CPUDispatcher

    from simkit.games.sixnimmt.kernel import play_range_kernel

    play_range_kernel(RunSpec.create("sixnimmt", 4, ["random"], 1, seed=1), 0, 1)
    sources: dict[Path, Path] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith(("simkit.", "strategies.")):
            continue
        for value in list(vars(module).values()):
            found = getattr(value, "_cache", None)
            if isinstance(value, CPUDispatcher) and getattr(found, "_cache_path", None):
                source = value.py_func.__code__.co_filename
                sources[Path(found._cache_path)] = cache / _CacheLocator.get_suitable_cache_subpath(source)
    copied = 0
    for mine, theirs in sources.items():
        for entry in [*mine.glob("*.nbi"), *mine.glob("*.nbc")]:
            if entry.name.startswith(("kernel_play.play_games-", *skip)):
                continue
            theirs.mkdir(parents=True, exist_ok=True)
            shutil.copy2(entry, theirs / entry.name)
            copied += 1
    return copied


def test_a_second_process_loads_the_game_loop_from_the_cache(tmp_path):
    cache = tmp_path / "numba-cache"
    _seed_without_the_game_loop(cache)
    assert not list(cache.rglob("kernel_play.play_games-*"))   # the game loop: not in the cache
    first = _child(cache, 0, "numpy")
    assert first["misses"] == 1 and first["hits"] == 0          # so it compiled
    later = _child(cache, 5000, "strategies.sixnimmt.kernel_bots")
    assert later["signatures"] == first["signatures"]
    assert later == {**first, "hits": 1, "misses": 0}           # loaded, not compiled again
    saved = list(cache.rglob("kernel_play.play_games-*.nbc"))
    assert len(saved) == 1, saved                                # one entry in numba's index


# a run whose game loop and `heuristic` bot both need compiling: which children it started
# (simkit/engine/compile_aside.py), then what numba did for the loop and the bot in this process
_ASIDE = """
import json, os
from simkit.engine import compile_aside
started = []
start = compile_aside.Aside.__init__
def record(self, target, args):
    started.append(target)
    start(self, target, args)
compile_aside.Aside.__init__ = record
compile_aside._free_cores = lambda: 2
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt.kernel import play_range_kernel
from simkit.games.sixnimmt.kernel_play import play_games
from strategies.sixnimmt.kernel_bots import heuristic_bot
spec = RunSpec.create("sixnimmt", 4, ["heuristic", "random", "random", "random"], 1, seed=1)
pending = [compile_aside.compiles_first(spec)]
play_range_kernel(spec, 0, 1)
pending.append(compile_aside.compiles_first(spec))
def counts(f):
    return [sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values())]
print(json.dumps({{"started": started, "loop": counts(play_games), "bot": counts(heuristic_bot),
                  "pending": pending}}))
"""


def test_a_first_start_compiles_the_game_loop_in_a_child_meanwhile(tmp_path, monkeypatch):
    """The loop and a bot both missing from the cache: a child compiles the loop (one game of
    `random` bots) while the run compiles its bot; the run then loads the loop from the cache,
    compiled nowhere else. Started again, the loop is cached: no child."""
    monkeypatch.delenv("SIMKIT_COMPILE_ASIDE", raising=False)
    cache = tmp_path / "numba-cache"
    _seed_without_the_game_loop(cache, skip=("kernel_bots.heuristic_bot-",))
    first = _child(cache, 0, "numpy", _ASIDE)
    assert first["started"] == ["simkit.engine.compile_aside:play_one_random_game"]
    assert first["loop"] == [1, 0]                   # loaded: the child had put it in the cache
    assert first["bot"] == [0, 1]                    # compiled here, meanwhile
    assert first["pending"] == [True, False]         # the header's "compiling ... first", then cached
    later = _child(cache, 0, "numpy", _ASIDE)
    assert later == {"started": [], "loop": [1, 0], "bot": [1, 0], "pending": [False, False]}


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


def test_the_check_finds_a_loop_typed_by_a_bot_of_its_own():
    """Control: the lineup the old 6 nimmt! loop took (before ce21ffc, `direct_bots`): one bot
    in every seat, recompiled without a signature and passed as a tuple of itself. A function
    compiled for that tuple has a signature `_holds_dispatcher` finds; the lineup as the game
    loop takes it now (first-class function types) has none."""
    import numba

    from simkit.engine.kernels import quiet_numba
    from simkit.games.sixnimmt.kernel_play import uniform_bot

    @numba.njit
    def seats(fns):
        return len(fns)

    bot = uniform_bot.ready()                            # as a lineup loads it (`load_function`)
    direct = numba.njit(bot.py_func)                     # the old way: typed as its own dispatcher
    with quiet_numba():
        assert seats((direct,) * 4) == 4 and seats((bot,) * 4) == 4
    old, new = seats.signatures
    assert any(_holds_dispatcher(t) for t in old)
    assert not any(_holds_dispatcher(t) for t in new)
