"""The floors of the house (docs/architecture.md): no module imports from a floor above its own.

Bottom to top: the engine that plays games, the statistics beside it (neither imports the other),
the games on the engine, the bots and search agents over the games, the studies built from all of
those, the report over the studies, and the CLI on top. Every import counts, also those inside
functions and under `TYPE_CHECKING`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: floor name -> (module prefixes on it, floors it may import from besides itself)
FLOORS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "engine": (("simkit.engine",), ()),
    "stats": (("simkit.stats",), ()),
    "games": (("simkit.games",), ("engine",)),
    "bots": (("strategies", "simkit.search"), ("engine", "games")),
    "studies": (("simkit.studies",), ("engine", "stats", "games", "bots")),
    "report": (("simkit.report",), ("engine", "stats", "studies")),
    "cli": (("simkit.cli", "simkit.cli_options", "simkit.cli_study", "simkit.cli_designer",
             "simkit.__main__"),
            ("engine", "stats", "games", "bots", "studies", "report")),
}


def floor_of(module: str) -> str | None:
    for floor, (prefixes, _) in FLOORS.items():
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return floor
    return None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in the file, relative ones resolved."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def sources() -> list[Path]:
    return sorted(p for top in ("simkit", "strategies") for p in (ROOT / top).rglob("*.py")
                  if "core" not in p.relative_to(ROOT).parts)


def upward_imports(path: Path) -> list[str]:
    floor = floor_of(module_name(path))
    if floor is None:
        return []
    allowed = {floor, *FLOORS[floor][1]}
    bad = []
    for line, target in imported_modules(path):
        other = floor_of(target)
        if other is not None and other not in allowed:
            bad.append(f"{path.relative_to(ROOT)}:{line}: {floor} imports {target} ({other})")
    return sorted(set(bad))


def test_every_module_is_on_a_floor():
    homeless = [str(p.relative_to(ROOT)) for p in sources()
                if floor_of(module_name(p)) is None and module_name(p) not in ("simkit", "strategies")]
    assert homeless == []


def test_no_import_runs_up_a_floor():
    bad = [line for path in sources() for line in upward_imports(path)]
    assert bad == []


def test_the_check_sees_an_upward_import(tmp_path, monkeypatch):
    fake = ROOT / "simkit" / "engine" / "spec.py"
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: "from simkit.studies.ladder import x\n"
                        if self == fake else Path.read_bytes(self).decode())
    assert upward_imports(fake) == [
        "simkit/engine/spec.py:1: engine imports simkit.studies.ladder (studies)",
        "simkit/engine/spec.py:1: engine imports simkit.studies.ladder.x (studies)",
    ]


@pytest.mark.parametrize("old, new", [("simkit.core.strategy", "simkit.engine.strategy"),
                                      ("simkit.core.ladder", "simkit.studies.ladder")])
def test_old_core_paths_still_import_with_a_warning(old, new):
    import importlib
    import sys

    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=new):
        moved = importlib.import_module(old)
    assert moved is importlib.import_module(new)


@pytest.mark.parametrize("name, layer", [("build_report", "writer"), ("RunAnalysis", "figures"),
                                         ("render_html", "html"), ("sweep_verdict", "words")])
def test_old_report_build_names_still_resolve_with_a_warning(name, layer):
    import importlib

    import simkit.report.build as old

    with pytest.warns(DeprecationWarning, match=f"simkit.report.{layer}.{name}"):
        moved = getattr(old, name)
    assert moved is getattr(importlib.import_module(f"simkit.report.{layer}"), name)
    with pytest.raises(AttributeError):
        old.no_such_name  # noqa: B018
