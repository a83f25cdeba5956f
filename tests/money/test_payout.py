"""Symbolic pay tables: brute force, engine agreement, break-even by substitution."""

from __future__ import annotations

import decimal as dec
import functools
import itertools
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe, parse_shoe, round_odds
from odds.money.payout import (
    PAY_ENTRIES,
    PayoutError,
    apply_table,
    bank_edge,
    break_even,
    compare_tables,
    entry_bet,
    parse_table,
    pay_table,
    sqrt_decimal,
    symbolic_payout,
)
from tests.examples import examples, halve
from tests.paths import ROOT

FIXED = [p for p in BUILTIN.values() if p.fixed]
SYMBOLS = {name: sympy.Symbol(name) for name in PAY_ENTRIES}


@functools.cache
def odds_of(key: str, decks: int | None, **options: str):
    profile = BUILTIN[key].with_options(**options) if options else BUILTIN[key]
    shoe = Shoe.infinite_shoe() if decks is None else Shoe.packs_of(decks)
    return round_odds(profile, shoe)


# -- brute force: every ordering of a small shoe, settled by hand ------------------

SMALL = "A=1 2=0 3=1 4=0 5=2 6=0 7=1 8=1 9=3 10=0 J=0 Q=0 K=2"  # 11 cards


def _points(rank: str) -> int:
    return 0 if rank in ("10", "J", "Q", "K") else 1 if rank == "A" else int(rank)


def brute_force_ev(bank_bonus: bool, bonus_on: str):
    """Player EV of the standard rules as a sympy expression, by enumerating
    all ordered six-card deals of SMALL's physical cards.

    Written from RULES.md section 3 alone: naturals 8/9 win outright (9 beats
    8, equal naturals push), 0-5 draw, 6-7 stand; a Colon is a rank pair;
    with bonus_on=win a winning Colon is paid its multiplier (Colon nine if
    a pair of 9s), with always whatever the result; with bank_bonus a bank
    Colon that beats the player collects its multiplier.
    """
    cards = []
    for item in SMALL.split():
        rank, count = item.split("=")
        cards += [rank] * int(count)
    s = SYMBOLS
    total = 0
    money = sympy.Integer(0)
    tally: dict[object, int] = {}
    for seq in itertools.permutations(range(len(cards)), 6):
        p1, p2, b1, b2, p3, b3 = (cards[i] for i in seq)
        pv = (_points(p1) + _points(p2)) % 10
        bv = (_points(b1) + _points(b2)) % 10
        pf = pv if pv >= 6 else (pv + _points(p3)) % 10
        bf = bv if bv >= 6 else (bv + _points(b3)) % 10
        if pv >= 8 or bv >= 8:
            mine = pv if pv >= 8 else -1
            theirs = bv if bv >= 8 else -1
        else:
            mine, theirs = pf, bf
        result = (mine > theirs) - (mine < theirs)
        p_colon = "nine" if p1 == p2 == "9" else "colon" if p1 == p2 else None
        b_colon = "nine" if b1 == b2 == "9" else "colon" if b1 == b2 else None
        if p_colon and (result == 1 or bonus_on == "always"):
            amount = s["colon_nine"] if p_colon == "nine" else s["colon"]
        elif result == 1:
            amount = s["win"]
        elif result == 0:
            amount = 0
        elif bank_bonus and b_colon:
            amount = -(s["bank_colon_nine"] if b_colon == "nine" else s["bank_colon"])
        else:
            amount = -1
        tally[amount] = tally.get(amount, 0) + 1
        total += 1
    for amount, count in tally.items():
        money += count * amount
    return sympy.expand(money / total), total


