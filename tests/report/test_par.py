"""`lucky9 par`: every figure equals what odds, payout, removal and count give; published
figures; volatility against brute force; bad input; print-ready HTML."""

from __future__ import annotations

import itertools
import json
import math
import os
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds.money.volatility import (
    MAX_EXACT_TERMS,
    _behind_by_convolution,
    _check_distribution,
    house_behind,
    rounds_for_precision,
)
from odds.report.par import PAR_DECKS, line_names, par_data, par_sheet
from odds.report.par_html import par_html
from odds.rules.bet_library import resolve_bets
from odds.rules.profiles import BUILTIN, resolve_profile
from tests.examples import examples
from tests.fuzzing import FUZZ
from tests.pages import needs_chromium, print_check

RUNNER = CliRunner()

THORP = """
base = "punto-banco"
name = "thorp-walden"
bets = ["banker", "natural-9"]

[bet.natural-9]
side = "banker"
description = "the banker hand is a natural 9, pays 9:1"
[[bet.natural-9.pay]]
banker_natural = [9]
pays = 9
"""


def _json(*args: str) -> dict:
    res = RUNNER.invoke(main, list(args))
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


@pytest.fixture(scope="module")
def thorp(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("profiles") / "thorp-walden.toml"
    path.write_text(THORP)
    return str(path)


# -- the figures match the commands that print them one by one ---------------------------

CASES = [("ez-baccarat", "dragon-7"), ("FILE", "natural-9")]


@pytest.mark.parametrize("profile,bet", [CASES[0], pytest.param(*CASES[1], marks=pytest.mark.slow)],
                         ids=["dragon-7", "profile-file-natural-9"])
def test_every_figure_equals_odds_payout_removal(profile: str, bet: str, thorp: str) -> None:
    profile = thorp if profile == "FILE" else profile
    par = _json("par", "--profile", profile, "--bet", bet, "--no-count", "--format", "json")
    assert par["countability"] is None
    assert [s["decks"] for s in par["shoe_sizes"]] == ["1", "2", "4", "6", "8", "inf"]
    for size in par["shoe_sizes"]:
        d = size["decks"]
        odds = _json("odds", "--profile", profile, "--decks", d, "--bet", bet,
                     "--format", "json")["bets"][bet]
        assert size["expected_value"] == odds["expected_value"]
        assert size["variance"] == odds["variance"]
        assert Fraction(size["house_edge"]) == -Fraction(odds["expected_value"])
        assert Fraction(size["hit_frequency"]) == sum(
            Fraction(p) for a, p in odds["payouts"].items() if Fraction(a) > 0)
        assert Fraction(size["standard_deviation"]) ** 2 == pytest.approx(
            Fraction(odds["variance"]), rel=1e-7)
        pay = _json("payout", "--profile", profile, "--decks", d, "--bet", bet,
                    "--format", "json")["bets"][bet]
        # The sheet names a line for people (its label, or a lone line's description);
        # payout names the entry as --solve takes it: the same lines, in the same order.
        assert [(x["pays"], x["probability"]) for x in size["lines"]] == [
            (x["pays"], x["probability"]) for x in pay["entries"]]
        assert [x["line"] for x in size["lines"]][:-1] == line_names(
            resolve_bets(resolve_profile(profile), [bet])[0])[:-1]
        for line in size["lines"]:
            assert Fraction(line["combinations"], size["total_combinations"]) == Fraction(
                line["probability"])
            assert Fraction(line["return"]) == Fraction(line["pays"]) * Fraction(
                line["probability"])
        assert sum(Fraction(x["return"]) for x in size["lines"]) == Fraction(
            size["expected_value"])
        if d == str(par["shoe"]["packs"]):
            assert [(x["pays"], x["break_even"]) for x in par["break_even"]] == [
                (x["pays"], x["break_even"]) for x in pay["entries"]]
            assert [x["line"] for x in par["break_even"]] == [
                x["line"] for x in size["lines"]][:len(par["break_even"])]
    removal = _json("removal", "--profile", profile, "--bet", bet, "--format", "json")
    assert par["removal"]["expected_value"] == removal["expected_values"][bet]
    assert [(e["rank"], e["left"], e["ev_change"]) for e in par["removal"]["effects"]] == [
        (e["rank"], e["left"], e["ev_changes"][bet]) for e in removal["effects"]]
    assert par["removal"]["weighted_sum"] == removal["weighted_sums"][bet] == "0"


@pytest.mark.parametrize("profile,bet", [CASES[0], pytest.param(*CASES[1], marks=pytest.mark.slow)],
                         ids=["dragon-7", "profile-file-natural-9"])  # the profile file: CI
def test_countability_equals_count(profile: str, bet: str, thorp: str) -> None:
    profile = thorp if profile == "FILE" else profile
    study = ("--shoes", "70", "--seed", "3", "--cut-cards", "20")
    par = _json("par", "--profile", profile, "--bet", bet, "--format", "json", *study)
    count = _json("count", "--profile", profile, "--decks", "8", "--bet", bet, *study,
                  "--format", "json")
    c, b = par["countability"], count["bets"][bet]
    assert c["study"] == count["study"]
    assert c["study"]["shoes"] == 70 and c["study"]["seed"] == 3
    assert c["study"]["cards_behind_cut_card"] == 20
    assert c["tags"] == b["count"]["tags"]
    assert c["betting_correlation"] == b["count"]["betting_correlation"]
    assert c["effects_of_removal"] == b["effects_of_removal_exact"]
    for key, src in (("perfect_information", b["perfect_information"]),
                     ("linear_count", b["linear_count"]["sit_out"]),
                     ("tag_count", b["tag_count"]["sit_out"])):
        for figure in ("units_per_shoe", "bets_per_shoe", "edge_when_betting"):
            got, want = c[key][figure], src[figure]
            assert (got["mean"], got["se"]) == (want["mean"], want["se"])
            assert got["ci95"] == pytest.approx([want["mean"] - 1.959963984540054 * want["se"],
                                                 want["mean"] + 1.959963984540054 * want["se"]])
    assert c["cut_card_effect"]["mean"] == b["cut_card_effect"]["mean"]
    assert "--shoes 70 --seed 3 --cut-cards 20" in par["command"]
    text = RUNNER.invoke(main, ["par", "--profile", profile, "--bet", bet, *study]).output
    assert "70 shoes of 8 packs, seed 3, cut card with 20 cards behind it" in text
    assert "95%:" in text


# -- published figures on the sheet ---------------------------------------------------------


@pytest.fixture(scope="module")
def ez_sheets() -> dict[str, dict]:
    return {bet: par_data(par_sheet(BUILTIN["ez-baccarat"], bet, count=False))
            for bet in ("dragon-7", "panda-8")}


def test_dragon_7_sheet_holds_the_published_figures(ez_sheets) -> None:
    eight = ez_sheets["dragon-7"]["shoe_sizes"][PAR_DECKS.index(8)]
    # Wizard of Odds, "Card Counting the Dragon Side Bet in EZ Baccarat" (E. Jacobson),
    # Table 1, 8 decks: winning Dragon 112,633,011,329,024 of 4,998,398,275,503,360.
    # (Its losing line prints 4,885,765,264,174,330: the total less the wins is ...336,
    # the table's last digits were lost to 15-digit arithmetic.)
    # https://wizardofodds.com/games/baccarat/dragon-bet/
    win, lose = eight["lines"]
    assert win["combinations"] == 112_633_011_329_024
    assert eight["total_combinations"] == 4_998_398_275_503_360
    assert lose["combinations"] == 4_998_398_275_503_360 - 112_633_011_329_024
    # E. Jacobson, "Card Counting the Dragon/Fortune 7 Baccarat Side Bet" (888casino blog,
    # apheat.net, 2014): house edge 7.6113%, standard deviation 6.0849, hit frequency 2.2534%.
    md = RUNNER.invoke(main, ["par", "--profile", "ez-baccarat", "--bet", "dragon-7",
                              "--no-count"]).output
    row = {line.split("|")[1].strip(): line for line in md.splitlines() if line.startswith("|")}
    assert "7.6113%" in row["house edge"].split("|")[6]
    assert "6.0849" in row["standard deviation"].split("|")[6]
    assert "2.2534%" in row["hit frequency (pays more than 0)"].split("|")[6]
    # The effects of removal behind Jacobson's count (same article: tags 4-7 -1, 8 and 9
    # +2, the rest 0): removing an 8 or a 9 helps the bet most, a 4 to 7 hurts it.
    change = {e["rank"]: Fraction(e["ev_change"]) for e in
              ez_sheets["dragon-7"]["removal"]["effects"]}
    assert sorted(change, key=change.get)[-2:] == ["9", "8"]
    assert all(change[r] < 0 for r in "4567")


def test_panda_8_sheet_holds_the_published_figures(ez_sheets) -> None:
    eight = ez_sheets["panda-8"]["shoe_sizes"][PAR_DECKS.index(8)]
    # Wizard of Odds, "EZ Baccarat" (8 decks): Panda 8 wins 172,660,763,262,976 times
    # (house edge 10.19%): https://wizardofodds.com/games/baccarat/ez-baccarat/
    assert eight["lines"][0]["combinations"] == 172_660_763_262_976
    assert f"{float(Fraction(eight['house_edge'])) * 100:.2f}" == "10.19"
    # E. Jacobson, "Co-card counting the Dragon and Panda side bets in EZ Baccarat"
    # (888casino blog): baseline house edge 10.1876%; the Panda count's tags
    # A,2 +1; 3,4,5,8 -2; 6,7 -1; 9 +4; tens +1: each tag has the sign of the
    # sheet's effect of removal, and the 9, tagged +4, has the largest effect.
    assert f"{float(Fraction(eight['house_edge'])) * 100:.4f}" == "10.1876"
    tags = [1, 1, -2, -2, -2, -1, -1, -2, 4, 1, 1, 1, 1]
    effects = [Fraction(e["ev_change"]) for e in ez_sheets["panda-8"]["removal"]["effects"]]
    assert all((t > 0) == (g > 0) for t, g in zip(tags, effects, strict=True))
    assert max(effects) == effects[8]


def test_profile_file_bet_holds_the_published_figures(thorp: str) -> None:
    from odds.rules.profiles import resolve_profile

    data = par_data(par_sheet(resolve_profile(thorp), "natural-9", count=False))
    eight = data["shoe_sizes"][PAR_DECKS.index(8)]
    # Wizard of Odds, "Banker Natural 8 and 9" (Thorp's side bets, 8 decks, 9 to 1):
    # the natural 9 wins 474,361,430,409,216 of 4,998,398,275,503,360, house edge 5.10%.
    # https://wizardofodds.com/games/baccarat/side-bets/natural-8-and-9/
    assert eight["lines"][0]["combinations"] == 474_361_430_409_216
    assert eight["total_combinations"] == 4_998_398_275_503_360
    assert f"{float(Fraction(eight['house_edge'])) * 100:.2f}" == "5.10"
    # Thorp and Walden counted the nines alone: the sheet's effect of removal puts the
    # whole count on the 9 (removing one helps the house, so it hurts the bet most).
    change = {e["rank"]: Fraction(e["ev_change"]) for e in data["removal"]["effects"]}
    assert min(change, key=change.get) == "9"


# -- volatility: against brute force ----------------------------------------------------------


def _brute_behind(dist: dict[Fraction, Fraction], n: int) -> Fraction:
    """Every sequence of n rounds, one by one."""
    total = Fraction(0)
    for seq in itertools.product(dist.items(), repeat=n):
        if sum(a for a, _ in seq) > 0:
            total += math.prod((p for _, p in seq), start=Fraction(1))
    return total


DISTS = [
    {Fraction(40): Fraction(1, 44), Fraction(-1): Fraction(43, 44)},
    {Fraction(19, 20): Fraction(9, 20), Fraction(0): Fraction(1, 10), Fraction(-1): Fraction(9, 20)},
    {Fraction(3): Fraction(1, 17), Fraction(2): Fraction(2, 17), Fraction(1): Fraction(5, 17),
     Fraction(0): Fraction(1, 17), Fraction(-1): Fraction(8, 17)},
]


@pytest.mark.parametrize("dist", DISTS, ids=["two", "banker-like", "five"])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_house_behind_equals_brute_force(dist, n) -> None:
    got = house_behind(dist, n)
    assert got.exact and got.probability == _brute_behind(dist, n)
    lattice = _behind_by_convolution(_check_distribution(dist), n)
    assert lattice.probability == pytest.approx(float(got.probability), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.fractions(-3, 5, max_denominator=4), st.integers(1, 9)),
                min_size=1, max_size=4, unique_by=lambda t: t[0]),
       st.integers(1, 40))
