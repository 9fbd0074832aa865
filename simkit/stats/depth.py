"""Skill depth: the longest chain of agents, each beating the previous one significantly.

The "skill chain" measure of Lantz, Isaksen, Jaffe, Nealen & Togelius (2017), "Depth in
strategic games": a game in which a long chain of ever better agents exists rewards skill at
many levels; a game whose chain stops at two (random, then anything) is shallow.

Here "B beats A" means B's pairwise score against A (the chance that a seat of B finishes ahead
of a seat of A in the same game, ties half) is above the fair 1/2, one-sided, with the p-values
of all pairings adjusted together (Holm by default), so the chain is not an artefact of testing
many pairs at 5 % each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from simkit.stats.multiple import METHODS, adjust


@dataclass(frozen=True)
class PairResult:
    """Agent `a` against agent `b`: a's pairwise score with its 95 % interval, and `p_a`, the
    one-sided p-value of "a is better" (1 - LOS); `units` independent units (games or deals)."""

    a: str
    b: str
    score: float
    low: float
    high: float
    p_a: float
    units: int


@dataclass(frozen=True)
class Win:
    winner: str
    loser: str
    score: float          # the winner's pairwise score against the loser
    p_adjusted: float


@dataclass(frozen=True)
class SkillDepth:
    chain: tuple[str, ...]            # weakest first; each agent beats the one before it
    wins: tuple[Win, ...]             # every significant win, strongest evidence first
    alpha: float
    correction: str                   # text naming the multiple-test correction

    @property
    def length(self) -> int:
        """The number of agents in the longest chain (1 when no agent beats another)."""
        return len(self.chain)


def significant_wins(results: Sequence[PairResult], alpha: float = 0.05,
                     method: str = "holm") -> list[Win]:
    """The pairings in which one side is significantly better, after adjusting all p-values."""
    # each pairing is one test: of "a better" when a scored above 1/2, else of "b better"
    sides = [(r.a, r.b, r.score, r.p_a) if r.score >= 0.5 else (r.b, r.a, 1.0 - r.score, 1.0 - r.p_a)
             for r in results]
    adjusted = adjust([p for *_, p in sides], method)
    wins = [Win(w, lo, s, float(q)) for (w, lo, s, _), q in zip(sides, adjusted) if q < alpha]
    return sorted(wins, key=lambda x: (x.p_adjusted, -x.score))


def longest_chain(agents: Sequence[str], wins: Sequence[Win]) -> tuple[str, ...]:
    """The longest sequence of distinct agents in which each beats the one before it.

    Exhaustive over simple paths (ladders have a handful of agents); among chains of equal
    length the first found in `agents` order wins, so the answer is deterministic.
    """
    beaten_by: dict[str, list[str]] = {a: [] for a in agents}
    for w in wins:
        beaten_by[w.loser].append(w.winner)
    for winners in beaten_by.values():
        winners.sort(key=list(agents).index)
    best: tuple[str, ...] = tuple(agents[:1])

    def extend(path: list[str]) -> None:
        nonlocal best
        if len(path) > len(best):
            best = tuple(path)
        for nxt in beaten_by[path[-1]]:
            if nxt not in path:
                path.append(nxt)
                extend(path)
                path.pop()

    for start in agents:
        extend([start])
    return best


def skill_depth(agents: Sequence[str], results: Sequence[PairResult], alpha: float = 0.05,
                method: str = "holm") -> SkillDepth:
    """The skill chain of a ladder: see the module docstring."""
    wins = significant_wins(results, alpha, method)
    return SkillDepth(longest_chain(agents, wins), tuple(wins), alpha,
                      f"{METHODS[method]} over {len(results)} pairings, one-sided, alpha {alpha:g}")