@pytest.mark.parametrize(
    "bank_bonus,bonus_on",
    [(False, "win"), pytest.param(True, "win", marks=pytest.mark.slow), (True, "always")],
    ids=["standard", "bank-bonus", "bank-bonus-always"],  # bank-bonus alone: CI (slow)
)
def test_symbolic_ev_matches_brute_force(bank_bonus: bool, bonus_on: str) -> None:
    expected, total = brute_force_ev(bank_bonus, bonus_on)
    profile = BUILTIN["standard"].with_options(
        bank_bonus="on" if bank_bonus else "off", bonus_on=bonus_on,
        bank_colon="2", bank_colon_nine="3",
    )
    result = round_odds(profile, parse_shoe(SMALL))
    assert result.total == total
    names = ["win", "colon", "colon_nine"]
    names += ["bank_colon", "bank_colon_nine"] if bank_bonus else []
    got = symbolic_payout(result, names)
    if not bank_bonus:
        # No bank collection: the brute force's bank symbols never occur.
        assert not expected.has(SYMBOLS["bank_colon"])
    assert sympy.expand(got.expected_value - expected) == 0


# -- agreement with the engine ---------------------------------------------------


def _all_symbols(result) -> dict[str, list[str]]:
    by_bet: dict[str, list[str]] = {}
    for name in pay_table(result.profile):
        by_bet.setdefault(entry_bet(name), []).append(name)
    return by_bet


@pytest.mark.parametrize("decks", [1, 8, None], ids=["D1", "D8", "Dinf"])
@pytest.mark.parametrize("profile", halve("profile", FIXED), ids=[p.key for p in FIXED])
def test_symbolic_at_defaults_equals_engine(profile, decks) -> None:
    result = odds_of(profile.key, decks)
    pay = pay_table(profile)
    for bet in result.bets:
        names = _all_symbols(result).get(bet, [])
        sym = symbolic_payout(result, names, bet=bet)
        assert set(sym.expected_value.free_symbols) == {SYMBOLS[n] for n in names}
        values = {n: pay[n] for n in names}
        assert sym.at(**values) == result.bet_moments(bet)


@pytest.mark.parametrize(
    "options",
    [{"bonus_on": "always"}, {"colon_match": "value"}, {"naturals": "compare"},
     {"bank_bonus": "on"}, {"win": "19/20", "colon": "none"}],
    ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()),
)
def test_symbolic_at_defaults_equals_engine_variants(options) -> None:
    result = odds_of("standard", 1, **options)
    names = list(pay_table(result.profile))
    sym = symbolic_payout(result, names)
    assert sym.at(**pay_table(result.profile)) == result.bet_moments()


_standard_d1 = functools.partial(odds_of, "super9", 1)
_multiplier = st.fractions(min_value=0, max_value=20, max_denominator=12)


@settings(max_examples=examples(5, 15), deadline=None)
@given(_multiplier, _multiplier, _multiplier, _multiplier, _multiplier)
def test_substitution_equals_engine_with_that_pay_table(w, c, c9, bc, bc9) -> None:
    result = _standard_d1()
    values = {"win": w, "colon": c, "colon_nine": c9, "bank_colon": bc, "bank_colon_nine": bc9}
    sym = symbolic_payout(result, list(values))
    (figures,) = compare_tables(result, [{k: str(v) for k, v in values.items()}])
    assert sym.at(**values) == figures.moments["player"]
    # The engine from scratch agrees too (a pay table changes no count).
    direct = round_odds(apply_table(result.profile, {k: str(v) for k, v in values.items()}),
                        Shoe.packs_of(1))
    assert figures.moments["player"] == direct.bet_moments()


def test_ev_is_linear_and_variance_quadratic() -> None:
    result = odds_of("super9", 8)
    sym = symbolic_payout(result, list(pay_table(result.profile)))
    for name in pay_table(result.profile):
        x = SYMBOLS[name]
        assert sympy.diff(sym.expected_value, x, 2) == 0
        assert sympy.diff(sym.variance, x, 3) == 0
        assert sympy.diff(sym.variance, x, 2) > 0  # Var grows with the spread of payouts


