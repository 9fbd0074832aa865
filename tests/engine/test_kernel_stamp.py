"""The disk cache of a compiled kernel is keyed on the project files it reaches, not only on its
own (simkit/engine/kernel_stamp.py): a cached kernel that inlined a callee or froze a constant
from another file is compiled again when that file changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from simkit.engine import kernel_stamp


@pytest.fixture
def tree(tmp_path: Path):
    """A small project: `simkit/game/kernel.py` compiles code and imports a kernel helper
    (`helper.py`, which imports a rule table, `rules.py`) and a plain module (`text.py`, which
    imports `cli.py`, out of the kernels' reach)."""
    files = {
        "simkit/__init__.py": "",
        "simkit/game/__init__.py": "",
        "simkit/game/kernel.py": ("from simkit.game import helper as h\n"
                                  "from simkit.game.text import (\n    name,\n)\n"
                                  "@compiled()\ndef step(g):\n    return h.twice(g)\n"),
        "simkit/game/helper.py": ("from simkit.game.rules import TABLE\n"
                                  "@compiled()\ndef twice(g):\n    return 2 * g + TABLE[0]\n"),
        "simkit/game/rules.py": "TABLE = [1, 2, 3]\n",
        "simkit/game/text.py": "import simkit.game.cli\nname = 'x'\n",
        "simkit/game/cli.py": "print('hello')\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def _stamp(root: Path) -> str:
    kernel_stamp._read.cache_clear()
    kernel_stamp.imports_stamp.cache_clear()
    return kernel_stamp.imports_stamp(str(root / "simkit/game/kernel.py"), root)


@pytest.mark.parametrize("changed, counts", [
    ("simkit/game/helper.py", True),      # a kernel callee, inlined into the caller
    ("simkit/game/rules.py", True),       # a constant a kernel callee freezes
    ("simkit/game/text.py", True),        # imported by the kernel module itself
    ("simkit/game/cli.py", False),        # reached only through a plain module
    ("simkit/game/kernel.py", False),     # its own file: numba's own stamp covers it
])
def test_the_stamp_changes_with_every_file_a_kernel_reaches_and_no_other(tree, changed, counts):
    before = _stamp(tree)
    assert before
    (tree / changed).write_text((tree / changed).read_text() + "# changed\n")
    assert (_stamp(tree) != before) is counts


def test_a_compiled_kernel_s_cache_is_keyed_on_the_files_it_reaches():
    from simkit.games.sixnimmt import kernel_play

    kernel_stamp._read.cache_clear()
    kernel_stamp.imports_stamp.cache_clear()
    cache = kernel_play.play_games._cache
    numba_stamp, reached = cache._cache_file._source_stamp
    assert reached == kernel_stamp.imports_stamp(kernel_play.__file__)
    assert reached != kernel_stamp.imports_stamp(kernel_stamp.__file__)
    assert numba_stamp == cache._impl.locator.get_source_stamp()    # numba's own stays in the key
