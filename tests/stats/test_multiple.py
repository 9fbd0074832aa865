"""Holm and Benjamini–Hochberg adjustments and flags (issue 13, point 5)."""

import numpy as np
import pandas as pd
import pytest

from simkit.stats.multiple import adjust, flag_significant, flag_sweep, seat_effect_flags
from simkit.stats.synthetic import synth

P = [0.01, 0.04, 0.03, 0.005, 0.20]


def test_holm_and_bh_by_hand():
    """Sorted 0.005, 0.01, 0.03, 0.04, 0.20 (k = 5). Holm: 5·0.005, 4·0.01, 3·0.03, max(2·0.04,
    0.09), 0.20 -> 0.025, 0.04, 0.09, 0.09, 0.20. BH: 5p/rank = 0.025, 0.025, 0.05, 0.05, 0.20,
    then running minimum from the top."""
    assert adjust(P, "holm") == pytest.approx([0.04, 0.09, 0.09, 0.025, 0.20])
    assert adjust(P, "bh") == pytest.approx([0.025, 0.05, 0.05, 0.025, 0.20])


@pytest.mark.parametrize("method, name", [("holm", "holm"), ("bh", "fdr_bh")])
def test_adjustments_match_statsmodels(method, name):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    p = np.random.default_rng(1).uniform(0, 0.2, 40) ** 2
    assert adjust(p, method) == pytest.approx(multitest.multipletests(p, method=name)[1])


def test_nan_p_values_are_not_counted():
    assert np.isnan(adjust([0.01, np.nan, 0.02], "holm")[1])
    assert adjust([0.01, np.nan, 0.02], "holm")[[0, 2]] == pytest.approx([0.02, 0.02])
    with pytest.raises(ValueError, match="holm"):
        adjust(P, "bonferroni")


def test_flag_significant_names_the_correction():
    table = flag_significant(pd.DataFrame({"p_value": P}), method="holm")
    assert list(table["significant"]) == [True, False, False, True, False]
    assert table.attrs["correction"].startswith("Holm") and "5 tests" in table.attrs["correction"]


def test_seat_flags_find_a_real_first_seat_advantage_and_not_the_others():
    _, seats = synth(3000, strengths=(0.5, 0.5, 0.5), n_players=3, seed=11,
                     seat_bonus=(2.0, 0.0, 0.0))
    table = seat_effect_flags(seats)
    assert table.loc[0, "significant"] and table.loc[0, "advantage"] > 0
    assert table.loc[0, "p_adjusted"] < 1e-6
    _, fair = synth(3000, strengths=(0.5, 0.5, 0.5), n_players=3, seed=12)
    assert not seat_effect_flags(fair)["significant"].any()


def test_duplicate_runs_test_seats_with_deals_as_units():
    _, seats = synth(600, strengths=(0.5, 0.5), seed=13, duplicate=True, seat_bonus=(3.0, 0.0))
    table = seat_effect_flags(seats, method="bh")
    assert table["significant"].all() and "Benjamini" in table.attrs["correction"]


def test_flag_sweep_corrects_over_all_cells():
    cells = {"rows=3": pd.DataFrame({"seat": [0, 1], "p_value": [0.01, 0.5]}),
             "rows=4": pd.DataFrame({"seat": [0, 1], "p_value": [0.02, 0.03]})}
    out = flag_sweep(cells, method="bh")
    assert list(out["run"]) == ["rows=3", "rows=3", "rows=4", "rows=4"]
    assert out["p_adjusted"].tolist() == pytest.approx([0.04, 0.5, 0.04, 0.04])
    assert "Benjamini" in out.attrs["correction"]
