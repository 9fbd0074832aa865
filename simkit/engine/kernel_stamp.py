"""The stamp that keys a compiled kernel function's disk cache (simkit/engine/kernel_rng.py,
`compiled`), beyond numba's own.

numba checks a cached function against its own file only (modification time and size). A kernel
inlines callees from other files and freezes their constants (a layout offset, a rule table)
into its machine code, so after a change to one of those files the cached code would go on
playing the old code: an editable install after `git pull`, or a developer's edit. The stamp
adds a digest of the contents of every project file the function's module imports and, through
the kernel modules among them (the ones that compile code), of theirs: a change to any of them
compiles the function again. Files outside the kernels' reach (the CLI, reports) never do.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

#: where `simkit` and `strategies` live (both top-level packages of one checkout or install)
_ROOT = Path(__file__).resolve().parents[2]
_FROM = re.compile(r"^[ \t]*from[ \t]+((?:simkit|strategies)(?:\.\w+)*)[ \t]+import[ \t]+"
                   r"(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+((?:simkit|strategies)(?:\.\w+)*)", re.M)
#: a file that compiles code: its own imports are followed further
_COMPILES = re.compile(r"\bcompiled\(|\bnumba\b")


def _module_file(name: str, root: Path) -> Path | None:
    """The source file of project module `name` under `root` (None: no such file)."""
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imported_files(text: str, root: Path) -> set[Path]:
    """The project files a module's source imports (packages and the submodules named)."""
    modules = [match.group(1) for match in _IMPORT.finditer(text)]
    for match in _FROM.finditer(text):
        package = match.group(1)
        modules.append(package)
        modules += [f"{package}.{name}" for name in re.findall(r"\w+", match.group(2).split("#")[0])
                    if name != "as"]
    return {path for path in (_module_file(name, root) for name in modules) if path is not None}


@functools.cache
def _read(path: Path, root: Path) -> tuple[str, frozenset[Path], bool]:
    """A project file's (content digest, imported project files, whether it compiles code)."""
    text = path.read_text(encoding="utf-8")
    return (hashlib.sha256(text.encode()).hexdigest(), frozenset(_imported_files(text, root)),
            bool(_COMPILES.search(text)))


@functools.cache
def imports_stamp(source: str, root: Path = _ROOT) -> str:
    """A digest of the contents of the project files `source` (a module's file) reaches: its
    imports, and the imports of every kernel module among them, transitively ("" when `source`
    is no file: numba caches no such function anyway). `root`: where the packages live."""
    start = Path(source).resolve()
    if not start.is_file():
        return ""
    seen = {start}
    todo = [start]
    digest = hashlib.sha256()
    while todo:
        path = todo.pop()
        content, imported, compiles = _read(path, root)
        if path != start:
            digest.update(f"{path.relative_to(root)}\0{content}\0".encode())
        if path == start or compiles:
            for found in sorted(imported - seen):
                seen.add(found)
                todo.append(found)
    return digest.hexdigest()[:16]

