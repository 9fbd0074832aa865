"""The report's words: a figure is named the same way in the report and in the terminal, and the
sentences pick the figures they name."""

import math

import pandas as pd

from simkit.report.console import match_text
from simkit.report.tables import match_rows
from simkit.report.words import FAIR_SHARE, RATIO, WIN_SHARE, WIN_SHARE_NOTE, p_is, p_text, sweep_verdict
from simkit.stats.elo import SPRT
from simkit.stats.match import match_summary
from simkit.stats.synthetic import synth
from simkit.stats.tables import format_summary, summary_table


def _match(model: str):
    _, seats = synth(200, strengths=(0.8, 0.2), seed=3, labels=["a", "b"])
    is_a = (seats["strategy"] == "a").to_numpy()
    return match_summary(seats, is_a, ~is_a, "a", "b", SPRT(0, 10, model=model))


def test_the_terminal_and_the_report_state_an_sprt_alike():
    for model, unit in (("logistic", "pairwise Elo"), ("normalized", "pairwise nElo")):
        m = _match(model)
        rows = {row[0]: row for row in match_rows(m)[1]}
        text = match_text(m, stopped_early=False)
        assert rows["SPRT"][1] == f"[0, 10] {unit}"
        assert f"SPRT [0, 10] {unit}" in text
        bounds = f"{m.sprt.lower:.2f}, {m.sprt.upper:.2f}"
        assert f"LLR bounds ({bounds})" in rows["SPRT"][2] and f"(bounds {bounds})" in text


def test_the_terminal_summary_names_its_columns_as_the_report_and_its_note_do():
    _, seats = synth(100, seed=1, labels=["a", "b"])
    header = format_summary(summary_table(seats)).splitlines()[0]
    for name in (WIN_SHARE, FAIR_SHARE, RATIO):
        assert name in header and f"{name}: " in WIN_SHARE_NOTE


def test_a_p_value_never_breaks_from_its_sign():
    assert p_is(0.012345) == "p\u00a0=\u00a00.0123"
    assert p_is(1e-7) == "p\u00a0<\u00a00.0001"
    assert p_text(float("nan")) == "n/a" and p_text(None) == "n/a"


class _Run:
    """Just what sweep_verdict reads of a run: its seats' strategies and slots."""

    def __init__(self, players: list[str]) -> None:
        self.seats = pd.DataFrame({"strategy": players, "slot": range(len(players))})


def test_the_sweep_verdict_names_the_lowest_and_highest_cell_skipping_missing_ones():
    df = pd.DataFrame({"run": ["c1", "c2", "c3", "c4"],
                       "balance[x]": [1.5, math.nan, 0.5, 0.5],
                       "seat_effect": [False, True, False, False]})
    text = sweep_verdict([_Run(["x", "y"])], df)
    assert text == ("Across the cells, x wins 0.50× its fair share in c3 to 1.50× in c1; the "
                    "seat effect is significant in 1 of 4 cells after Holm's correction over "
                    "the cells.")
