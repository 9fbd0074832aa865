"""Shipside game state: card play beside ships, crew movement, scoring, octopus, rum, variant.

Phases: `mark` (variant, start player takes a mark), `pick` (variant, both players choose their
opening hand one card at a time, simultaneously), `main` (the player to move plays a card, uses
the octopus, places rum before the action, or passes), `dir` (movement.chooser=owner: the
owner of the side picks the crew's direction), `rum` (rum.timing=either: rum after the action
or end the turn), `over`.
"""

from __future__ import annotations

import copy
from typing import NamedTuple

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.core.game import Outcome, State, ranks_from_scores
from simkit.games.shipside import rules
from simkit.games.shipside.actions import (DIRECTIONS, END_TURN, PASS, Direction, EndTurn, Mark,
                                           Octopus, Pass, Pick, Play, Rum)
from simkit.games.shipside.config import MARKS, ShipsideConfig

MARK, PICK, MAIN, DIR, RUM, OVER = "mark", "pick", "main", "dir", "rum", "over"
_STEP = {"L": -1, "R": 1}
_new = tuple.__new__
_DIRS = {(False, False): (), (True, False): ("L",), (False, True): ("R",), (True, True): ("L", "R")}


class ShipView(NamedTuple):
    """One ship still in play, as both players see it."""

    defense: int
    threshold: int                  # defense + rum bonus (S48)
    mugs: tuple[int, ...]           # owner seat of each rum mug on it
    crew: tuple[str, ...]           # crew tokens standing on it
    cards: tuple[tuple[tuple[int, bool, int], ...], ...]  # per side: (strength, symbol, octopus owner or -1)
    totals: tuple[int, int]         # strength total of side A (seat 0) and side B (seat 1)


class Observation(NamedTuple):
    """What one seat may see: everything except the other hand and the draw piles' order."""

    seat: int
    phase: str
    to_move: int
    turn: int
    row: tuple[ShipView, ...]       # ships in play, in row order (S27: gaps closed)
    hand: tuple[tuple[int, bool], ...]  # own hand (strength, symbol), sorted
    opp_hand: int                   # size of the other hand
    piles: tuple[int, ...]          # draw pile sizes (one shared, or one per seat in the variant)
    scores: tuple[int, int]
    rum_left: tuple[int, int]
    octopus: tuple[str, str]        # per seat: 'supply', 'on <ship>' or 'spent'
    captured: tuple[tuple[int, ...], tuple[int, ...]]  # defenses of captured ships per seat
    marks: tuple[str, ...] | None   # variant: each seat's mark
    pending_dirs: tuple[str, ...]   # phase dir: directions the chooser may pick
    pending_ship: int               # phase dir: defense of the ship whose crew moves, else -1


