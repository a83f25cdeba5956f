"""One way to pay a seat: every engine reads its amounts from odds.rules.settle.

For random pay tables (win, Colon, Colon nine and the tie amount), the
recursive engine, the batch engine, the bet table, the event enumerator, the
game layer's fixed-strategy value, the bank's heads-up mean and the
simulator's long-run mean agree with a brute force on a small shoe (the brute
force plays each ordering of the cards and settles it from the profile's plain
fields, :mod:`tests.brute`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from functools import cache
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.exact.batch import batch_counts
from odds.exact.bet_table import bet_table
from odds.exact.bets import bet_odds
from odds.exact.engine import round_odds
from odds.game.game import build_game
from odds.money.bank import bank_round
from odds.rules.bet_library import main_bet
from odds.rules.profile import Profile
from odds.rules.profiles import BUILTIN
from odds.rules.session_options import Session
from odds.rules.settle import Outcome, Pay, amount, pay_entry, seat_amount
from odds.rules.shoe import Shoe
from odds.sim.simulate import simulate
from tests.brute import play, settle

# Small shoes (ranks A..K) with pairs, nines, naturals and ties among their deals.
SHOES = (
    (1, 0, 0, 1, 1, 0, 0, 1, 2, 1, 0, 0, 0),
    (0, 1, 0, 0, 2, 1, 0, 0, 2, 0, 0, 0, 1),
    (1, 0, 0, 0, 0, 0, 1, 0, 2, 1, 1, 1, 0),
)

AMOUNTS = st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2),
                           Fraction(5, 2), Fraction(3), Fraction(8)])
TIES = st.sampled_from([Fraction(0), Fraction(-1), Fraction(-1, 2), Fraction(1, 4), Fraction(1)])


@st.composite
def pay_tables(draw: st.DrawFn) -> Profile:
    """A built-in profile's rules, paid at random."""
    base = BUILTIN[draw(st.sampled_from(["standard", "super9"]))]
    return replace(
        base, win=draw(AMOUNTS.filter(bool)),
        colon=draw(st.none() | AMOUNTS), colon_nine=draw(st.none() | AMOUNTS),
        ties=draw(TIES))


@cache
def _hands(counts: tuple[int, ...], profile: Profile) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Both final hands of every ordering of the shoe's physical cards (draw rules only)."""
    cards = [r for r, c in enumerate(counts) for _ in range(c)]
    out = []
    for seq in permutations(range(len(cards)), 6):
        p, b = play(profile, [cards[i] for i in seq])
        out.append((tuple(p), tuple(b)))
    return tuple(out)


def brute(profile: Profile, counts: tuple[int, ...]) -> tuple[Fraction, Fraction]:
    """The seat's exact mean and second moment per unit, deal by deal."""
    draw_only = replace(profile, win=Fraction(1), colon=None, colon_nine=None, ties=Fraction(0))
    hands = _hands(counts, draw_only)
    nets = [settle(profile, list(p), list(b))[1] for p, b in hands]
    return Fraction(sum(nets), len(nets)), Fraction(sum(x * x for x in nets), len(nets))


def _check_exact(profile: Profile, counts: tuple[int, ...], columns: bool = False) -> Fraction:
    shoe = Shoe(counts)
    mean, _ = brute(profile, counts)
    assert round_odds(profile, shoe).expected_value == mean
    assert batch_counts(profile, [list(counts)]).expected_values()[0] == mean
    if columns:  # a bet's columns take seconds to build: not for every example
        table = bet_table(profile, [main_bet(profile)]).counts([list(counts)])
        assert table.expected_values("player")[0] == mean
    assert bet_odds(profile, shoe, ["player"])["player"].expected_value == mean
    heads_up = bank_round(profile, shoe, Session(players=1))
    assert heads_up.mean == -mean
    # The game layer takes rules without Colon bonuses where naturals settle first.
    plain = replace(profile, colon=None, colon_nine=None, bank_bonus=False,
                    naturals_stop_draws=True)
    game = build_game(plain, shoe, "cards")
    assert game.evaluate({}, {}).expected_value == brute(plain, counts)[0]
    return mean