def test_punto_banco_published_house_edges() -> None:
    # Published 8-deck house edges (RULES.md section 5; Wizard of Odds, "Baccarat"):
    # Banker 1.0579% (5% commission), Player 1.2351%, Tie 14.3596% at 8:1.
    result = odds_of("punto-banco", 8)
    banker = symbolic_payout(result, ["banker_pays"])
    tie = symbolic_payout(result, ["tie_pays"])
    player = symbolic_payout(result, [])
    assert round(-banker.at(banker_pays=Fraction(19, 20))[0] * 100, 4) == Fraction(10579, 10000)
    assert round(-tie.at(tie_pays=8)[0] * 100, 4) == Fraction(143596, 10000)
    assert round(-Fraction(player.at()[0]) * 100, 4) == Fraction(12351, 10000)


# -- break-even ------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, None], ids=["D1", "Dinf"])
@pytest.mark.parametrize("profile", halve("profile", FIXED), ids=[p.key for p in FIXED])
def test_break_even_substitutes_to_zero(profile, decks) -> None:
    result = odds_of(profile.key, decks)
    pay = pay_table(profile)
    for entry in pay:
        found = break_even(result, entry)
        assert found.value is not None, entry
        value = found.fraction
        assert value is not None
        sym = symbolic_payout(result, [entry])
        assert sym.at(**{entry: value})[0] == 0
        if value >= 0:
            # The engine itself, given that multiplier, is exactly fair.
            fair = apply_table(profile, {entry: str(value)})
            variant = round_odds(fair, result.shoe)
            assert variant.bet_moments(entry_bet(entry))[0] == 0
        assert found.payable == (value >= 0)


def test_break_even_with_a_symbol_left_is_a_line() -> None:
    result = odds_of("standard", 1)
    found = break_even(result, "colon_nine", ["colon"])
    assert found.fraction is None and found.value.free_symbols == {SYMBOLS["colon"]}
    sym = symbolic_payout(result, ["colon", "colon_nine"])
    for c in (Fraction(0), Fraction(1, 2), Fraction(3)):
        nine = found.value.subs(SYMBOLS["colon"], sympy.Rational(c.numerator, c.denominator))
        assert sym.at(colon=c, colon_nine=Fraction(str(nine)))[0] == 0


def test_symmetric_bank_bonus_is_always_fair() -> None:
    # With bank_bonus the bank collects on its Colons what players are paid on
    # theirs: the standard round stays symmetric, fair whatever the multiplier.
    result = odds_of("standard", 1, bank_bonus="on")
    found = break_even(result, "colon")
    assert found.value is None and found.always
    assert result.expected_value == 0


def test_plain_break_evens_are_one() -> None:
    # plain is symmetric: a win must pay 1:1 for a fair round, and a Colon
    # added to the pay table must pay like a win.
    result = odds_of("plain", 2)
    assert break_even(result, "win").fraction == 1
    assert break_even(result, "colon").fraction == 1


def test_standard_colon_nine_break_even_is_negative() -> None:
    # Bonuses paid to players only give the players the edge (RULES.md 3):
    # with Colon at 2:1 no Colon-nine payout can make the round fair.
    result = odds_of("standard", 1)
    assert result.expected_value > 0
    found = break_even(result, "colon_nine")
    assert found.fraction is not None and found.fraction < 0 and not found.payable


# -- bank edge, sqrt, errors --------------------------------------------------------


@given(st.fractions(min_value=-2, max_value=2, max_denominator=1000), st.integers(1, 8))
def test_bank_edge_is_n_times_the_seat(ev, n) -> None:
    per_unit, per_round = bank_edge(ev, n)
    assert per_unit == -ev and per_round == n * per_unit


@pytest.mark.parametrize("players", [0, -1, True, 2.5])
def test_bank_edge_rejects_bad_players(players) -> None:
    with pytest.raises(PayoutError, match="at least 1 player"):
        bank_edge(Fraction(0), players)


@given(st.fractions(min_value=0, max_value=10**6, max_denominator=10**9), st.integers(0, 10))
def test_sqrt_decimal_matches_high_precision_decimal(value, digits) -> None:
    ctx = dec.Context(prec=80)
    exact = ctx.sqrt(ctx.divide(dec.Decimal(value.numerator), dec.Decimal(value.denominator)))
    quantum = dec.Decimal(1).scaleb(-digits)
    expected = exact.quantize(quantum, rounding=dec.ROUND_HALF_EVEN, context=ctx)
    assert sqrt_decimal(value, digits) == format(expected, "f") or (
        # 80 digits can sit within rounding distance of a half: only then may they differ.
        abs(exact - expected) * 2 >= quantum * dec.Decimal("0.999999")
    )


