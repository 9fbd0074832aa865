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
from typing import NamedTuple

import numpy as np

from simkit.engine.errors import ConfigError, PositionError
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
FIXED_KEYS = ("round", "turns played", "phase", "revealed", "pool", "totals", "round scores", "aside",
              "round 1 first drafter")
_NUMBERED_KEY = re.compile(r"(row|hand|pile) (\d+)")
_REVEALED = re.compile(r"(\d+) by seat (\d+)")


# ---- format ------------------------------------------------------------------------------
def format_position(state: SixNimmtState) -> str:
    config = state.config
    lines = [f"# {_summary(state)}", f"round: {state.round}", f"turns played: {state.turn}",
             f"phase: {state.phase}"]
    lines += [f"row {r}: {_cards(row)}{_bullheads_note(row)}" for r, row in enumerate(state.rows, 1)]
    if state.phase == ROW_PICK:
        waiting = state.pending[state.pending_at:]
        lines.append("revealed: " + ", ".join(f"{c} by seat {s}" for c, s in waiting))
    if state.phase == DRAFT:
        lines.append(f"pool: {_cards(state.pool)}")
    lines += [f"hand {s}: {_cards(hand)}" for s, hand in enumerate(state.hands)]
    lines += [f"pile {s}: {_cards(pile)}{_bullheads_note(pile)}" for s, pile in enumerate(state.penalty)]
    lines.append(f"totals: {' '.join(map(str, state.totals))}")
    if state.round_log and len(state.round_log) == _finished_rounds(state.round, state.phase):
        lines.append("round scores: " + " | ".join(" ".join(f"{p:g}" for p in r) for r in state.round_log))
    if not config.advanced:
        lines.append(f"aside: {_cards(sorted(state.aside))}")
    elif config.first_drafter == "random_then_rotate":
        lines.append(f"round 1 first drafter: {state.round_one_drafter}")
    return "\n".join(lines) + "\n"


def _summary(state: SixNimmtState) -> str:
    game = "advanced" if state.config.advanced else "basic"
    head = f"6 nimmt! {game} game, {state.n} players: "
    if state.phase == PLAY:
        return head + "every seat chooses a card (N5)"
    if state.phase == ROW_PICK:
        card, seat = state.pending[state.pending_at]
        return head + f"seat {seat} takes a row of its choice: its {card} is below every row end (N10)"
    if state.phase == DRAFT:
        picks = len(state.drafters)
        return head + f"seat {state.acting[0]} drafts, pick {state.draft_i + 1} of {picks} (N19)"
    winners = state.outcome().winners
    if len(winners) == 1:
        return head + f"the match is over, seat {winners[0]} wins"
    return head + f"the match is over, seats {' and '.join(map(str, winners))} share the win"


def _cards(cards) -> str:
    return " ".join(map(str, cards)) if cards else "-"


def _bullheads_note(cards) -> str:
    if not cards:
        return ""
    points = row_points(cards)
    return f"  # {points} bullhead{'s' if points != 1 else ''}"


# ---- parse -------------------------------------------------------------------------------
class _Line(NamedTuple):
    number: int
    text: str
    value: str


