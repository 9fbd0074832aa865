"""6 nimmt! positions as text: `format_position(state)` and its inverse `parse_position`.

One `key: value` line per fact; `#` starts a comment (the formatter writes what is pending and
the bullheads of rows and piles there). Seats count from 0, rows from 1, as in the replay log.

    # 6 nimmt! basic game, 2 players: seat 0 takes a row of its choice: its 29 is below every row end (N10)
    round: 1
    turns played: 0
    phase: play | row_pick | draft | over
    row 1: 61                    one line per row (none during the draft), left to right
    revealed: 29 by seat 0, 62 by seat 1    phase row_pick: this turn's cards, not yet placed
    pool: 1 2 3 ...              phase draft: the face-up cards left to draft (N19)
    hand 0: 90 29                each seat's hand, in the order the seat holds it
    pile 0: 34 36                each seat's penalty pile of this round, '-' when empty
    totals: 0 12                 bullheads of the finished rounds
    round scores: 0 5 | 0 7      optional: each finished round's bullheads per seat (they add up to
                                 the totals); without it a match's earlier rounds are unknown and
                                 its outcome has no round_scores
    aside: 1 2 ... | rest        basic game: the cards set aside (N3); 'rest' = every card not listed
    round 1 first drafter: 2     advanced game, first_drafter=random_then_rotate

A position holds everything that decides the game from here (hidden cards included), not the
event history nor the chance generator: the parsed state deals its next rounds from `rng`.
"""

from __future__ import annotations

import re
from typing import TypedDict

import numpy as np

from simkit.engine.errors import PositionError
from simkit.engine.position_text import (
    Ledger,
    Line,
    PositionText,
    check_players,
    choice,
    list_text,
    numbers,
    whole,
)
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import (
    DRAFT,
    OVER,
    PHASES,
    PLAY,
    ROW_PICK,
    draft_order,
    first_drafter,
    match_over,
    row_points,
)
from simkit.games.sixnimmt.state import SixNimmtState

MIN_PLAYERS, MAX_PLAYERS = 2, 10
_REVEALED = re.compile(r"(\d+) by seat (\d+)")


# ---- format ------------------------------------------------------------------------------
def format_position(state: SixNimmtState) -> str:
    config = state.config
    lines = [f"# {_summary(state)}", f"round: {state.round}", f"turns played: {state.turn}",
             f"phase: {state.phase}"]
    lines += [f"row {r}: {list_text(row)}{_bullheads_note(row)}" for r, row in enumerate(state.rows, 1)]
    if state.phase == ROW_PICK:
        lines.append("revealed: " + ", ".join(f"{c} by seat {s}" for c, s in _waiting(state)))
    if state.phase == DRAFT:
        lines.append(f"pool: {list_text(state.pool)}")
    lines += [f"hand {s}: {list_text(hand)}" for s, hand in enumerate(state.hands)]
    lines += [f"pile {s}: {list_text(pile)}{_bullheads_note(pile)}" for s, pile in enumerate(state.penalty)]
    lines.append(f"totals: {' '.join(map(str, state.totals))}")
    if state.round_log and len(state.round_log) == _finished_rounds(state.round, state.phase):
        lines.append("round scores: " + " | ".join(" ".join(f"{p:g}" for p in r) for r in state.round_log))
    if not config.advanced:
        lines.append(f"aside: {list_text(sorted(state.aside))}")
    elif config.first_drafter == "random_then_rotate":
        lines.append(f"round 1 first drafter: {state.round_one_drafter}")
    return "\n".join(lines) + "\n"


def _summary(state: SixNimmtState) -> str:
    game = "advanced" if state.config.advanced else "basic"
    head = f"6 nimmt! {game} game, {state.n} players: "
    if state.phase == PLAY:
        return head + "every seat chooses a card (N5)"
    if state.phase == ROW_PICK:
        card, seat = _waiting(state)[0]
        return head + f"seat {seat} takes a row of its choice: its {card} is below every row end (N10)"
    if state.phase == DRAFT:
        picks = len(state.drafters)
        return head + f"seat {state.acting[0]} drafts, pick {state.draft_i + 1} of {picks} (N19)"
    winners = state.outcome().winners
    if len(winners) == 1:
        return head + f"the match is over, seat {winners[0]} wins"
    return head + f"the match is over, seats {' and '.join(map(str, winners))} share the win"


def _waiting(state: SixNimmtState) -> list[tuple[int, int]]:
    """The revealed cards not placed yet, (card, seat) in ascending order."""
    return list(state.pending[state.pending_at:])


