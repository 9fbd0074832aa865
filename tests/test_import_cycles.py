"""No import cycle among the modules of simkit/ and strategies/.

Every import counts, also those inside functions and under `TYPE_CHECKING`: a cycle the type
checker sees is one a reader has to untangle too. `from pkg.sub import x` is an edge to
`pkg.sub` only, not to `pkg`'s `__init__` (which Python runs first, but which holds no code the
submodule could depend on in a cycle), and `from pkg import sub` is an edge to the submodule.
"""

from __future__ import annotations

from pathlib import Path

from tests import test_layers
from tests.test_layers import imported_modules, module_name, sources


def import_graph(paths: list[Path]) -> dict[str, set[str]]:
    """module -> the modules among `paths` it imports."""
    modules = {module_name(p): p for p in paths}

    def resolve(target: str) -> str | None:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        return target or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = imported_modules(path)
        graph[name] = set()
        for line, target in found:
            # the base of `from pkg import a, b` comes with its names: those are the edges
            if any(at == line and other.startswith(target + ".") for at, other in found):
                continue
            module = resolve(target)
            if module is not None and module != name:
                graph[name].add(module)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (first module repeated at the end) per strongly connected group of modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:         # Tarjan's algorithm; the graph is a few hundred modules
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(_cycle_through(graph, set(group), group[0]) for group in groups)


def _cycle_through(graph: dict[str, set[str]], group: set[str], start: str) -> list[str]:
    """The shortest path from `start` back to itself inside its group (breadth first)."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while start not in came_from:
        reached = []
        for node in frontier:
            for nxt in sorted(graph[node] & group):
                if nxt not in came_from:
                    came_from[nxt] = node
                    reached.append(nxt)
        frontier = reached
    path = [start]
    while len(path) == 1 or path[-1] != start:
        path.append(came_from[path[-1]])
    return path[::-1]


def test_no_import_cycle():
    cycles = import_cycles(import_graph(sources()))
    assert [" -> ".join(cycle) for cycle in cycles] == []


def test_the_check_finds_a_cycle(tmp_path, monkeypatch):
    monkeypatch.setattr(test_layers, "ROOT", tmp_path)
    package = tmp_path / "pkg"
    package.mkdir()
    files = {
        "__init__.py": "from pkg.state import State\n",
        "state.py": "from pkg import rules, views\nfrom pkg.rules import LIMIT\n",
        "rules.py": "LIMIT = 3\n",
        "views.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .state import State\n",
    }
    for name, text in files.items():
        (package / name).write_text(text)
    graph = import_graph(sorted(package.glob("*.py")))
    assert graph == {"pkg": {"pkg.state"}, "pkg.state": {"pkg.rules", "pkg.views"},
                     "pkg.rules": set(), "pkg.views": {"pkg.state"}}
    assert import_cycles(graph) == [["pkg.state", "pkg.views", "pkg.state"]]
