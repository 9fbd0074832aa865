"""A vectorised 6 nimmt! engine: thousands of basic-game matches at once as NumPy arrays.

`play_range_batch(spec, start, stop)` returns the same `Chunk` as `simkit.engine.play.play_range`
(the same games and seats columns, `rounds` among the games columns) when every seat has an
array form (the protocol in simkit/games/sixnimmt/arrays.py); `batch_supported(spec)` says why a
run cannot use it.

What is the same as the scalar engine, game by game: the seating, and every deal. Game i shuffles
the 104 cards with its own chance stream (simkit.engine.seeding), one shuffle per round with
NumPy's own Fisher-Yates, exactly as `SixNimmtState` does, so with deterministic strategies
(`lowest`, `highest`) each game's rows equal the scalar engine's. What differs: a random
strategy's draws come from a counter-based hash (SplitMix64) of the run's seed, the game's index,
the seat, the round and the turn (batch_draws.py), not from the seat's `Generator`, so random games
have the same distributions, not the same individual results. Rows and results depend only on
the seed, the game's index and its deal number (`RunSpec.deal_numbers`, as in the scalar
engine), never on the chunking.

This module holds the run (`play_range_batch`, the chunk's columns joined from blocks of
`BLOCK` games), a block's match (N15-N17) and its result columns, and one round of a block
(N1-N14, `_Round`); the deal is in batch_deal.py and the strategies' random draws in
batch_draws.py.

The state of a block of G games is two int32 arrays of card keys (see batch_deal.py): the hands,
(n, h, G) with played cards swapped out to the end, and the rows, (R, G), one key per row that
holds its end card, card count and bullheads (N8 reads the ends, N9 the counts, N13 the
bullheads; rows never need their other cards).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa

from simkit.engine.game import ROUND_SCORES
from simkit.engine.play import ENGINE_ERROR, Chunk, chunk_deals, seat_slots
from simkit.engine.seeding import GameStreams, batch_stream_words
from simkit.engine.spec import RunSpec
from simkit.games.sixnimmt.arrays import ArrayStrategy, CardView, RowView, build_array_form
from simkit.games.sixnimmt.batch_deal import COUNT, COUNT_BITS, END, ID, LOW, POINTS, Dealer
from simkit.games.sixnimmt.batch_draws import CARD, ROW, RoundDraws, seat_keys
from simkit.games.sixnimmt.config import SixNimmtConfig
from simkit.games.sixnimmt.rules import max_decision_steps

#: games played together as one set of arrays: large enough to amortise NumPy's per-call cost
#: (measured, 4 players: 16,384 ~10 % faster than 4,096, no gain above; `simkit run` hands the
#: engine one chunk at a time, at most MAX_CHUNK games)
BLOCK = 16384


def batch_supported(spec: RunSpec) -> str | None:
    """None if the batch engine can play `spec`, else the reason it cannot (one sentence)."""
    if spec.game != "sixnimmt":
        return f"the batch engine plays 6 nimmt! only, not {spec.game}"
    config = spec.config
    if not isinstance(config, SixNimmtConfig):
        return "the config is not a 6 nimmt! config"
    if config.advanced:
        return "the advanced game (N19 open draft) is played by the scalar engine only"
    if spec.paranoid:
        return "--paranoid audits the state after every step, which only the scalar engine does"
    for strategy in spec.strategies:
        try:
            build_array_form(strategy)
        except Exception as exc:   # a plug-in's array form may fail in any way: not batchable
            return f"{exc} (the batch engine needs an array form for every seat)"
    return None


def play_range_batch(spec: RunSpec, start: int, stop: int) -> Chunk:
    """Play games start..stop-1 of `spec` as arrays; the same columns as `play_range`.

    Raises ValueError with `batch_supported`'s reason for a run it cannot play.
    """
    reason = batch_supported(spec)
    if reason is not None:
        raise ValueError(f"the batch engine cannot play this run: {reason}")
    groups: dict = {}
    forms: list[ArrayStrategy] = []
    slot_group = []
    for strategy in spec.strategies:         # equal specs share one array form
        if strategy not in groups:
            groups[strategy] = len(forms)
            forms.append(build_array_form(strategy))
        slot_group.append(groups[strategy])
    labels = np.array([s.text for s in spec.strategies], dtype=object)
    dealer = Dealer()
    starts = range(start, max(stop, start + 1), BLOCK)
    games, seats = _Joined(stop - start), _Joined((stop - start) * spec.n_players)
    for lo in starts:
        g, st = _Block(spec, forms, np.array(slot_group), lo, min(stop, lo + BLOCK)).play(dealer) \
            .columns(labels)
        if len(starts) == 1:
            return Chunk(start, stop, g, st)
        games.add(g)
        seats.add(st)
    return Chunk(start, stop, games.columns(), seats.columns())


class _Joined:
    """A chunk's columns from several blocks: a NumPy column is copied into one array of the
    chunk's length as each block ends (the next block then reuses the block's memory instead of
    touching fresh pages); Arrow columns are joined at the end."""

    def __init__(self, rows: int):
        self.rows, self.at = rows, 0
        self.arrays: dict[str, np.ndarray] = {}
        self.parts: dict[str, list] = {}
        self.names: list[str] = []

    def add(self, block: dict) -> None:
        self.names = self.names or list(block)
        size = 0
        for name, value in block.items():
            size = len(value)
            if isinstance(value, np.ndarray) and name not in self.parts:
                if name not in self.arrays:
                    self.arrays[name] = np.empty(self.rows, dtype=value.dtype)
                self.arrays[name][self.at:self.at + size] = value
            else:           # an Arrow column here, or after one
                done = self.arrays.pop(name, None)
                self.parts.setdefault(name, [] if done is None else [done[:self.at]]).append(value)
        self.at += size

    def columns(self) -> dict:
        return {name: self.arrays[name] if name in self.arrays else
                pa.concat_arrays([v if isinstance(v, pa.Array) else pa.array(v) for v in self.parts[name]])
                for name in self.names}


# ---- one round of a block (N1-N14) -------------------------------------------------------------
def sorting_network(n: int) -> list[tuple[int, int]]:
    """Comparators (i, j), i < j, of Batcher's odd-even merge sort of n items: applying each in
    order (the smaller to i) sorts any n values."""
    size = 1
    while size < n:
        size *= 2
    pairs = []
    p = 1
    while p < size:
        k = p
        while k >= 1:
            for j in range(k % p, size - k, 2 * k):
                for i in range(min(k, size - j - k)):
                    if (i + j) // (2 * p) == (i + j + k) // (2 * p):
                        pairs.append((i + j, i + j + k))
            k //= 2
        p *= 2
    return [(i, j) for i, j in pairs if j < n]      # padding above n never moves


def _sort(values: list[np.ndarray], network: list[tuple[int, int]]) -> list[np.ndarray]:
    """Elementwise sort of equal-shaped arrays: out[0] <= out[1] <= ... at every position."""
    out = list(values)
    for i, j in network:
        a, b = out[i], out[j]
        out[i], out[j] = np.minimum(a, b), np.maximum(a, b)
    return out


class _Round:
    """One round of the active games of a block, all in lockstep."""

    def __init__(self, block: _Block, keys: np.ndarray, active: np.ndarray | slice, round_no: int):
        """`keys`: the dealt card keys of the `active` games, (cards, games) (taken over: the
        hands and rows are views of it)."""
        config = block.config
        n, h, rows = block.n, config.hand_size, config.rows
        size = self.size = keys.shape[1]
        self.n, self.h, self.forms, self.config = n, h, block.forms, config
        self.totals = block.totals[active]
        self.draws = RoundDraws(block.keys[:, active], round_no)
        self.pairs = _form_pairs(block.group[active], len(block.forms))
        self.network = sorting_network(n)
        dealt = n * h
        self.hands = keys[:dealt].reshape(n, h, size)                       # N1-N2
        self.hands += np.arange(n, dtype=np.int32)[:, None, None]
        self.rows = keys[dealt:]
        self.rows += np.arange(rows, dtype=np.int32)[:, None]
        self.penalty = np.zeros((n, size), dtype=np.int32)
        self.steps = np.full(size, h, dtype=np.int64)
        self.hand_at = (np.arange(n)[:, None] * (h * size) + np.arange(size)).astype(np.intp)
        self.full_at = (config.row_capacity << COUNT) - 1
        self.scratch = np.empty_like(self.rows)
        self.taken = np.empty((n, size), dtype=np.int32)
        self.games = np.arange(size, dtype=np.intp)

    def play(self) -> tuple[np.ndarray, np.ndarray]:
        """Every turn; each game's points per seat (size, n) and decision steps."""
        for turn in range(self.h):
            self._turn(turn)
        return self.penalty.T, self.steps

    def _turn(self, turn: int) -> None:
        m = self.h - turn
        at = self._positions(turn, m) * self.size
        at += self.hand_at
        hands = self.hands.reshape(-1)
        plays = hands.take(at)                                              # N5
        hands[at] = self.hands[:, m - 1]                  # swap the played cards out
        order = np.stack(_sort(list(plays), self.network))                  # N6
        cards = order & ~ID
        taken = self.taken
        for k in range(self.n):
            taken[k] = self._place(order[k], cards[k], turn, k == 0)
        # N11: each card's taken bullheads under its seat, back in seat order by the same network
        back = _sort(list(((order & ID) << 16) | ((taken >> POINTS) & 0xFF)), self.network)
        self.penalty += np.stack(back) & 0xFFFF

    def _place(self, key: np.ndarray, card: np.ndarray, turn: int, lowest: bool) -> np.ndarray:
        """N7-N12 for one card per game (`key`, `card` its key without the seat); the key of
        the row its seat takes, 0 if none."""
        rows, scratch = self.rows, self.scratch
        np.subtract(rows, key, out=scratch)
        np.right_shift(scratch, 31, out=scratch)        # -1 where the end is below the card
        np.bitwise_and(scratch, rows, out=scratch)
        best = scratch.max(axis=0)                      # N8 (0: every end is above, N10)
        take = (self.full_at - (best & COUNT_BITS)) >> 31                 # N9: -1 if full
        if lowest:      # N10: only the turn's lowest card can be below every row end
            self._below_every_end(key, best, take, turn)
        keep = LOW ^ (take & (LOW ^ ID))             # a taken row keeps only its index
        at = self.games + (best & ID) * self.size       # intp (an int32 index is cast first)
        rows.reshape(-1)[at] = card + (best & keep)
        return best & take

    def _below_every_end(self, key: np.ndarray, best: np.ndarray, take: np.ndarray,
                         turn: int) -> None:
        """N10: in the games where `key` is below every row end, its seat picks the row it
        takes (an extra decision step)."""
        low = best == 0
        games = np.flatnonzero(low)
        if not games.size:
            return
        held = key.take(games)
        pairs = (held & ID) * self.size + games
        cards = held >> END
        if len(self.pairs) == 1:
            chosen = self._ask_rows(self.pairs[0][0], pairs, cards, turn)
        else:
            group = self.forms_at(pairs)
            chosen = np.empty(games.size, dtype=np.intp)
            for gid in np.unique(group).tolist():
                part = np.flatnonzero(group == gid)
                chosen[part] = self._ask_rows(gid, pairs[part], cards[part], turn)
        chosen *= self.size
        chosen += games
        best[games] = self.rows.reshape(-1).take(chosen)
        take[games] = -1
        self.steps += low

    def forms_at(self, pairs: np.ndarray) -> np.ndarray:
        """The array form deciding at each of `pairs`."""
        which = np.empty(self.n * self.size, dtype=np.int64)
        for gid, at in self.pairs:
            which[at] = gid
        return which[pairs]

    def _positions(self, turn: int, m: int) -> np.ndarray:
        """N5: each seat's card (a position in its hand) in every game, (n, size)."""
        if len(self.pairs) == 1:
            return self._ask_cards(self.pairs[0][0], None, turn, m).reshape(self.n, self.size)
        out = np.empty(self.n * self.size, dtype=np.intp)
        for gid, at in self.pairs:
            out[at] = self._ask_cards(gid, at, turn, m)
        return out.reshape(self.n, self.size)

    def _ask_cards(self, gid: int, pairs: np.ndarray | None, turn: int, m: int) -> np.ndarray:
        form = self.forms[gid]
        view = CardView(m, self._fetcher(pairs, m, None), self.draws.source(pairs, turn, CARD))
        return _checked(form.choose_cards(view), self.n * self.size if pairs is None else pairs.size,
                        m, f"{type(form).__name__}.choose_cards returned positions outside 0..{m - 1}")

    def _ask_rows(self, gid: int, pairs: np.ndarray, cards: np.ndarray, turn: int) -> np.ndarray:
        form = self.forms[gid]
        view = RowView(self._fetcher(pairs, 0, cards), self.draws.source(pairs, turn, ROW))
        rows = self.config.rows
        return _checked(form.choose_rows(view), pairs.size, rows,
                        f"{type(form).__name__}.choose_rows picked a row outside 0..{rows - 1}")

    def _fetcher(self, pairs: np.ndarray | None, m: int,
                 cards: np.ndarray | None) -> Callable[[str], np.ndarray]:
        """A view's `fetch(name)` for the decisions `pairs` (flat seat * size + game; None: all
        n * size, seat-major)."""
        size = self.size

        def fetch(name: str) -> np.ndarray:
            if pairs is None:
                seats, games = np.divmod(np.arange(self.n * size), size)
            else:
                seats, games = np.divmod(pairs, size)
            if name == "seat":
                return seats
            if name == "hand":
                return (self.hands[:, :m] >> END)[seats, :, games]             # (K, m)
            if name == "card":
                assert cards is not None
                return cards
            if name == "totals":
                return self.totals.take(games, axis=0)
            if name == "round_points":
                return self.penalty.take(games, axis=1).T
            shift = {"ends": END, "counts": COUNT, "points": POINTS}[name]
            return ((self.rows.take(games, axis=1) >> shift) & 0xFF).T     # (K, R)

        return fetch


