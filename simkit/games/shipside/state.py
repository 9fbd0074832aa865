"""Shipside game state: card play beside ships, crew movement, scoring, octopus, rum, variant.

The phases are the constants of rules.py; `acting` holds the seats to act, set with the phase.
Listing legal actions lives in moves.py, applying an action in each phase in phases.py,
observations / determinize / audit in views.py; this module holds the setup, the resolution of
a placement (crew movement, scoring) and the turn order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from simkit.engine.cloning import Cloning
from simkit.engine.errors import IllegalAction
from simkit.engine.game import Outcome, State
from simkit.engine.public_log import PublicLog
from simkit.engine.running import Running
from simkit.games.shipside import moves, phases, rules, views
from simkit.games.shipside.actions import DIRECTIONS, END_TURN, Mark, Pick
from simkit.games.shipside.config import MARKS, ShipsideConfig
from simkit.games.shipside.phases import ALONE, BOTH
from simkit.games.shipside.rules import DIR, MAIN, MARK, OVER, PICK, RUM
from simkit.games.shipside.views import Observation, ShipView

_STEP = {"L": -1, "R": 1}

__all__ = ["ShipsideState", "Observation", "ShipView"]


def _copy_sides(state: ShipsideState) -> list:
    return [[a[:], b[:]] for a, b in state.sides]


def _copy_pending(state: ShipsideState) -> tuple | None:
    """A pending direction choice: (chooser, directions, the resolution's stage list)."""
    if state.pending is None:
        return None
    chooser, dirs, st = state.pending
    return (chooser, dirs, st[:])


def _copy_own(state: ShipsideState) -> list | None:
    return None if state.own is None else [o[:] for o in state.own]


def _copy_running(state: ShipsideState) -> Running:
    return state.running.copy()


def _no_open_places(state: ShipsideState) -> list:
    return [None, None]         # as after _forget_board: moves.py finds them again


class ShipsideState(State):
    __slots__ = ("config", "T", "rng", "row", "sides", "tot", "mugs", "crew",
                 "octo_on", "octo_at", "octo_spent", "hands", "piles", "pile_of", "out",
                 "captured", "crew_won", "crew_out", "ships_out", "score", "rum_left",
                 "rum_turn", "phase", "acting", "cur", "first", "pending", "turn", "passes", "reason",
                 "events", "marks", "own", "n_octo", "n_rum", "_open", "_crew", "public_log", "running")
    cloning = Cloning(lists=("row", "octo_on", "octo_at", "octo_spent", "out", "crew_out", "ships_out",
                             "score", "rum_left", "events"),
                      nested=("tot", "mugs", "crew", "hands", "piles", "captured", "crew_won"),
                      generators=("rng",), reset={"_crew": None, "public_log": None},
                      computed={"sides": _copy_sides, "pending": _copy_pending, "own": _copy_own,
                                "_open": _no_open_places, "running": _copy_running})

    config: ShipsideConfig
    T: rules.Tables
    rng: np.random.Generator
    row: list[int]                      # ship ids in play, in row order
    sides: list[list[list[int]]]        # ship id -> side (A, B) -> card ids
    tot: list[list[int]]                # ship id -> side -> strength total
    mugs: list[list[int]]               # ship id -> owner seat of each rum mug
    crew: list[list[int]]               # ship id -> crew token ids
    octo_on: list[int]                  # card id -> seat whose octopus is on it, or -1
    octo_at: list[int]                  # seat -> card its octopus is on, or -1
    octo_spent: list[bool]
    hands: list[list[int]]
    piles: list[list[int]]              # one shared draw pile, or one per seat (variant)
    pile_of: tuple[int, int]            # seat -> its draw pile
    out: list[int]                      # cards of scored ships
    captured: list[list[int]]           # seat -> ship ids it captured
    crew_won: list[list[int]]
    crew_out: list[int]
    ships_out: list[int]
    score: list[int]
    running: Running                    # the arc: simkit/engine/running.py
    rum_left: list[int]
    rum_turn: bool
    phase: str
    acting: tuple[int, ...]
    cur: int
    first: int
    #: phase dir: (chooser, directions it may pick, the resolution waiting for it: see _resolve)
    pending: tuple[int, tuple[str, ...], list[Any]] | None
    turn: int
    passes: int
    reason: str
    events: list[tuple]
    marks: tuple[str, ...] | None       # variant: each seat's mark (two)
    own: list[list[int]] | None         # variant: each seat's own deck while picking
    n_octo: int
    n_rum: int
    #: seat -> (open place ids, their getter) kept by moves.py, or None
    _open: list[tuple[tuple[int, ...], Callable[[tuple], tuple]] | None]
    _crew: moves.CrewMoves | None       # the crew's possible moves kept by moves.py
    public_log: PublicLog | None        # views.determinize's cache: the log in public form

    def __init__(self, config: ShipsideConfig, n_players: int, rng: np.random.Generator):
        config.check_players(n_players)
        T = rules.tables(config)
        self.config, self.T, self.rng = config, T, rng
        self.public_log = None
        self._forget_board(crew=True)
        n_ships = len(T.defense)
        self.row = rules.ship_row(T.defense, config.setup.ship_order, rng)          # S10
        self.sides = [[[], []] for _ in range(n_ships)]
        self.tot = [[0, 0] for _ in range(n_ships)]
        self.mugs = [[] for _ in range(n_ships)]
        self.crew = [[] for _ in range(n_ships)]
        for ship, tokens in rules.crew_start(config, self.row, len(T.crew_kind)).items():  # S11
            self.crew[ship].extend(tokens)
        self.octo_on = [-1] * T.n_cards
        self.octo_at = [-1, -1]
        self.octo_spent = [False, False]
        self.out = []
        self.captured = [[], []]
        self.crew_won = [[], []]
        self.crew_out = []
        self.ships_out = []
        self.score = [0, 0]
        self.running = Running()        # the arc: points after each round of turns
        self.rum_left = [config.rum.uses_per_player] * 2                           # S9, S47
        self.rum_turn = False
        self.pending = None
        self.turn = 0
        self.passes = 0
        self.reason = ""
        self.n_octo = 0
        self.n_rum = 0
        fp = config.setup.first_player                                             # S14
        self.first = int(rng.integers(2)) if fp == "random" else int(fp)
        self.cur = self.first
        self.events = [("setup", tuple(T.defense[s] for s in self.row),
                        tuple((T.defense[s], T.crew_kind[t]) for s in self.row for t in self.crew[s]),
                        self.first)]
        hs = config.setup.hand_size
        if not config.variant.enabled:
            deck = rng.permutation(T.n_cards).tolist()                             # S12
            self.hands = [deck[:hs], deck[hs:2 * hs]]
            self.piles = [deck[2 * hs:]]
            self.pile_of = (0, 0)
            self.marks = None
            self.own = None
            self.events.append(("deal", tuple(self.hands[0]), tuple(self.hands[1])))
            self.phase, self.acting = MAIN, ALONE[self.cur]
            self._start_turn()
            return
        # §10 variant: personal decks (S56), chosen opening hands (S57)
        self.hands = [[], []]
        self.piles = [[], []] if config.variant.personal_decks else [[]]
        self.pile_of = (0, 1) if config.variant.personal_decks else (0, 0)
        if config.variant.mark_assignment == "random":
            self._assign_marks(int(rng.integers(2)))
        else:
            self.marks = None
            self.own = None
            self.phase, self.acting = MARK, ALONE[self.first]

    # ------------------------------------------------------------------ variant setup
    def _assign_marks(self, starfish_seat: int) -> None:
        """S56: seat `starfish_seat` takes every starfish card, the other every shell card."""
        self.marks = ("starfish", "shell") if starfish_seat == 0 else ("shell", "starfish")
        mark_id = [MARKS.index(m) for m in self.marks]
        self.own = [[c for c in range(self.T.n_cards) if self.T.mark[c] == mark_id[s]] for s in (0, 1)]
        self.events.append(("marks", self.marks))
        self.phase, self.acting = PICK, BOTH

    def _finish_picks(self) -> None:
        """S57, S58: the unpicked cards are shuffled into each player's own pile (or one shared)."""
        rng = self.rng
        own = self._own_decks()
        if self.config.variant.personal_decks:
            for s in (0, 1):
                rest = own[s]
                self.piles[s] = [rest[i] for i in rng.permutation(len(rest)).tolist()]
        else:
            rest = own[0] + own[1]
            self.piles[0] = [rest[i] for i in rng.permutation(len(rest)).tolist()]
        self.own = [[], []]
        self.events.append(("deal", tuple(self.hands[0]), tuple(self.hands[1])))
        self.phase, self.acting = MAIN, ALONE[self.cur]
        self._start_turn()

    # ------------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        return self.acting

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int):
        ph = self.phase
        if ph == MAIN:
            return self._main_actions(seat) if seat == self.cur else []
        if ph == RUM:
            if seat != self.cur:
                return []
            return [END_TURN] + moves.rum_actions(self, "after")
        if ph == DIR:
            chooser, dirs, _ = self._pending()
            if seat != chooser:
                return []
            return [d for d in DIRECTIONS if d.dir in dirs]
        if ph == PICK:
            if len(self.hands[seat]) >= self.config.setup.hand_size:
                return []
            kinds = self.T.kind
            return [Pick(*k) for k in dict.fromkeys(kinds[c] for c in self._own_decks()[seat])]
        if ph == MARK:
            return [Mark(m) for m in MARKS] if seat == self.first else []
        return []

    def _own_decks(self) -> list[list[int]]:
        """The own decks of the variant's opening picks (phase pick)."""
        assert self.own is not None, "no own decks outside the variant's picks"
        return self.own

    def _pending(self) -> tuple[int, tuple[str, ...], list[Any]]:
        """The direction choice waited for (phase dir)."""
        assert self.pending is not None, "no direction choice is pending"
        return self.pending

    def is_legal(self, seat: int, action) -> bool:
        return action in self.legal_actions(seat)

    # listing moves (moves.py)
    _rum_ships = moves.rum_ships
    _dirs = moves.dirs
    _frozen = moves.frozen
    _main_actions = moves.main_actions
    _octopus_ready = moves.octopus_ready
    _can_act = moves.can_act

    # ------------------------------------------------------------------ apply (phases.py)
    def apply(self, actions) -> None:
        ph = self.phase
        if ph == OVER:
            raise IllegalAction("the game is over: no more actions", seat=None, rule="S53")
        if ph == PICK:
            phases.apply_picks(self, actions)
            return
        if len(actions) != 1:
            raise IllegalAction(f"expected 1 action for seat {self.to_act()[0]}, got {len(actions)}",
                                seat=self.to_act()[0])
        a = actions[0]
        if ph == MAIN:
            phases.apply_main(self, a)
        elif ph == RUM:
            phases.apply_rum_after(self, a)
        elif ph == DIR:
            phases.apply_direction(self, a)
        else:
            phases.apply_mark(self, a)

    # ------------------------------------------------------------------ resolution
    def _put(self, card: int, s: int, side: int) -> None:
        cards = self.sides[s][side]
        cards.append(card)
        self.tot[s][side] += self.T.value[card]
        if len(cards) >= self.config.rules.max_cards_per_side:                    # S20: now full
            self._forget_board(crew=False)

    def _forget_board(self, crew: bool) -> None:
        """Drop what moves.py keeps on the state: the open places per seat (after a side filled
        or emptied or a ship left) and, with `crew`, the crew's possible moves."""
        self._open = [None, None]
        if crew:
            self._crew = None

    def _resolve(self, st: list) -> None:
        """S21 / S42: after placing: crew movement, ship check, origin check (S45), draw (S22).

        `st` = [actor, ship, side, card, origin ship or -1, is_play, direction, stage]; the stage
        lets a pending owner's direction choice (movement.chooser=owner) resume the sequence.
        """
        cfg = self.config
        p, s, side, card, origin, is_play, d, stage = st
        placement = is_play or cfg.octopus.as_placement
        before = cfg.movement.before_scoring
        sym = self.T.sym[card]
        if stage == 0:
            if placement and before and sym and self._crew_waits(st, 0):
                return
            if placement and s in self.row and self.phase != OVER:
                self._check_ship(s, p)                                              # S31-S34
        if placement and not before and sym and self._crew_waits(st, 2):            # S30
            return
        if (placement and origin >= 0 and origin != s and cfg.octopus.check_origin
                and origin in self.row and self.phase != OVER):
            self._check_ship(origin, p)                                             # S45
        if self.phase != OVER and (is_play or cfg.octopus.draw):
            pile = self.piles[self.pile_of[p]]                                      # S22, S41
            if pile:
                c = pile.pop()
                self.hands[p].append(c)
                self.events.append(("draw", p, c))
        if self.phase != OVER:
            self._end_action(p)

    def _crew_waits(self, st: list, stage: int) -> bool:
        """S23-S25: the crew on the ship a symbol card came to moves (or stays where it cannot);
        True when the side's owner must choose the direction first (resolution waits at `stage`).
        The caller has checked that the card carries the symbol."""
        p, s, side, _, _, _, d, _ = st
        if s not in self.row or self.phase == OVER:
            return False
        dirs = self._dirs(s)
        if dirs:
            chooser = p if self.config.movement.chooser == "player" else side
            if d is None:
                if chooser == p:
                    raise AssertionError("direction missing")  # validated before
                st[7] = stage
                self.pending = (chooser, dirs, st)
                self.phase, self.acting = DIR, ALONE[chooser]
                return True
            self._move_crew(s, d, chooser)
        elif self.crew[s]:
            self.events.append(("stay", self.T.defense[s]))
        return False

    def _move_crew(self, s: int, d: str, chooser: int) -> None:
        """S23, S26-S28: the (first) token on ship `s` moves in direction `d`."""
        m = self.config.movement
        target = rules.move_target(self.row, self.crew, s, _STEP[d], m.wrap_around, m.skip_occupied,
                                   self.config.crew.max_per_ship)
        token = self.crew[s].pop(0)
        self.crew[target].append(token)
        self._crew = None
        self.events.append(("move", token, self.T.defense[s], self.T.defense[target], chooser, d))

    def _check_ship(self, s: int, actor: int) -> None:
        cfg = self.config
        side = self.sides[s]
        t = self.tot[s]
        thr = rules.threshold(self.T.defense[s], len(self.mugs[s]), cfg.rum.defense_bonus)
        maxc = cfg.rules.max_cards_per_side
        if t[0] < thr and t[1] < thr and (len(side[0]) < maxc or len(side[1]) < maxc):
            return                          # the usual case: neither S32 nor S33 can apply
        res = rules.ship_result(t[0], t[1], len(side[0]), len(side[1]), thr,
                                cfg.rules.max_cards_per_side, cfg.scoring.threshold_inclusive, actor)
        if res is None:
            return
        winner, how = res
        self._forget_board(crew=True)                                               # sides empty
        T = self.T
        crew = self.crew[s]
        self.events.append(("score", T.defense[s], winner, how, t[0], t[1], thr,
                            tuple(T.crew_kind[c] for c in crew)))
        # S36, S37: cards leave the game, octopi go home
        for a in (0, 1):
            for c in side[a]:
                o = self.octo_on[c]
                if o >= 0:
                    self.octo_on[c] = -1
                    self.octo_at[o] = -1
                self.out.append(c)
            side[a] = []
        t[0] = t[1] = 0
        if winner < 0 and cfg.scoring.full_tie == "stay":                         # S34 alternative
            return
        # S38: rum mugs leave (or return to their owner)
        if self.mugs[s]:
            if cfg.rum.on_scored == "returned":
                for o in self.mugs[s]:
                    self.rum_left[o] += 1
            self.mugs[s] = []
        self.row.remove(s)
        if winner < 0:                                                             # S34
            self.ships_out.append(s)
            self.crew_out.extend(crew)
        else:                                                                      # S32, S33, S35
            self.captured[winner].append(s)
            self.crew_won[winner].extend(crew)
            self.score[winner] += cfg.scoring.ship_points + sum(T.crew_points[c] for c in crew)
        self.crew[s] = []
        goal = cfg.end.points_to_win                                               # S53
        if winner >= 0 and goal and self.score[winner] >= goal:
            self._end("points")
        elif not self.row:
            self._end("all scored")

    # ------------------------------------------------------------------ turns
    def _end_action(self, p: int) -> None:
        cfg = self.config
        if cfg.rum.timing == "either" and self.rum_left[p] > 0 and not self.rum_turn and self._rum_ships():
            self.phase = RUM                                                       # p acts on
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.cur = 1 - self.cur
        self.turn += 1
        if self.running.turn_end(self.turn % 2 == 0):
            self.running.push(self.score)
        self.phase, self.acting = MAIN, ALONE[self.cur]
        self._start_turn()

    def _start_turn(self) -> None:
        self.rum_turn = False
        if self.turn >= self.config.end.max_turns:
            self._end("turn cap")
            return
        self.events.append(("turn", self.turn, self.cur))
        if not self.config.rules.pass_when_stuck and not self._can_act(self.cur):
            self._end("stuck")

    def _end(self, reason: str) -> None:
        if reason not in ("turn cap", "stuck"):     # ended during a turn: that turn counts
            if self.running.turn_end((self.turn + 1) % 2 == 0):
                self.running.push(self.score)
        self.phase, self.acting = OVER, ()
        self.reason = reason
        self.events.append(("end", reason, tuple(self.score)))

    def outcome(self) -> Outcome:
        shares = rules.final_result(self.score, [len(self.captured[0]), len(self.captured[1])],
                                    self.config.end.tie_result)
        if shares[0] == shares[1]:
            ranks = (1, 1)
        else:
            ranks = (1, 2) if shares[0] > shares[1] else (2, 1)
        return Outcome(tuple(float(x) for x in self.score), ranks, tuple(shares),
                       {"turns": self.turn, "start_seat": self.first,
                        "end_reason": self.reason or "running",
                        "ships_scored": len(self.T.defense) - len(self.row),
                        "ships_removed": len(self.ships_out), "octopus_moves": self.n_octo,
                        "rum_mugs": self.n_rum}, running=self.running.close(self.score))

    # ------------------------------------------------------------------ views (views.py)
    observe = views.observe
    determinize = views.determinize
    audit = views.audit
    _ship_of_card = views.ship_of_card



def new_state(config: ShipsideConfig, n_players: int, rng: np.random.Generator) -> ShipsideState:
    """A game set up and ready for its first decision (the variant's: its marks or picks)."""
    return ShipsideState(config, n_players, rng)


if TYPE_CHECKING:     # determinize is bound above: mypy checks what it reads here
    _hidden: type[views.HiddenCards] = ShipsideState