class ShipsideState(State):
    __slots__ = ("config", "T", "rng", "row", "start_row", "sides", "tot", "mugs", "crew",
                 "octo_on", "octo_at", "octo_spent", "hands", "piles", "pile_of", "out",
                 "captured", "crew_won", "crew_out", "ships_out", "score", "rum_left",
                 "rum_turn", "phase", "cur", "first", "pending", "turn", "passes", "reason",
                 "events", "marks", "own", "n_octo", "n_rum")

    def __init__(self, config: ShipsideConfig, n_players: int, rng: np.random.Generator,
                 _empty: bool = False):
        if _empty:
            return
        config.check_players(n_players)
        T = rules.tables(config)
        self.config, self.T, self.rng = config, T, rng
        n_ships = len(T.defense)
        self.row = rules.ship_row(T.defense, config.setup.ship_order, rng)          # S10
        self.start_row = tuple(self.row)
        self.sides = [[[], []] for _ in range(n_ships)]
        self.tot = [[0, 0] for _ in range(n_ships)]
        self.mugs = [[] for _ in range(n_ships)]
        self.crew = [[] for _ in range(n_ships)]
        for ship, token in rules.crew_start(T.defense, self.row, config.setup.crew_start,
                                            len(T.crew_kind)).items():             # S11
            self.crew[ship].append(token)
        self.octo_on = [-1] * T.n_cards
        self.octo_at = [-1, -1]
        self.octo_spent = [False, False]
        self.out: list[int] = []
        self.captured = [[], []]
        self.crew_won = [[], []]
        self.crew_out: list[int] = []
        self.ships_out: list[int] = []
        self.score = [0, 0]
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
            self.phase = MAIN
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
            self.phase = MARK

    # ------------------------------------------------------------------ variant setup
    def _assign_marks(self, starfish_seat: int) -> None:
        """S56: seat `starfish_seat` takes every starfish card, the other every shell card."""
        self.marks = ("starfish", "shell") if starfish_seat == 0 else ("shell", "starfish")
        mark_id = [MARKS.index(m) for m in self.marks]
        self.own = [[c for c in range(self.T.n_cards) if self.T.mark[c] == mark_id[s]] for s in (0, 1)]
        self.events.append(("marks", self.marks))
        self.phase = PICK

    def _finish_picks(self) -> None:
        """S57, S58: the unpicked cards are shuffled into each player's own pile (or one shared)."""
        rng = self.rng
        if self.config.variant.personal_decks:
            for s in (0, 1):
                rest = self.own[s]
                self.piles[s] = [rest[i] for i in rng.permutation(len(rest)).tolist()]
        else:
            rest = self.own[0] + self.own[1]
            self.piles[0] = [rest[i] for i in rng.permutation(len(rest)).tolist()]
        self.own = [[], []]
        self.events.append(("deal", tuple(self.hands[0]), tuple(self.hands[1])))
        self.phase = MAIN
        self._start_turn()

    # ------------------------------------------------------------------ protocol
    def to_act(self) -> tuple[int, ...]:
        ph = self.phase
        if ph == OVER:
            return ()
        if ph == PICK:
            return (0, 1)
        if ph == DIR:
            return (self.pending[0],)
        return (self.cur,)

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int):
        ph = self.phase
        if ph == MAIN:
            return self._main_actions(seat) if seat == self.cur else []
        if ph == RUM:
            if seat != self.cur:
                return []
            return [END_TURN] + [Rum(self.T.defense[s], "after") for s in self._rum_ships()]
        if ph == DIR:
            if seat != self.pending[0]:
                return []
            return [d for d in DIRECTIONS if d.dir in self.pending[1]]
        if ph == PICK:
            if len(self.hands[seat]) >= self.config.setup.hand_size:
                return []
            kinds = self.T.kind
            return [Pick(*k) for k in dict.fromkeys(kinds[c] for c in self.own[seat])]
        if ph == MARK:
            return [Mark(m) for m in MARKS] if seat == self.first else []
        return []

    def is_legal(self, seat: int, action) -> bool:
        try:
            legal = self.legal_actions(seat)
        except Exception:
            return False
        return action in legal

    def _rum_ships(self) -> list[int]:
        cap = self.config.rum.max_per_ship                                        # S52
        return [s for s in self.row if len(self.mugs[s]) < cap]

    def _dirs(self, ship: int, check_frozen: bool = True) -> tuple[str, ...]:
        """S23-S29: directions in which the crew on `ship` can move (() = nobody moves)."""
        crew = self.crew
        if not crew[ship]:
            return ()                                                               # S24
        m = self.config.movement
        row = self.row
        if check_frozen and self._frozen():                                         # S29
            return ()
        mx = self.config.crew.max_per_ship
        left = rules.move_target(row, crew, ship, -1, m.wrap_around, m.skip_occupied, mx) >= 0
        right = rules.move_target(row, crew, ship, 1, m.wrap_around, m.skip_occupied, mx) >= 0
        return _DIRS[left, right]

    def _frozen(self) -> bool:
        crew = self.crew
        return rules.frozen(self.row, sum([len(crew[s]) for s in self.row]),
                            self.config.movement.freeze_when_full)

    def _main_actions(self, p: int) -> list:
        cfg = self.config
        T = self.T
        maxc = cfg.rules.max_cards_per_side
        sides_allowed = (0, 1) if cfg.rules.play_on_any_side else (p,)
        player_chooses = cfg.movement.chooser == "player"
        sides = self.sides
        defense = T.defense
        crew = self.crew
        new = _new
        out: list = []
        open_places = [(s, a) for s in self.row for a in sides_allowed if len(sides[s][a]) < maxc]
        plain = [(defense[s], a, None) for s, a in open_places]
        moving = None           # places with the crew directions a symbol card offers (S23-S25)

        def symbol_places():
            opts = []
            cache: dict[int, tuple] = {}
            still = self._frozen()
            for s, a in open_places:
                if crew[s] and not still and (player_chooses or a == p):
                    dirs = cache.get(s)
                    if dirs is None:
                        dirs = cache[s] = self._dirs(s, False)
                else:
                    dirs = ()
                if dirs:
                    opts.extend((defense[s], a, d) for d in dirs)
                else:
                    opts.append((defense[s], a, None))
            return opts

        for value, sym in dict.fromkeys(T.kind[c] for c in self.hands[p]):       # S19, S20
            if sym:
                if moving is None:
                    moving = symbol_places()
                out += [new(Play, (value, True, d, a, dr, "play")) for d, a, dr in moving]
            else:
                out += [new(Play, (value, False, d, a, None, "play")) for d, a, _ in plain]
        if self._octopus_ready(p):                                                  # S40-S46
            as_place = cfg.octopus.as_placement
            octo_on = self.octo_on
            mine = self.octo_at[p] if cfg.octopus.reuse == "free" else -2   # free: own card unprotected
            kind = T.kind
            for s1 in self.row:
                d1 = defense[s1]
                for a1 in (0, 1):
                    cards = sides[s1][a1]
                    if not cards:
                        continue
                    for value, sym in dict.fromkeys(kind[c] for c in cards if octo_on[c] < 0 or c == mine):
                        if sym and as_place:
                            if moving is None:
                                moving = symbol_places()
                            opts = moving
                        else:
                            opts = plain
                        out += [new(Octopus, (value, sym, d1, a1, d, a, dr, "octopus"))
                                for d, a, dr in opts if d != d1 or a != a1]
        if not out:
            out.append(PASS)                                                        # S18
        if self.rum_left[p] > 0 and not self.rum_turn:                              # S17, S47
            out.extend(Rum(defense[s], "before") for s in self._rum_ships())
        return out

    def _octopus_ready(self, p: int) -> bool:
        """S44: the octopus is in the supply (reuse=on_return), never used (once), or always (free)."""
        reuse = self.config.octopus.reuse
        if reuse == "free":
            return True
        if reuse == "once":
            return not self.octo_spent[p]
        return self.octo_at[p] < 0

    def _can_act(self, p: int) -> bool:
        """S18: whether `p` can play a card or use the octopus (else p must pass)."""
        maxc = self.config.rules.max_cards_per_side
        sides_allowed = (0, 1) if self.config.rules.play_on_any_side else (p,)
        open_places = [(s, a) for s in self.row for a in sides_allowed if len(self.sides[s][a]) < maxc]
        if self.hands[p] and open_places:
            return True
        if not self._octopus_ready(p):
            return False
        for s1 in self.row:
            for a1 in (0, 1):
                if any(self.octo_on[c] < 0 or (c == self.octo_at[p] and self.config.octopus.reuse == "free")
                       for c in self.sides[s1][a1]):
                    if any((s2, a2) != (s1, a1) for s2, a2 in open_places):
                        return True
        return False

    # ------------------------------------------------------------------ apply
    def apply(self, actions) -> None:
        ph = self.phase
        if ph == OVER:
            raise IllegalAction("the game is over: no more actions", seat=None, rule="S53")
        if ph == PICK:
            self._apply_picks(actions)
            return
        if len(actions) != 1:
            raise IllegalAction(f"expected 1 action for seat {self.to_act()[0]}, got {len(actions)}",
                                seat=self.to_act()[0])
        a = actions[0]
        if ph == MAIN:
            self._apply_main(a)
        elif ph == RUM:
            self._apply_rum_after(a)
        elif ph == DIR:
            self._apply_direction(a)
        else:
            self._apply_mark(a)

    def _apply_mark(self, a) -> None:
        if type(a) is not Mark or a.mark not in MARKS:
            raise IllegalAction(f"{a!r}: the start player must take a mark (take starfish / take "
                                f"shell)", seat=self.first, rule="S56")
        self._assign_marks(self.first if a.mark == "starfish" else 1 - self.first)

    def _apply_picks(self, actions) -> None:
        if len(actions) != 2:
            raise IllegalAction(f"both seats choose a card at once: expected 2 actions, got "
                                f"{len(actions)}", seat=None, rule="S57")
        chosen = []
        for s, a in enumerate(actions):
            if type(a) is not Pick:
                raise IllegalAction(f"{a!r}: seat {s} must pick a card of its own deck", seat=s, rule="S57")
            card = self._find(self.own[s], (a.value, a.sym))
            if card < 0:
                raise IllegalAction(f"{a}: seat {s} has no such card left in its own deck", seat=s,
                                    rule="S57")
            chosen.append(card)
        for s, card in enumerate(chosen):
            self.own[s].remove(card)
            self.hands[s].append(card)
            self.events.append(("pick", s, card))
        if len(self.hands[0]) >= self.config.setup.hand_size:
            self._finish_picks()

    def _find(self, cards: list[int], kind: tuple[int, bool]) -> int:
        k = self.T.kind
        for c in cards:
            if k[c] == kind:
                return c
        return -1

    def _find_free(self, cards: list[int], kind: tuple[int, bool], p: int) -> int:
        """S43: a card of that kind carrying no octopus (reuse=free: or only p's own)."""
        k = self.T.kind
        mine = self.octo_at[p] if self.config.octopus.reuse == "free" else -2
        for c in cards:
            if k[c] == kind and (self.octo_on[c] < 0 or c == mine):
                return c
        return -1

    def _ship_in_play(self, defense: int, p: int) -> int:
        s = self.T.ship_of.get(defense, -1)
        if s < 0 or s not in self.row:
            raise IllegalAction(f"ship {defense} is not in play: ships in play are "
                                f"{[self.T.defense[x] for x in self.row]}", seat=p, rule="S27")
        return s

    def _check_place(self, s: int, side: int, p: int, what) -> None:
        if side not in (0, 1):
            raise IllegalAction(f"{what}: side must be A or B", seat=p, rule="S19")
        if not self.config.rules.play_on_any_side and side != p:
            raise IllegalAction(f"{what}: only your own side (rules.play_on_any_side=false)",
                                seat=p, rule="S19")
        if len(self.sides[s][side]) >= self.config.rules.max_cards_per_side:
            raise IllegalAction(f"{what}: that side already holds "
                                f"{self.config.rules.max_cards_per_side} cards", seat=p, rule="S20")

    def _check_dir(self, s: int, card: int, side: int, p: int, d, what, placement: bool) -> None:
        """S25: the acting player names a direction exactly when they must choose one."""
        needed = ()
        if placement and self.T.sym[card] and (self.config.movement.chooser == "player" or side == p):
            needed = self._dirs(s)
        if needed:
            if d not in needed:
                raise IllegalAction(f"{what}: the crew on {self.T.defense[s]} must move; choose a "
                                    f"direction among {list(needed)}", seat=p, rule="S25")
        elif d is not None:
            raise IllegalAction(f"{what}: no crew movement for you to direct here", seat=p, rule="S23")

    def _apply_main(self, a) -> None:
        p = self.cur
        t = type(a)
        if t is Rum:
            self._place_rum(a, p, "before")
            return
        if t is Play:
            s = self._ship_in_play(a.ship, p)
            card = self._find(self.hands[p], (a.value, a.sym))
            if card < 0:
                raise IllegalAction(f"{a}: no such card in hand", seat=p, rule="S19")
            self._check_place(s, a.side, p, a)
            self._check_dir(s, card, a.side, p, a.dir, a, True)
            self.passes = 0
            self.hands[p].remove(card)
            self._put(card, s, a.side)
            self.events.append(("play", p, card, a.ship, a.side))
            self.pending = None
            self._resolve([p, s, a.side, card, -1, True, a.dir, 0])
            return
        if t is Octopus:
            if not self._octopus_ready(p):
                raise IllegalAction(f"{a}: your octopus is not available (octopus.reuse="
                                    f"{self.config.octopus.reuse})", seat=p, rule="S44")
            s1 = self._ship_in_play(a.src_ship, p)
            s = self._ship_in_play(a.ship, p)
            if a.src_side not in (0, 1):
                raise IllegalAction(f"{a}: side must be A or B", seat=p, rule="S40")
            card = self._find_free(self.sides[s1][a.src_side], (a.value, a.sym), p)
            if card < 0:
                raise IllegalAction(f"{a}: no such card without an octopus there", seat=p, rule="S43")
            if s1 == s and a.src_side == a.side:
                raise IllegalAction(f"{a}: the card must move to another side", seat=p, rule="S46")
            self._check_place(s, a.side, p, a)
            self._check_dir(s, card, a.side, p, a.dir, a, self.config.octopus.as_placement)
            self.passes = 0
            old = self.octo_at[p]
            if old >= 0:                                                           # reuse=free
                self.octo_on[old] = -1
            src = self.sides[s1][a.src_side]
            src.remove(card)
            self.tot[s1][a.src_side] -= self.T.value[card]
            self._put(card, s, a.side)
            self.octo_on[card] = p
            self.octo_at[p] = card
            self.octo_spent[p] = True
            self.n_octo += 1
            self.events.append(("octopus", p, card, a.src_ship, a.src_side, a.ship, a.side))
            self._resolve([p, s, a.side, card, s1, False, a.dir, 0])
            return
        if t is Pass:
            if self._can_act(p):
                raise IllegalAction("you may pass only when you can neither play a card nor use the "
                                    "octopus", seat=p, rule="S18")
            self.events.append(("pass", p))
            self.passes += 1
            if self.passes >= 2:
                self._end("stalled")
                return
            self._end_action(p)
            return
        raise IllegalAction(f"{a!r} is not an action of this phase: play a card, use the octopus, "
                            f"place rum or pass", seat=p, rule="S16")

    def _place_rum(self, a, p: int, when: str) -> None:
        if a.when != when:
            raise IllegalAction(f"{a}: rum now means rum '{when}' (rum.timing="
                                f"{self.config.rum.timing})", seat=p, rule="S17")
        if self.rum_left[p] <= 0 or self.rum_turn:
            raise IllegalAction(f"{a}: no rum mug left this game", seat=p, rule="S47")
        s = self._ship_in_play(a.ship, p)
        if len(self.mugs[s]) >= self.config.rum.max_per_ship:
            raise IllegalAction(f"{a}: ship {a.ship} already carries "
                                f"{self.config.rum.max_per_ship} mug(s)", seat=p, rule="S52")
        self.rum_left[p] -= 1
        self.rum_turn = True
        self.mugs[s].append(p)
        self.n_rum += 1
        self.events.append(("rum", p, a.ship, when,
                            rules.threshold(a.ship, len(self.mugs[s]), self.config.rum.defense_bonus)))

    def _apply_rum_after(self, a) -> None:
        p = self.cur
        if type(a) is EndTurn:
            self._next_turn()
            return
        if type(a) is not Rum:
            raise IllegalAction(f"{a!r}: after the action only 'rum on <ship> after' or 'end turn'",
                                seat=p, rule="S17")
        self._place_rum(a, p, "after")
        self._next_turn()

    def _apply_direction(self, a) -> None:
        chooser, dirs, st = self.pending
        if type(a) is not Direction or a.dir not in dirs:
            raise IllegalAction(f"{a!r}: choose the crew's direction among {list(dirs)}",
                                seat=chooser, rule="S25")
        self.pending = None
        st[6] = a.dir
        self.phase = MAIN
        self._resolve(st)

    # ------------------------------------------------------------------ resolution
    def _put(self, card: int, s: int, side: int) -> None:
        self.sides[s][side].append(card)
        self.tot[s][side] += self.T.value[card]

    def _resolve(self, st: list) -> None:
        """S21 / S42: after placing: crew movement, ship check, origin check (S45), draw (S22).

        `st` = [actor, ship, side, card, origin ship or -1, is_play, direction, stage]; the stage
        lets a pending owner's direction choice (movement.chooser=owner) resume the sequence.
        """
        cfg = self.config
        p, s, side, card, origin, is_play, d, stage = st
        placement = is_play or cfg.octopus.as_placement
        before = cfg.movement.before_scoring
        while True:
            if stage == 0 or stage == 2:
                if placement and (before == (stage == 0)) and self.T.sym[card] and s in self.row \
                        and self.phase != OVER:
                    dirs = self._dirs(s)
                    if dirs:
                        chooser = p if cfg.movement.chooser == "player" else side
                        if d is None:
                            if chooser == p:
                                raise AssertionError("direction missing")  # validated before
                            st[7] = stage
                            self.pending = (chooser, dirs, st)
                            self.phase = DIR
                            return
                        self._move_crew(s, d, chooser)
                    elif self.crew[s]:
                        self.events.append(("stay", self.T.defense[s]))
                stage += 1
            elif stage == 1:
                if placement and s in self.row and self.phase != OVER:
                    self._check_ship(s, p)                                          # S31-S34
                stage = 2
            elif stage == 3:
                if (placement and origin >= 0 and origin != s and cfg.octopus.check_origin
                        and origin in self.row and self.phase != OVER):
                    self._check_ship(origin, p)                                     # S45
                stage = 4
            else:
                if self.phase != OVER and (is_play or cfg.octopus.draw):
                    pile = self.piles[self.pile_of[p]]                              # S22, S41
                    if pile:
                        c = pile.pop()
                        self.hands[p].append(c)
                        self.events.append(("draw", p, c))
                if self.phase != OVER:
                    self._end_action(p)
                return

    def _move_crew(self, s: int, d: str, chooser: int) -> None:
        """S23, S26-S28: the (first) token on ship `s` moves in direction `d`."""
        m = self.config.movement
        target = rules.move_target(self.row, self.crew, s, _STEP[d], m.wrap_around, m.skip_occupied,
                                   self.config.crew.max_per_ship)
        token = self.crew[s].pop(0)
        self.crew[target].append(token)
        self.events.append(("move", token, self.T.defense[s], self.T.defense[target], chooser, d))

    def _check_ship(self, s: int, actor: int) -> None:
        cfg = self.config
        side = self.sides[s]
        t = self.tot[s]
        thr = rules.threshold(self.T.defense[s], len(self.mugs[s]), cfg.rum.defense_bonus)
        res = rules.ship_result(t[0], t[1], len(side[0]), len(side[1]), thr,
                                cfg.rules.max_cards_per_side, cfg.scoring.threshold_inclusive, actor)
        if res is None:
            return
        winner, how = res
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
            self.phase = RUM
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.cur = 1 - self.cur
        self.turn += 1
        self.phase = MAIN
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
        self.phase = OVER
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
                       {"turns": self.turn, "end_reason": self.reason or "running",
                        "ships_scored": len(self.T.defense) - len(self.row),
                        "ships_removed": len(self.ships_out), "octopus_moves": self.n_octo,
                        "rum_mugs": self.n_rum})

    # ------------------------------------------------------------------ views
    def observe(self, seat: int) -> Observation:
        T = self.T
        octo_on = self.octo_on
        bonus = self.config.rum.defense_bonus
        ships = []
        for s in self.row:
            sd = self.sides[s]
            ships.append(ShipView(
                T.defense[s], T.defense[s] + bonus * len(self.mugs[s]), tuple(self.mugs[s]),
                tuple(T.crew_kind[c] for c in self.crew[s]),
                (tuple((T.value[c], T.sym[c], octo_on[c]) for c in sd[0]),
                 tuple((T.value[c], T.sym[c], octo_on[c]) for c in sd[1])),
                (self.tot[s][0], self.tot[s][1])))
        octo = tuple("spent" if (self.octo_at[x] < 0 and self.octo_spent[x]
                                 and self.config.octopus.reuse == "once")
                     else "supply" if self.octo_at[x] < 0
                     else f"on {T.defense[self._ship_of_card(self.octo_at[x])]}" for x in (0, 1))
        pend = self.pending[1] if self.phase == DIR and self.pending[0] == seat else ()
        pend_ship = T.defense[self.pending[2][1]] if self.phase == DIR else -1
        return Observation(
            seat, self.phase, self.to_act()[0] if self.phase not in (OVER, PICK) else -1, self.turn,
            tuple(ships), tuple(sorted(T.kind[c] for c in self.hands[seat])),
            len(self.hands[1 - seat]), tuple(len(p) for p in self.piles), tuple(self.score),
            tuple(self.rum_left), octo,
            (tuple(T.defense[s] for s in self.captured[0]), tuple(T.defense[s] for s in self.captured[1])),
            self.marks, pend, pend_ship)

    def _ship_of_card(self, card: int) -> int:
        for s in self.row:
            if card in self.sides[s][0] or card in self.sides[s][1]:
                return s
        return -1

    def clone(self) -> "ShipsideState":
        new = ShipsideState.__new__(ShipsideState)
        new.config, new.T, new.rng = self.config, self.T, copy.deepcopy(self.rng)
        new.row = self.row[:]
        new.start_row = self.start_row
        new.sides = [[a[:], b[:]] for a, b in self.sides]
        new.tot = [t[:] for t in self.tot]
        new.mugs = [m[:] for m in self.mugs]
        new.crew = [c[:] for c in self.crew]
        new.octo_on = self.octo_on[:]
        new.octo_at = self.octo_at[:]
        new.octo_spent = self.octo_spent[:]
        new.hands = [h[:] for h in self.hands]
        new.piles = [p[:] for p in self.piles]
        new.pile_of = self.pile_of
        new.out = self.out[:]
        new.captured = [c[:] for c in self.captured]
        new.crew_won = [c[:] for c in self.crew_won]
        new.crew_out = self.crew_out[:]
        new.ships_out = self.ships_out[:]
        new.score = self.score[:]
        new.rum_left = self.rum_left[:]
        new.rum_turn, new.phase, new.cur, new.first = self.rum_turn, self.phase, self.cur, self.first
        if self.pending is not None:
            chooser, dirs, st = self.pending
            new.pending = (chooser, dirs, st[:])
        else:
            new.pending = None
        new.turn, new.passes, new.reason = self.turn, self.passes, self.reason
        new.events = self.events[:]
        new.marks = self.marks
        new.own = None if self.own is None else [o[:] for o in self.own]
        new.n_octo, new.n_rum = self.n_octo, self.n_rum
        return new

    def determinize(self, seat: int, rng: np.random.Generator) -> "ShipsideState":
        """Resample what `seat` cannot see: the other hand and the order of every draw pile.

        Shared pile: the other hand and the pile are pooled and redealt. Personal piles (variant):
        the own pile is reshuffled, the other hand and the other pile are pooled and redealt. While
        opening hands are being chosen, the other player's picks so far are redrawn from their deck.
        """
        new = self.clone()
        o = 1 - seat
        if self.phase == PICK or self.phase == MARK:
            if new.own is not None:
                pool = new.hands[o] + new.own[o]
                perm = rng.permutation(len(pool)).tolist()
                k = len(new.hands[o])
                new.hands[o] = [pool[i] for i in perm[:k]]
                new.own[o] = sorted(pool[i] for i in perm[k:])
            return new
        if len(new.piles) == 1:
            pool = new.hands[o] + new.piles[0]
            perm = rng.permutation(len(pool)).tolist()
            k = len(new.hands[o])
            new.hands[o] = [pool[i] for i in perm[:k]]
            new.piles[0] = [pool[i] for i in perm[k:]]
        else:
            mine = new.piles[seat]
            new.piles[seat] = [mine[i] for i in rng.permutation(len(mine)).tolist()]
            pool = new.hands[o] + new.piles[o]
            perm = rng.permutation(len(pool)).tolist()
            k = len(new.hands[o])
            new.hands[o] = [pool[i] for i in perm[:k]]
            new.piles[o] = [pool[i] for i in perm[k:]]
        return new

    def audit(self) -> list[str]:
        """Conservation of cards (S2), crew (S8, S26), octopi, scores (S54) and the side limit (S20)."""
        T = self.T
        cfg = self.config
        problems = []
        seen = list(self.out)
        for h in self.hands:
            seen.extend(h)
        for p in self.piles:
            seen.extend(p)
        if self.own is not None:
            for o in self.own:
                seen.extend(o)
        maxc = cfg.rules.max_cards_per_side
        for s in range(len(T.defense)):
            for a in (0, 1):
                cards = self.sides[s][a]
                seen.extend(cards)
                if len(cards) > maxc:
                    problems.append(f"ship {T.defense[s]} side {a} holds {len(cards)} > {maxc} cards")
                if sum(T.value[c] for c in cards) != self.tot[s][a]:
                    problems.append(f"ship {T.defense[s]} side {a}: running total is wrong")
                if cards and s not in self.row:
                    problems.append(f"scored ship {T.defense[s]} still has cards")
            if len(self.crew[s]) > cfg.crew.max_per_ship:
                problems.append(f"ship {T.defense[s]} carries {len(self.crew[s])} crew tokens")
            if self.crew[s] and s not in self.row:
                problems.append(f"scored ship {T.defense[s]} still has crew")
        if sorted(seen) != list(range(T.n_cards)):
            problems.append(f"cards not conserved: {len(seen)} seen of {T.n_cards}")
        tokens = [t for s in range(len(T.defense)) for t in self.crew[s]]
        tokens += self.crew_won[0] + self.crew_won[1] + self.crew_out
        if sorted(tokens) != list(range(len(T.crew_kind))):
            problems.append(f"crew tokens not conserved: {sorted(tokens)}")
        ships = sorted(self.row + self.captured[0] + self.captured[1] + self.ships_out)
        if ships != list(range(len(T.defense))):
            problems.append(f"ships not conserved: {ships}")
        for p in (0, 1):
            expect = (cfg.scoring.ship_points * len(self.captured[p])
                      + sum(T.crew_points[c] for c in self.crew_won[p]))
            if self.score[p] != expect:
                problems.append(f"seat {p} score {self.score[p]} != {expect} from ships and crew (S54)")
            c = self.octo_at[p]
            if c >= 0 and self.octo_on[c] != p:
                problems.append(f"seat {p}'s octopus is lost")
            if self.rum_left[p] < 0:
                problems.append(f"seat {p} rum count negative")
        if sum(1 for o in self.octo_on if o >= 0) != sum(1 for c in self.octo_at if c >= 0):
            problems.append("octopus markers disagree")
        goal = cfg.end.points_to_win
        if self.phase != OVER and goal and max(self.score) >= goal:
            problems.append(f"a player has {max(self.score)} >= {goal} points but the game goes on")
        return problems
