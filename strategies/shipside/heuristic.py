"""Greedy Shipside bots that read the board from their observation (never the live state).

Every candidate action is scored by the board it leaves, summed over the ships in play, from
the bot's side: a captured ship is worth 100 per point at stake (ship + crew), and a ship not
yet scored is worth the chance to take it next turn (own best card against the gap) minus the
chance that the opponent takes it (their hand size against the share of unseen cards that
would close their gap). Filling the opponent's side or lowering it with jellyfish and zeros
lowers that threat, so dumping comes out of the same sum.

The threat is one ply deep: the opponent moves next, and the bot counts every way one of their
cards takes a ship in that reply: reaching the threshold (S32), or completing both sides above
ours (S33), by their last slot over our full side or by our last slot under their full side.
So it no longer fills the opponent's fifth slot (which ends their threshold threat) when that
hands them the ship by the full comparison, unless every other card is as bad (issue 10).

- `greedy`: plays cards (captures first), dumps low cards on the opponent's side, moves crew
  towards the ships it is about to take, and spends rum on the ship the opponent is most likely
  to take next. Uses the octopus only when it has no card.
- `octopus`: the same, and also weighs every octopus move (steal a card onto its own side,
  move a jellyfish onto the opponent's side, pull a card off a ship the opponent threatens)
  against its best play, at a price for spending the octopus.
"""

from __future__ import annotations

from bisect import bisect_left

from simkit.engine.strategy import Decision, Strategy
from simkit.games.shipside import rules
from simkit.games.shipside.actions import Direction, EndTurn, Mark, Octopus, Pass, Pick, Play, Rum
from simkit.games.shipside.config import ShipsideConfig

CAPTURE = 100.0
WIN = 10_000.0


def _mut(ships: dict, d: int) -> list:
    """Copy-on-write: a private copy of ship `d`'s entry, so the base board stays untouched."""
    v = ships[d] = ships[d][:]
    return v


#: per Tables object (one per config, cached by rules.tables): the share of the deck's cards
#: worth at least g, for g in -60..79 (a fair prior for the opponent's hand). Built once, not at
#: every setup: a search sets its rollout bots up once per determinization.
_GE: dict[int, tuple[object, dict[int, float]]] = {}


def _share_at_least(T) -> dict[int, float]:
    hit = _GE.get(id(T))
    if hit is not None and hit[0] is T:
        return hit[1]
    vals = sorted(T.value)
    n = len(vals)
    ge = {g: (n - bisect_left(vals, g)) / n for g in range(-60, 80)}
    if len(_GE) > 256:
        _GE.clear()
    _GE[id(T)] = (T, ge)
    return ge