def test_sqrt_decimal_exact_squares() -> None:
    assert sqrt_decimal(Fraction(9, 4)) == "1.50000000"
    assert sqrt_decimal(Fraction(0)) == "0.00000000"
    with pytest.raises(ValueError, match="negative"):
        sqrt_decimal(Fraction(-1))


@pytest.mark.parametrize(
    "key,symbols,message",
    [
        ("standard", ["colour"], "'colour' is not a pay-table entry"),
        ("standard", ["bank_colon"], "set bank_bonus on"),
        ("standard", ["banker_pays"], "only punto-banco"),
        ("punto-banco", ["banker_pays", "tie_pays"], "settle different bets"),
    ],
)
def test_symbol_errors(key, symbols, message) -> None:
    with pytest.raises(PayoutError, match=message):
        symbolic_payout(odds_of(key, None), symbols)


def test_at_needs_every_symbol() -> None:
    sym = symbolic_payout(odds_of("standard", None), ["colon"])
    with pytest.raises(PayoutError, match="missing: colon"):
        sym.at()
    with pytest.raises(PayoutError, match="not a symbol here: win"):
        sym.at(colon=2, win=1)


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "is empty"),
        ("colon", "is not NAME=VALUE"),
        ("colon=", "is not NAME=VALUE"),
        ("colon=2,colon=3", "given twice"),
        ("naturals=compare", "not a pay-table option"),
    ],
)
def test_parse_table_errors(text, message) -> None:
    with pytest.raises(PayoutError, match=message):
        parse_table(text)


@pytest.mark.parametrize(
    "table,message",
    [
        ({"colon": "-1"}, "-1 is negative"),
        ({"colon": "two"}, "'two' is not a number"),
        ({"tie_pays": "-3/2"}, "is negative"),
        ({"bank_bonus": "maybe"}, "is not on or off"),
    ],
)
def test_apply_table_errors(table, message) -> None:
    with pytest.raises(PayoutError, match=message):
        apply_table(BUILTIN["standard"], table)


def test_odds_package_and_cli_do_not_import_sympy() -> None:
    import subprocess
    import sys

    code = "import sys, odds, cli, odds.report.odds_report, odds.exact.removal; print('sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=str(ROOT))
    assert out.stdout.strip() == "False"


_entries = st.dictionaries(
    st.sampled_from(["win", "colon", "colon_nine", "bank_colon", "bank_colon_nine"]),
    st.fractions(min_value=0, max_value=50, max_denominator=40),
    min_size=1,
)


@given(_entries)
def test_parse_and_apply_table_round_trip(values) -> None:
    spec = ",".join(f"{k.replace('_', '-')}={v}" for k, v in values.items())
    profile = apply_table(BUILTIN["super9"], parse_table(spec))
    for name, value in values.items():
        assert getattr(profile, name) == value


@settings(max_examples=30, deadline=None)
@given(st.fractions(min_value=0, max_value=10, max_denominator=20),
       st.fractions(min_value=0, max_value=10, max_denominator=20))
def test_break_even_win_for_any_bonuses(colon, colon_nine) -> None:
    # Whatever the Colon bonuses, the win multiplier solved for is exactly fair.
    base = odds_of("standard", None)
    profile = apply_table(base.profile, {"colon": str(colon), "colon_nine": str(colon_nine)})
    result = compare_tables(base, [{"colon": str(colon), "colon_nine": str(colon_nine)}])
    assert result[0].profile == profile
    from dataclasses import replace

    variant = replace(base, profile=profile)
    found = break_even(variant, "win")
    assert found.fraction is not None
    fair = replace(base, profile=apply_table(profile, {"win": str(found.fraction)}))
    if found.fraction >= 0:
        assert fair.expected_value == 0
