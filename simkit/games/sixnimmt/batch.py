"""A vectorised 6 nimmt! engine: thousands of basic-game matches at once as NumPy arrays.

`play_range_batch(spec, start, stop)` returns the same `Chunk` as `simkit.core.play.play_range`
(the same games and seats columns, `rounds` among the games columns) when every seat has an
array form (strategies/sixnimmt/arrays.py); `batch_supported(spec)` says why a run cannot use it.

What is the same as the scalar engine, game by game: the seating, and every deal. Game i shuffles
the 104 cards with its own chance stream (simkit.core.seeding), one `Generator.shuffle` per round,
exactly as `SixNimmtState` does, so with deterministic strategies (`lowest`, `highest`) each
game's rows equal the scalar engine's. What differs: a random strategy's draws come from a
counter-based hash of the game's own seat stream (a function of the seed, the game, the seat, the
round, the turn), not from the seat's `Generator`, so random games have the same distributions,
not the same individual results. Rows and results depend only on the seed and the game's index,
never on the chunking.

The state of a block of G games is a handful of arrays: the hands (one (G, h) array per seat,
played cards swapped out to the end), and per row its end card, card count and bullheads. Rows
never need their cards: N8 reads the ends, N9 the counts, N13 the bullheads.
"""

from __future__ import annotations

import ctypes
import math

import numpy as np
from numpy.random import PCG64, BitGenerator, Generator

from simkit.core.game import ROUND_SCORES
from simkit.core.play import ENGINE_ERROR, GAME_COLUMNS, SEAT_COLUMNS, Chunk, seat_slots
from simkit.core.seeding import GameStreams, GeneratorPool, batch_stream_words
from simkit.core.spec import RunSpec
from simkit.games.sixnimmt.config import DECK_SIZE, SixNimmtConfig
from simkit.games.sixnimmt.rules import BH, max_decision_steps
from strategies.sixnimmt.arrays import ArrayStrategy, CardView, RowView, build_array_form

#: games played together as one set of arrays (large enough to amortise NumPy's per-call cost,
#: small enough to stay in cache)
BLOCK = 4096

_BH = np.array(BH, dtype=np.int64)
_DECK = np.arange(1, DECK_SIZE + 1, dtype=np.int64)
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
_GOLDEN = 0x9E3779B97F4A7C15


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
    n = spec.n_players
    groups: dict = {}
    forms: list[ArrayStrategy] = []
    slot_group = []
    for strategy in spec.strategies:         # equal specs share one array form
        if strategy not in groups:
            groups[strategy] = len(forms)
            forms.append(build_array_form(strategy))
        slot_group.append(groups[strategy])
    labels = [s.text for s in spec.strategies]
    g: dict[str, list] = {c: [] for c in GAME_COLUMNS}
    g["rounds"] = []
    st: dict[str, list] = {c: [] for c in SEAT_COLUMNS}
    st[ROUND_SCORES] = []
    for lo in range(start, stop, BLOCK):
        hi = min(stop, lo + BLOCK)
        _Block(spec, forms, np.array(slot_group), lo, hi).play().write(g, st, labels, n)
    return Chunk(start, stop, g, st)


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser (a bijection of uint64 with full avalanche)."""
    z = z ^ (z >> np.uint64(30))
    z = z * np.uint64(_M1)
    z = z ^ (z >> np.uint64(27))
    z = z * np.uint64(_M2)
    return z ^ (z >> np.uint64(31))


_SCALE = 2.0 ** -53


def _mix_int(x: int) -> int:
    """`_mix` of one Python int (mod 2**64)."""
    x &= _MASK64
    x = ((x ^ (x >> 30)) * _M1) & _MASK64
    x = ((x ^ (x >> 27)) * _M2) & _MASK64
    return x ^ (x >> 31)


_MASK64 = (1 << 64) - 1


def _unit(z: np.ndarray) -> np.ndarray:
    """uint64 -> float64 uniform in [0, 1) (the top 53 bits)."""
    return (z >> np.uint64(11)).astype(np.float64) * _SCALE


def _counter(round_no: int, turn: int, kind: int, call: int) -> np.uint64:
    """The hashed counter of one draw: a game's round and turn, the decision kind, the call."""
    return np.uint64(_mix_int(((round_no << 20) + (turn << 8) + (kind << 6) + call) * _GOLDEN))