def _bullheads_note(cards) -> str:
    if not cards:
        return ""
    points = row_points(cards)
    return f"  # {points} bullhead{'s' if points != 1 else ''}"


# ---- parse -------------------------------------------------------------------------------
class Parts(TypedDict):
    """The parts of a position, as `SixNimmtState.restore` takes them."""
    round_no: int
    turn: int
    phase: str
    rows: list[list[int]]
    hands: list[list[int]]
    piles: list[list[int]]
    totals: list[int]
    pool: list[int]
    revealed: list[tuple[int, int]]
    aside: list[int]
    round_one_drafter: int
    round_log: list[tuple[float, ...]]


KEYS = ("round", "turns played", "phase", "row <n>", "revealed", "pool", "hand <seat>", "pile <seat>",
        "totals", "round scores", "aside", "round 1 first drafter")
EXAMPLE = "row 1: 12 37"


def parse_position(text: str, config: SixNimmtConfig,
                   rng: np.random.Generator | None = None) -> SixNimmtState:
    """The state `text` describes (see the module docstring); future deals come from `rng`
    (default: a fixed-seed generator). PositionError names the line and what is wrong."""
    lines = PositionText(text, KEYS, example=EXAMPLE, fold_case=True)
    hand_lines, pile_lines = _seat_lines(lines)
    n = len(hand_lines)
    check_players(config, n, f"{n} hands do not fit this config")
    deck = Ledger.numbered(1, config.deck_cards(n))
    phase = choice(lines.line("phase"), PHASES, "phase")
    round_no = whole(lines.line("round"), low=1)
    turn = whole(lines.line("turns played"))
    totals = numbers(lines.line("totals"), n, "one per seat (bullheads of the finished rounds)")
    round_log = _round_scores(lines.get("round scores"), n, _finished_rounds(round_no, phase), totals)
    rows = [deck.take_all(line) for _, _, line in lines.indexed("row <n>", first=1)]
    hands = [deck.take_all(line) for line in hand_lines]
    piles = [deck.take_all(line) for line in pile_lines]
    pool = lines.needs("pool", phase == DRAFT, "the phase is draft")
    revealed = lines.needs("revealed", phase == ROW_PICK, "the phase is row_pick")
    aside = lines.needs("aside", not config.advanced, "the basic game sets cards aside (N3)")
    drafter = lines.needs("round 1 first drafter",
                          config.advanced and config.first_drafter == "random_then_rotate",
                          "the advanced game's first_drafter is random_then_rotate (N19)")
    parts = Parts(
        round_no=round_no, turn=turn, phase=phase, rows=rows, hands=hands, piles=piles, totals=totals,
        pool=deck.take_all(pool) if pool else [],
        revealed=_revealed(revealed, n, deck) if revealed else [],
        aside=(deck.rest(aside) if aside.value == "rest" else deck.take_all(aside)) if aside else [],
        round_one_drafter=whole(drafter, high=n - 1) if drafter else -1, round_log=round_log)
    deck.check_all_listed("every card is in a row, hand, pile, the pool or set aside ('aside: rest')")
    _check_rows(lines, rows, config, phase)
    _check_phase(lines, config, parts)
    return SixNimmtState.restore(
        config, rng if rng is not None else np.random.Generator(np.random.PCG64(0)), **parts)


def _finished_rounds(round_no: int, phase: str) -> int:
    return round_no if phase == OVER else round_no - 1


def _seat_lines(lines: PositionText) -> tuple[list[Line], list[Line]]:
    """The 'hand N:' and 'pile N:' lines, one of each per seat."""
    hands = [line for _, _, line in lines.indexed("hand <seat>")]
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise PositionError(f"{len(hands)} 'hand N:' lines: 6 nimmt! has {MIN_PLAYERS} to {MAX_PLAYERS} "
                            f"players, one line per seat from 'hand 0:'")
    piles = [line for _, _, line in lines.indexed("pile <seat>")]
    if len(piles) != len(hands):
        raise PositionError(f"{len(piles)} 'pile N:' lines for {len(hands)} hands: give one per seat, "
                            f"'pile 0:' to 'pile {len(hands) - 1}:' ('-' for an empty pile)")
    return hands, piles