@settings(max_examples=5, deadline=None)
@given(profile=pay_tables(), counts=st.sampled_from(SHOES))
def test_every_engine_pays_as_the_brute_force(profile: Profile, counts: tuple[int, ...]) -> None:
    _check_exact(profile, counts)


@pytest.mark.slow
def test_the_bet_table_pays_as_the_brute_force() -> None:
    profile = replace(BUILTIN["super9"], win=Fraction(3, 2), colon=Fraction(5, 2),
                      ties=Fraction(-1, 2))
    assert _check_exact(profile, SHOES[1], columns=True) == brute(profile, SHOES[1])[0]


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(profile=pay_tables(), counts=st.sampled_from(SHOES))
def test_every_engine_pays_as_the_brute_force_many(profile: Profile,
                                                   counts: tuple[int, ...]) -> None:
    _check_exact(profile, counts, columns=True)


@pytest.mark.parametrize("ties", [Fraction(0), Fraction(-1), Fraction(1, 2)])
def test_the_simulator_settles_as_the_brute_force(ties: Fraction) -> None:
    profile = replace(BUILTIN["super9"], ties=ties)
    counts = SHOES[0]
    mean, second = brute(profile, counts)
    rounds = 40_000
    got = simulate(profile, Shoe(counts), rounds, seed=20261207).expected_value()
    sd = math.sqrt(second - mean * mean)
    assert abs(float(got) - float(mean)) < 5 * sd / math.sqrt(rounds)


def test_a_tie_pays_the_tie_amount_only() -> None:
    """Varying the tie amount moves a figure by P(tie) times the change, nothing else."""
    profile, shoe = BUILTIN["standard"], Shoe.packs_of(1)
    base = round_odds(profile, shoe)
    moved = round_odds(replace(profile, ties=Fraction(-1)), shoe)
    assert moved.expected_value == base.expected_value - base.push
    assert amount(replace(profile, ties=Fraction(-1)), Pay.PUSH) == -1
    assert seat_amount(profile, Outcome.PUSH) == 0 == amount(profile, Pay.PUSH)
    assert pay_entry(profile, Outcome.PUSH, 0, 0) is Pay.PUSH
    assert all(p.ties == 0 for p in BUILTIN.values())


def _json(*args: str) -> dict:  # type: ignore[type-arg]
    import json

    from click.testing import CliRunner

    from cli import main

    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_ties_bank_is_an_option_every_command_honours() -> None:
    """``ties = bank`` (a seat that ties loses its stake): each command's figure, brute-forced."""
    standard = BUILTIN["standard"]
    bank = standard.with_options(ties="bank")
    assert bank == replace(standard, ties=Fraction(-1)) == standard.with_options(ties=" Bank")
    assert standard.with_options(ties="push") == standard
    assert bank.options()["ties"] == "bank" and "the bank wins ties" in main_bet(bank).description
    with pytest.raises(ValueError, match="option ties: 'house' is not push or bank"):
        standard.with_options(ties="house")
    counts = SHOES[0]
    shoe = ",".join(map(str, counts))
    mean, second = brute(bank, counts)
    assert mean < brute(standard, counts)[0]
    flags = ("--profile", "standard", "--shoe", shoe, "--ties", "bank")
    assert Fraction(_json("odds", *flags)["expected_value"]) == mean
    assert Fraction(_json("bank", *flags)["mean"]) == -mean
    paid = _json("payout", *flags)["bets"]["player"]["expected_value"]["fraction"]
    assert Fraction(paid) == mean
    sim = _json("simulate", *flags, "--rounds", "40000", "--seed", "7")
    got = sum(Fraction(a) * c for a, c in sim["tallies"][0]["payouts"].items()) / 40000
    assert abs(float(got - mean)) < 5 * math.sqrt(second - mean * mean) / math.sqrt(40000)
    # The game: whatever the strategies, a tie costs the seat its stake.
    played = _json("play", "--profile", "family", "--decks", "inf", "--ties", "bank")
    win, tie, loss = (Fraction(played["probabilities"][k]) for k in ("win", "push", "loss"))
    ev = Fraction(played["expected_value"])
    assert ev == win - tie - loss and tie > 0