class _StateWords:
    """Direct access to a PCG64's 128-bit state through NumPy's documented ctypes interface
    (`BitGenerator.ctypes.state_address`): setting a state this way costs ~0.2 µs instead of
    ~1.3 µs for `bit_generator.state = {...}`. The struct layout is NumPy's, not a public
    promise, so `check()` verifies it against the official state property and the dealer falls
    back to the property if it differs."""

    def __init__(self, bits: BitGenerator):
        address = bits.ctypes.state_address        # pcg64_state {pcg64_random_t *; int; uint32}
        inner = ctypes.c_void_p.from_address(address).value or 0
        self.words = (ctypes.c_uint64 * 4).from_address(inner)   # state lo, hi, inc lo, hi
        self.has32 = ctypes.c_int.from_address(address + 8)
        self.low32 = ctypes.c_uint32.from_address(address + 12)
        self.bits = bits

    def check(self) -> bool:
        bits = self.bits
        state, inc = (0x0123456789ABCDEF << 64) | 0xFEDCBA9876543210, (0x55 << 64) | 0x77
        bits.state = {"bit_generator": "PCG64", "state": {"state": state, "inc": inc},
                      "has_uint32": 1, "uinteger": 42}
        w = self.words
        if list(w) != [state & _MASK64, state >> 64, 0x77, 0x55] or self.has32.value != 1 \
                or self.low32.value != 42:
            return False
        w[0], w[1], self.has32.value = 7, 9, 0
        got = bits.state
        return got["state"]["state"] == (9 << 64) | 7 and got["has_uint32"] == 0

    def set(self, hi: int, lo: int, has32: int = 0, low32: int = 0) -> None:
        w = self.words
        w[0] = lo
        w[1] = hi
        self.has32.value = has32
        self.low32.value = low32

    def get(self) -> tuple[int, int, int, int]:
        w = self.words
        return w[1], w[0], self.has32.value, self.low32.value


class _Dealer:
    """Shuffles each game's deck with that game's own chance stream, as `SixNimmtState` does
    (`rng.permutation` of 1..104 is the same sequence of swaps as `shuffle` of a copy)."""

    def __init__(self) -> None:
        self.gen = Generator(PCG64(0))
        self.bits = self.gen.bit_generator
        # the chance stream's increment, as the scalar engine sets it
        self.inc = GeneratorPool().get(0, [0, 0], 0).bit_generator.state["state"]["inc"]
        fast = _StateWords(self.bits)
        self.fast = fast if fast.check() else None
        self.bits.state = {"bit_generator": "PCG64", "state": {"state": 0, "inc": self.inc},
                           "has_uint32": 0, "uinteger": 0}

    def deal(self, seeds: list, decks: np.ndarray, keep: bool, first: bool) -> list | None:
        """One round's deck per game into `decks`, each from its chance stream's state
        (hi, lo, has_uint32, uinteger), or with `first` from its seed words [hi, lo, ...]; the
        states after the shuffle if `keep`."""
        decks[:] = _DECK
        rows = list(decks)
        shuffle = self.gen.shuffle
        after: list | None = [] if keep else None
        fast = self.fast
        if fast is not None:
            put, get = fast.set, fast.get
            for seed, row in zip(seeds, rows):
                if first:
                    put(seed[0], seed[1])
                else:
                    put(*seed)
                shuffle(row)
                if after is not None:
                    after.append(get())
            return after
        bits = self.bits
        template: dict = {"bit_generator": "PCG64", "state": {"state": 0, "inc": self.inc},
                          "has_uint32": 0, "uinteger": 0}
        inner = template["state"]
        for seed, row in zip(seeds, rows):
            hi, lo, has32, low32 = (seed[0], seed[1], 0, 0) if first else seed
            inner["state"] = (hi << 64) | lo
            template["has_uint32"], template["uinteger"] = has32, low32
            bits.state = template
            shuffle(row)
            if after is not None:
                now = bits.state
                after.append((now["state"]["state"] >> 64, now["state"]["state"] & _MASK64,
                              now["has_uint32"], now["uinteger"]))
        return after


def _ints(values) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


