"""The HTML/Markdown report: sections, decodable images, escaping, CSV tables, several runs."""

import base64
import json
import re
import struct

import pandas as pd
import pytest

from simkit.engine.chunk_index import file_sha256
from simkit.engine.errors import RunFolderError
from simkit.report import build_report
from simkit.report.html import SECTIONS
from simkit.stats.synthetic import synth

IMG = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _write_run(folder, games, seats, **manifest):
    folder.mkdir(parents=True)
    games.to_parquet(folder / "games.parquet", index=False)
    seats.to_parquet(folder / "seats.parquet", index=False)
    base = {"game": "synthetic", "rules_version": "synthetic-1", "n_players": 2,
            "strategies": sorted(set(seats["strategy"])), "seating": "rotate",
            "duplicate": False, "seed": 1, "n_games": len(games), "games_done": len(games),
            "config": {"hand_size": 10}, "command": "simkit run synthetic", "status": "complete",
            "higher_is_better": True,
            # checksums as a real run records them: report reads only verified tables
            "tables": {name: {"rows": len(table), "sha256": file_sha256(folder / name)}
                       for name, table in (("games.parquet", games), ("seats.parquet", seats))}}
    base.update(manifest)
    (folder / "manifest.json").write_text(json.dumps(base))
    return folder


@pytest.fixture(scope="module")
def sixnimmt_runs(tmp_path_factory):
    from simkit.engine.runner import RunSpec, run

    root = tmp_path_factory.mktemp("runs")
    four = RunSpec.create(game="sixnimmt", n_players=4,
                          strategies=["heuristic", "random", "lowest", "highest"], n_games=120,
                          seed=3)
    run(four, root / "four", jobs=1, progress=False)
    small = RunSpec.create(game="sixnimmt", n_players=4,
                           strategies=["heuristic", "random", "lowest", "highest"], n_games=120,
                           seed=3, overrides={"hand_size": "8"})
    run(small, root / "four-hand8", jobs=1, progress=False)
    dup = RunSpec.create(game="sixnimmt", n_players=2, strategies=["heuristic", "random"],
                         n_games=80, seed=4, duplicate=True)
    run(dup, root / "dup", jobs=1, progress=False)
    return root


@pytest.fixture(scope="module")
def built(sixnimmt_runs, tmp_path_factory):
    """`built("four", "dup")`: the report of those runs of `sixnimmt_runs`, built once for the
    module (the tests below only read it), as the path of its report.html."""
    done: dict = {}

    def report(*names):
        if names not in done:
            out = tmp_path_factory.mktemp("rep-" + "-".join(names))
            done[names] = build_report([sixnimmt_runs / name for name in names], out)
        return done[names]

    return report


def test_report_of_a_real_sixnimmt_run_holds_every_section_and_decodable_images(built):
    path = built("four")
    out = path.parent
    text = path.read_text()
    for section in SECTIONS:
        assert f'id="{section}"' in text, section
    assert 'id="arc"' in text                # the game's arc (issue 22)
    assert 'id="match"' not in text          # four strategies: no two-sided match
    images = IMG.findall(text)
    assert len(images) == 7                  # 6 nimmt! has rounds: the score and the lead after each round
    for b64 in images:
        w, h = _png_size(base64.b64decode(b64))
        assert w >= 400 and h >= 150
    assert '<meta name="viewport"' in text
    assert "lower is better" in text         # 6 nimmt! counts bullheads
    for name in ("win_share", "scores", "seats", "length", "convergence", "round_scores"):
        png = out / "figures" / "four" / f"{name}.png"
        svg = out / "figures" / "four" / f"{name}.svg"
        _png_size(png.read_bytes())
        assert "<svg" in svg.read_text()[:2000]


def test_report_tables_and_markdown(built):
    out = built("four").parent
    summary = pd.read_csv(out / "tables" / "four" / "summary.csv")
    assert list(summary["strategy"]) == ["heuristic", "random", "lowest", "highest"]
    assert summary["games"].tolist() == [120] * 4
    assert summary["win_share"].sum() <= 1.0 + 1e-9
    for name in ("score_quantiles", "seats", "ratings", "head_to_head", "balance"):
        assert (out / "tables" / "four" / f"{name}.csv").exists(), name
    md = (out / "summary.md").read_text()
    assert "## 6 nimmt!: four" in md and "| heuristic |" in md and "### Seat effects" in md


