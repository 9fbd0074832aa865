"""The headline says one thing per question (issue 24, points 2 and 3): a mirror match names no
winner, a real difference still does, and the strength is one figure, the pairwise Elo with
its interval, every other figure in a detail section that says how it relates to it."""

import html
import math
import re

import pytest

from simkit.engine.registry import get_game
from simkit.engine.runner import RunSpec, run
from simkit.report import build_report
from simkit.report.console import match_text, run_summary
from simkit.report.words import NO_DIFFERENCE, PL_VERSUS_PAIRWISE
from simkit.stats import SPRT
from simkit.stats.strategy_tests import strategy_effect_flags
from simkit.studies.compare import plan_compare, run_compare

#: a seed at which the uncorrected Wilson interval of one `random` bot misses its fair share
MIRROR_SEED, MIRROR_GAMES = 14, 1000


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("headline")
    mirror = run(RunSpec.create(game="sixnimmt", n_players=4, strategies=["random"] * 4,
                                n_games=MIRROR_GAMES, seed=MIRROR_SEED),
                 root / "mirror", jobs=1, progress=False)
    real = run(RunSpec.create(game="sixnimmt", n_players=2, strategies=["heuristic", "random"],
                              n_games=200, seed=1), root / "real", jobs=1, progress=False)
    # issue 24's compare: `simkit compare sixnimmt heuristic random -p 4 --seed 3`
    plan = plan_compare("sixnimmt", "heuristic", "random", 4, 20000, SPRT(0, 10), seed=3)
    result, summary = run_compare(plan, root / "compare", jobs=1, progress=False)
    return {"root": root, "mirror": mirror, "real": real,
            "compare": (result, summary)}