class _Draws:
    """The uniform draws of the array strategies in one round of a block: draw `call` of a
    decision of kind `kind` (0 card, 1 row) in turn `turn` by seat s of game g is
    `_unit(_mix(key[g, s] ^ _counter(round, turn, kind, call)))`: a function of the game's own
    seed streams, never of the other games in the block. The first card draw of every seat and
    turn is computed for the whole round at once (the common case, `random`)."""

    def __init__(self, keys: np.ndarray, round_no: int, turns: int):
        self.keys = keys
        self.round_no = round_no
        self.turns = turns
        self._first: np.ndarray | None = None

    def first_cards(self) -> np.ndarray:
        if self._first is None:
            counters = np.array([_counter(self.round_no, t, 0, 0) for t in range(self.turns)],
                                dtype=np.uint64)
            with np.errstate(over="ignore"):
                self._first = _unit(_mix(self.keys[:, :, None] ^ counters))
        return self._first

    def source(self, games: np.ndarray | None, seats: np.ndarray, turn: int, kind: int):
        """The `random()` of a view: games (None: all) with these seats, one decision."""
        calls = [0]

        def random() -> np.ndarray:
            call = calls[0]
            calls[0] += 1
            if kind == 0 and call == 0:
                first = self.first_cards()
                seat = int(seats[0])
                return first[:, seat, turn] if games is None else first[games, seat, turn]
            keys = self.keys[:, int(seats[0])] if games is None else self.keys[games, seats]
            with np.errstate(over="ignore"):
                return _unit(_mix(keys ^ _counter(self.round_no, turn, kind, call)))

        return random


