"""Deprecated: the report's old single module. Its names now live in the report's layers
(`figures`, `words`, `tables`, `html`, `markdown`, `writer`); `simkit.report.build.X` still finds
X there, with a DeprecationWarning naming the new home. New code imports from the layer."""

from __future__ import annotations

import importlib
import warnings
from typing import Any

_LAYERS = ("figures", "words", "tables", "html", "markdown", "writer")


def __getattr__(name: str) -> Any:
    for layer in _LAYERS:
        module = importlib.import_module(f"simkit.report.{layer}")
        if name in vars(module) and not name.startswith("_"):
            warnings.warn(f"simkit.report.build.{name} moved to simkit.report.{layer}.{name}",
                          DeprecationWarning, stacklevel=2)
            return vars(module)[name]
    raise AttributeError(f"module 'simkit.report.build' has no attribute {name!r}")