def _answers(html_text):
    head = re.search(r'<dl class="headline">(.*?)</dl>', html_text, re.S).group(1)
    return {q: html.unescape(re.sub(r"<[^>]+>", "", a))
            for q, a in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", head)}


def _md_answers(md):
    return dict(re.findall(r"^- \*\*(.+?)\*\* (.*)$", md, re.M))


def _report(runs, name):
    """The report of run `name`, built once for the module (the tests only read it): its HTML and
    summary.md."""
    out = runs["root"] / "reports" / name
    if not (out / "report.html").exists():           # written last
        build_report([runs["root"] / name], out)
    return (out / "report.html").read_text(), (out / "summary.md").read_text()


def test_a_mirror_match_names_no_winner_in_the_report_and_the_terminal(runs):
    tests = strategy_effect_flags(runs["mirror"].seats)
    # the case of issue 24: without a correction some bot's interval misses its fair share
    assert ((tests["win_low"] > tests["fair_share"]) | (tests["win_high"] < tests["fair_share"])
            ).any()
    assert not tests["significant"].any()
    html_text, md = _report(runs, "mirror")
    who = _answers(html_text)["Who is stronger?"]
    assert who.startswith(f"{NO_DIFFERENCE}. No strategy wins more or less than its fair share "
                          f"beyond chance (Holm's correction over the 4 strategies")
    assert "(more than its fair share)" not in who and "(less than its fair share)" not in who
    assert "(within chance of its fair share)" in who
    assert _md_answers(md)["Who is stronger?"].startswith(f"{NO_DIFFERENCE}. No strategy")
    terminal = run_summary(runs["mirror"], get_game("sixnimmt"))
    assert f"who is stronger: {NO_DIFFERENCE} (each win share against its fair share, Holm's " \
           f"correction over the 4 strategies" in terminal


def test_a_real_difference_still_names_the_winner(runs):
    html_text, md = _report(runs, "real")
    tests = strategy_effect_flags(runs["real"].seats).set_index("player")
    ratio = tests.loc["heuristic", "win_share"] / tests.loc["heuristic", "fair_share"]
    key = f"heuristic, {ratio:.2f}× its fair share"
    assert tests.loc["heuristic", "significant"]
    assert _answers(html_text)["Who is stronger?"].startswith(key + ". heuristic wins")
    assert "(more than its fair share)" in _answers(html_text)["Who is stronger?"]
    assert _md_answers(md)["Who is stronger?"].startswith(key)
    assert f"who is stronger: {key} (" in run_summary(runs["real"], get_game("sixnimmt"))


def test_the_headline_gives_one_strength_figure_and_the_details_relate_to_it(runs):
    html_text, md = _report(runs, "compare")
    _, m = runs["compare"]
    seq = m.sequential
    # issue 24's example: a finite bias-adjusted figure, not "≥ +1000"
    key = f"{seq.elo:+.0f} [{seq.low:+.0f}, {seq.high:+.0f}] pairwise Elo"
    assert key == "+323 [+223, +504] pairwise Elo"
    by_how_much = _answers(html_text)["By how much?"]
    assert by_how_much.startswith(key + ".")
    assert _md_answers(md)["By how much?"].startswith(key.replace("[", "\\[").replace("]", "\\]"))
    # no other strength figure in the headline: no game-level Elo, nElo, LOS or rating
    assert f"{m.estimate.elo:+.1f}" not in by_how_much and "nElo" not in by_how_much
    assert "LOS" not in by_how_much and "Plackett" not in by_how_much
    assert "Strength in detail" in by_how_much
    # the detail section: the headline's figure first, every row says how it relates
    detail = html_text[html_text.index('id="match"'):html_text.index('id="summary"')]
    assert "Strength in detail: heuristic against random" in detail
    assert "how it relates to the headline" in detail
    assert detail.index("headline: pairwise Elo, bias-adjusted") < detail.index("sample")
    assert detail.index("sample") < detail.index("game-level Elo")
    assert "Plackett–Luce difference" in detail and PL_VERSUS_PAIRWISE in detail
    ratings = html_text[html_text.index('id="ratings"'):html_text.index('id="head-to-head"')]
    assert PL_VERSUS_PAIRWISE in ratings


def test_no_wdl_wording_with_more_than_two_players(runs):
    html_text, md = _report(runs, "compare")
    result, m = runs["compare"]
    terminal = match_text(m, stopped_early=True)
    for text in (html_text, md, terminal):
        assert "W / D / L" not in text and "W/D/L" not in text and " W 4" not in text
    assert f"won {m.wins} / level {m.draws} / lost {m.losses} tables" in terminal
    assert "tables won / level / lost" in html_text
    # the terminal's first figure is the headline's
    lines = terminal.splitlines()
    assert lines[1].startswith("strength: pairwise Elo +323.4 [+223.0, +503.9] (95%, "
                               "bias-adjusted")
    assert lines[2] == "in detail:" and lines[3].startswith("  sample pairwise Elo +327.2")


def test_two_players_keep_wins_draws_losses(runs):
    html_text, _ = _report(runs, "real")
    detail = html_text[html_text.index('id="match"'):html_text.index('id="summary"')]
    assert "game-level W / D / L" in detail and "tables won" not in detail


def _pairwise_elo_by_hand(seats, player):
    """Every seat of `player` against every other seat of the same game: 1 ahead, ½ tied."""
    points = pairs = 0.0
    for _, g in seats.groupby("game"):
        mine, rest = g[g["strategy"] == player], g[g["strategy"] != player]
        for r1 in mine["rank"]:
            for r2 in rest["rank"]:
                points += 1.0 if r1 < r2 else 0.5 if r1 == r2 else 0.0
                pairs += 1
    s = points / pairs
    return -400 * math.log10(1 / s - 1)


def test_the_sweep_comparison_shows_pairwise_elo(tmp_path):
    import json

    import pandas as pd

    from simkit.engine.records import file_sha256
    from simkit.stats.synthetic import synth

    sweep = tmp_path / "sweep"
    folders = []
    for n, seed in ((3, 6), (4, 7)):
        games, seats = synth(300, strengths=(0.9,) + (0.3,) * (n - 1), n_players=n, seed=seed,
                             labels=["smart"] + ["random"] * (n - 1))
        folder = sweep / f"p{n}"
        folder.mkdir(parents=True)
        games.to_parquet(folder / "games.parquet", index=False)
        seats.to_parquet(folder / "seats.parquet", index=False)
        (folder / "manifest.json").write_text(json.dumps(
            {"game": "synthetic", "n_players": n, "strategies": ["smart", "random"],
             "seating": "rotate", "seed": 1, "config": {}, "higher_is_better": True,
             "n_games": len(games), "games_done": len(games), "duplicate": False,
             "rules_version": "synthetic-1", "status": "complete",
             # checksums as a real run records them: report reads only verified tables
             "tables": {name: {"rows": len(t), "sha256": file_sha256(folder / name)}
                        for name, t in (("games.parquet", games), ("seats.parquet", seats))}}))
        folders.append((folder, seats))
    out = tmp_path / "rep"
    text = build_report([f for f, _ in folders], out).read_text()
    comp = pd.read_csv(out / "tables" / "comparison.csv")
    for i, (_, seats) in enumerate(folders):
        expected = _pairwise_elo_by_hand(seats, "smart")
        assert comp.loc[i, "pairwise_elo[smart]"] == pytest.approx(expected, abs=1e-6)
        assert comp.loc[i, "pairwise_elo[random]"] == pytest.approx(-expected, abs=1e-6)
        assert comp.loc[i, "pairwise_low[smart]"] < expected < comp.loc[i, "pairwise_high[smart]"]
    section = text[text.index('id="comparison"'):]
    assert "pairwise Elo vs the rest" in section
    assert f"{comp.loc[0, 'pairwise_elo[smart]']:+.0f} ± " in section