def test_duplicate_run_report_shows_match_and_paired_analysis(built):
    path = built("dup")
    text = path.read_text()
    assert 'id="match"' in text and 'id="paired"' in text
    assert "pentanomial" in text and "Elo" in text and "LOS" in text
    match = pd.read_csv(path.parent / "tables" / "dup" / "match.csv")
    assert "estimate.elo" in set(match["figure"])


@pytest.mark.slow
def test_several_runs_are_compared_side_by_side(built):
    path = built("four", "four-hand8")
    out = path.parent
    text = path.read_text()
    assert 'id="comparison"' in text
    for i in range(2):
        for section in SECTIONS:
            assert f'id="run{i}-{section}"' in text
    comp = pd.read_csv(out / "tables" / "comparison.csv")
    assert comp["run"].tolist() == ["four", "four-hand8"]
    assert comp["variant"].tolist() == ["hand_size=10", "hand_size=8"]
    assert len(IMG.findall(text)) == 15      # 7 per run and the comparison chart


def test_all_text_is_escaped(tmp_path):
    games, seats = synth(200, labels=["<script>alert(1)</script>", "a&b \"q\""], seed=1)
    run = _write_run(tmp_path / "evil<run>", games, seats,
                     command="simkit run <b>bold</b>", config={"name": "<i>x</i>"})
    text = build_report([run], tmp_path / "rep").read_text()
    assert "<script>alert" not in text and "<b>bold" not in text and "<i>x" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "a&amp;b &quot;q&quot;" in text
    assert "&lt;b&gt;bold&lt;/b&gt;" in text


def test_markdown_cells_escape_pipes(tmp_path):
    games, seats = synth(100, labels=["x|y", "z"], seed=2)
    run = _write_run(tmp_path / "pipes", games, seats)
    build_report([run], tmp_path / "rep")
    md = (tmp_path / "rep" / "summary.md").read_text()
    assert "| x\\|y |" in md


def test_not_a_run_folder_is_a_clear_error(tmp_path):
    with pytest.raises(RunFolderError, match="no manifest.json"):
        build_report([tmp_path], tmp_path / "rep")
    with pytest.raises(RunFolderError, match="no run folder"):
        build_report([], tmp_path / "rep")


# ---------------------------------------------------------------------------------------------
# the headline, the strength figures and the wording of issue 13


def _body_before(text, marker):
    return text[:text.index(marker)]


def test_headline_comes_before_any_table_and_answers_who_is_stronger(built):
    path = built("four")
    text = path.read_text()
    head = _body_before(text, "<table")
    assert 'id="headline"' in head and "6 nimmt!" in head and "sixnimmt-1" in head
    assert "heuristic (1 seat), random (1 seat), lowest (1 seat), highest (1 seat)" in head
    answers = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>",
                              re.search(r'<dl class="headline">(.*?)</dl>', head, re.S).group(1)))
    assert list(answers)[:3] == ["Who is stronger?", "By how much?", "Fair to seats?"]
    table = pd.read_csv(path.parent / "tables" / "four" / "summary.csv")
    best = table.loc[(table["win_share"] / table["fair_share"]).idxmax()]
    ratio = best["win_share"] / best["fair_share"]
    assert answers["Who is stronger?"].startswith(
        f"<strong>{best['strategy']}, {ratio:.2f}× its fair share.</strong> {best['strategy']} wins "
        f"{100 * best['win_share']:.1f}% of games")
    assert "against a fair 25.0%" in answers["Who is stronger?"]
    assert "Plackett–Luce" in answers["By how much?"]
    seat = answers["Fair to seats?"].lower()
    assert "seat effect" in seat or "seat matters" in seat
    # the strength section: win share against fair share first, one rating scale named
    strength = text[text.index('id="strength"'):text.index('id="summary"')]
    assert "fair per game" in strength and "÷ fair" in strength
    assert "Rating scale: <strong>Plackett–Luce</strong>" in strength
    for word in ("Wilson interval", "Plackett–Luce", "Friedman test", "Steps", "Pairwise Elo",
                 "Holm correction"):
        assert f"<dt>{word}</dt>" in text, word


