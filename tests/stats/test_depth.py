"""Skill depth: the longest chain of agents each beating the previous one (Lantz et al. 2017)."""

import pytest

from simkit.stats.depth import PairResult, longest_chain, significant_wins, skill_depth


def _pair(a, b, score, p_a):
    return PairResult(a, b, score, score - 0.05, score + 0.05, p_a, 200)


def test_a_transitive_ladder_gives_the_full_chain_weakest_first():
    agents = ["random", "greedy", "search10", "search100"]
    results = [_pair("random", "greedy", 0.2, 0.9999), _pair("greedy", "search10", 0.3, 0.999),
               _pair("search10", "search100", 0.35, 0.998), _pair("random", "search100", 0.05, 1.0),
               _pair("random", "search10", 0.1, 1.0), _pair("greedy", "search100", 0.2, 1.0)]
    depth = skill_depth(agents, results)
    assert depth.chain == ("random", "greedy", "search10", "search100") and depth.length == 4
    assert "Holm" in depth.correction and "6 pairings" in depth.correction


def test_differences_that_do_not_survive_the_correction_break_the_chain():
    agents = ["a", "b", "c", "d"]
    # one-sided p: b over a 0.03, c over b 0.04 (each below 5 % alone), d over c 0.0001
    results = [_pair("a", "b", 0.45, 0.97), _pair("b", "c", 0.45, 0.96), _pair("c", "d", 0.2, 0.9999)]
    holm = skill_depth(agents, results)
    assert {(w.winner, w.loser) for w in holm.wins} == {("d", "c")} and holm.chain == ("c", "d")
    assert skill_depth(agents, results, method="bh").chain == ("a", "b", "c", "d")


def test_a_cycle_does_not_loop_and_no_win_gives_a_chain_of_one():
    wins_cycle = significant_wins([_pair("r", "p", 0.1, 1.0), _pair("p", "s", 0.1, 1.0),
                                   _pair("s", "r", 0.1, 1.0)])
    assert len(longest_chain(["r", "p", "s"], wins_cycle)) == 3
    flat = skill_depth(["x", "y"], [_pair("x", "y", 0.5, 0.5)])
    assert flat.length == 1 and flat.wins == ()


def test_the_loser_side_is_tested_when_a_scores_below_half():
    (win,) = significant_wins([_pair("weak", "strong", 0.1, 0.99999)])
    assert (win.winner, win.loser) == ("strong", "weak") and win.score == pytest.approx(0.9)
