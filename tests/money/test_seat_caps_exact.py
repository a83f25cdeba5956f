"""A cap on one seat's payment (max_bonus) keeps the bank's mean and variance exact.

A seat's capped net is a function of its own hand against the bank's, so the bank's mean is
exact by linearity and its variance from the two-seat counts, at any N, shoe and stakes.
Checked against brute force: every deal of a twelve-card shoe at three seats in table order
(the sampled path, forced by a budget of one transition, must give its moments exactly), and
every ordering of the nine-card shoe of tests/bank_brute.py at two seats.
"""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe
from odds.cli import main
from odds.exact.seats import pair_counts
from odds.money.bank import _joint_types, bank_round
from odds.money.caps import seat_capped_moments, seat_limits
from odds.rules.session_options import Session
from tests.bank_brute import _brute_settle, _tiny_shoe, table_order_tally

STD = BUILTIN["standard"]
PLAIN = STD.with_options(colon="none", colon_nine="none")
TWELVE = {4: 5, 8: 4, 12: 3}  # five 5s, four 9s, three Ks: a round of three seats exactly


def _shoe(ranks: dict[int, int]) -> Shoe:
    return Shoe(tuple(ranks.get(r, 0) for r in range(13)))


@pytest.fixture(scope="module")
def twelve() -> dict:
    return table_order_tally(STD, PLAIN, TWELVE, 3)


def _capped(seq, stakes, max_bonus):
    """Each seat's settlement with its bonus paid at most max_bonus in money (at least a win),
    per unit stake again, by hand."""
    out = []
    for (net, bonus, fallback), s in zip(seq, stakes, strict=True):
        if bonus and max_bonus is not None:
            paid = min(F(net) * s, max(s, max_bonus))  # the standard game's win pays 1
            net = paid / s
            bonus = net != fallback
        out.append((F(net), bonus, F(fallback)))
    return tuple(out)


def _brute_moments(tally, stakes, max_bonus, bonus_cap=None, round_cap=None):
    total = sum(tally.values())
    mean = second = F(0)
    for seq, w in tally.items():
        net, _ = _brute_settle(_capped(seq, stakes, max_bonus), stakes, bonus_cap, round_cap,
                               Session().cap_rule)
        mean += F(net) * w
        second += F(net) ** 2 * w
    mean /= total
    return mean, second / total - mean * mean


STAKES = st.tuples(*[st.sampled_from([F(1), F(2), F(3), F(1, 2), F(5, 2)])] * 3)
CAPS = st.sampled_from([F(1), F(3, 2), F(2), F(5, 2), F(4), F(7)])


@settings(max_examples=6, deadline=None)
@given(stakes=STAKES, max_bonus=CAPS)
def test_sampled_round_under_max_bonus_has_the_exact_moments_of_every_deal(twelve, stakes,
                                                                          max_bonus) -> None:
    session = Session(stakes=stakes, max_bonus=max_bonus)
    r = bank_round(STD, _shoe(TWELVE), session, budget=1, samples=20, seed=2)
    assert not r.exact and r.moments_exact and r.mean_interval() is None
    assert "mean and variance exact" in r.method
    assert (r.mean, r.variance) == _brute_moments(twelve, stakes, max_bonus)
    # ... and the same as the round enumerated exactly, hand by hand
    full = bank_round(STD, _shoe(TWELVE), session)
    assert full.exact and (full.mean, full.variance) == (r.mean, r.variance)
    for i in (1, 2, 3):
        assert r.seat_moments(i) == full.seat_moments(i)


def test_table_caps_make_the_mean_an_estimate_with_the_exact_mean_without_them(twelve) -> None:
    stakes, cap = (F(1), F(2), F(1)), F(2)
    session = Session(stakes=stakes, max_bonus=cap, bonus_cap=1)
    r = bank_round(STD, _shoe(TWELVE), session, budget=1, samples=500, seed=4)
    assert not r.mean_exact and r.mean_interval() is not None
    assert r.uncapped_mean == _brute_moments(twelve, stakes, cap)[0]
    assert r.mean == r.sample_mean
    exact = _brute_moments(twelve, stakes, cap, bonus_cap=1)[0]
    assert exact >= r.uncapped_mean  # a table's cap only lowers what the bank pays
    lo, hi = r.mean_interval()
    assert lo < float(exact) < hi


@pytest.mark.slow  # the 9! orderings take a few seconds; the twelve-card check above is quick
def test_two_seats_on_the_nine_card_shoe_match_every_ordering(tiny_tallies) -> None:
    profile, tally = tiny_tallies["standard"]
    shoe = _tiny_shoe()
    for stakes, cap in [((F(1), F(2)), F(3, 2)), ((F(2), F(2)), F(3)), ((F(1), F(3)), F(5))]:
        limits = seat_limits(profile, Session(max_bonus=cap), stakes)
        _, mean, var = seat_capped_moments(_joint_types(profile, shoe),
                                           pair_counts(profile, shoe), stakes, limits)
        assert (mean, var) == _brute_moments(tally, stakes, cap)
        r = bank_round(profile, shoe, Session(stakes=stakes, max_bonus=cap))
        assert r.exact and (r.mean, r.variance) == (mean, var)


