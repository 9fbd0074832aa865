"""Charts and the HTML/Markdown report of one or several run folders.

Layers, in the order the data flows: `figures` (the numbers, from `simkit.stats`), `words`
(every sentence a reader sees), `tables` (the cells), `html` / `markdown` (the pages),
`writer` (`build_report`: CSV tables, charts, the pages)."""

from simkit.report.figures import analyze_run
from simkit.report.writer import build_report

__all__ = ["analyze_run", "build_report"]
