"""The Rummikub game state: deal, turns, validation of submissions, hand and match scoring."""

from __future__ import annotations

import numpy as np

from simkit.engine.cloning import Cloning
from simkit.engine.errors import IllegalAction
from simkit.engine.game import Outcome, State, outcome_from_scores
from simkit.games.rummikub import rules, views
from simkit.games.rummikub.actions import Draw, InitialMeld, Late, Pass, Play
from simkit.games.rummikub.config import RummikubConfig
from simkit.games.rummikub.rules import OVER, PLAY
from simkit.games.rummikub.tiles import N_TILES, Meld, sorted_tiles, tile_text
from simkit.games.rummikub.views import Observation


def _start_seat(config: RummikubConfig, n: int, rng: np.random.Generator) -> int:
    """R1: a uniform random seat, or the literal start-tile draw (jokers and ties redraw)."""
    if not config.emulate_start_draw:
        return int(rng.integers(n))
    contenders = list(range(n))
    while True:
        order = rng.permutation(N_TILES).tolist()
        picks = {}
        it = iter(order)
        for s in contenders:
            t = next(it)
            while t >= 104:
                t = next(it)
            picks[s] = (t >> 1) % 13 + 1
        best = max(picks.values())
        contenders = [s for s in contenders if picks[s] == best]
        if len(contenders) == 1:
            return contenders[0]


