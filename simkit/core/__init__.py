"""Deprecated: `simkit.core` was split into `simkit.engine` (plays games) and `simkit.studies`.

Old import paths keep working: `import simkit.core.strategy` gives the very module
`simkit.engine.strategy` (same classes, so `isinstance` and pickles agree) with a
DeprecationWarning naming the new path. New code imports from the new packages.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

#: old module name under simkit.core -> the package that holds it now
MOVED: dict[str, str] = {
    **{name: "simkit.engine" for name in (
        "chunk_index", "chunk_task", "chunks", "config", "deals", "errors", "folder_lock", "game",
        "guard", "lineup", "orphan_guard", "play", "records", "registry", "replay_check",
        "run_folder", "runner", "seats", "seeding", "spec", "strategy", "termination", "timed")},
    **{name: "simkit.studies" for name in (
        "compare", "conformance", "game_logs", "interactive", "ladder", "run_facts", "sweep",
        "tournament")},
}


class _MovedModule(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves `simkit.core.<name>` to the module's new home."""

    def find_spec(self, fullname, path, target=None):
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec) -> ModuleType:
        new = f"{MOVED[spec.name.rpartition('.')[2]]}.{spec.name.rpartition('.')[2]}"
        warnings.warn(f"{spec.name} moved to {new}; import it from there", DeprecationWarning,
                      stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """The module is the new one, already executed."""


if not any(isinstance(finder, _MovedModule) for finder in sys.meta_path):
    sys.meta_path.insert(0, _MovedModule())