class GreedyStrategy(Strategy[ShipsideConfig]):
    name = "greedy"
    description = ("Captures when it can, dumps jellyfish and zeros on the opponent's side, spends "
                   "rum on the ship the opponent is about to take.")

    use_octopus = False
    kernel_form = "strategies.shipside.kernels:GREEDY"

    # per decision: ship values, the base board's total per best card in hand, octopus deltas
    _memo: dict[tuple, float]
    _base_totals: dict[int | None, float]
    _deltas: dict[tuple, float]

    def __init__(self, threat: float = 0.8, chance: float = 0.4, rum_min: float = 30.0,
                 octopus_cost: float = 45.0):
        self.threat = threat
        self.chance = chance
        self.rum_min = rum_min
        self.octopus_cost = octopus_cost

    def setup(self, info, seat, rng) -> None:
        super().setup(info, seat, rng)
        cfg = info.config
        self.cfg = cfg
        self.T = rules.tables(cfg)
        self.maxc = cfg.rules.max_cards_per_side
        self.incl = cfg.scoring.threshold_inclusive
        self.crew_pts = dict(cfg.crew.points)
        self.goal = cfg.end.points_to_win
        self.bonus = cfg.rum.defense_bonus
        self._ge = _share_at_least(self.T)

    # ---------------------------------------------------------------- evaluation
    def _f_ge(self, gap: int) -> float:
        if gap <= -60:
            return 1.0
        if gap >= 80:
            return 0.0
        return self._ge[gap]

    def _ship_value(self, thr, tm, to, nm, no, stake, hand_max, opp_k, my_score, opp_score) -> float:
        incl = self.incl
        maxc = self.maxc
        if (tm >= thr) if incl else (tm > thr):
            return CAPTURE * stake + (WIN if self.goal and my_score + stake >= self.goal else 0.0)
        if (to >= thr) if incl else (to > thr):
            return -CAPTURE * stake - (WIN if self.goal and opp_score + stake >= self.goal else 0.0)
        if nm >= maxc and no >= maxc:
            return CAPTURE * stake if tm > to else -CAPTURE * stake if to > tm else 0.0
        need = 0 if incl else 1
        value = (tm - to) * 0.5
        # One ply ahead: the opponent moves next, and one card of theirs takes this ship when
        # (a) it lifts their side to the threshold (S32), (b) it fills their side's last slot
        # above a full side of ours (S33), or (c) it fills our side's last slot, below their
        # full side (S33: any card low enough, jellyfish included). p_card: the share of cards
        # that do it; p_op: the chance that their hand holds one.
        p_card = 0.0
        if no < maxc:
            g = thr - to + need
            if nm >= maxc and no == maxc - 1:
                g = min(g, tm - to + 1)
            p_card = self._f_ge(g)
        elif nm == maxc - 1:
            p_card = 1.0 - self._f_ge(to - tm)
        if p_card > 0.0:
            p_op = 1.0 - (1.0 - p_card) ** opp_k if opp_k else 0.0
            lose = CAPTURE * stake + (WIN * 0.5 if self.goal and opp_score + stake >= self.goal else 0.0)
            value -= self.threat * p_op * lose
        if nm < maxc:
            g = thr - tm + need
            if no >= maxc and nm == maxc - 1:
                g = min(g, to - tm + 1)         # our last card above their full side (S33)
            p_me = 1.0 if hand_max is not None and hand_max >= g else 0.25 * self._f_ge(g)
            value += self.chance * p_me * CAPTURE * stake
        return value

    def _board(self, obs):
        me = self.seat
        op = 1 - me
        ships = {}
        for sv in obs.row:
            stake = self.cfg.scoring.ship_points + sum(self.crew_pts[k] for k in sv.crew)
            ships[sv.defense] = [sv.threshold, sv.totals[me], sv.totals[op], len(sv.cards[me]),
                                 len(sv.cards[op]), stake, len(sv.crew), len(sv.mugs)]
        return ships

    def _value(self, s, hand_max, obs) -> float:
        key = (s[0], s[1], s[2], s[3], s[4], s[5], hand_max)
        v = self._memo.get(key)
        if v is None:
            me = self.seat
            v = self._memo[key] = self._ship_value(s[0], s[1], s[2], s[3], s[4], s[5], hand_max,
                                                   obs.opp_hand, obs.scores[me], obs.scores[1 - me])
        return v

    def _total(self, ships, hand_max, obs) -> float:
        """Sum of the ship values. Memoised per decision: the base board's total once per hand
        maximum, then only the ships an action changed (copy-on-write entries) are re-valued."""
        base = self._base
        total = self._base_totals.get(hand_max)
        if total is None:
            total = self._base_totals[hand_max] = sum(self._value(v, hand_max, obs) for v in base.values())
        if ships is base:
            return total
        value = self._value
        for d, v in ships.items():
            old = base[d]
            if v is not old:
                total += value(v, hand_max, obs) - value(old, hand_max, obs)
        return total

    def _crew_target(self, obs, ship_def: int, d: str) -> int:
        row = [sv.defense for sv in obs.row]
        crew = {sv.defense: list(sv.crew) for sv in obs.row}
        m = self.cfg.movement
        i = rules.move_target(row, crew, ship_def, -1 if d == "L" else 1, m.wrap_around,
                              m.skip_occupied, self.cfg.crew.max_per_ship)
        return i

    def _apply_move(self, ships, obs, ship_def: int, d: str | None) -> None:
        if d is None:
            return
        target = self._crew_target(obs, ship_def, d)
        if target < 0:
            return
        kind = next(sv.crew[0] for sv in obs.row if sv.defense == ship_def)
        pts = self.crew_pts[kind]
        _mut(ships, ship_def)[5] -= pts
        _mut(ships, target)[5] += pts

    def _place(self, ships, obs, value: int, ship_def: int, side: int, sym: bool, d) -> None:
        before = self.cfg.movement.before_scoring
        if sym and before:
            self._apply_move(ships, obs, ship_def, d)
        s = _mut(ships, ship_def)
        if side == self.seat:
            s[1] += value
            s[3] += 1
        else:
            s[2] += value
            s[4] += 1

    def _value_play(self, a: Play, base, hand, obs) -> float:
        ships = dict(base)
        self._place(ships, obs, a.value, a.ship, a.side, a.sym, a.dir)
        rest = list(hand)
        rest.remove(a.value)
        return self._total(ships, max(rest) if rest else None, obs)

    def _value_octopus(self, a: Octopus, base, hand, obs) -> float:
        hm = max(hand) if hand else None
        sym = a.sym and self.cfg.octopus.as_placement
        d = a.dir if sym and self.cfg.movement.before_scoring else None
        target = self._crew_target(obs, a.ship, d) if d is not None else -1
        if a.src_ship != a.ship and a.src_ship != target:
            # the two ends touch different ships: their changes add up (each memoised)
            total = self._total(base, hm, obs)
            memo = self._deltas
            key_from = ("from", a.src_ship, a.src_side, a.value)
            d1 = memo.get(key_from)
            if d1 is None:
                ships = dict(base)
                self._remove(ships, a.src_ship, a.src_side, a.value)
                d1 = memo[key_from] = self._total(ships, hm, obs) - total
            key_to = ("to", a.ship, a.side, a.value, sym, a.dir)
            d2 = memo.get(key_to)
            if d2 is None:
                ships = dict(base)
                self._place(ships, obs, a.value, a.ship, a.side, sym, a.dir)
                d2 = memo[key_to] = self._total(ships, hm, obs) - total
            return total + d1 + d2 - self.octopus_cost
        ships = dict(base)
        self._remove(ships, a.src_ship, a.src_side, a.value)
        self._place(ships, obs, a.value, a.ship, a.side, sym, a.dir)
        return self._total(ships, hm, obs) - self.octopus_cost

    def _remove(self, ships, ship_def: int, side: int, value: int) -> None:
        src = _mut(ships, ship_def)
        if side == self.seat:
            src[1] -= value
            src[3] -= 1
        else:
            src[2] -= value
            src[4] -= 1

    def _value_rum(self, a: Rum, base, hand, obs) -> float:
        ships = dict(base)
        _mut(ships, a.ship)[0] += self.bonus
        return self._total(ships, max(hand) if hand else None, obs)

    # ---------------------------------------------------------------- decisions
    def act(self, decision: Decision):
        legal = decision.legal_actions
        first = legal[0]
        t = type(first)
        if t is Pick:
            return self._pick(legal, decision.observation)
        if t is Mark:
            return first
        obs = decision.observation
        self._memo = {}
        self._base_totals = {}
        self._deltas = {}
        hand = [v for v, _ in obs.hand]
        base = self._base = self._board(obs)
        hand_max = max(hand) if hand else None
        if t is Direction:
            return max(legal, key=lambda a: self._value_dir(a, base, hand_max, obs))
        if t is EndTurn:
            return self._rum_choice(legal, base, hand, obs, first)
        plays = [a for a in legal if type(a) is Play]
        octos = [a for a in legal if type(a) is Octopus]
        rums = [a for a in legal if type(a) is Rum]
        if rums and self.cfg.rum.timing == "before":
            keep = self._total(base, hand_max, obs)
            choice = self._rum_choice(rums, base, hand, obs, None)
            if choice is not None and self._value_rum(choice, base, hand, obs) - keep >= self.rum_min:
                return choice
        best: Play | Octopus | None = None
        best_v = -1e18
        for play in plays:
            v = self._value_play(play, base, hand, obs)
            if v > best_v:
                best, best_v = play, v
        if octos and (self.use_octopus or best is None):
            for octo in octos:
                v = self._value_octopus(octo, base, hand, obs)
                if v > best_v:
                    best, best_v = octo, v
        if best is not None:
            return best
        for a in legal:
            if type(a) is Pass:
                return a
        return legal[0]

    def _rum_choice(self, legal, base, hand, obs, decline):
        keep = self._total(base, max(hand) if hand else None, obs)
        best, best_v = decline, keep + self.rum_min
        for a in legal:
            if type(a) is Rum:
                v = self._value_rum(a, base, hand, obs)
                if v > best_v:
                    best, best_v = a, v
        return best

    def _value_dir(self, a: Direction, base, hand_max, obs) -> float:
        ships = dict(base)
        self._apply_move(ships, obs, obs.pending_ship, a.dir)
        return self._total(ships, hand_max, obs)

    def _pick(self, legal, obs):
        """Variant opening hand: the strongest cards, and one jellyfish to dump as the last pick."""
        picked = len(obs.hand)
        if picked == self.cfg.setup.hand_size - 1:
            neg = [a for a in legal if a.value < 0]
            if neg:
                return min(neg, key=lambda a: a.value)
        return max(legal, key=lambda a: a.value)


class OctopusStrategy(GreedyStrategy):
    name = "octopus"
    description = ("Greedy, and also weighs every octopus move (steal a card, move a jellyfish, "
                   "rescue a threatened ship) against its best play.")

    use_octopus = True
    kernel_form = "strategies.shipside.kernels:OCTOPUS"