def test_config_is_readable_and_seats_are_numbered_from_one(tmp_path):
    games, seats = synth(200, strengths=(0.8, 0.3, 0.3), n_players=3, seed=3,
                         labels=["smart", "random", "random"])
    run = _write_run(tmp_path / "cfg", games, seats, n_players=3,
                     config={"advanced": False, "max_rounds": None, "public_penalties": True,
                             "variant": {"enabled": True}})
    text = build_report([run], tmp_path / "rep").read_text()
    facts = re.search(r'<dl class="facts">(.*?)</dl>', text, re.S).group(1)
    assert "advanced: no" in facts and "max rounds: none" in facts
    assert "public penalties: yes" in facts and "variant enabled: yes" in facts
    assert "False" not in facts and "None" not in facts and "True" not in facts
    seat_csv = pd.read_csv(tmp_path / "rep" / "tables" / "cfg" / "seats.csv")
    assert seat_csv["seat"].tolist() == [1, 2, 3]
    assert {"p_value", "p_adjusted", "significant", "correction"} <= set(seat_csv.columns)


def test_a_strategy_in_several_seats_gets_per_game_and_per_seat_shares(tmp_path):
    games, seats = synth(400, strengths=(0.3, 0.3, 0.3, 0.3), n_players=4, seed=8,
                         labels=["smart", "random", "random", "random"])
    run = _write_run(tmp_path / "multi", games, seats, n_players=4)
    text = build_report([run], tmp_path / "rep").read_text()
    table = pd.read_csv(tmp_path / "rep" / "tables" / "multi" / "summary.csv").set_index("strategy")
    share = table.loc["random", "win_share"]
    per_seat = share / 3
    assert f"<td>{100 * share:.1f}%</td><td>" in text               # per game
    assert f"<td>{100 * per_seat:.1f}%</td><td>25.0%</td>" in text  # per seat against 1/4
    assert "holding 3 seats" in text and f"{100 * per_seat:.1f}% per seat" in text
    assert "random (3 seats)" in text


def test_significant_seats_are_flagged_and_the_correction_named(tmp_path):
    games, seats = synth(2000, strengths=(0.5, 0.5, 0.5), n_players=3, seed=4,
                         seat_bonus=(3.0, 0.0, 0.0))
    run = _write_run(tmp_path / "seaty", games, seats, n_players=3)
    text = build_report([run], tmp_path / "rep").read_text()
    seats_html = text[text.index('id="seats"'):text.index('id="balance"')]
    assert "off fair?" in seats_html and "Holm" in seats_html
    first_row = re.search(r"<tbody><tr>(.*?)</tr>", seats_html).group(1)
    assert first_row.startswith("<td>1</td>") and "<td>yes</td>" in first_row
    assert "The seat matters: seat 1 wins 6" in text


def test_duplicate_run_names_the_deal_blocked_tests(built):
    text = built("dup").read_text()
    assert "Hotelling" in text and "deals as units" in text and "chi-square" not in text.split(
        'id="seats"')[1].split("</section>")[0]


def test_match_rows_put_pairwise_elo_first_and_honest_bounds_at_a_perfect_score(tmp_path):
    games, seats = synth(12, strengths=(9.0, 0.0), spread=0.1, seed=1, labels=["a", "b"])
    run = _write_run(tmp_path / "perfect", games, seats)
    text = build_report([run], tmp_path / "rep").read_text()
    match = text[text.index('id="match"'):text.index('id="summary"')]
    # issue 24: the headline's figure is the first row of "Strength in detail"
    assert match.index("headline: pairwise Elo") < match.index("game-level Elo")
    assert "+1199.8 [+" in match and "+∞]" in match and "± 0.0" not in match
    assert '<td class="t">game-level nElo</td><td>n/a</td>' in match


def test_compare_run_shows_the_bias_adjusted_elo(tmp_path):
    games, seats = synth(400, strengths=(0.8, 0.2), seed=2, labels=["a", "b"], duplicate=True)
    run = _write_run(tmp_path / "cmp", games, seats, duplicate=True)
    (run / "compare.json").write_text(json.dumps(
        {"a": "a", "b": "b", "a_slots": [0], "b_slots": [1],
         "sprt": {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05, "model": "logistic"}}))
    text = build_report([run], tmp_path / "rep").read_text()
    assert "headline: pairwise Elo, bias-adjusted" in text     # issue 24: the detail's first row
    assert "bias-adjusted as the SPRT" in re.search(r'<dl class="headline">(.*?)</dl>', text,
                                                    re.S).group(1)
    assert "[0, 10] pairwise Elo" in text