def test_exact_sum_and_lattice_agree(items, n) -> None:
    weight = sum(w for _, w in items)
    dist = {a: Fraction(w, weight) for a, w in items}
    got = house_behind(dist, n)
    lattice = _behind_by_convolution(_check_distribution(dist), n)
    assert lattice.probability is not None
    if got.exact:
        assert 0 <= got.probability <= 1
        assert lattice.probability == pytest.approx(float(got.probability), abs=1e-9)


def test_house_behind_falls_back_and_says_so() -> None:
    dist = DISTS[2]
    big = house_behind(dist, 1000)
    assert math.comb(1004, 4) > MAX_EXACT_TERMS and not big.exact
    assert "double precision" in big.method
    assert 0 < big.probability < 1
    with pytest.raises(ValueError, match="1 to 100,000"):
        house_behind(dist, 0)
    with pytest.raises(ValueError, match="sum to 1"):
        house_behind({Fraction(1): Fraction(1, 2)}, 3)


def test_rounds_for_precision() -> None:
    # The sample mean of n rounds has sd sigma / sqrt(n): n = (1.96 sigma / 0.01)^2.
    for var in (Fraction(1), Fraction(37), Fraction(1, 4)):
        n = rounds_for_precision(var)
        assert 1.959963984540054 * math.sqrt(float(var) / n) <= 0.01
        assert 1.959963984540054 * math.sqrt(float(var) / (n - 1)) > 0.01