def _checked(answer, count: int, limit: int, message: str) -> np.ndarray:
    """An array form's answer as (count,) intp, each in 0..limit-1 (else ValueError)."""
    out = np.asarray(answer)
    if out.shape != (count,) or out.dtype.kind not in "iu":
        raise ValueError(f"{message} (it must return {count} ints, got shape {out.shape} "
                         f"of {out.dtype})")
    if count and (out.min() < 0 or out.max() >= limit):
        raise ValueError(message)
    return out.astype(np.intp, copy=False)


def _form_pairs(group: np.ndarray, n_forms: int) -> list[tuple[int, np.ndarray | None]]:
    """(form, decisions) for each array form seated in the games of `group` (size, n): the flat
    seat * size + game indices where it decides, None when it sits everywhere."""
    if n_forms == 1:
        return [(0, None)]
    flat = group.T.reshape(-1)
    found = [(gid, np.flatnonzero(flat == gid)) for gid in range(n_forms)]
    return [(gid, at) for gid, at in found if at.size]


# ---- a block of games: the match (N15-N17) and its rows -----------------------------------------
class _Block:
    """Games lo..hi-1 played together."""

    def __init__(self, spec: RunSpec, forms: list[ArrayStrategy], slot_group: np.ndarray,
                 lo: int, hi: int):
        self.config: SixNimmtConfig = spec.config     # type: ignore[assignment]
        self.forms = forms
        n = self.n = spec.n_players
        size = self.size = hi - lo
        self.lo, self.hi = lo, hi
        seating, duplicate = spec.seating, spec.duplicate
        words = batch_stream_words(spec.seed, lo, hi, n + 2 if seating == "random" else 1)
        index = np.arange(lo, hi, dtype=np.int64)
        deals = chunk_deals(spec, lo, hi)
        if deals is None:
            self.chance = words if seating != "random" else [w[:2] for w in words]
            self.deal: list[int] | None = None          # the game's index
        else:
            self.chance, self.deal = deals
        rotating = duplicate or seating == "rotate"
        self.rotation = index % n if rotating else np.zeros(size, dtype=np.int64)
        seats = np.arange(n)
        if rotating:
            self.slots = (seats[None, :] + self.rotation[:, None]) % n
        elif seating == "fixed":
            self.slots = np.broadcast_to(seats, (size, n)).copy()
        else:
            self.slots = np.array([seat_slots(seating, False, i, n, GameStreams(None, [], w))[0]  # type: ignore[arg-type]
                                   for i, w in zip(range(lo, hi), words)], dtype=np.int64)
        self.group = slot_group[self.slots]            # (G, n) which array form sits where
        self.keys = seat_keys(spec.seed, lo, hi, n)
        self.totals = np.zeros((size, n), dtype=np.int64)
        self.last = np.zeros((size, n), dtype=np.int64)
        self.rounds = np.zeros(size, dtype=np.int64)
        self.steps = np.zeros(size, dtype=np.int64)
        self.failed = np.zeros(size, dtype=bool)
        self.per_round: list[np.ndarray] = []     # per round, (G, n) points (0 once a game is over)

    def play(self, dealer: Dealer) -> _Block:
        """N15-N16: rounds until each game's match is over."""
        config = self.config
        single = config.max_rounds == 1
        cap = max_decision_steps(config, self.n)
        active = np.arange(self.size)
        cards = self.n * config.hand_size + config.rows
        dealt, states = dealer.deal(self.chance, cards, keep=not single, first=True)
        while active.size:
            at = slice(None) if active.size == self.size else active    # all: views, no gathers
            points, steps = _Round(self, dealt, at, int(self.rounds[active[0]]) + 1).play()
            self.totals[at] += points
            self.last[at] = points
            self._keep_round(active, points)
            self.rounds[at] += 1
            self.steps[at] += steps
            going = ~self._over(at)
            stuck = going & (self.steps[at] >= cap)
            if stuck.any():                  # the scalar engine's step cap (unreachable in practice)
                self.failed[active[stuck]] = True
                self.steps[active[stuck]] = cap
                going &= ~stuck
            if not going.any():
                break
            keep = np.flatnonzero(going)
            active = active[keep]
            assert states is not None
            dealt, states = dealer.deal([states[k] for k in keep.tolist()], cards, keep=True,
                                        first=False)
        return self

    def _keep_round(self, active: np.ndarray, points: np.ndarray) -> None:
        if active.size == self.size:
            self.per_round.append(points)
        else:
            full = np.zeros((self.size, self.n), dtype=points.dtype)
            full[active] = points
            self.per_round.append(full)

    def _over(self, active: np.ndarray | slice) -> np.ndarray:
        """N15/N16 with N17's play_on (rules.match_over, per game)."""
        config = self.config
        totals = self.totals[active]
        if config.max_rounds is not None:
            over = self.rounds[active] >= config.max_rounds
        else:
            over = np.zeros(len(totals), dtype=bool)
        top = totals.max(axis=1)
        reached = top >= config.end_threshold if config.end_inclusive else top > config.end_threshold
        if config.tie_break == "play_on":
            unique_min = (totals == totals.min(axis=1, keepdims=True)).sum(axis=1) == 1
            reached &= unique_min
        return over | reached

    # ---- results (N17) ---------------------------------------------------------------------
    def columns(self, labels: np.ndarray) -> tuple[dict, dict]:
        """The block's games and seats columns as arrays, with play_range's names, order, types
        and values (`labels`: each slot's strategy text, an object array)."""
        config, n, size, failed = self.config, self.n, self.size, self.failed
        totals = self.totals.T                                              # (n, G)
        keys = totals * 1_000_000 + self.last.T if config.tie_break == "last_round" else totals
        ranks = np.ones((n, size), dtype=np.int64)
        for other in keys:
            ranks += other < keys
        first = ranks == 1
        wins = first / first.sum(axis=0)
        scores = totals.astype(np.float64)
        errors = np.full(size, "", dtype=object)
        rounds: np.ndarray | pa.Array = self.rounds
        if failed.any():
            cap = max_decision_steps(config, n)
            errors[failed] = (ENGINE_ERROR + f"the game did not end within {cap} steps "
                              "(its hard step cap, Game.max_steps)")
            rounds = pa.array(self.rounds, mask=failed)
            scores[:, failed] = np.nan
            wins[:, failed] = np.nan
            ranks[:, failed] = n
        index = np.arange(self.lo, self.hi, dtype=np.int64)
        deal = index if self.deal is None else np.array(self.deal, dtype=np.int64)
        games = {"game": index, "deal": deal, "rotation": self.rotation,
                 "n_players": np.full(size, n, dtype=np.int64), "steps": self.steps,
                 "forfeit_seat": np.full(size, -1, dtype=np.int64), "error": errors,
                 "draw": ~first.any(axis=0) & ~failed, "rounds": rounds}
        slots = self.slots.reshape(-1)
        seats = {"game": index.repeat(n), "deal": deal.repeat(n), "rotation": self.rotation.repeat(n),
                 "seat": np.tile(np.arange(n, dtype=np.int64), size), "slot": slots,
                 "strategy": labels[slots], "score": scores.T.reshape(-1),
                 "rank": ranks.T.reshape(-1), "win": wins.T.reshape(-1),
                 "forfeit": np.zeros(size * n, dtype=bool), ROUND_SCORES: self._round_scores()}
        return games, seats

    def _round_scores(self) -> pa.ListArray:
        """The `round_scores` column, list<double>: per seat row, its points in each round the
        game played (empty for a game without a result)."""
        per_round = self.per_round or [np.zeros((self.size, self.n))]     # an empty range of games
        played = len(per_round)
        points = np.stack(per_round, axis=2).astype(np.float64).reshape(-1, played)
        counts = np.where(self.failed, 0, self.rounds).repeat(self.n)
        if (counts == played).all():
            values = points.reshape(-1)
        else:
            values = points[np.arange(played) < counts[:, None]]
        offsets = np.zeros(counts.size + 1, dtype=np.int32)
        np.cumsum(counts, out=offsets[1:])
        return pa.ListArray.from_arrays(offsets, values)