def test_summary_md_embeds_every_chart_it_names(built):
    out = built("four", "four-hand8").parent
    md = (out / "summary.md").read_text()
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert "figures/comparison.png" in links and "figures/four/win_share.png" in links
    assert len(links) >= 2 * 6 + 1
    for link in links:
        assert (out / link).exists(), link
    assert md.index("Across the cells") < md.index("| cell")   # verdicts before the tables
    run = md[md.index("## 6 nimmt!: four\n"):]
    assert run.index("- **Who is stronger?** heuristic") < run.index("| strategy")


@pytest.fixture(scope="module")
def sweep_report(tmp_path_factory):
    """The report of a two-cell sweep folder (3 and 4 players, sweep.json as `simkit sweep` writes
    it), built once for the module: the tests below only read it."""
    root = tmp_path_factory.mktemp("sweeps")
    g3, s3 = synth(300, strengths=(0.9, 0.3, 0.3), n_players=3, seed=6,
                   labels=["smart", "random", "random"])
    g4, s4 = synth(300, strengths=(0.9, 0.3, 0.3, 0.3), n_players=4, seed=7,
                   labels=["smart", "random", "random", "random"])
    sweep = root / "my-sweep"
    a = _write_run(sweep / "p3-rows=3", g3, s3, n_players=3, config={"rows": 3})
    b = _write_run(sweep / "p4-rows=3", g4, s4, n_players=4, config={"rows": 3})
    (sweep / "sweep.json").write_text(json.dumps({"cells": [{"label": c.name} for c in (a, b)]}))
    return build_report([a, b], root / "rep")


@pytest.mark.slow
def test_sweep_cells_keep_their_names_and_compare_by_fair_share(sweep_report):
    out = sweep_report.parent
    text = sweep_report.read_text()
    assert "p3-rows=3" in text and "p4-rows=3" in text and "rows_3" not in text
    comp = pd.read_csv(out / "tables" / "comparison.csv")
    assert comp["run"].tolist() == ["p3-rows=3", "p4-rows=3"]
    assert comp["fair_share[smart]"].round(4).tolist() == [round(1 / 3, 4), 0.25]
    ratio = comp["win_share[smart]"] / comp["fair_share[smart]"]
    assert comp["balance[smart]"].tolist() == pytest.approx(ratio.tolist())
    assert {"first_seat_ratio", "seat_p", "seat_p_holm", "seat_effect"} <= set(comp.columns)
    section = text[text.index('id="comparison"'):text.index("</section>", text.index('id="comparison"'))]
    assert "÷ fair" in section and "Holm" in section and "balance across cells chart" in section
    assert "Across the cells, smart wins" in text
    assert (out / "figures" / "p3-rows=3" / "win_share.png").exists()


def test_every_chart_keeps_its_text_at_10px_on_a_phone(sixnimmt_runs):
    from simkit.engine.runner import load_run
    from simkit.report import charts
    from simkit.stats.rounds import round_score_curves
    from simkit.stats.tables import summary_table

    r = load_run(sixnimmt_runs / "four")
    table = summary_table(r.seats)
    figs = [charts.win_shares(table), charts.score_distribution(r.seats, False),
            charts.seat_chart(r.seats, False), charts.game_length(r.games),
            charts.convergence(r.seats), charts.rounds_chart(r.games, r.seats, False),
            charts.balance_grid(["a=1", "a=2"], [table, table]),
            charts.round_scores_chart(round_score_curves(r.seats), False)]
    for fig in figs:
        assert fig is not None
        pt = charts.min_font_pt(fig)
        assert pt >= charts.MIN_FONT_PT
        assert fig.get_figwidth() == charts.CHART_WIDTH
        # 380 CSS px: a 400 px screen less the page's padding
        assert charts.displayed_font_px(pt, fig.get_figwidth(), 380) >= 10


def test_rounds_chart_only_for_multi_round_games():
    from simkit.report import charts

    games, seats = synth(50, seed=1)
    assert charts.rounds_chart(games.drop(columns="rounds"), seats) is None
    assert charts.rounds_chart(games.assign(rounds=1), seats) is None
    assert charts.rounds_chart(games, seats) is not None


def test_a_bias_adjusted_figure_at_the_search_reach_reads_as_a_bound():
    from simkit.stats import SPRT
    from simkit.stats.sequential import sequential_estimate
    from simkit.stats.wording import sequential_text

    seq = sequential_estimate(SPRT(0, 10), (0, 0.5, 1), [0, 1, 200])
    assert sequential_text(seq).endswith(", ≥ +1000]") and "≥" not in sequential_text(seq)[:12]
    seq = sequential_estimate(SPRT(0, 10), (0, 0.5, 1), [40, 10, 60])
    assert "≥" not in sequential_text(seq) and "≤" not in sequential_text(seq)


