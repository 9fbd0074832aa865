"""Charts and the HTML/Markdown report of one or several run folders."""

from simkit.report.build import analyze_run, build_report

__all__ = ["analyze_run", "build_report"]