class RummikubState(State):
    acting: tuple[int, ...]
    events: list[tuple]
    public: list[tuple]         # the events every seat may see (drawn tiles hidden)
    cloning = Cloning(lists=("pool", "opened", "cum", "hand_scores", "hand_ends", "events", "public"),
                      nested=("racks",), generators=("rng",))

    def __init__(self, config: RummikubConfig, n_players: int, rng: np.random.Generator):
        config.check_players(n_players)
        self.config = config
        self.n = n_players
        self.rng = rng
        self.cum = [0.0] * n_players
        self.hand_scores: list[tuple[float, ...]] = []
        self.hand_ends: list[str] = []            # per finished hand: "out" (R19) or "exhausted" (R21)
        self.hand = -1
        self.turns = 0
        self.phase = PLAY
        self.events = []
        self.public = []
        self._new_hand()

    # ------------------------------------------------------------------ hands
    def _new_hand(self) -> None:
        cfg = self.config
        self.hand += 1
        self.seat = _start_seat(cfg, self.n, self.rng)
        self.hand_start_seat = self.seat      # R22's fewest_tiles tie-break counts seats from here
        self.acting = (self.seat,)
        if self.hand == 0:
            self.first_seat = self.seat
        order = self.rng.permutation(N_TILES).tolist()
        k = cfg.rack_size
        self.racks = [order[i * k:(i + 1) * k] for i in range(self.n)]
        self.pool = order[self.n * k:]
        self.table: tuple[Meld, ...] = ()
        self.opened = [False] * self.n
        self.passes = 0
        self.cycle_left = -1          # turns left under end_rule=one_more_cycle
        self.events.append(("hand_start", self.hand, self.seat, tuple(sorted_tiles(r) for r in self.racks)))
        self.public.append(("hand_start", self.hand, self.seat))

    def _end_hand(self, reason: str, winner: int | None) -> None:
        cfg = self.config
        winners: tuple[int, ...]
        if winner is not None:                      # went out
            values = [rules.rack_value(r, cfg.joker_points) for r in self.racks]
            scores = rules.score_going_out(values, winner)
            winners = (winner,)
        else:
            jp = cfg.joker_points if cfg.joker_penalty_when_exhausted else 0
            values = [rules.rack_value(r, jp) for r in self.racks]
            scores, winners = rules.score_exhausted(values, [len(r) for r in self.racks],
                                                    self.hand_start_seat, cfg.tie_rule)
        for i, s in enumerate(scores):
            self.cum[i] += s
        self.hand_scores.append(tuple(scores))
        self.hand_ends.append(reason)
        ev = ("hand_end", self.hand, reason, winners, tuple(scores), tuple(values),
              tuple(sorted_tiles(r) for r in self.racks))
        self.events.append(ev)
        self.public.append(ev)
        if self.hand + 1 < cfg.hands_per_match:
            self._new_hand()
        else:
            self.phase = OVER
            self.seat = -1
            self.acting = ()

    # ------------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        return self.acting

    def legal_actions(self, seat: int):
        """None: a play is a whole new table and cannot be listed; use `is_legal` and the
        move generators in `simkit.games.rummikub.moves` / `.solver`."""
        return None

    def violation(self, seat: int, action) -> rules.Violation | None:
        """Why `action` is not legal for `seat` now (None when it is legal)."""
        if seat != self.seat or self.phase == OVER:
            return rules.Violation("R8", None, f"it is not seat {seat}'s turn")
        if isinstance(action, Draw):
            return None if self.pool else rules.Violation("R10", None, "the pool is empty: pass instead")
        if isinstance(action, Pass):
            if self.pool:
                return rules.Violation("R8", None, "the pool is not empty: draw instead")
            return None
        if isinstance(action, Late):
            budget = self.config.time_budget_s
            return rules.Violation("R18", None, f"no submission within the time budget of {budget:g} s"
                                   if budget else "no submission in time")
        if isinstance(action, InitialMeld):
            if self.opened[seat]:
                return rules.Violation("R11", None,
                                       "the initial meld is already made: submit Play(final_table)")
            return rules.check_initial_meld(action.melds, self.racks[seat],
                                            min_points=self.config.initial_meld_points,
                                            jokers_allowed=self.config.joker_in_initial_meld)
        if isinstance(action, Play):
            if not self.opened[seat]:
                return rules.Violation("R11", None, "no initial meld yet: the first play is InitialMeld "
                                                    "from the rack only")
            return rules.check_play(self.table, action.table, self.racks[seat],
                                    retrieval=self.config.joker_retrieval)
        return rules.Violation("R8", None, f"{action!r} is not a Rummikub action "
                                           f"(Draw, Pass, InitialMeld, Play or Late)")

    def is_legal(self, seat: int, action) -> bool:
        return self.violation(seat, action) is None

    def apply(self, actions) -> None:
        if self.phase == OVER:
            raise IllegalAction("the game is over", seat=None, rule="R13")
        if len(actions) != 1:
            raise IllegalAction(f"expected one action for seat {self.seat}, got {len(actions)}",
                                seat=self.seat)
        action = actions[0]
        seat = self.seat
        if not isinstance(action, (Draw, Pass, InitialMeld, Play, Late)):
            raise IllegalAction(f"{action!r} is not a Rummikub action "
                                f"(Draw, Pass, InitialMeld, Play or Late)", seat=seat, rule="R8")
        bad = self.violation(seat, action)
        if bad is not None and (isinstance(action, (Draw, Pass)) or self.config.on_illegal == "raise"):
            raise IllegalAction(str(bad), seat=seat, rule=bad.rule)
        self.turns += 1
        pool_was_empty = not self.pool
        played = False
        if bad is not None:                               # R18: the configured consequence
            k = self.config.penalty_tiles if self.config.on_illegal == "penalty" else 1
            drawn = self._draw(seat, k)
            self.events.append(("illegal", seat, bad.rule, bad.meld, bad.message, drawn))
            self.public.append(("illegal", seat, bad.rule, bad.meld, bad.message, len(drawn)))
        elif isinstance(action, Draw):
            drawn = self._draw(seat, 1)
            self.events.append(("draw", seat, drawn[0]))
            self.public.append(("draw", seat))
        elif isinstance(action, Pass):
            self.events.append(("pass", seat))
            self.public.append(("pass", seat))
        else:
            played = True
            ev: tuple
            if isinstance(action, InitialMeld):
                added = tuple(t for m in action.melds for t in m.tiles)
                value = sum(rules.meld_value(m) for m in action.melds)
                self.table = self.table + tuple(action.melds)
                self.opened[seat] = True
                ev = ("initial_meld", seat, tuple(action.melds), value)
            else:
                assert isinstance(action, Play), "a late action always has a violation"
                before = {t for m in self.table for t in m.tiles}
                added = tuple(t for m in action.table for t in m.tiles if t not in before)
                ev = ("play", seat, self.table, tuple(action.table), added)
                self.table = tuple(action.table)
            gone = set(added)
            self.racks[seat] = [t for t in self.racks[seat] if t not in gone]
            self.events.append(ev)
            self.public.append(ev)
            if not self.racks[seat]:                      # R13: going out ends the hand at once
                self._end_hand("out", seat)
                return
        self._next_turn(played, pool_was_empty)

    def _draw(self, seat: int, k: int) -> tuple[int, ...]:
        k = min(k, len(self.pool))
        drawn = tuple(self.pool[len(self.pool) - k:][::-1]) if k else ()
        if k:
            del self.pool[len(self.pool) - k:]
            self.racks[seat].extend(drawn)
        return drawn

    def _next_turn(self, played: bool, pool_was_empty: bool) -> None:
        """R21: count passes with the pool empty and end the hand per `end_rule`."""
        cfg = self.config
        if played or not pool_was_empty:
            self.passes = 0
        else:
            self.passes += 1
        if cfg.end_rule == "pool_empty":
            if not self.pool:
                self._end_hand("exhausted", None)
                return
        elif cfg.end_rule == "one_more_cycle":
            if self.cycle_left > 0:
                self.cycle_left -= 1
            elif self.cycle_left < 0 and not self.pool:
                self.cycle_left = self.n if not pool_was_empty else self.n - 1
            if self.cycle_left == 0:
                self._end_hand("exhausted", None)
                return
        elif self.passes >= self.n:
            self._end_hand("exhausted", None)
            return
        self.seat = (self.seat + 1) % self.n
        self.acting = (self.seat,)

    def is_over(self) -> bool:
        return self.phase == OVER

    def outcome(self) -> Outcome:
        extras = {"hands": len(self.hand_scores), "turns": self.turns, "start_seat": self.first_seat,
                  "hands_went_out": self.hand_ends.count("out"),
                  "hands_exhausted": self.hand_ends.count("exhausted")}
        return outcome_from_scores(tuple(self.cum), True, extras,
                                   tuple(tuple(map(float, h)) for h in self.hand_scores))

    def observe(self, seat: int) -> Observation:
        return views.observe(self, seat)

    def determinize(self, seat: int, rng: np.random.Generator) -> RummikubState:
        return views.determinize(self, seat, rng)

    def audit(self) -> list[str]:
        return views.audit(self)

    def rack(self, seat: int) -> tuple[int, ...]:
        return sorted_tiles(self.racks[seat])

    def __repr__(self) -> str:
        racks = "; ".join(" ".join(tile_text(t) for t in sorted_tiles(r)) for r in self.racks)
        return (f"RummikubState(hand {self.hand}, seat {self.seat} to move, pool {len(self.pool)}, "
                f"racks {racks})")


def new_state(config: RummikubConfig, n_players: int, rng: np.random.Generator) -> RummikubState:
    return RummikubState(config, n_players, rng)