class _Block:
    """Games lo..hi-1 played together."""

    def __init__(self, spec: RunSpec, forms: list[ArrayStrategy], slot_group: np.ndarray,
                 lo: int, hi: int):
        self.spec = spec
        self.config: SixNimmtConfig = spec.config     # type: ignore[assignment]
        self.forms = forms
        n = self.n = spec.n_players
        size = self.size = hi - lo
        self.index = np.arange(lo, hi, dtype=np.int64)
        seating, duplicate = spec.seating, spec.duplicate
        words = batch_stream_words(spec.seed, lo, hi, n + 2 if seating == "random" else 2)
        if duplicate:
            first_deal = lo // n
            deal_words = batch_stream_words(spec.seed, first_deal, (hi - 1) // n + 1, 1)
            self.chance = [deal_words[i // n - first_deal] for i in range(lo, hi)]
            self.deal, self.rotation = np.divmod(self.index, n)
        else:
            self.chance = words
            self.deal = self.index.copy()
            self.rotation = self.index % n if seating == "rotate" else np.zeros(size, dtype=np.int64)
        seats = np.arange(n)
        if duplicate or seating == "rotate":
            self.slots = (seats[None, :] + self.rotation[:, None]) % n
        elif seating == "fixed":
            self.slots = np.broadcast_to(seats, (size, n)).copy()
        else:
            self.slots = np.array([seat_slots(seating, False, i, n, GameStreams(None, [], w))[0]  # type: ignore[arg-type]
                                   for i, w in zip(range(lo, hi), words)], dtype=np.int64)
        self.group = slot_group[self.slots]            # (G, n) which array form sits where
        seat_words = np.array(words, dtype=np.uint64)       # stream 1: seat 0's stream
        with np.errstate(over="ignore"):
            game_key = _mix(_mix(seat_words[:, 2]) ^ seat_words[:, 3])
            self.keys = _mix(game_key[:, None] + np.uint64(_GOLDEN) * (seats.astype(np.uint64) + 1))
        self.totals = np.zeros((size, n), dtype=np.int64)
        self.last = np.zeros((size, n), dtype=np.int64)
        self.rounds = np.zeros(size, dtype=np.int64)
        self.steps = np.zeros(size, dtype=np.int64)
        self.failed = np.zeros(size, dtype=bool)
        self.per_round: list[np.ndarray] = []     # per round, (G, n) points (0 once a game is over)

    # ---- the match ------------------------------------------------------------------------
    def play(self) -> _Block:
        """N15-N16: rounds until each game's match is over."""
        config = self.config
        single = config.max_rounds == 1
        cap = max_decision_steps(config, self.n)
        dealer = _Dealer()
        active = np.arange(self.size)
        decks = np.empty((self.size, DECK_SIZE), dtype=np.int64)
        states = dealer.deal(self.chance, decks, keep=not single, first=True)
        while active.size:
            points, steps = self._round(decks[:active.size], active)
            self.totals[active] += points
            self.last[active] = points
            self._keep_round(active, points)
            self.rounds[active] += 1
            self.steps[active] += steps
            going = ~self._over(active)
            stuck = going & (self.steps[active] >= cap)
            if stuck.any():                  # the scalar engine's step cap (unreachable in practice)
                self.failed[active[stuck]] = True
                self.steps[active[stuck]] = cap
                going &= ~stuck
            if not going.any():
                break
            keep = np.flatnonzero(going)
            active = active[keep]
            assert states is not None
            states = dealer.deal([states[k] for k in keep.tolist()], decks[:active.size], keep=True,
                                 first=False)
        return self

    def _keep_round(self, active: np.ndarray, points: np.ndarray) -> None:
        if active.size == self.size:
            self.per_round.append(points)
        else:
            full = np.zeros((self.size, self.n), dtype=points.dtype)
            full[active] = points
            self.per_round.append(full)

    def _over(self, active: np.ndarray) -> np.ndarray:
        """N15/N16 with N17's play_on (rules.match_over, per game)."""
        config = self.config
        totals = self.totals[active]
        if config.max_rounds is not None:
            over = self.rounds[active] >= config.max_rounds
        else:
            over = np.zeros(active.size, dtype=bool)
        top = totals.max(axis=1)
        reached = top >= config.end_threshold if config.end_inclusive else top > config.end_threshold
        if config.tie_break == "play_on":
            unique_min = (totals == totals.min(axis=1, keepdims=True)).sum(axis=1) == 1
            reached &= unique_min
        return over | reached

    # ---- one round (N1-N14) ---------------------------------------------------------------
    def _round(self, decks: np.ndarray, active: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        config = self.config
        n, h, n_rows, capacity = self.n, config.hand_size, config.rows, config.row_capacity
        size = active.size
        dealt = n * h
        hands = [decks[:, s * h:(s + 1) * h].copy() for s in range(n)]      # N1
        ends = decks[:, dealt:dealt + n_rows].copy()                          # N2
        counts = np.ones((size, n_rows), dtype=np.int64)
        points = _BH[ends]
        penalty = np.zeros((size, n), dtype=np.int64)
        steps = np.full(size, h, dtype=np.int64)
        games = np.arange(size)
        base = games * n_rows
        flat_ends, flat_counts, flat_points = ends.reshape(-1), counts.reshape(-1), points.reshape(-1)
        group = self.group[active]
        keys = self.keys[active]
        totals = self.totals[active]
        round_no = int(self.rounds[active[0]]) + 1      # every game of a block plays in lockstep
        draws = _Draws(keys, round_no, h)
        plays = np.empty((size, n), dtype=np.int64)
        for turn in range(h):
            m = h - turn
            for s in range(n):                                              # N5
                hand = hands[s]
                pos = self._cards(s, group[:, s], draws, turn, hand[:, :m], ends, counts, points,
                                  totals, penalty)
                if not ((pos >= 0) & (pos < m)).all():
                    raise ValueError(f"an array strategy in seat {s} returned positions outside 0..{m - 1}")
                plays[:, s] = hand[games, pos]
                hand[games, pos] = hand[:, m - 1]                           # swap the card out
            order = plays.argsort(axis=1)                                   # N6
            cards = np.take_along_axis(plays, order, axis=1)
            for k in range(n):
                card = cards[:, k]
                seat = order[:, k]
                below = np.where(ends < card[:, None], ends, 0)             # N7
                best = below.argmax(axis=1)                                 # N8
                if k == 0:   # N10: only the turn's lowest card can be below every row end
                    low = below[games, best] == 0
                    if low.any():
                        best[low] = self._rows(np.flatnonzero(low), card, seat, group, draws, turn,
                                               ends, counts, points, totals, penalty)
                        steps += low
                    flat = base + best
                    take = low | (flat_counts[flat] >= capacity)
                else:
                    flat = base + best
                    take = flat_counts[flat] >= capacity                    # N9
                row_points = flat_points[flat]
                penalty[games, seat] += np.where(take, row_points, 0)       # N11
                flat_counts[flat] = np.where(take, 1, flat_counts[flat] + 1)
                flat_points[flat] = np.where(take, 0, row_points) + _BH[card]
                flat_ends[flat] = card
        return penalty, steps

    def _cards(self, seat, group, draws, turn, hand, ends, counts, points, totals, penalty) -> np.ndarray:
        """N5 for `seat` in every game, asked of each array form seated there."""
        forms = self.forms
        if len(forms) == 1:
            return _ints(forms[0].choose_cards(CardView(
                seat, hand, ends, counts, points, totals, penalty,
                draws.source(None, np.full(1, seat), turn, 0))))
        out = np.empty(group.size, dtype=np.int64)
        for gid in np.unique(group).tolist():
            sel = np.flatnonzero(group == gid)
            out[sel] = _ints(forms[gid].choose_cards(CardView(
                seat, hand[sel], ends[sel], counts[sel], points[sel], totals[sel], penalty[sel],
                draws.source(sel, np.full(sel.size, seat), turn, 0))))
        return out

    def _rows(self, sel, card, seat, group, draws, turn, ends, counts, points, totals, penalty) -> np.ndarray:
        """N10: in games `sel`, the seat whose card is below every row end picks the row it takes."""
        seats = seat[sel]
        groups = group[sel, seats]
        out = np.empty(sel.size, dtype=np.int64)
        for gid in np.unique(groups).tolist():
            part = np.flatnonzero(groups == gid) if len(self.forms) > 1 else np.arange(sel.size)
            games = sel[part]
            out[part] = _ints(self.forms[gid].choose_rows(RowView(
                seats[part], card[games], ends[games], counts[games], points[games], totals[games],
                penalty[games], draws.source(games, seats[part], turn, 1))))
        rows = self.config.rows
        if not ((out >= 0) & (out < rows)).all():
            raise ValueError(f"an array strategy picked a row outside 0..{rows - 1}")
        return out

    # ---- results (N17) ---------------------------------------------------------------------
    def write(self, g: dict[str, list], st: dict[str, list], labels: list[str], n: int) -> None:
        """Append the block's rows to the chunk's column lists, as play_range writes them."""
        config = self.config
        totals = self.totals
        if config.tie_break == "last_round":
            keys = totals * 1_000_000 + self.last
        else:
            keys = totals
        ranks = 1 + (keys[:, None, :] < keys[:, :, None]).sum(axis=2)
        first = ranks == 1
        wins = first / first.sum(axis=1, keepdims=True)
        scores = totals.astype(np.float64)
        size = self.size
        error = [""] * size
        rounds: list = self.rounds.tolist()
        if self.failed.any():
            cap = max_decision_steps(config, n)
            text = (ENGINE_ERROR + f"the game did not end within {cap} steps "
                    "(its hard step cap, Game.max_steps)")
            for k in np.flatnonzero(self.failed).tolist():
                error[k] = text
                rounds[k] = None
            scores[self.failed] = math.nan
            wins[self.failed] = math.nan
            ranks[self.failed] = n
        index, deal, rotation = self.index.tolist(), self.deal.tolist(), self.rotation.tolist()
        g["game"] += index
        g["deal"] += deal
        g["rotation"] += rotation
        g["n_players"] += [n] * size
        g["steps"] += self.steps.tolist()
        g["forfeit_seat"] += [-1] * size
        g["error"] += error
        g["draw"] += (~first.any(axis=1) & ~self.failed).tolist()
        g["rounds"] += rounds
        st["game"] += np.repeat(self.index, n).tolist()
        st["deal"] += np.repeat(self.deal, n).tolist()
        st["rotation"] += np.repeat(self.rotation, n).tolist()
        st["seat"] += np.tile(np.arange(n), size).tolist()
        slots = self.slots.reshape(-1).tolist()
        st["slot"] += slots
        st["strategy"] += [labels[k] for k in slots]
        st["score"] += scores.reshape(-1).tolist()
        st["rank"] += ranks.reshape(-1).tolist()
        st["win"] += wins.reshape(-1).tolist()
        st["forfeit"] += [False] * (size * n)
        st[ROUND_SCORES] += self._round_scores(rounds)

    def _round_scores(self, rounds: list) -> list[list[float]]:
        """The `round_scores` column: per seat row, its points in each round the game played
        (empty for a game without a result)."""
        n = self.n
        played = len(self.per_round)
        lists = np.stack(self.per_round, axis=2).astype(np.float64).reshape(-1, played).tolist()
        for k, count in enumerate(rounds):
            if count != played:             # a shorter match, or None (no result)
                for row in range(k * n, (k + 1) * n):
                    lists[row] = lists[row][:count or 0]
        return lists