def test_without_the_pair_counts_the_mean_stays_exact(twelve, monkeypatch) -> None:
    from odds.money import bank as bank_module

    monkeypatch.setattr(bank_module, "MAX_PAIR_CARDS", 11)  # the twelve cards are beyond
    stakes = (F(1), F(3), F(2))
    r = bank_round(STD, _shoe(TWELVE), Session(stakes=stakes, max_bonus=F(2)), budget=1,
                   samples=50)
    assert r.mean_exact and not r.moments_exact and r.mean_interval() is None
    assert r.mean == _brute_moments(twelve, stakes, F(2))[0]
    seat_sum = sum(r.seat_moments(i)[0] for i in (1, 2, 3))
    assert r.mean == -seat_sum  # each seat's figures exact too
    assert "mean exact; variance sampled" in r.method


@pytest.mark.slow
def test_beyond_the_pair_counts_the_mean_stays_exact() -> None:
    # 28 packs: past the exact two-seat counts, the mean (linearity) is still exact.
    shoe = Shoe.packs_of(28)
    r = bank_round(STD, shoe, Session(players=3, max_bonus=F(2)), samples=200, seed=1)
    alone = bank_round(STD, shoe, Session(players=1, max_bonus=F(2)))
    assert r.mean_exact and not r.moments_exact and r.mean == 3 * alone.mean
    assert r.mean_interval() is None and r.seat_moments(3) == alone.seat_moments(1)


def _mean_line(output: str) -> list[str]:
    return next(line for line in output.splitlines() if line.startswith("  mean ")).split()[1:]


def test_a_sampled_table_under_max_bonus_prints_exact_figures(monkeypatch) -> None:
    # The twelve-card shoe with the enumeration cut short at once: the sampled path, quickly.
    from odds.money import bank as bank_module

    def too_large(*_: object) -> None:
        raise bank_module._TooLarge

    monkeypatch.setattr(bank_module, "_finite_sequences", too_large)
    args = ["bank", "--max-bonus", "2", "--stakes", "1,2,1", "--shoe", "0,0,0,0,5,0,0,0,4,0,0,0,3",
            "--samples", "300"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    assert "ESTIMATE: 300 Monte Carlo rounds, seed 1; mean and variance exact" in out.output
    # The bank's mean: each seat's heads-up bank mean at its own stake (the cap binds harder
    # at stake 2), added up.
    mean = sum(bank_round(STD, _shoe(TWELVE), Session(stakes=(s,), max_bonus=F(2))).mean
               for s in (F(1), F(2), F(1)))
    assert _mean_line(out.output) == [f"{float(mean):.6f}", "exact"]
    # Each seat's mean and variance are exact too (every pair of seats counted): in JSON,
    # exact fractions, each seat's mean minus the heads-up bank's at its stake.
    seats = json.loads(CliRunner().invoke(main, [*args, "--format", "json"]).output)["seats"]
    for seat, s in zip(seats, (F(1), F(2), F(1)), strict=True):
        alone = bank_round(STD, _shoe(TWELVE), Session(stakes=(s,), max_bonus=F(2)))
        assert F(seat["mean"]) == -alone.mean and F(seat["variance"]) == alone.variance
    table = CliRunner().invoke(main, [*args, "--bonus-cap", "1"])
    assert table.exit_code == 0, table.output
    assert _mean_line(table.output)[1:3] == ["95%", "interval"]
    assert "  without table caps " in table.output
    # Under a table cap the seats are sampled: estimates with their interval field, in JSON.
    capped = CliRunner().invoke(main, [*args, "--bonus-cap", "1", "--format", "json"])
    assert all(set(seat["mean"]) == {"estimate", "interval"}
               for seat in json.loads(capped.output)["seats"])


@pytest.mark.slow
def test_the_owner_s_table_prints_exact_figures() -> None:
    args = ["bank", "--max-bonus", "2", "--stakes", "1", "--players", "3", "--decks", "1",
            "--samples", "500"]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    alone = bank_round(STD, Shoe.packs_of(1), Session(players=1, max_bonus=F(2)))
    assert _mean_line(out.output) == [f"{float(3 * alone.mean):.6f}", "exact"]


@pytest.mark.slow
def test_the_owner_s_night() -> None:
    # The table: 6 packs, stakes 500, seven players, a bonus paid at most 1,000.
    out = CliRunner().invoke(main, ["bank", "--max-bonus", "1000", "--stakes", "500",
                                    "--players", "7", "--decks", "6", "--format", "json"])
    assert out.exit_code == 0, out.output
    import json

    data = json.loads(out.output)
    alone = bank_round(STD, Shoe.packs_of(6), Session(players=1, stakes=(F(500),),
                                                      max_bonus=F(1000)))
    assert data["mean_exact"] and data["moments_exact"]
    assert F(data["mean"]) == 7 * alone.mean
    assert round(float(F(data["mean"])), 2) == -103.05


@pytest.mark.parametrize("args,words", [
    (["--max-bonus", "-5"], "max_bonus"),
    (["--max-bonus", "abc"], "not a number"),
])
def test_bad_caps_are_usage_errors(args, words) -> None:
    out = CliRunner().invoke(main, ["bank", "--players", "3", "--decks", "1", *args])
    assert out.exit_code == 2 and words in out.output and "Traceback" not in out.output
