"""``lucky9 bank`` through click's test runner: exit codes, JSON keys, labels, errors."""

from __future__ import annotations

import builtins
import json
import subprocess
import sys
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds import BUILTIN, Shoe, round_odds
from tests.examples import examples
from tests.paths import ROOT


def run(*args: str):
    return CliRunner().invoke(main, ["bank", *args])


def test_json_keys_and_exact_mean() -> None:
    result = run("--players", "8", "--decks", "inf", "--capital", "30", "--rounds", "20",
                 "--target-ruin", "0.01", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("players", "net_distribution", "mean", "variance", "exact", "ruin_probability",
                "capital_for_target", "session"):
        assert key in data
    assert data["players"] == 8 and data["exact"] is True and data["shoe"] == "inf"
    seat = round_odds(BUILTIN["standard"], Shoe.infinite_shoe()).expected_value
    assert Fraction(data["mean"]) == -8 * seat
    assert sum(Fraction(p) for p in data["net_distribution"].values()) == 1
    assert data["session"]["capital"] == "30" and data["session"]["rounds"] == 20
    assert 0 < data["ruin_probability"] < 1
    assert data["session_risk"]["chain"] == "floating point"
    assert Fraction(data["capital_for_target"]["capital"]) > 0


def test_estimates_are_labelled_everywhere() -> None:
    result = run("--players", "3", "--decks", "1", "--samples", "2000", "--capital", "10",
                 "--rounds", "5", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["exact"] is False and data["samples"] == 2000 and data["seed"] == 1
    first = next(iter(data["net_distribution"].values()))
    assert set(first) == {"estimate", "frequency", "interval"}
    assert data["moments_exact"] is True  # the mean and variance are exact all the same
    seat = round_odds(BUILTIN["standard"], Shoe.packs_of(1)).expected_value
    assert Fraction(data["mean"]) == -3 * seat
    est = data["session_risk"]["ruin_estimate"]
    assert est["samples"] == 2000 and est["seed"] == 1 and est["level"] == 0.95
    assert est["interval"][0] <= est["estimate"] <= est["interval"][1]
    text = run("--players", "3", "--decks", "1", "--samples", "2000", "--capital", "10",
               "--rounds", "5")
    assert text.exit_code == 0 and "ESTIMATE" in text.stdout
    assert "95% interval" in text.stdout and "2,000 rounds sampled, seed 1" in text.stdout
    csv = run("--players", "3", "--decks", "1", "--samples", "2000", "--format", "csv")
    assert csv.exit_code == 0 and "# estimate" in csv.stdout


def test_the_capital_for_a_target_agrees_with_the_ruin_beside_it() -> None:
    # The command of a user's report: P(ruin) at 18100 was 0.010128, above the 1% target,
    # beside "smallest capital 18100 (ruin 0.009950)", the capital taken from the raw sampled
    # round and the ruin from the round tilted to the exact mean; the capital had no interval.
    result = run("--players", "6", "--decks", "2", "--stakes", "100", "--rounds", "200",
                 "--target-ruin", "0.01", "--capital", "18100")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert ("  P(ruin within 200 rounds)  0.010128  95% interval [0.009690, 0.010567] "
            "(20,000 rounds sampled, seed 1)") in lines
    assert ("  smallest capital  18200 (ruin 0.009649)  95% interval [18100, 18300] "
            "(20,000 rounds sampled, seed 1)") in lines
    assert "capital for ruin <= 0.0100 within 200 rounds (ESTIMATE)" in lines
    assert "  largest stake     0.9945 x the stakes above, with capital 18100" in lines


def test_the_capital_for_a_target_in_json() -> None:
    estimated = run("--players", "3", "--decks", "1", "--samples", "2000", "--rounds", "20",
                    "--capital", "15", "--target-ruin", "0.05", "--seed", "3", "--format", "json")
    assert estimated.exit_code == 0, estimated.output
    data = json.loads(estimated.stdout)
    cap = data["capital_for_target"]
    assert cap["exact"] is False and cap["samples"] == 2000 and cap["seed"] == 3
    assert cap["level"] == 0.95
    lo, hi = (Fraction(c) for c in cap["interval"])
    assert lo <= Fraction(cap["capital"]) <= hi
    ruin = data["session_risk"]["ruin_estimate"]["estimate"]
    assert (ruin <= 0.05) == (Fraction(cap["capital"]) <= 15)  # one round for both
    csv = run("--players", "3", "--decks", "1", "--samples", "2000", "--rounds", "20",
              "--capital", "15", "--target-ruin", "0.05", "--seed", "3", "--format", "csv")
    assert "2,000 rounds sampled, seed 3" in csv.stdout.splitlines()[-1]
    exact = run("--players", "2", "--decks", "inf", "--rounds", "20", "--target-ruin", "0.01",
                "--format", "json")
    cap = json.loads(exact.stdout)["capital_for_target"]
    assert cap["exact"] is True and cap["interval"] is None and cap["samples"] is None
    text = run("--players", "2", "--decks", "inf", "--rounds", "20", "--target-ruin", "0.01")
    assert "  smallest capital  20 (ruin 0.006937)" in text.stdout.splitlines()
    assert "(exact)" in text.stdout and "rounds sampled" not in text.stdout


def test_text_shows_the_session_and_who_carries_the_risk() -> None:
    result = run("--players", "3", "--stakes", "1,1,2", "--round-cap", "4", "--cap-rule",
                 "pro-rata", "--capital", "10", "--rounds", "5", "--rotation", "rotate")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "session: stakes 1,1,2; max_stake none; bonus_cap none; round_cap 4; " \
           "cap_rule pro-rata; capital 10; rounds 5; rotation rotate" in out
    # an estimated round (three seats on a finite shoe): its chain runs in floating point
    assert "P(ruin within 5 rounds)" in out and "so an ESTIMATE" in out
    assert "exact rationals" not in out
    assert "fixed: person 0 carries the bank's whole risk" in out


def test_session_from_a_profile_file(tmp_path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "standard"\n[session]\nstakes = [1, 2]\nbonus_cap = 1\n'
                    'capital = 12\nrounds = 4\n', encoding="utf-8")
    result = run("--profile", str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 2 and data["stakes"] == ["1", "2"]
    assert data["session"]["bonus_cap"] == 1 and "ruin_probability" in data
    override = run("--profile", str(path), "--bonus-cap", "0", "--format", "json")
    assert json.loads(override.stdout)["session"]["bonus_cap"] == 0


def _house(tmp_path, body: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text(f'base = "standard"\n[session]\n{body}\n', encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("body", ["stakes = 100", 'stakes = "100"', "stakes = [100]"])
def test_one_stake_in_a_profile_file_is_every_seats(tmp_path, body) -> None:
    # stakes = [100] with --players 6 was refused ('1 stakes given for 6 players'), and
    # stakes = 100 was not a list of stakes.
    result = run("--profile", _house(tmp_path, body), "--players", "6", "--decks", "inf",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == 6 and data["stakes"] == ["100"] * 6
    assert data["session"]["stakes"] == ["100"] * 6
    text = run("--profile", _house(tmp_path, body), "--players", "6", "--decks", "inf")
    assert "session: stakes 100 each;" in text.stdout and "shoe: inf; 6 players" in text.stdout


def test_flags_override_the_files_stakes(tmp_path) -> None:
    house = _house(tmp_path, "stakes = [1, 1, 2]\nplayers = 3")
    result = run("--profile", house, "--stakes", "5", "--decks", "inf", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["stakes"] == ["5"] * 3
    listed = run("--profile", house, "--stakes", "5,6,7", "--decks", "inf", "--format", "json")
    assert json.loads(listed.stdout)["stakes"] == ["5", "6", "7"]
    more = run("--profile", house, "--players", "6", "--stakes", "5", "--decks", "inf",
               "--format", "json")
    assert json.loads(more.stdout)["stakes"] == ["5"] * 6


def test_a_files_list_that_does_not_fit_the_players_names_both(tmp_path) -> None:
    result = run("--profile", _house(tmp_path, "stakes = [1, 1, 2]"), "--players", "6",
                 "--decks", "inf")
    assert result.exit_code == 2, result.output
    assert ("stakes: 3 stakes given for 6 players (give one stake for every seat, or one per "
            "player); stakes from the profile's [session]") in result.output
    inside = run("--profile", _house(tmp_path, "stakes = [1, 2]\nplayers = 3"))
    assert inside.exit_code == 2 and "session.stakes: 2 stakes given for 3 players" in inside.output


NOT_A_STAKE = "is not a stake (a stake is a positive amount, such as 1, 2.5 or 100)"


@pytest.mark.parametrize("flags,body,error", [
    (["--stakes", "-100"], None, "stakes: -100 "),
    (["--stakes=-100"], None, "stakes: -100 "),
    (["--stakes", "0"], None, "stakes: 0 "),
    (["--stakes", "100,-5"], None, "stakes: -5 "),
    ([], "stakes = -5", "session.stakes: -5 "),
    ([], "stakes = 0", "session.stakes: 0 "),
    ([], 'stakes = "-5"', "session.stakes: -5 "),
    ([], "stakes = [100, -5]", "session.stakes: -5 "),
    (["--max-stake", "0"], None, "max_stake: 0 "),
    (["--max-stake", "-5"], None, "max_stake: -5 "),
    ([], "max_stake = -5", "session.max_stake: -5 "),
], ids=lambda v: v if isinstance(v, str) else " ".join(v) if v else "file")
def test_a_stake_of_0_or_less_is_one_sentence_and_exit_2(tmp_path, flags, body, error) -> None:
    profile = [] if body is None else ["--profile", _house(tmp_path, body)]
    result = run(*profile, "--players", "2", "--decks", "inf", *flags)
    assert result.exit_code == 2, result.output
    assert error + NOT_A_STAKE in result.output and "Traceback" not in result.output
    assert "negative" not in result.output and "give 0 or more" not in result.output


def test_max_stake_against_the_stakes_from_a_file_or_a_flag(tmp_path) -> None:
    house = _house(tmp_path, "stakes = 100\nmax_stake = 200")
    assert run("--profile", house, "--players", "3", "--decks", "inf").exit_code == 0
    over = run("--profile", house, "--players", "3", "--decks", "inf", "--stakes", "300")
    assert over.exit_code == 2 and "stakes: a stake of 300, above max_stake 200" in over.output
    lowered = run("--profile", house, "--players", "3", "--decks", "inf", "--max-stake", "50")
    assert lowered.exit_code == 2
    assert "stakes: a stake of 100, above max_stake 50" in lowered.output
    both = run("--profile", house, "--players", "3", "--decks", "inf", "--max-stake", "50",
               "--stakes", "50")
    assert both.exit_code == 0, both.output


@pytest.mark.parametrize("args,words", [
    (["--players", "9"], "1 to 8 players"),
    (["--players", "0"], "1 to 8 players"),
    (["--stakes", "1,-1"], "-1 is not a stake"),
    (["--capital", "-1", "--rounds", "5"], "negative"),
    (["--bonus-cap", "-1"], "negative"),
    (["--round-cap", "-2"], "negative"),
    (["--rounds", "5", "--target-ruin", "1.5"], "is not between 0 and 1"),
    (["--rounds", "5", "--target-ruin", "0"], "is not between 0 and 1"),
    (["--rounds", "5", "--target-ruin", "lots"], "not a number"),
    (["--target-ruin", "0.01"], "needs the number of rounds"),
    (["--stakes", "1,5", "--max-stake", "4"], "above max_stake"),
    (["--profile", "punto-banco", "--players", "2"], "one player"),
    (["--players", "2", "--plot", "x.pdf"], ".svg or .png"),
], ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_bad_input_exits_2_with_a_sentence(args, words) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


# CI (slow: matplotlib's import in a process of its own is 4 s of CPU); the fast twin,
# test_plot_without_matplotlib_names_the_extra, runs --plot in process by default.
@pytest.mark.slow
def test_plot_writes_svg(tmp_path) -> None:
    # As a command in a process of its own: matplotlib, once imported, stayed
    # in the test process for its other 700 tests (20 MB).
    out = tmp_path / "bank.svg"
    done = subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), "bank", "--players", "4", "--capital", "20",
         "--rounds", "10", "--plot", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert out.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_plot_without_matplotlib_names_the_extra(tmp_path, monkeypatch) -> None:
    real = builtins.__import__

    def fake(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    result = run("--players", "2", "--plot", str(tmp_path / "x.png"))
    assert result.exit_code == 1
    assert "pip install matplotlib" in result.output and "lucky9-odds[plot]" not in result.output
    assert not (tmp_path / "x.png").exists()


# -- every size is bounded before the work starts ------------------------------------------


@pytest.mark.parametrize("args,words", [
    # an estimate's interval: rounds x capitals, even on the coarsest lattice
    (["--players", "3", "--decks", "1", "--capital", "10000", "--rounds", "100000"],
     "over 100,000 rounds even on its coarsest lattice, more than the 12,000,000 rounds x "
     "capitals allowed: give fewer rounds"),
    # the session chain's work, on the exact two-seat round of 8 packs
    (["--players", "2", "--decks", "8", "--capital", "1000000", "--rounds", "50000"],
     "more than the 1,000,000,000 capitals x nets x rounds allowed"),
    # the search for the capital of a target: the rounds' worst losses
    (["--players", "6", "--decks", "1", "--rounds", "1000000", "--target-ruin", "0.01"],
     "the search for a capital takes"),
    # the plot's ruin against capital over the session's rounds
    (["--players", "2", "--decks", "inf", "--capital", "15", "--rounds", "60000", "--plot",
      "PLOT"], "the plot's chain (ruin against capital) takes"),
    # not a size, but refused after the round all the same
    (["--players", "3", "--decks", "1", "--target-ruin", "0.01"],
     "a target ruin needs the number of rounds"),
], ids=["influence", "work", "target", "plot", "target without rounds"])
def test_every_chain_bound_is_checked_before_the_round(args, words, monkeypatch,
                                                       tmp_path) -> None:
    # Each of these was refused only after the round had been counted or sampled (seconds to
    # minutes); now the round's lattice and nets are bounded from the rules first.
    import odds.money.session as session_module

    def never(*args, **kwargs):
        raise AssertionError("the round was computed")

    monkeypatch.setattr(session_module, "bank_round", never)
    result = run(*[str(tmp_path / "x.svg") if a == "PLOT" else a for a in args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("Error")]) == 1


def test_the_bounds_refuse_nothing_that_fits(monkeypatch) -> None:
    # The checks before the round use bounds on its nets; a session just inside every bound
    # (the examples of the docs, the estimate at its largest) still runs, and so do the
    # sessions once refused for a lattice too fine, now run on a coarser one.
    from odds.money.session import check_study_size
    from odds.rules.session_options import Session

    std = BUILTIN["standard"]
    for shoe, session in [
        (1, Session(players=6, stakes=(Fraction(100),) * 6, capital=Fraction(20000), rounds=200)),
        (1, Session(players=3, capital=Fraction(200000), rounds=10)),  # 200,031 x 13 nets
        ("inf", Session(players=8, capital=Fraction(50), rounds=50)),
        (1, Session(players=3, capital=Fraction(250000), rounds=100)),  # once 13 x 250,301
        (1, Session(players=3, capital=Fraction(10000), rounds=2000)),  # once 2,000 x 16,001
        (8, Session(players=2, capital=Fraction(10**6), rounds=10000)),  # once 5 x 10**10
        (8, Session(players=2, stakes=(Fraction(1, 2),) * 2, capital=Fraction(10**7),
                    rounds=10)),  # once 20,000,021 capitals
        (6, Session(stakes=tuple(Fraction(s) for s in (100, 200, 300, 400, 500, 500, 500)),
                    rounds=300)),  # the mixed table once refused
    ]:
        check_study_size(std, shoe, session, target=True)


STAKES = st.sampled_from([Fraction(1), Fraction(2), Fraction(5, 2), Fraction(100), Fraction(3)])


@settings(max_examples=examples(8, 25), deadline=None)
@given(st.sampled_from(["standard", "plain", "super9", "forced-draw"]),
       st.lists(STAKES, min_size=1, max_size=4),
       st.one_of(st.none(), st.integers(0, 2)),
       st.one_of(st.none(), st.sampled_from([Fraction(3), Fraction(7, 2), Fraction(250)])),
       st.sampled_from(["SEAT_ORDER", "PRO_RATA"]))
def test_net_bounds_hold_every_net_of_the_round(key, stakes, bonus_cap, round_cap, rule) -> None:
    from odds.money.bank import TableError, bank_round
    from odds.money.session import net_bounds
    from odds.rules.rule_types import CapRule
    from odds.rules.session_options import Session

    profile = BUILTIN[key]
    session = Session(stakes=tuple(stakes), bonus_cap=bonus_cap, round_cap=round_cap,
                      cap_rule=CapRule[rule])
    try:
        r = bank_round(profile, Shoe.infinite_shoe(), session)
    except TableError:
        return
    b = net_bounds(profile, session)
    steps = [v * b.scale for v in r.distribution]
    assert all(s.denominator == 1 for s in steps), (b, r.distribution)
    assert all(-b.worst <= s <= b.top for s in steps) and len(steps) <= b.nets
    if key == "standard" and bonus_cap is None and round_cap is None:  # and they are tight
        assert (max(steps), min(steps), len(steps)) == (b.top, -b.worst, b.nets)


def test_rotation_counts_each_position_at_once() -> None:
    # Person p holds position (p - r) mod (N+1) in round r: the closed form equals the loop,
    # and a session of ten million rounds costs no more than one of ten.
    from odds.money.bank import bank_round
    from odds.money.rotation import rotation_figures
    from odds.rules.rule_types import Rotation
    from odds.rules.session_options import Session

    r = bank_round(BUILTIN["standard"], Shoe.infinite_shoe(), Session(players=3))
    roles = [(r.mean, r.variance)] + [r.seat_moments(i) for i in range(1, 4)]
    for rounds in (1, 2, 3, 4, 5, 11):
        for mode in Rotation:
            for person in rotation_figures(r, rounds, mode):
                held = [person.person if mode is Rotation.FIXED else (person.person - k) % 4
                        for k in range(rounds)]
                assert person.bank_rounds == held.count(0)
                assert person.mean == sum(roles[j][0] for j in held)
                assert person.variance == sum(roles[j][1] for j in held)
    many = rotation_figures(r, 10**7, Rotation.ROTATE)
    assert sum(p.bank_rounds for p in many) == 10**7 and sum(p.mean for p in many) == 0


def test_a_loss_larger_than_the_capital_and_every_gain_ruins_and_is_not_an_error() -> None:
    """One round from a capital of one stake: six seats can take 10 stakes from the bank,
    more than the chain's lattice holds above capital 0 (the forward pass used to fail on it
    with numpy's 'could not be broadcast')."""
    result = CliRunner().invoke(main, ["bank", "--players", "6", "--decks", "2", "--stakes", "100",
                                       "--rounds", "1", "--capital", "100", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert 0.3 < data["ruin_probability"] < 0.5
    assert data["session_risk"]["ruin_by_round"] == [data["ruin_probability"]]