def _round_scores(line: Line | None, n: int, finished: int, totals: list[int]) -> list[tuple[float, ...]]:
    """The optional 'round scores' line: `finished` groups of n whole numbers adding up to the
    totals; [] without the line."""
    if line is None:
        return []
    groups = [g.split() for g in line.value.split("|")]
    if len(groups) != finished or not all(len(g) == n and all(w.isdecimal() for w in g) for g in groups):
        raise line.error(f"expected {finished} groups of {n} whole numbers separated by '|', one group per "
                         f"finished round")
    rounds = [tuple(float(w) for w in g) for g in groups]
    sums = [int(sum(r[s] for r in rounds)) for s in range(n)]
    if sums != totals:
        raise line.error(f"they add up to {' '.join(map(str, sums))} per seat, not the totals "
                         f"{' '.join(map(str, totals))}")
    return rounds


def _revealed(line: Line, n: int, deck: Ledger) -> list[tuple[int, int]]:
    """'29 by seat 0, 62 by seat 1': one card of each seat, sorted by card."""
    plays = []
    for item in line.value.split(","):
        match = _REVEALED.fullmatch(item.strip())
        if not match:
            raise line.error(f"{item.strip()!r} is not 'CARD by seat SEAT', e.g. '29 by seat 0'")
        if int(match[2]) >= n:
            raise line.error(f"{item.strip()!r}: seats are 0..{n - 1}")
        plays.append((deck.take(line, match[1]), int(match[2])))
    if sorted(s for _, s in plays) != list(range(n)):
        raise line.error(f"expected one card from each of the {n} seats (N5)")
    return sorted(plays)


def _check_rows(lines: PositionText, rows: list[list[int]], config: SixNimmtConfig, phase: str) -> None:
    if phase == DRAFT:
        if rows:
            raise lines.line("row 1").error("no rows during the draft: the last cards start them (N19)")
        return
    if len(rows) != config.rows:
        raise PositionError(f"{len(rows)} 'row N:' lines: this config has rows={config.rows} (N2)")
    for r, row in enumerate(rows, 1):
        line = lines.line(f"row {r}")
        if not 1 <= len(row) <= config.row_capacity:
            raise line.error(f"{len(row)} cards: a row holds 1..{config.row_capacity} (N2)")
        if any(a >= b for a, b in zip(row, row[1:])):
            raise line.error("a row is ascending from left to right (N7)")


def _check_phase(lines: PositionText, config: SixNimmtConfig, parts: Parts) -> None:
    """What the phase requires of the hands, the revealed cards, the draft and the totals."""
    phase, revealed, totals, round_no = parts["phase"], parts["revealed"], parts["totals"], parts["round_no"]
    sizes = [len(h) for h in parts["hands"]]
    if phase in (PLAY, ROW_PICK) and len(set(sizes)) > 1:
        raise PositionError(f"hand sizes {sizes} differ: between turns every seat holds as many cards (N5)")
    if phase == PLAY and not sizes[0]:
        raise PositionError("every hand is empty but the phase is play: the round is scored when the hands "
                            "run out (N13), so this is phase over or the next round")
    if phase == ROW_PICK and revealed[0][0] > min(row[-1] for row in parts["rows"]):
        raise lines.line("revealed").error(f"the lowest card {revealed[0][0]} is above a row end, so no row "
                                           f"pick is pending (N10)")
    if phase == DRAFT:
        _check_draft(lines, config, parts)
    if phase == OVER:
        if any(sizes):
            raise PositionError(f"hand sizes {sizes}: the match ends only after a complete round (N15)")
        if not match_over(totals, round_no, config):
            raise lines.line("phase").error(f"totals {totals} after round {round_no} do not end the match "
                                            f"under this config (N16/N17)")


def _check_draft(lines: PositionText, config: SixNimmtConfig, parts: Parts) -> None:
    if not config.advanced:
        raise lines.line("phase").error("the draft is part of the advanced game only (N19): set "
                                        "advanced=true")
    if parts["turn"] or any(parts["piles"]):
        raise PositionError("during the draft no turn has been played and every pile is empty (N19)")
    sizes = [len(h) for h in parts["hands"]]
    n, picks = len(sizes), sum(sizes)
    first = first_drafter(config.first_drafter, parts["totals"], parts["round_no"],
                          parts["round_one_drafter"])
    order = draft_order(n, first, n * config.hand_size)
    if picks >= len(order):
        raise PositionError(f"{picks} cards drafted: the draft ends after {len(order)} picks (N19)")
    expected = [order[:picks].count(s) for s in range(n)]
    if sizes != expected:
        raise PositionError(f"hand sizes {sizes} do not fit the draft: after {picks} picks "
                            f"from seat {order[0]} clockwise the hands hold {expected} cards (N19)")
