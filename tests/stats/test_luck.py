"""The luck/skill split (simkit.stats.luck) on synthetic studies whose answer is known.

A synthetic study: every deal gives each seat a hand strength, every agent slot a skill; in each
seat rotation the seat with the highest hand + skill + noise wins, exactly as a duplicate run
records it (seat s holds slot (s - r) mod n in rotation r).
"""

import numpy as np
import pytest

from simkit.stats.luck import PARTS, deal_spread, luck_split, outcome_table, variance_parts


def study(deals, n, hand_sd, skill, noise, seed=0):
    rng = np.random.default_rng(seed)
    hands = rng.normal(0.0, hand_sd, (deals, n))
    table = np.zeros((deals, n, n))
    for d in range(deals):
        for r in range(n):
            slots = [(s - r) % n for s in range(n)]
            strength = hands[d] + np.array([skill[a] for a in slots]) + rng.normal(0.0, noise, n)
            winner = int(np.argmax(strength))
            table[d, winner, slots[winner]] = 1.0
    return table


def split(table, seed=1):
    return luck_split(table, "win", np.random.default_rng(seed), resamples=200).shares


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_skill_gives_a_skill_share_whose_interval_covers_zero(n):
    shares = split(study(300, n, hand_sd=1.0, skill=[0.0] * n, noise=0.5, seed=n))
    assert shares["skill"].low == 0.0
    assert shares["deal"].low > 0.4


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_game_decided_by_the_deal_alone_gives_a_deal_share_near_one(n):
    shares = split(study(300, n, hand_sd=1.0, skill=[0.0] * n, noise=0.0, seed=10 + n))
    assert shares["deal"].value > 0.97
    assert shares["skill"].value == 0.0 and shares["rest"].value < 0.01


@pytest.mark.parametrize("n", [2, 4])
def test_a_game_decided_by_skill_alone_gives_a_skill_share_near_one(n):
    shares = split(study(200, n, hand_sd=0.0, skill=list(range(n)), noise=0.01, seed=20 + n))
    assert shares["skill"].value > 0.97 and shares["deal"].value < 0.01


@pytest.mark.parametrize("n", [3, 4])
def test_pure_chance_gives_neither_deal_nor_skill(n):
    """Noise only: the game's own chance is the rest; deal and skill intervals reach 0."""
    shares = split(study(300, n, hand_sd=0.0, skill=[0.0] * n, noise=1.0, seed=30 + n))
    assert shares["deal"].low == 0.0 and shares["skill"].low == 0.0
    assert shares["rest"].value > 0.8


def test_components_are_unbiased_on_a_continuous_outcome():
    """y = hand + agent effect + deal x agent + noise, each game's total varying: over many studies
    the estimates average to the planted variances (the game total is not anyone's luck or skill)."""
    n, d = 4, 60
    agent = np.array([-0.6, -0.2, 0.2, 0.6])          # finite-population variance 0.2
    planted = {"deal": 0.5, "skill": float((agent ** 2).mean()), "deal_x_agent": 0.1, "rest": 0.3}
    rot = (np.arange(n)[:, None] - np.arange(n)[None, :]) % n
    found = []
    for seed in range(60):
        rng = np.random.default_rng(seed)
        hand = rng.normal(0, np.sqrt(planted["deal"]), (d, n, 1))
        da = rng.normal(0, np.sqrt(planted["deal_x_agent"]), (d, 1, n))
        game_total = rng.normal(0, 2.0, (d, n))[:, rot]          # one shift per game, any size
        noise = rng.normal(0, np.sqrt(planted["rest"]), (d, n, n))
        found.append(variance_parts(hand + agent[None, None, :] + da + game_total + noise))
    for part, value in planted.items():
        # every part is a variance over the n seats or agents of a deal (sum of squares / n):
        # the planted random parts' variance times (n-1)/n, the fixed skill effects' own
        expected = value if part == "skill" else value * (n - 1) / n
        assert np.mean([f[part] for f in found]) == pytest.approx(expected, rel=0.1), part


def test_the_parts_add_up_to_the_variance_of_a_win():
    """Wins: one seat's outcome within its game is a 1/n coin; the parts share out its variance."""
    for n, (hand, skill, noise) in [(3, (1.0, [0, 0.5, 1.0], 0.7)), (4, (0.5, [0, 0, 0.3, 0.6], 1.0))]:
        table = study(400, n, hand, skill, noise, seed=n)
        assert sum(variance_parts(table).values()) == pytest.approx((1 / n) * (1 - 1 / n), rel=0.08)