def parse_position(text: str, config: SixNimmtConfig,
                   rng: np.random.Generator | None = None) -> SixNimmtState:
    """The state `text` describes (see the module docstring); future deals come from `rng`
    (default: a fixed-seed generator). PositionError names the line and what is wrong."""
    reader = _Reader(_read_lines(text))
    n = reader.players()
    try:
        config.check_players(n)
    except ConfigError as exc:
        raise PositionError(f"{n} hands do not fit this config: {exc}") from None
    deck = config.deck_cards(n)
    phase = reader.phase()
    round_no = reader.whole("round", low=1)
    turn = reader.whole("turns played", low=0)
    totals = reader.totals(n)
    round_log = reader.round_scores(n, _finished_rounds(round_no, phase), totals)
    rows = [reader.cards(key, deck) for key in reader.numbered("row", 1)]
    hands = [reader.cards(f"hand {s}", deck) for s in range(n)]
    piles = [reader.cards(f"pile {s}", deck) for s in range(n)]
    pool = reader.cards("pool", deck) if reader.needs("pool", phase == DRAFT, "the phase is draft") else []
    revealed = reader.revealed(n, deck) if reader.needs("revealed", phase == ROW_PICK,
                                                         "the phase is row_pick") else []
    aside = []
    if reader.needs("aside", not config.advanced, "the basic game sets cards aside (N3)"):
        aside = reader.aside(deck)
    drafter = -1
    if reader.needs("round 1 first drafter", config.advanced and config.first_drafter == "random_then_rotate",
                    "the advanced game's first_drafter is random_then_rotate (N19)"):
        drafter = reader.whole("round 1 first drafter", low=0, high=n - 1)
    reader.check_all_cards_listed(deck)
    _check_rows(reader, rows, config, phase)
    _check_phase(reader, config, phase, round_no, turn, totals, rows, hands, piles, revealed, drafter)
    return SixNimmtState.restore(
        config, rng if rng is not None else np.random.Generator(np.random.PCG64(0)),
        round_no=round_no, turn=turn, phase=phase, rows=rows, hands=hands, piles=piles, totals=totals,
        aside=aside, pool=pool, revealed=revealed, round_one_drafter=drafter, round_log=round_log)


def _finished_rounds(round_no: int, phase: str) -> int:
    return round_no if phase == OVER else round_no - 1


def _read_lines(text: str) -> dict[str, _Line]:
    lines: dict[str, _Line] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        key, colon, value = body.partition(":")
        key = " ".join(key.split()).lower()
        where = f"line {number} ({raw.strip()!r})"
        if not colon:
            raise PositionError(f"{where}: expected 'key: value', e.g. 'row 1: 12 37' or 'phase: play'")
        if key not in FIXED_KEYS and not _NUMBERED_KEY.fullmatch(key):
            raise PositionError(f"{where}: unknown key {key!r}: allowed are {', '.join(FIXED_KEYS[:3])}, "
                                f"row N, hand N, pile N, {', '.join(FIXED_KEYS[3:])}")
        if key in lines:
            raise PositionError(f"{where}: {key!r} is given twice (also line {lines[key].number})")
        lines[key] = _Line(number, raw.strip(), value.strip())
    if not lines:
        raise PositionError("the position is empty: expected lines such as 'round: 1', 'phase: play', "
                            "'row 1: 12', 'hand 0: 14 21', 'pile 0: -', 'totals: 0 0', 'aside: rest'")
    return lines