# -- bad input: a clear error, exit 2, nothing written ------------------------------------


@pytest.mark.parametrize("args,message", [
    (["--profile", "ez-baccarat", "--bet", "dragon-8"], "unknown bet 'dragon-8'"),
    (["--profile", "family", "--bet", "player"], "fixed"),
    (["--profile", "ez-baccarat", "--bet", "dragon-7", "--shoes", "0"], "--shoes"),
    (["--profile", "ez-baccarat", "--bet", "dragon-7", "--shoes", "100001"], "--shoes"),
    (["--profile", "ez-baccarat", "--bet", "dragon-7", "--cut-cards", "500"], "cut card"),
    (["--profile", "ez-baccarat", "--bet", "dragon-7", "--decks", "inf"], "packs"),
    (["--profile", "ez-baccarat", "--bet", "tie", "--bet", "dragon-7", "--format", "html"],
     "--out DIR"),
])
def test_bad_input_is_a_usage_error(args, message, tmp_path: Path) -> None:
    res = RUNNER.invoke(main, ["par", *args, "--no-count"] if "--cut-cards" not in args
                        else ["par", *args])
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert "Traceback" not in res.output


def test_bad_profile_file_and_nothing_written(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "punto-banco"\n[bet.x]\nside = "nowhere"\n')
    target = tmp_path / "sheet.html"
    target.write_text("old sheet\n")
    res = RUNNER.invoke(main, ["par", "--profile", str(bad), "--bet", "x", "--no-count",
                               "--format", "html", "--out", str(target)])
    assert res.exit_code == 2 and "bad.toml" in res.output, res.output
    res = RUNNER.invoke(main, ["par", "--profile", "ez-baccarat", "--bet", "dragon-9",
                               "--no-count", "--format", "html", "--out", str(target)])
    assert res.exit_code == 2
    assert target.read_text() == "old sheet\n"
    assert sorted(os.listdir(tmp_path)) == ["bad.toml", "sheet.html"]


def test_a_failed_write_leaves_the_old_files_whole(tmp_path: Path) -> None:
    from odds.io.atomic import OutputError
    from odds.report.par import write_par

    old = tmp_path / "a.md"
    old.write_text("old\n")
    (tmp_path / "folder").mkdir()
    with pytest.raises(ValueError):
        write_par([(str(old), "new\n"), (str(tmp_path / "folder"), "x")])
    with pytest.raises(OutputError):  # the disk fills while writing the second
        write_par([(str(old), "new\n"), ("/dev/full", "x")])
    assert old.read_text() == "old\n"
    assert sorted(os.listdir(tmp_path)) == ["a.md", "folder"]
    write_par([(str(old), "new\n")])
    assert old.read_text() == "new\n"


def test_a_failed_run_leaves_no_folder_behind(tmp_path: Path) -> None:
    # The cut card is checked by the study, after --out's folder was made: it goes again.
    res = RUNNER.invoke(main, ["par", "--profile", "ez-baccarat", "--bet", "tie", "--bet",
                               "dragon-7", "--cut-cards", "500", "--out", str(tmp_path / "new")])
    assert res.exit_code == 2 and "cut card" in res.output, res.output
    assert os.listdir(tmp_path) == []


def test_several_bets_into_a_folder(tmp_path: Path) -> None:
    res = RUNNER.invoke(main, ["par", "--profile", "ez-baccarat", "--bet", "dragon-7",
                               "--bet", "panda-8", "--no-count", "--format", "json",
                               "--out", str(tmp_path / "sheets")])
    assert res.exit_code == 0, res.output
    names = sorted(os.listdir(tmp_path / "sheets"))
    assert names == ["ez-baccarat-dragon-7-par.json", "ez-baccarat-panda-8-par.json"]
    data = json.loads((tmp_path / "sheets" / names[1]).read_text())
    assert data["bet"]["name"] == "panda-8"


# -- the HTML sheet, as a reader sees it -------------------------------------------------------


@pytest.fixture(scope="module")
def dragon_html(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("par")
    path = folder / "dragon-7.html"
    res = RUNNER.invoke(main, ["par", "--profile", "ez-baccarat", "--bet", "dragon-7",
                               "--shoes", "64", "--format", "html", "--out", str(path)])
    assert res.exit_code == 0, res.output
    return path


def test_html_is_valid_and_has_charts(dragon_html: Path) -> None:
    from tests.pages import StrictParser

    text = dragon_html.read_text()
    parser = StrictParser()
    parser.feed(text)
    parser.close()
    assert parser.stack == [] and "@page { size: A4;" in text
    assert text.count("<svg") == 2 and "charts were left out" not in text
    assert "64 shoes of 8 packs, seed 1, cut card with 14 cards behind it" in text


def test_html_says_when_charts_are_left_out(monkeypatch) -> None:
    import sys

    from odds.report.par_html import charts

    data = par_data(par_sheet(BUILTIN["ez-baccarat"], "dragon-7", count=False))
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the plot extra were missing
    assert charts(data) is None
    text = par_html(data)
    assert "The charts were left out" in text and "<svg" not in text
    assert "Left out (<code>--no-count</code>)" in text


@needs_chromium
def test_par_html_prints_on_two_a4_pages_without_overflow(dragon_html: Path,
                                                          tmp_path: Path) -> None:
    pages, width = print_check(dragon_html, tmp_path)
    assert 1 <= pages <= 2
    assert width <= 718


# CI (slow: Chromium prints each); the fast twin is the Dragon 7 sheet's print check above.
@needs_chromium
@pytest.mark.slow
@pytest.mark.parametrize("profile,bet", [("punto-banco", "dragon-bonus-player"),
                                         ("standard", "player")])
def test_longer_pay_tables_still_print_on_two_pages(profile: str, bet: str,
                                                    tmp_path: Path) -> None:
    # Ten pay lines (Dragon Bonus), and the Lucky 9 seat with its Colon lines on one pack.
    page = tmp_path / "sheet.html"
    res = RUNNER.invoke(main, ["par", "--profile", profile, "--bet", bet, "--shoes", "64",
                               "--format", "html", "--out", str(page)])
    assert res.exit_code == 0, res.output
    pages, width = print_check(page, tmp_path)
    assert 1 <= pages <= 2 and width <= 718


@settings(max_examples=examples(2, 8), deadline=None)
@given(st.fractions(1, 200, max_denominator=20), st.sampled_from([8, 9]))
def test_sheet_invariants_for_any_pay(pays: Fraction, value: int) -> None:
    from odds.rules.bet_types import Bet, Condition, Entry

    bet = Bet("natural", "a banker natural", "banker",
              (Entry(Condition(banker_natural=frozenset({value})), pays),))
    data = par_data(par_sheet(BUILTIN["punto-banco"], bet, count=False))
    for size in data["shoe_sizes"]:
        lines = size["lines"]
        assert sum(x["combinations"] for x in lines) == size["total_combinations"]
        assert sum(Fraction(x["return"]) for x in lines) == Fraction(size["expected_value"])
        assert Fraction(size["hit_frequency"]) == Fraction(lines[0]["probability"])
    # Each line at its break-even pay, the others as they are: the bet is exactly fair.
    eight = data["shoe_sizes"][PAR_DECKS.index(8)]["lines"]
    for i, row in enumerate(data["break_even"]):
        fair = sum(Fraction(row["break_even"] if j == i else x["pays"]) * Fraction(
            x["probability"]) for j, x in enumerate(eight))
        assert fair == 0
    # After one round the house is behind exactly when the bet won.
    one = house_behind({Fraction(x["pays"]): Fraction(x["probability"]) for x in eight}, 1)
    assert one.probability == Fraction(eight[0]["probability"])


@needs_chromium
def test_the_overflow_check_can_fail(tmp_path: Path) -> None:
    wide = tmp_path / "wide.html"
    wide.write_text('<!DOCTYPE html><html><head><style>@page { size: A4; margin: 11mm; }'
                    '</style></head><body><div style="width:300mm">x</div></body></html>')
    assert print_check(wide, tmp_path)[1] > 718


# -- hostile option values (the fuzz suite's promises, for par and card) ------------------------


@pytest.mark.parametrize("command", ["par", "card"])
@FUZZ
@given(data=st.data())
def test_hostile_option_values_par_and_card(command: str, data, tmp_path_factory,
                                            monkeypatch) -> None:
    import odds.cli.tables
    from tests.fuzzing import OUTPUT, VALUE, Accepted, _check, _reached, _value_options

    # Stubbed where the commands look them up (their answers: tested above); an accepted
    # input reaches the stub, instead of a whole sheet and a 2,000-shoe study.
    monkeypatch.setattr(odds.cli.tables, "par_sheet", _reached)
    monkeypatch.setattr(odds.cli.tables, "card", _reached)
    work = tmp_path_factory.mktemp("fuzz")
    monkeypatch.chdir(work)
    args = ["--profile", "ez-baccarat", "--bet", "tie"] if command == "par" else [
        "--profile", "plain"]
    assert isinstance(RUNNER.invoke(main, [command, *args]).exception, Accepted)
    for option in data.draw(st.lists(st.sampled_from(_value_options(command)), min_size=1,
                                     max_size=3, unique=True)):
        args += [option, data.draw(OUTPUT if option == "--out" else VALUE)]
    result = RUNNER.invoke(main, [command, *args])
    _check(result, args, any("/dev/full" in a for a in args))
    left = [p.name for p in work.rglob("*") if p.name.endswith(".tmp")]
    assert not left, left


def test_a_line_without_a_label_reads_as_the_bets_description(thorp: str) -> None:
    """A one-line bet of a profile file, no label: its description names the line."""
    text = RUNNER.invoke(main, ["par", "--profile", thorp, "--bet", "natural-9",
                                "--no-count"]).output
    assert "| the banker hand is a natural 9, pays 9:1 | 9 to 1 |" in text
    assert "banker natural" not in text
    data = _json("par", "--profile", thorp, "--bet", "natural-9", "--no-count",
                 "--format", "json")
    lines = [row["line"] for row in data["bet"]["pay_table"]]
    assert lines == ["the banker hand is a natural 9, pays 9:1", "otherwise"]
    assert [row["line"] for row in data["shoe_sizes"][0]["lines"]] == lines
    assert [row["line"] for row in data["break_even"]] == lines
