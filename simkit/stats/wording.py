"""The words and number formats that the report, `summary.md` and the terminal share, so that
a figure reads the same wherever it is printed: percentages `66.1%`, intervals `64.0–68.2%`,
signed Elo `+288.1`, Elo with its 95 % interval `+242.6 ± 48.6` or honest bounds
`+1199.8 [+166.2, +∞]`, and the bias-adjusted Elo's bounds at the search reach `≥ +1000`."""

from __future__ import annotations

import math
from typing import Any

from simkit.stats.elo import EloEstimate
from simkit.stats.sequential import SequentialEstimate


def number(x: Any, digits: int = 2) -> str:
    """`12.35`, an int as it is, `n/a` for None or NaN, `∞`/`-∞`; text passes through."""
    if x is None:
        return "n/a"
    if isinstance(x, (int,)) and not isinstance(x, bool):
        return str(x)
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "n/a"
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    text = f"{v:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text   # never "-0.00"


def pct(x: Any, digits: int = 1) -> str:
    """A share as a percentage, `66.1%`, or `n/a`."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        return "n/a"
    return "n/a" if math.isnan(v) else f"{100 * v:.{digits}f}%"


def ci_pct(lo: Any, hi: Any) -> str:
    """`64.0–68.2%`: one percent sign, no spaces, so interval columns stay narrow on a phone."""
    low, high = pct(lo), pct(hi)
    return f"{low.removesuffix('%')}–{high}" if low.endswith("%") else f"{low}–{high}"


def ci(lo: Any, hi: Any, digits: int = 2) -> str:
    """A score interval, `32.36 to 33.79` (a minus sign must not read as a dash)."""
    return f"{number(lo, digits)} to {number(hi, digits)}"


def signed(x: float, digits: int = 1) -> str:
    """+12.3, -4.0, +∞, -∞ or n/a (NaN)."""
    v = float(x)
    if math.isnan(v):
        return "n/a"
    if math.isinf(v):
        return "+∞" if v > 0 else "-∞"
    if round(v, digits) == 0:
        return f"{0:.{digits}f}"
    return f"{v:+.{digits}f}"


def seq_bound(x: float, at_reach: bool, digits: int = 1) -> str:
    """A figure of the bias-adjusted Elo: `≥ +1000` when the search stopped at its reach
    (simkit.stats.sequential.ELO_REACH) because the figure lies there or beyond."""
    if at_reach:
        return ("≥ " if float(x) > 0 else "≤ ") + signed(x, 0)
    return signed(x, digits)


def sequential_text(seq: SequentialEstimate, digits: int = 1) -> str:
    """`+240.0 [+180.3, ≥ +1000]`: the bias-adjusted Elo after an SPRT and its 95 % bounds."""
    return (f"{seq_bound(seq.elo, seq.elo_at_reach, digits)} "
            f"[{seq_bound(seq.low, seq.low_at_reach, digits)}, "
            f"{seq_bound(seq.high, seq.high_at_reach, digits)}]")


def elo_text(e: EloEstimate, digits: int = 1) -> str:
    """An Elo estimate with its 95 % interval: `+242.6 ± 48.6` where the normal interval holds,
    the honest asymmetric bounds `+1199.8 [+166.2, +∞]` where it does not (`interval ==
    "wilson"`: a score near 0 % or 100 %, or no spread in the results)."""
    if e.interval == "wilson":
        return f"{signed(e.elo, digits)} [{signed(e.elo_low, digits)}, {signed(e.elo_high, digits)}]"
    return f"{signed(e.elo, digits)} ± {number(e.elo_error, digits)}"


def nelo_text(e: EloEstimate, digits: int = 1) -> str:
    """nElo ± its 95 % half-width, or `n/a` when the results have no spread (nElo undefined)."""
    if math.isnan(float(e.nelo)):
        return "n/a"
    return f"{signed(e.nelo, digits)} ± {number(e.nelo_error, digits)}"