def test_shares_add_up_to_one_and_come_in_report_order():
    shares = split(study(100, 4, 1.0, [0, 0.5, 1, 1.5], 0.5))
    assert list(shares) == list(PARTS)
    assert sum(s.value for s in shares.values()) == pytest.approx(1.0)
    assert all(s.low <= s.value <= s.high for s in shares.values())


def test_outcome_table_keeps_whole_deals_only_and_refuses_a_repeated_cell():
    deal = np.array([0, 0, 0, 0, 1, 1, 1])
    seat = np.array([0, 0, 1, 1, 0, 0, 1])
    slot = np.array([0, 1, 0, 1, 0, 1, 0])
    numbers, table = outcome_table(deal, seat, slot, np.arange(7.0), 2)
    assert numbers.tolist() == [0] and table[0].tolist() == [[0.0, 1.0], [2.0, 3.0]]
    with pytest.raises(ValueError, match="appears twice"):
        outcome_table(np.array([0, 0]), np.array([0, 0]), np.array([1, 1]), np.ones(2), 2)


def test_deal_spread_finds_lopsided_and_decided_deals():
    wins = np.zeros((3, 2, 2))
    wins[0, 0, :] = 1.0                       # deal 10: seat 0's hand wins both seatings
    wins[1, 0, 0] = wins[1, 1, 1] = 1.0       # deal 11: the agent in slot 0 wins both: even hands
    wins[2, 1, 0] = wins[2, 1, 1] = 1.0       # deal 12: seat 1's hand wins both
    spread = deal_spread(np.array([10, 11, 12]), wins, show=2)
    assert (spread.lopsided, spread.decided) == (2, 2)
    assert spread.most_lopsided == [(10, [1.0, 0.0]), (12, [0.0, 1.0])]


# ---- replays: R plays of each deal per seating ---------------------------------------------------
def replayed(deals, n, hand_sd, skill, noise, replays, seed=0):
    """`study` with each deal played `replays` times per seating: table[d, s, a, r]."""
    rng = np.random.default_rng(seed)
    hands = rng.normal(0.0, hand_sd, (deals, n))
    table = np.zeros((deals, n, n, replays))
    for d in range(deals):
        for r in range(n):
            slots = [(s - r) % n for s in range(n)]
            for k in range(replays):
                strength = hands[d] + np.array([skill[a] for a in slots]) + rng.normal(0.0, noise, n)
                winner = int(np.argmax(strength))
                table[d, winner, slots[winner], k] = 1.0
    return table


def test_one_replay_is_the_table_without_replays():
    table = study(50, 3, 1.0, [0, 0.5, 1], 0.5)
    assert variance_parts(table[..., None]) == variance_parts(table)
    numbers, again = outcome_table(np.repeat(np.arange(50), 9), np.tile(np.repeat(np.arange(3), 3), 50),
                                   np.tile(np.arange(3), 150), table.reshape(-1), 3, np.zeros(450), 1)
    assert again.shape == (50, 3, 3) and (again == table).all()


def test_replays_estimate_the_parts_of_one_game_without_bias():
    """A continuous outcome with a planted deal, skill, deal x agent, three-way and replay-to-replay
    part: the split of the cell means plus the within-cell variance gives back the parts of one
    game (the rest is the three-way part and the replays' noise together), for any R."""
    n, d = 4, 40
    agent = np.array([-0.6, -0.2, 0.2, 0.6])
    planted = {"deal": 0.5, "skill": float((agent ** 2).mean()), "deal_x_agent": 0.1, "rest": 0.1 + 0.3}
    rot = (np.arange(n)[:, None] - np.arange(n)[None, :]) % n
    for replays in (2, 5):
        found = []
        for seed in range(40):
            rng = np.random.default_rng(100 * replays + seed)
            hand = rng.normal(0, np.sqrt(planted["deal"]), (d, n, 1, 1))
            da = rng.normal(0, np.sqrt(planted["deal_x_agent"]), (d, 1, n, 1))
            dsa = rng.normal(0, np.sqrt(0.1), (d, n, n, 1))
            game_total = rng.normal(0, 2.0, (d, n, replays))[:, rot]      # one shift per game
            noise = rng.normal(0, np.sqrt(0.3), (d, n, n, replays))
            found.append(variance_parts(hand + agent[None, None, :, None] + da + dsa + game_total + noise))
        for part, value in planted.items():
            expected = value if part == "skill" else value * (n - 1) / n
            assert np.mean([f[part] for f in found]) == pytest.approx(expected, rel=0.1), (replays, part)


