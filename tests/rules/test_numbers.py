"""Numbers as people type them: odds.rules.numbers, in flags and profile files alike."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds.rules.numbers import MAX_NUMBER, NumberError, parse_amount, parse_number, parse_probability
from odds.rules.session_options import Session


def grouped(n: int) -> str:
    """``n`` written with commas grouping thousands, as people write money."""
    return f"{n:,}"


@settings(max_examples=60, deadline=None)
@given(whole=st.integers(0, 10**15), places=st.integers(0, 6), digits=st.integers(0, 999_999))
def test_grouped_amounts_round_trip(whole: int, places: int, digits: int) -> None:
    frac = str(digits).zfill(6)[:places]
    text = grouped(whole) + (f".{frac}" if places else "")
    plain = str(whole) + (f".{frac}" if places else "")
    assert parse_amount(text, "capital") == parse_amount(plain, "capital") == Fraction(plain)


@settings(max_examples=60, deadline=None)
@given(value=st.fractions(min_value=Fraction(1, 10**6), max_value=Fraction(10**6),
                          max_denominator=10**24))  # parts of at most 31 digits: below
def test_fractions_and_odds_round_trip(value: Fraction) -> None:
    assert parse_number(f"{value.numerator}/{value.denominator}", "x") == value
    assert parse_number(f"{value.numerator}:{value.denominator}", "x") == value
    assert parse_number(f"{value.numerator:,}/{value.denominator}", "x") == value


@settings(max_examples=60, deadline=None)
@given(basis=st.integers(1, 9_999))
def test_percent_round_trips(basis: int) -> None:
    # basis points: 1 is 0.01%, 9,999 is 99.99%
    percent = f"{basis // 100}.{basis % 100:02d}%"
    assert parse_probability(percent, "p") == Fraction(basis, 10_000)
    assert parse_probability(str(Fraction(basis, 10_000)), "p") == Fraction(basis, 10_000)


@settings(max_examples=40, deadline=None)
@given(value=st.floats(min_value=1e-6, max_value=1e12, allow_nan=False))
def test_a_files_float_is_the_decimal_it_was_written_as(value: float) -> None:
    assert parse_number(value, "x") == parse_number(repr(value), "x") == Fraction(repr(value))


@pytest.mark.parametrize("text,reading", [
    ("1,5", "1.5"), ("1,00", "1.00"), ("1.000,5", "1000.5"), ("12,34,567", "1234.567"),
    ("1,0000", "1.0000"),
])
def test_ambiguous_commas_are_refused_with_how_to_write(text: str, reading: str) -> None:
    with pytest.raises(NumberError, match=f"is ambiguous: write {reading} with a point"):
        parse_amount(text, "capital")


@pytest.mark.parametrize("raw,message", [
    ("1e308", "too large (at most 10^30)"), (1e308, "too large"), (10**31, "too large"),
    ("1e-40", "too fine"), ("x", "is not a number (write 2, 1.5, 50,000"), (True, "not a number"),
    ("1/0", "divides by zero"), ("2:0", "divides by zero"), ("5%", "an amount, not a percent"),
    (float("nan"), "not a number"), ([1], "not a number"), ("", "not a number"),
    ("1" * 32 + "/3", "too many digits"), ("1/" + "1" * 32, "too many digits"),  # 31 digits a numeral
    (Fraction(1, 10**30 + 1), "too fine"),
])
def test_what_is_not_an_amount(raw: object, message: str) -> None:
    with pytest.raises(NumberError, match=re.escape(message)):
        parse_amount(raw, "capital")


@pytest.mark.parametrize("raw", ["0", "1", "100%", "0%", "-1%", "2", "1.5", "x"])
def test_what_is_not_a_probability(raw: str) -> None:
    with pytest.raises(NumberError):
        parse_probability(raw, "target ruin")


def test_the_bound_is_the_largest_amount() -> None:
    assert parse_amount(MAX_NUMBER, "capital") == MAX_NUMBER
    assert parse_amount(f"{MAX_NUMBER:,}", "capital") == MAX_NUMBER


def test_profile_file_strings_read_as_flags() -> None:
    s = Session().with_options(capital="50,000", round_cap="1,000.5", max_bonus="2,500",
                               stakes=["1,000", 2])
    assert (s.capital, s.round_cap, s.max_bonus) == (50_000, Fraction(2001, 2), 2500)
    assert s.stakes == (1000, 2)


def test_a_list_of_stakes_keeps_its_commas() -> None:
    assert Session().with_options(stakes="1,1,2").stakes == (1, 1, 2)
    with pytest.raises(ValueError, match="a comma separates stakes here"):
        Session().with_options(stakes="50,000")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_bank_takes_money_and_percent_as_typed() -> None:
    typed = run("bank", "--players", "2", "--decks", "inf", "--stakes", "100", "--capital",
                "20,000", "--rounds", "10", "--target-ruin", "1%", "--max-bonus", "1,000",
                "--format", "json")
    plain = run("bank", "--players", "2", "--decks", "inf", "--stakes", "100", "--capital",
                "20000", "--rounds", "10", "--target-ruin", "0.01", "--max-bonus", "1000",
                "--format", "json")
    assert typed.exit_code == 0, typed.output
    assert typed.stdout == plain.stdout


@pytest.mark.parametrize("args,needle", [
    (["bank", "--capital", "1,5", "--rounds", "2"], "write 1.5 with a point"),
    (["bank", "--target-ruin", "150%", "--rounds", "2"], "is not between 0 and 1"),
    (["odds", "--max-bonus", "1.000,5"], "write 1000.5 with a point"),
])
def test_flags_refuse_ambiguous_numbers(args: list[str], needle: str) -> None:
    result = run(*args)
    assert result.exit_code == 2 and needle in result.stderr, result.output


def test_verify_takes_alpha_as_a_percent(tmp_path) -> None:
    result = run("verify", str(tmp_path / "none.csv"), "--alpha", "101%")
    assert result.exit_code == 2 and "alpha" in result.stderr and "between 0 and 1" in result.stderr


def test_a_profile_files_strings_read_as_the_flags(tmp_path) -> None:
    outputs = []
    for capital, cap in (('"20,000"', '"1,000.5"'), ("20000", "1000.5")):
        path = tmp_path / "p.toml"
        path.write_text(f'base = "standard"\nname = "p"\n[session]\nplayers = 2\nstakes = 100\n'
                        f"capital = {capital}\nround_cap = {cap}\nrounds = 5\n", encoding="utf-8")
        result = run("bank", "--profile", str(path), "--decks", "inf", "--format", "json")
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout.replace(str(path), "p.toml"))
    assert outputs[0] == outputs[1]


NUMBERISH = st.text(alphabet="0123456789,.:/%eE+- x", max_size=24)


@settings(max_examples=200, deadline=None)
@given(text=st.one_of(NUMBERISH, st.text(max_size=24)))
def test_any_text_is_a_bounded_number_or_one_sentence(text: str) -> None:
    for parse in (parse_amount, parse_probability):
        try:
            value = parse(text, "x")
        except NumberError as exc:
            assert str(exc).startswith("x: ") and "\n" not in str(exc)
        else:
            assert abs(value) <= MAX_NUMBER and value.denominator <= 10**30


def test_a_number_at_the_digit_bounds_is_read_and_one_past_them_is_refused_by_its_bound() -> None:
    # 10^30 (31 digits) is the largest amount and 1/10^30 the finest: both as typed.
    top = "1" + "0" * 30
    assert parse_number(top, "x") == 10**30 and parse_number(f"1/{top}", "x") == Fraction(1, 10**30)
    assert parse_number(f"{top}:{top}", "x") == 1
    with pytest.raises(NumberError, match="too large"):
        parse_number("9" * 31, "x")
    with pytest.raises(NumberError, match="too fine"):
        parse_number("1/" + "9" * 31, "x")
    for text in ("1/" + "1" * 32, "1" * 32, "1:" + "9" * 40, "0." + "1" * 31):
        with pytest.raises(NumberError, match=r"has too many digits \(at most 10\^30"):
            parse_number(text, "x")
    with pytest.raises(NumberError, match="is not a number"):
        parse_number("1.5.5", "x")
