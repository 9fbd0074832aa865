"""Two-sided match summaries (compare, duplicate runs) on synthetic tables."""


from simkit.stats import SPRT, elo_pentanomial, elo_wdl, format_paired, match_summary
from simkit.stats.match import lineup_sides, sides_from_slots
from simkit.stats.synthetic import synth


def test_match_summary_uses_pentanomial_counts_for_duplicate_pairs():
    games, seats = synth(600, strengths=(0.9, 0.2), seed=31, duplicate=True)
    a, b = sides_from_slots(seats, [0], [1])
    m = match_summary(seats, a, b, "strong", "weak", SPRT(0, 10))
    assert m.wins + m.draws + m.losses == 600 and sum(m.penta) == 300
    assert m.estimate == elo_pentanomial(m.penta)
    assert m.trinomial_estimate == elo_wdl(wins=m.wins, draws=m.draws, losses=m.losses)
    assert m.counts == m.penta
    assert m.decision == "H1" and m.llr >= m.sprt.upper
    assert "strong is stronger than weak" in m.verdict()


def test_equal_sides_over_few_games_reach_no_decision():
    games, seats = synth(200, strengths=(0.5, 0.5), seed=32, duplicate=True)
    a, b = sides_from_slots(seats, [0], [1])
    m = match_summary(seats, a, b, sprt=SPRT(0, 10))
    assert m.decision is None and m.sprt.lower < m.llr < m.sprt.upper
    assert m.verdict().startswith("no decision")


def test_a_weaker_side_gets_h0():
    games, seats = synth(600, strengths=(0.1, 0.9), seed=33, duplicate=True)
    a, b = sides_from_slots(seats, [0], [1])
    m = match_summary(seats, a, b, "weak", "strong", SPRT(0, 10))
    assert m.decision == "H0" and "not 10 Elo stronger" in m.verdict()


def test_without_pairs_the_trinomial_model_is_used():
    games, seats = synth(300, strengths=(0.9, 0.2), seed=34)
    a, b = sides_from_slots(seats, [0], [1])
    m = match_summary(seats, a, b)
    assert m.penta is None and m.estimate.model == "trinomial" and m.llr is None


def test_lineup_sides_alternate():
    assert lineup_sides(["x", "y"]) == ([0], [1])
    assert lineup_sides(["x", "y", "x", "y", "x"]) == ([0, 2, 4], [1, 3])


def test_format_paired_only_for_duplicate_runs():
    games, seats = synth(400, seed=35, duplicate=True, labels=["heuristic", "random"])
    text = format_paired(seats)
    assert "paired by deal" in text and "heuristic" in text and "pentanomial" in text
    lines = text.splitlines()
    assert lines[1].split()[:6] == ["strategy", "deals", "win", "share", "per", "game"]
    # the report's words: the strength as pairwise Elo first, the W/D/L labelled game level
    strength = next(i for i, line in enumerate(lines) if line.startswith("strength: pairwise Elo"))
    game = next(i for i, line in enumerate(lines) if line.startswith("game level: heuristic W "))
    assert strength < game and "deals as units" in lines[strength]
    assert format_paired(synth(100, seed=36)[1]) is None