def test_replays_leave_the_shares_of_wins_where_they_were_and_narrow_them():
    """The same deals played once and 8 times per seating: each share with replays lies in the
    interval of the one without (the rest too: the cell means alone would put 7/8 of the
    replays' noise out of it), and the skill interval is narrower."""
    skill, n = [0.0, 0.4, 0.8], 3
    one = split(replayed(300, n, 0.7, skill, 1.0, 1, seed=5)[..., 0])
    many = luck_split(replayed(300, n, 0.7, skill, 1.0, 8, seed=5), "win", np.random.default_rng(1),
                      resamples=200).shares
    for part in ("deal", "skill", "rest"):
        assert one[part].low <= many[part].value <= one[part].high, part
    assert many["rest"].value > 0.6
    assert many["skill"].high - many["skill"].low < 0.7 * (one["skill"].high - one["skill"].low)


def _coin_lopsided(plays: int) -> float:
    """Two hands, every play a fair coin: P(the weaker hand wins at most 10 % of `plays`)."""
    from math import comb, floor

    most = floor(0.1 * plays + 1e-12)
    return min(1.0, 2 * sum(comb(plays, k) for k in range(most + 1)) / 2 ** plays)


@pytest.mark.parametrize("replays", [1, 5, 10])
def test_the_lopsided_share_of_a_game_of_pure_chance_is_the_binomial_one(replays):
    """2 players, no deal, no skill: a hand's wins over its 2R plays are Binomial(2R, 1/2), so the
    share of lopsided deals is known: 1/2 with one play per seating (the 1/n resolution), about
    2 % with 5 replays, 0.04 % with 10."""
    table = replayed(1500, 2, 0.0, [0.0, 0.0], 1.0, replays, seed=40 + replays)
    spread = deal_spread(np.arange(1500), table[..., 0] if replays == 1 else table)
    expected = _coin_lopsided(2 * replays)
    assert spread.lopsided_low <= expected <= spread.lopsided_high
    assert abs(spread.lopsided_share - expected) < 0.05


def test_replays_count_in_each_hands_win_share():
    wins = np.zeros((2, 2, 2, 2))
    wins[0, 0, :, :] = 1.0                      # deal 0: seat 0's hand wins every play
    wins[1, 0, 0, 0] = wins[1, 1, 1, 0] = 1.0   # deal 1, replay 0: the agent in slot 0 wins ...
    wins[1, 0, 1, 1] = wins[1, 1, 0, 1] = 1.0   # ... replay 1: the one in slot 1
    spread = deal_spread(np.array([0, 1]), wins)
    assert spread.most_lopsided == [(0, [1.0, 0.0]), (1, [0.5, 0.5])]
    assert (spread.lopsided, spread.decided) == (1, 1)


def test_outcome_table_with_replays_keeps_only_deals_with_every_replay():
    cells = [(d, s, a, r) for d in range(2) for s in range(2) for a in range(2) for r in range(2)]
    cells = cells[:-1]                          # deal 1 lacks one replay of one cell
    deal, seat, slot, rep = (np.array(c) for c in zip(*cells))
    numbers, table = outcome_table(deal, seat, slot, np.ones(len(deal)), 2, rep, 2)
    assert numbers.tolist() == [0] and table.shape == (1, 2, 2, 2)
    with pytest.raises(ValueError, match="replays must lie within 0..1"):
        outcome_table(deal, seat, slot, np.ones(len(deal)), 2, rep + 1, 2)


@pytest.mark.parametrize("n", [2, 4])
def test_with_replays_no_skill_still_covers_zero_and_the_deal_alone_still_gives_one(n):
    """The two known answers of the issue hold with replays too: no skill, a skill interval
    reaching 0; the deal alone (no noise: every replay the same), a deal share near 1."""
    no_skill = luck_split(replayed(150, n, 1.0, [0.0] * n, 0.5, 4, seed=60 + n), "win",
                          np.random.default_rng(2), resamples=200).shares
    assert no_skill["skill"].low == 0.0 and no_skill["deal"].low > 0.3
    by_deal = luck_split(replayed(150, n, 1.0, [0.0] * n, 0.0, 4, seed=70 + n), "win",
                         np.random.default_rng(3), resamples=200).shares
    assert by_deal["deal"].value > 0.97 and by_deal["rest"].value < 0.01