class _Reader:
    """Values of the lines, each checked as it is read; remembers where every card was listed."""

    def __init__(self, lines: dict[str, _Line]):
        self.lines = lines
        self.listed: dict[int, str] = {}      # card -> key of the line that lists it

    def where(self, key: str) -> str:
        line = self.lines[key]
        return f"line {line.number} ({line.text!r})"

    def fail(self, key: str, message: str) -> PositionError:
        return PositionError(f"{self.where(key)}: {message}")

    def value(self, key: str) -> str:
        if key not in self.lines:
            raise PositionError(f"no '{key}:' line")
        return self.lines[key].value

    def needs(self, key: str, needed: bool, why: str) -> bool:
        """Whether the line `key` is to be read: it must be there exactly when `needed`."""
        if needed and key not in self.lines:
            raise PositionError(f"no '{key}:' line, needed because {why}")
        if not needed and key in self.lines:
            raise self.fail(key, f"unexpected here: a '{key}:' line is only given when {why}")
        return needed

    def whole(self, key: str, low: int, high: int | None = None) -> int:
        value = self.value(key)
        if not value.isdecimal() or int(value) < low or (high is not None and int(value) > high):
            allowed = f"{low}..{high}" if high is not None else f"{low} or more"
            raise self.fail(key, f"expected a whole number {allowed}")
        return int(value)

    def numbered(self, kind: str, first: int) -> list[str]:
        """Keys 'kind first', 'kind first+1', ... present in the text, checked to be consecutive."""
        matches = [_NUMBERED_KEY.fullmatch(key) for key in self.lines]
        numbers = sorted(int(m[2]) for m in matches if m and m[1] == kind)
        if numbers != list(range(first, first + len(numbers))):
            raise PositionError(f"{kind} lines are numbered {', '.join(map(str, numbers))}: expected "
                                f"{kind} {first}, {kind} {first + 1}, ... without gaps")
        return [f"{kind} {k}" for k in numbers]

    def players(self) -> int:
        n = len(self.numbered("hand", 0))
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise PositionError(f"{n} 'hand N:' lines: 6 nimmt! has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                                f"one line per seat from 'hand 0:'")
        piles = self.numbered("pile", 0)
        if len(piles) != n:
            raise PositionError(f"{len(piles)} 'pile N:' lines for {n} hands: give one per seat, "
                                f"'pile 0:' to 'pile {n - 1}:' ('-' for an empty pile)")
        return n

    def phase(self) -> str:
        phase = self.value("phase")
        if phase not in PHASES:
            raise self.fail("phase", f"unknown phase {phase!r}: allowed are {', '.join(PHASES)}")
        return phase

    def totals(self, n: int) -> list[int]:
        words = self.value("totals").split()
        if len(words) != n or not all(w.isdecimal() for w in words):
            raise self.fail("totals", f"expected {n} whole numbers, one per seat (bullheads of the "
                                      f"finished rounds)")
        return [int(w) for w in words]

    def round_scores(self, n: int, finished: int, totals: list[int]) -> list[tuple[float, ...]]:
        """The optional 'round scores' line: `finished` groups of n whole numbers adding up to
        the totals; [] without the line."""
        if "round scores" not in self.lines:
            return []
        groups = [g.split() for g in self.value("round scores").split("|")]
        if len(groups) != finished or not all(len(g) == n and all(w.isdecimal() for w in g) for g in groups):
            raise self.fail("round scores", f"expected {finished} groups of {n} whole numbers separated "
                                            f"by '|', one group per finished round")
        rounds = [tuple(float(w) for w in g) for g in groups]
        sums = [int(sum(r[s] for r in rounds)) for s in range(n)]
        if sums != totals:
            raise self.fail("round scores", f"they add up to {' '.join(map(str, sums))} per seat, "
                                            f"not the totals {' '.join(map(str, totals))}")
        return rounds

    def cards(self, key: str, deck: int) -> list[int]:
        value = self.value(key)
        if value == "-":
            return []
        cards = []
        for word in value.split():
            if not word.isdecimal() or not 1 <= int(word) <= deck:
                raise self.fail(key, f"unknown card {word!r}: cards are 1..{deck}, '-' for none")
            cards.append(self._listed(key, int(word)))
        return cards

    def _listed(self, key: str, card: int) -> int:
        if card in self.listed:
            other = self.listed[card]
            also = "earlier on this line" if other == key else f"also on {self.where(other)}"
            raise self.fail(key, f"card {card} is listed twice ({also})")
        self.listed[card] = key
        return card

    def revealed(self, n: int, deck: int) -> list[tuple[int, int]]:
        plays = []
        for item in self.value("revealed").split(","):
            match = _REVEALED.fullmatch(item.strip())
            if not match:
                raise self.fail("revealed", f"{item.strip()!r} is not 'CARD by seat SEAT', "
                                            f"e.g. '29 by seat 0'")
            card, seat = int(match[1]), int(match[2])
            if not 1 <= card <= deck or seat >= n:
                raise self.fail("revealed", f"{item.strip()!r}: cards are 1..{deck}, seats 0..{n - 1}")
            plays.append((self._listed("revealed", card), seat))
        if sorted(s for _, s in plays) != list(range(n)):
            raise self.fail("revealed", f"expected one card from each of the {n} seats (N5)")
        return sorted(plays)

    def aside(self, deck: int) -> list[int]:
        if self.value("aside") == "rest":
            rest = [c for c in range(1, deck + 1) if c not in self.listed]
            for card in rest:
                self.listed[card] = "aside"
            return rest
        return self.cards("aside", deck)

    def check_all_cards_listed(self, deck: int) -> None:
        missing = [c for c in range(1, deck + 1) if c not in self.listed]
        if missing:
            shown = ", ".join(map(str, missing[:12])) + (", ..." if len(missing) > 12 else "")
            raise PositionError(f"{len(missing)} of the deck's cards 1..{deck} are on no line ({shown}): "
                                f"every card is in a row, hand, pile, the pool or set aside ('aside: rest')")


def _check_rows(reader: _Reader, rows: list[list[int]], config: SixNimmtConfig, phase: str) -> None:
    if phase == DRAFT:
        if rows:
            raise reader.fail("row 1", "no rows during the draft: the last cards start them (N19)")
        return
    if len(rows) != config.rows:
        raise PositionError(f"{len(rows)} 'row N:' lines: this config has rows={config.rows} (N2)")
    for r, row in enumerate(rows, 1):
        key = f"row {r}"
        if not 1 <= len(row) <= config.row_capacity:
            raise reader.fail(key, f"{len(row)} cards: a row holds 1..{config.row_capacity} (N2)")
        if any(a >= b for a, b in zip(row, row[1:])):
            raise reader.fail(key, "a row is ascending from left to right (N7)")


def _check_phase(reader: _Reader, config: SixNimmtConfig, phase: str, round_no: int, turn: int,
                 totals: list[int], rows, hands, piles, revealed, drafter: int) -> None:
    """What the phase requires of the hands, the revealed cards, the draft and the totals."""
    sizes = [len(h) for h in hands]
    if phase in (PLAY, ROW_PICK) and len(set(sizes)) > 1:
        raise PositionError(f"hand sizes {sizes} differ: between turns every seat holds as many cards (N5)")
    if phase == PLAY and not sizes[0]:
        raise PositionError("every hand is empty but the phase is play: the round is scored when the hands "
                            "run out (N13), so this is phase over or the next round")
    if phase == ROW_PICK and revealed[0][0] > min(row[-1] for row in rows):
        raise reader.fail("revealed", f"the lowest card {revealed[0][0]} is above a row end, so no row pick "
                                      f"is pending (N10)")
    if phase == DRAFT:
        _check_draft(reader, config, round_no, turn, totals, hands, piles, drafter)
    if phase == OVER:
        if any(sizes):
            raise PositionError(f"hand sizes {sizes}: the match ends only after a complete round (N15)")
        if not match_over(totals, round_no, config):
            raise reader.fail("phase", f"totals {totals} after round {round_no} do not end the match "
                                       f"under this config (N16/N17)")


def _check_draft(reader: _Reader, config: SixNimmtConfig, round_no: int, turn: int, totals: list[int],
                 hands, piles, drafter: int) -> None:
    if not config.advanced:
        raise reader.fail("phase", "the draft is part of the advanced game only (N19): set advanced=true")
    if turn or any(piles):
        raise PositionError("during the draft no turn has been played and every pile is empty (N19)")
    n = len(hands)
    picks = sum(len(h) for h in hands)
    first = first_drafter(config.first_drafter, totals, round_no, drafter)
    order = draft_order(n, first, n * config.hand_size)
    if picks >= len(order):
        raise PositionError(f"{picks} cards drafted: the draft ends after {len(order)} picks (N19)")
    expected = [order[:picks].count(s) for s in range(n)]
    if [len(h) for h in hands] != expected:
        raise PositionError(f"hand sizes {[len(h) for h in hands]} do not fit the draft: after {picks} picks "
                            f"from seat {order[0]} clockwise the hands hold {expected} cards (N19)")
