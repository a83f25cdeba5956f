"""The counter's figures of the shoe study against a brute simulation of the same shoes.

An independent loop deals the seeded shoes round by round (``deal_rounds``),
takes each round's exact EV on the composition left (the batch engine's
Fractions, which tests/money/test_counting.py holds to ``round_odds``),
settles the tie by hand (8 when the hands are equal, else -1), reads the
count by hand (a Fraction for the true count), and computes each figure from its textbook definition:

* sd of a shoe's result, N0 = (sd / mean)^2 (Schlesinger, *Blackjack Attack*);
* risk of ruin exp(-2 mean b / variance), the win a shoe at risk r,
  2 B / (N0 ln(1/r)), and the unit that gives it, 2 mean B / (variance ln(1/r));
* each count bucket's share of rounds and mean EV;
* the Kelly ramp: round(b e / variance of the fresh shoe) units where e > 0, within
  1 .. spread.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds.exact.bet_table import bet_set
from odds.exact.deal import shuffled_shoe
from odds.exact.engine import round_odds
from odds.exact.rounds import deal_rounds
from odds.money.counting import Bankroll, CountSystem, count_study
from odds.report.count_report import count_data
from odds.rules.cards import hand_value
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe

PROFILE = BUILTIN["punto-banco"]
SHOES, PEN, SEED = 6, 0.9, 3
BANKROLL = Bankroll(Fraction(500), Fraction(2), Fraction(1, 10), 3)
HI_LO_TIE = CountSystem((0, 0, 0, 0, 0, 0, 0, -1, -1, 1, 1, 1, 1), 2, deck_estimate="half")


@pytest.fixture(scope="module")
def dealt() -> list[list[tuple[list[int], Fraction, int]]]:
    """Per shoe, per round: (composition before it, exact tie EV, the tie's result)."""
    shoes = []
    chosen = bet_set(PROFILE, ["tie"])
    for i in range(SHOES):
        left = [4] * 13
        rounds = []
        for r in deal_rounds(PROFILE, shuffled_shoe(1, SEED, i), PEN):
            result = 8 if hand_value(r.player) == hand_value(r.bank) else -1
            rounds.append((list(left), result))
            for card in r.cards:
                left[card.rank.index] -= 1
        evs = chosen.exact_evs(chosen.table().counts(np.array([c for c, _ in rounds]), packs=1))
        shoes.append([(c, ev, res) for (c, res), ev in zip(rounds, evs["tie"], strict=True)])
    return shoes


def bucket_of(system: CountSystem, left: list[int]) -> int:
    running = sum(t * (4 - n) for t, n in zip(system.tags, left, strict=True))
    if not system.balanced:
        count = Fraction(running + (system.irc or 0))
    else:
        halves = max(1, round(sum(left) / 26))  # decks left to the half deck
        count = Fraction(running) / Fraction(halves, 2)
    return max(-20, min(20, math.floor(count)))


def money(totals: list[float], results: list[float], fourth: bool) -> dict[str, Any]:
    """The figures of a way of betting from its shoes' EV totals and settled results."""
    m = len(totals)
    mu = float(np.mean(totals))
    se_mu = float(np.std(totals, ddof=1)) / math.sqrt(m)
    x = np.array(results, dtype=np.float64)
    var = float(np.var(x, ddof=1))
    if fourth:
        c2, c4 = float(np.mean((x - x.mean()) ** 2)), float(np.mean((x - x.mean()) ** 4))
        se_var = math.sqrt((c4 - c2 * c2) / m)
    else:
        se_var = var * math.sqrt(2 / (m - 1))
    if var == 0:  # never bet: no spread to speak of
        return {"mu": mu, "sd": None}
    out: dict[str, Any] = {"mu": mu, "sd": math.sqrt(var), "sd_se": se_var / (2 * math.sqrt(var))}
    if mu > 0:
        b = float(BANKROLL.bankroll / BANKROLL.unit)
        log = math.log(1 / float(BANKROLL.risk_of_ruin))
        n0 = var / mu ** 2
        # Delta method, mean and variance independent: relative se's add in quadrature.
        rel = math.sqrt((2 * se_mu / mu) ** 2 + (se_var / var) ** 2)
        rel1 = math.sqrt((se_mu / mu) ** 2 + (se_var / var) ** 2)
        q = 2 * mu * b / var
        win = 2 * float(BANKROLL.bankroll) / (n0 * log)
        unit = 2 * mu * float(BANKROLL.bankroll) / (var * log)
        out.update(n0=n0, n0_se=n0 * rel, ruin=math.exp(-q), ruin_se=math.exp(-q) * q * rel1,
                   win=win, win_se=win * rel, unit=unit, unit_se=unit * rel1)
    return out


def check(entry: dict[str, Any], want: dict[str, Any]) -> None:
    assert entry["units_per_shoe"]["mean"] == pytest.approx(want["mu"], rel=1e-9, abs=1e-12)
    if want["sd"] is None:
        assert entry["sd_per_shoe"]["mean"] is None and entry["n0"] is None
        return
    assert entry["sd_per_shoe"]["mean"] == pytest.approx(want["sd"], rel=1e-9)
    assert entry["sd_per_shoe"]["se"] == pytest.approx(want["sd_se"], rel=1e-6)
    if "n0" not in want:
        assert entry["n0"] is None and entry["at_risk_of_ruin"] is None
        assert entry["risk_of_ruin"]["mean"] == 1.0
        return
    assert entry["n0"]["mean"] == pytest.approx(want["n0"], rel=1e-9)
    assert entry["n0"]["se"] == pytest.approx(want["n0_se"], rel=1e-6)
    for figure, key in ((entry["risk_of_ruin"], "ruin"),
                        (entry["at_risk_of_ruin"]["win_per_shoe"], "win"),
                        (entry["at_risk_of_ruin"]["unit"], "unit")):
        assert figure["mean"] == pytest.approx(want[key], rel=1e-9)
        assert figure["se"] == pytest.approx(want[f"{key}_se"], rel=1e-6)
        low, high = figure["ci95"]  # mean +- 1.96 se, cut to what the figure can be
        assert low == pytest.approx(max(0.0, want[key] - 1.959964 * want[f"{key}_se"]),
                                    rel=1e-5, abs=1e-12)
        assert high == pytest.approx(min(1.0 if key == "ruin" else math.inf,
                                         want[key] + 1.959964 * want[f"{key}_se"]), rel=1e-5)


@pytest.mark.parametrize("system", [None, HI_LO_TIE], ids=["own-tags-running", "true-count"])
def test_the_counters_figures_are_those_of_the_shoes_dealt(dealt, system) -> None:  # type: ignore[no-untyped-def]
    data = count_data(count_study(PROFILE, 1, SHOES, PEN, seed=SEED, bets=["tie"],
                                  system=system, bankroll=BANKROLL))
    figures = data["bets"]["tie"]
    counted = system or CountSystem(tuple(figures["count"]["tags"]), 0)
    rounds = [r for shoe in dealt for r in shoe]
    # The flat bet, every round: its settled results are the tie's, dealt by hand.
    check(figures["flat_bet"], money([float(sum(ev for _, ev, _ in s)) for s in dealt],
                                     [sum(res for _, _, res in s) for s in dealt], True))
    # The count buckets: rounds, share and mean exact EV.
    by: dict[int, list[Fraction]] = {}
    for left, ev, _ in rounds:
        by.setdefault(bucket_of(counted, left), []).append(ev)
    table = figures["count_buckets"]
    assert table["count"] == ("true" if counted.balanced else "running")
    assert [row["count"] for row in table["buckets"]] == sorted(by)
    variance = round_odds(PROFILE, Shoe.packs_of(1)).bet_moments("tie")[1]
    stakes = {}
    for row in table["buckets"]:
        evs = by[row["count"]]
        assert row["rounds"] == len(evs)
        assert row["share"]["mean"] == pytest.approx(len(evs) / len(rounds), rel=1e-12)
        e = sum(evs) / len(evs)
        assert row["ev"]["mean"] == pytest.approx(float(e), rel=1e-9)
        kelly = BANKROLL.bankroll / BANKROLL.unit * e / variance
        stakes[row["count"]] = 0 if e <= 0 else min(3, max(1, math.floor(kelly + Fraction(1, 2))))
        assert row["ramp_units"] == stakes[row["count"]]
    # The Kelly ramp, each round staked by its bucket.
    ramp = figures["kelly_ramp"]
    assert ramp["variance_fresh_shoe"] == f"{variance.numerator}/{variance.denominator}"
    totals = [float(sum(stakes[bucket_of(counted, left)] * ev for left, ev, _ in s))
              for s in dealt]
    results = [sum(stakes[bucket_of(counted, left)] * res for left, _, res in s) for s in dealt]
    check(ramp, money(totals, results, False))
    assert ramp["bets_per_shoe"]["mean"] == pytest.approx(
        sum(stakes[bucket_of(counted, left)] for left, _, _ in rounds) / SHOES)
    # These shoes have positive buckets for the tie's own tags, none at a true count.
    assert any(stakes.values()) == (system is None)
    if system is not None:  # the system's flat bet where it triggers
        check(figures["system"], money(
            [float(sum(ev for left, ev, _ in s if bucket_of(system, left) >= 2)) for s in dealt],
            [sum(res for left, _, res in s if bucket_of(system, left) >= 2) for s in dealt],
            True))


def test_a_flat_ramp_is_the_flat_bet() -> None:
    """A spread of 1 and a bankroll so large every positive bucket bets 1: the ramp is the
    flat bet on the positive buckets, and its sums are the flat bet's where all are."""
    big = Bankroll(Fraction(10**9), Fraction(1), Fraction(1, 20), 1)
    data = count_data(count_study(PROFILE, 1, 4, PEN, seed=SEED, bets=["tie"], bankroll=big))
    rows = data["bets"]["tie"]["count_buckets"]["buckets"]
    assert {row["ramp_units"] for row in rows} <= {0, 1}
    assert all(row["ramp_units"] == (row["ev"]["mean"] > 0) for row in rows)


def test_the_command_prints_and_saves_the_counters_figures(tmp_path) -> None:  # type: ignore[no-untyped-def]
    args = ["count", "--profile", "punto-banco", "--decks", "1", "--shoes", "4", "--seed", "3",
            "--penetration", "0.9", "--bet", "tie", "--bankroll", "500", "--betting-unit", "2",
            "--risk-of-ruin", "1/10", "--ramp-spread", "3"]
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0, text.output
    assert "betting unit 2, risk of ruin asked 10.00%" in text.output
    for line in ("sd of a shoe", "count buckets (running count):", "Kelly ramp, 0-3 units"):
        assert line in text.output
    js = CliRunner().invoke(main, [*args, "--format", "json"])
    tie = json.loads(js.output)["bets"]["tie"]
    assert tie["kelly_ramp"]["sd_per_shoe"]["ci95"][0] >= 0
    assert {"sd_per_shoe", "n0", "risk_of_ruin", "at_risk_of_ruin"} <= set(tie["flat_bet"])


@pytest.mark.parametrize("args, message", [
    (["--bankroll", "1", "--betting-unit", "5"], "less than the betting unit (5)"),
    (["--risk-of-ruin", "1"], "strictly between 0 and 1"),
    (["--risk-of-ruin", "x"], "risk of ruin: 'x' is not a number"),
    (["--bankroll", "-3"], "bankroll"),
    (["--ramp-spread", "0"], "--ramp-spread"),
    (["--plot", "a.pdf"], "give a .svg or .png file"),
    (["--plot", "a.svg", "--decks", "1,2"], "--plot draws one study"),
], ids=["unit", "ruin-1", "ruin-x", "negative", "spread", "pdf", "grid"])
def test_bad_money_exits_2_before_any_shoe(args: list[str], message: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = CliRunner().invoke(main, ["count", "--shoes", "2", "--decks", "1", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.slow  # matplotlib's import; the refusals above are its fast twin
def test_the_plot_is_written_whole(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    target = tmp_path / "buckets.svg"
    result = CliRunner().invoke(main, ["count", "--profile", "punto-banco", "--decks", "1",
                                       "--shoes", "2", "--bet", "tie", "--plot", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text().lstrip().startswith("<?xml")
    assert [p.name for p in tmp_path.iterdir()] == ["buckets.svg"]


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), spread=st.integers(1, 6),
       bankroll=st.integers(1, 10**6))
def test_the_buckets_add_up_and_the_ramp_keeps_its_bounds(seed: int, spread: int,
                                                          bankroll: int) -> None:
    """Invariants on any shoes: the buckets' shares add to 1 and their EVs, weighted, to the
    mean EV; the ramp bets 0 where the EV is not positive, 1 to the spread where it is; the
    risk of ruin is a probability and N0 is sd^2 / mean^2."""
    data = count_data(count_study(PROFILE, 1, 2, PEN, seed=seed, bets=["tie"],
                                  bankroll=Bankroll(Fraction(bankroll), Fraction(1),
                                                    Fraction(1, 20), spread)))
    tie = data["bets"]["tie"]
    rows = tie["count_buckets"]["buckets"]
    assert sum(row["rounds"] for row in rows) == data["study"]["rounds"]
    assert sum(row["share"]["mean"] for row in rows) == pytest.approx(1)
    assert sum(row["share"]["mean"] * row["ev"]["mean"] for row in rows) == pytest.approx(
        tie["mean"]["mean"], abs=1e-12)
    for row in rows:
        assert (row["ramp_units"] == 0) == (row["ev"]["mean"] <= 0)
        assert 0 <= row["ramp_units"] <= spread
    for entry in (tie["flat_bet"], tie["kelly_ramp"]):
        assert 0 <= entry["risk_of_ruin"]["mean"] <= 1
        if entry["n0"] is not None:
            assert entry["n0"]["mean"] == pytest.approx(
                entry["sd_per_shoe"]["mean"] ** 2 / entry["units_per_shoe"]["mean"] ** 2)


@pytest.mark.parametrize("estimate", ["exact", "half", "whole"])
def test_each_round_s_bucket_is_the_count_as_defined_in_whole_numbers(estimate) -> None:
    from odds.money.counting.kernel import COUNT_LIMIT, count_buckets

    rng = np.random.default_rng(20261209)
    tags = (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0)  # balanced: a true count
    system = CountSystem(tags, 4, deck_estimate=estimate)
    unbalanced = CountSystem((1,) * 7 + (0,) * 6, 4, irc=-3)  # a running count from -3
    packs, comps = 2, []
    deck = [r for r in range(13) for _ in range(4 * packs)]
    for _ in range(400):
        left = rng.permutation(deck)[: rng.integers(1, 104)]
        comps.append(np.bincount(left, minlength=13))
    got = count_buckets(system, np.array(comps), packs).tolist()
    raw = count_buckets(unbalanced, np.array(comps), packs).tolist()
    for comp, bucket, running_bucket in zip(comps, got, raw, strict=True):
        seen = [4 * packs - int(c) for c in comp]
        running = sum(t * s for t, s in zip(tags, seen, strict=True))
        n = int(sum(comp))
        if estimate == "exact":
            level = math.floor(Fraction(running * 52, n))
        elif estimate == "half":
            level = math.floor(Fraction(2 * running, max(1, round(Fraction(2 * n, 52)))))
        else:
            level = math.floor(Fraction(running, max(1, round(Fraction(n, 52)))))
        assert bucket == min(max(level, -COUNT_LIMIT), COUNT_LIMIT) + COUNT_LIMIT, (comp, level)
        plain = sum(seen[:7]) - 3
        assert running_bucket == min(max(plain, -COUNT_LIMIT), COUNT_LIMIT) + COUNT_LIMIT