def test_multi_round_games_get_the_score_after_each_round(sixnimmt_runs, built):
    path = built("four")
    out = path.parent
    text = path.read_text()
    scores = text[text.index('id="scores"'):text.index('id="ratings"')]
    assert 'alt="score after each round chart"' in scores and "still playing" in scores
    curves = pd.read_csv(out / "tables" / "four" / "round_scores.csv")
    games = pd.read_parquet(sixnimmt_runs / "four" / "games.parquet")
    assert curves["round"].max() == games["rounds"].max()
    assert set(curves["strategy"]) == {"heuristic", "random", "lowest", "highest"}
    assert not (out / "figures" / "four" / "rounds.png").exists()
    md = (out / "summary.md").read_text()
    assert "(figures/four/round_scores.png)" in md


def test_runs_without_per_round_scores_keep_the_final_score_by_length_chart(tmp_path):
    games, seats = synth(200, seed=3)          # a `rounds` column, no round_scores
    run = _write_run(tmp_path / "old", games, seats)
    text = build_report([run], tmp_path / "rep").read_text()
    assert "final score by rounds chart" in text and "score after each round chart" not in text
    assert not (tmp_path / "rep" / "tables" / "old" / "round_scores.csv").exists()


def test_the_still_playing_panel_only_when_games_differ_in_length(sixnimmt_runs):
    from simkit.engine.runner import load_run
    from simkit.report import charts
    from simkit.stats.rounds import round_score_curves

    curves = round_score_curves(load_run(sixnimmt_runs / "four").seats)
    assert curves["running"].min() < 1                 # 6 nimmt! games end at different rounds
    assert len(charts.round_scores_chart(curves).axes) == 2
    every_round = curves.assign(running=1.0)           # Rummikub: every hand of a match is played
    fig = charts.round_scores_chart(every_round, unit="hand")
    assert len(fig.axes) == 1 and fig.axes[0].get_xlabel() == "after hand"


def test_a_sweeps_cells_are_titled_as_a_sweep(sweep_report, built):
    text = sweep_report.read_text()
    assert "<h1>synthetic: sweep my-sweep, 2 cells</h1>" in text
    # two runs side by side in one folder with no sweep.json: not a sweep
    loose = built("four", "four-hand8").read_text()
    title = re.search(r"<h1>(.*?)</h1>", loose).group(1)
    assert title.endswith(": 2 runs compared") and "sweep" not in title


def test_a_long_strategy_label_is_shortened_in_charts_keeping_start_and_end():
    from simkit.report.charts import LABEL_CHARS, short

    label = "mybots.deep.package:CautiousPlayer:depth=3,caution=2,rollout=greedy"
    shown = short(label)
    assert len(shown) == LABEL_CHARS and shown.startswith("mybots.deep")
    assert shown.endswith(label[-11:])
    assert "…" in shown and short("heuristic") == "heuristic"


def test_runs_of_different_games_are_never_compared_with_each_other(tmp_path):
    """Issue 24, 5: a report of two games' runs says they differ, ranges a strategy's balance only
    within a game, and lists as variant only the fields that differ between runs of one game."""
    runs = []
    for name, game, cfg, seed in (("ship-a", "shipside", {"hand_size": 5}, 1),
                                  ("ship-b", "shipside", {"hand_size": 6}, 2),
                                  ("trains-a", "trains", {"max_turns": 300, "lock_voiding": "range"}, 3)):
        games, seats = synth(120, labels=["greedy", "random"], seed=seed)
        runs.append(_write_run(tmp_path / name, games, seats, game=game, config=cfg))
    out = tmp_path / "rep"
    build_report(runs, out)
    verdict = next(line for line in (out / "summary.md").read_text().splitlines() if "These runs" in line)
    assert verdict.startswith("These runs play 2 different games (Shipside, Game of Trains): ")
    assert "greedy wins" in verdict and "in ship-a" in verdict and "in ship-b" in verdict
    assert "trains-a" not in verdict
    comparison = pd.read_csv(out / "tables" / "comparison.csv")
    variants = dict(zip(comparison["run"], comparison["variant"].fillna("-")))
    assert variants == {"ship-a": "hand_size=5", "ship-b": "hand_size=6", "trains-a": "-"}
