"""The Rummikub solver's two compiled parts side by side on a first start (simkit/engine/
compile_aside.py): the table DP (`dp_kernel`, most of the compile) and the rack search of the
initial meld (`meld_kernel`). The first use of either in a process starts a child compiling the
other, when numba's disk cache holds nothing for it, and the first use of a part waits for the
child compiling it; the part then loads from the cache."""

from __future__ import annotations

import importlib

from simkit.engine import compile_aside

#: part -> (its module, the compiled functions its solves call first, the child's warm-up)
PARTS = {
    "dp": ("simkit.games.rummikub.dp_kernel", ("_run", "_plan"),
           "simkit.games.rummikub.solver:warm_table_dp"),
    "meld": ("simkit.games.rummikub.meld_kernel", ("_best", "_plan"),
             "simkit.games.rummikub.solver:warm_rack_search"),
}
_USED: set[str] = set()


def first_use(part: str) -> None:
    """Before a compiled call of `part` ("dp" or "meld"); cheap after the first in a process."""
    if part in _USED:
        return
    _USED.add(part)
    compile_aside.wait_for(part)
    other = "meld" if part == "dp" else "dp"
    if other in _USED:
        return
    module, roots, warm = PARTS[other]
    functions = [getattr(importlib.import_module(module), name) for name in roots]
    if any(compile_aside.uncached(f) for f in functions):
        compile_aside.start(other, warm)
