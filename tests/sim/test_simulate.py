"""The reference simulator against a brute-force enumeration written here.

The brute force deals every ordered six-card sequence of a small shoe and
settles it with the rules as RULES.md states them, sharing no code with the
simulator or the engine.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections import Counter
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli import main
from odds import BUILTIN, Shoe, parse_shoe
from odds.report.verify_report import verify_lines
from odds.sim.simulate import CUT_NOTE, simulate
from odds.sim.tallies import (
    RunHeader,
    Tally,
    category_names,
    header_from_data,
    read_tallies,
    tallies_csv,
    tallies_json,
)
from odds.sim.verdict import verify_tallies
from odds.sim.verify import verify_file
from tests.examples import examples, halve
from tests.paths import ROOT

# A 10-card shoe: both 9s (Colon nine), 10 and K (a pair of zeros by value),
# an 8 (natural) and small cards; 10*9*8*7*6*5 ordered deals.
SMALL = parse_shoe("A=1 2=1 3=0 4=1 5=1 6=1 7=0 8=1 9=2 10=1 J=0 Q=0 K=1")
POINT = {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8, 8: 9, 9: 0, 10: 0, 11: 0, 12: 0}


def settle_deal(profile, p1, b1, p2, b2, p3, b3):
    """One deal by rank index, settled as RULES.md states it.

    Returns (category, net payout, player drew, bank drew).
    """
    nat = profile.naturals
    pv = (POINT[p1] + POINT[p2]) % 10
    bv = (POINT[b1] + POINT[b2]) % 10
    stop = profile.naturals_stop_draws and (pv in nat or bv in nat)
    p_draws = pv not in nat and not stop and pv in profile.player_draw.draws
    pf = (pv + POINT[p3]) % 10 if p_draws else pv
    rule = profile.bank_draw
    if bv in nat or stop:
        b_draws = False
    elif p_draws and rule.tableau is not None:
        b_draws = POINT[p3] in rule.tableau[bv]
    else:
        b_draws = bv in rule.draws
    bf = (bv + POINT[b3]) % 10 if b_draws else bv
    if profile.naturals_rule.value == "outright" and (pv in nat or bv in nat):
        mine = pv if pv in nat else -1
        theirs = bv if bv in nat else -1
    else:
        mine, theirs = pf, bf
    if mine > theirs:
        name = f"win_natural_{pv}" if pv in nat else "win_comparison"
    elif mine < theirs:
        name = f"loss_natural_{bv}" if bv in nat else "loss_comparison"
    else:
        name = "push_natural" if pv in nat and bv in nat else "push_comparison"

    def pair(a, b):
        if a == b == 8:
            return 2
        if a == b or (profile.colon_match.value == "value" and POINT[a] == POINT[b]):
            return 1
        return 0

    pc, bc = pair(p1, p2), pair(b1, b2)
    outcome = name.split("_")[0]
    pay = {"win": profile.win, "push": Fraction(0), "loss": Fraction(-1)}[outcome]
    if outcome == "loss" and profile.bank_bonus and bc:
        nine = profile.bank_colon_nine or profile.colon_nine
        plain = profile.bank_colon or profile.colon
        if bc == 2 and nine is not None:
            pay = -nine
        elif plain is not None:
            pay = -plain
    if pc and (outcome == "win" or profile.bonus_on.value == "always"):
        if pc == 2 and profile.colon_nine is not None:
            pay = profile.colon_nine
        elif profile.colon is not None:
            pay = profile.colon
    return name, pay, p_draws, b_draws


@functools.cache
def brute_force(profile, counts):
    """P(category) and P(net payout) by enumerating ordered deals (rules from RULES.md)."""
    cards = [r for r, c in enumerate(counts) for _ in range(c)]
    cats: Counter[str] = Counter()
    pays: Counter[Fraction] = Counter()
    total = 0
    for deal in itertools.permutations(cards, 6):
        name, pay, _, _ = settle_deal(profile, *deal)
        cats[name] += 1
        pays[pay] += 1
        total += 1
    return ({k: Fraction(v, total) for k, v in cats.items()},
            {k: Fraction(v, total) for k, v in pays.items()})


def chi_square_p(observed: dict, probs: dict, n: int) -> float:
    """Upper tail of chi-square (Wilson-Hilferty), enough to flag a real difference."""
    keys = [k for k in probs if probs[k] * n >= 5]
    stat = sum((observed.get(k, 0) - n * float(probs[k])) ** 2 / (n * float(probs[k]))
               for k in keys)
    assert not set(observed) - set(probs), f"impossible: {set(observed) - set(probs)}"
    df = len(keys) - 1
    z = ((stat / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


PROFILES = {
    "standard": BUILTIN["standard"],
    "punto-banco": BUILTIN["punto-banco"],
    "super9": BUILTIN["super9"],
    "house": BUILTIN["standard"].with_options(
        naturals="compare", colon_match="value", bonus_on="always", bank_bonus="on",
        colon="5/2", colon_nine="none"),
}


@pytest.mark.parametrize("key", halve("key", PROFILES), ids=list(PROFILES))  # half: CI
def test_simulator_matches_brute_force_on_a_small_shoe(key):
    profile = PROFILES[key]
    cats, pays = brute_force(profile, SMALL.counts)
    n = 200_000
    sim = simulate(profile, SMALL, n, seed=11)
    tally = sim.tallies[0]
    observed = {k: v for k, v in tally.categories.items() if v}
    assert chi_square_p(observed, cats, n) > 1e-4
    assert chi_square_p(tally.payouts, pays, n) > 1e-4


@pytest.mark.parametrize("key", PROFILES, ids=list(PROFILES))
def test_the_engine_agrees_with_the_brute_force(key):
    # The verifier's reference, checked here so that a pass of verify means something.
    from odds import round_odds

    profile = PROFILES[key]
    cats, pays = brute_force(profile, SMALL.counts)
    exact = round_odds(profile, SMALL)
    assert {k: v for k, v in exact.categories.items() if v} == cats
    assert exact.payout_distribution() == pays


def test_a_planted_bug_is_seen_by_the_brute_force_check():
    # The check above can fail: a simulator that lets 6 draw does not match.
    cats, _ = brute_force(BUILTIN["standard"], SMALL.counts)
    sim = simulate(BUILTIN["standard"].with_options(player_draw="0-6"), SMALL, 200_000, seed=11)
    assert chi_square_p({k: v for k, v in sim.tallies[0].categories.items() if v}, cats,
                        200_000) < 1e-6


def test_same_seed_same_run_and_different_seed_different_run():
    a = simulate(BUILTIN["standard"], Shoe.packs_of(2), 5000, seed=3)
    b = simulate(BUILTIN["standard"], Shoe.packs_of(2), 5000, seed=3)
    c = simulate(BUILTIN["standard"], Shoe.packs_of(2), 5000, seed=4)
    assert a.tallies == b.tallies
    assert a.tallies != c.tallies


def test_tallies_are_consistent():
    sim = simulate(BUILTIN["super9"], None, 20_000, seats=3, seed=5)
    assert sim.header.shoe.packs == 8
    banks = {(tuple(t.bank_value), tuple(t.bank_final), t.bank_draws) for t in sim.tallies}
    assert len(banks) == 1  # every seat faces the same bank hand
    for t in sim.tallies:
        t.check(BUILTIN["super9"], "run")
        assert t.player_colon_nine <= t.player_colon
        assert sum(t.payouts.values()) == 20_000


# every shoe at 1 and 3 seats; 8 seats on the infinite shoe by default, on the others in CI
@pytest.mark.parametrize("decks, seats", [
    pytest.param(decks, seats, id=f"{name}-{seats}",
                 marks=[pytest.mark.slow] if seats == 8 and name != "inf" else [])
    for decks, name in [("1", "1"), ("inf", "inf"), ("8", "8"), ("4,4,4,4,4,4,4,4,8,16,0,0,0", "custom")]
    for seats in (1, 3, 8)])
def test_round_log_passes_the_audit(tmp_path, seats, decks):
    log = tmp_path / "log.csv"
    sim = simulate(BUILTIN["standard"], parse_shoe(decks), 3000, seats=seats, seed=1, log=log)
    result = verify_file(log)
    assert result.violation_counts and not result.broken_rules
    assert result.rows == 3000 * seats
    assert result.passed
    # The frequencies verify read from the log are the simulator's own tallies.
    for seat, tally in zip(result.seats, sim.tallies, strict=True):
        observed = {label: o for label, o, _, _ in seat.checks[0].rows if o}
        assert observed == {k: v for k, v in tally.categories.items() if v}


def test_cut_shoe_log_passes_the_audit_and_says_card_removal(tmp_path):
    log = tmp_path / "log.csv"
    sim = simulate(BUILTIN["punto-banco"], Shoe.packs_of(1), 5000, seed=2, reshuffle="cut",
                   penetration=0.7, log=log)
    assert sim.note == CUT_NOTE and 5000 / 8 < sim.shoes < 5000 / 4
    result = verify_file(log)
    assert not result.broken_rules
    assert result.expectation == "per round"
    assert "exact odds given the cards dealt before it" in "\n".join(verify_lines(result))


def test_cut_shoe_never_deals_a_card_twice_within_a_shoe():
    # Deal a 1-pack shoe to the end: with 6-card rounds a card seen twice would
    # show as a rank count above 4 over the rounds of one shoe.
    from odds.sim.simulate import _Cards, _cut_batches, _Rules

    cards = _Cards.of(Shoe.packs_of(1))
    batch, used, _ = next(_cut_batches(0, _Rules.of(BUILTIN["plain"]), cards, 2, 400, 1.0,
                                       400))
    first = batch.first.tolist()
    assert used >= 1
    seen: list[int] = []
    shoes = 0
    for i, row in enumerate(first):
        ids = list(row)
        ids += [batch.p3[i][s] for s in range(2) if batch.pdraw[i][s]]
        ids += [int(batch.b3[i])] if batch.bdraw[i] else []
        if any(c in seen for c in ids):  # a new shoe began
            shoes += 1
            seen = []
        seen += ids
        assert len(seen) == len(set(seen)) <= 52
    assert shoes >= 1


@settings(max_examples=examples(8, 25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    naturals=st.sampled_from(["outright", "compare"]),
    natural_values=st.sampled_from(["8,9", "9", "7-9"]),
    stop=st.booleans(),
    player_top=st.integers(0, 7),
    bank_top=st.integers(0, 7),
    colon_match=st.sampled_from(["rank", "value"]),
    colon=st.sampled_from(["none", "2", "3/2"]),
    colon_nine=st.sampled_from(["none", "3", "5"]),
    bonus_on=st.sampled_from(["win", "always"]),
    bank_bonus=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_any_fixed_rules_settle_as_the_reference_does(
    tmp_path_factory, naturals, natural_values, stop, player_top, bank_top, colon_match,
    colon, colon_nine, bonus_on, bank_bonus, seed,
):
    nat = {"8,9": {8, 9}, "9": {9}, "7-9": {7, 8, 9}}[natural_values]
    draws = lambda top: ",".join(str(v) for v in range(top) if v not in nat) or "none"  # noqa: E731
    profile = BUILTIN["standard"].with_options(
        naturals=naturals, natural_values=natural_values, naturals_stop_draws=stop,
        player_draw=draws(player_top), bank_draw=draws(bank_top), colon_match=colon_match,
        colon=colon, colon_nine=colon_nine, bonus_on=bonus_on, bank_bonus=bank_bonus,
    )
    log = tmp_path_factory.mktemp("h") / "log.csv"
    simulate(profile, Shoe.packs_of(1), 400, seed=seed, log=log)
    result = verify_file(log)
    assert not result.broken_rules, result.violations[:3]


def test_tallies_round_trip_through_json_and_csv():
    sim = simulate(BUILTIN["super9"], Shoe.packs_of(2), 2000, seats=2, seed=9)
    for text in (tallies_json(sim.header, sim.tallies), tallies_csv(sim.header, sim.tallies)):
        data, tallies = read_tallies(text, "t")
        assert tuple(tallies) == sim.tallies
    assert verify_tallies(sim.header, sim.tallies).passed


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seats": 9}, "seats must be 1 to 8 players, not 9"),
        ({"rounds": 0}, "rounds must be a whole number 1 or more, not 0"),
        ({"reshuffle": "never"}, "reshuffle must be round or cut, not 'never'"),
        ({"reshuffle": "cut", "shoe": Shoe.infinite_shoe()}, "an infinite shoe is never cut"),
        ({"reshuffle": "cut", "penetration": 1.5}, "penetration must be more than 0"),
        ({"profile": BUILTIN["family"]}, "has no fixed draw rule"),
        ({"profile": BUILTIN["punto-banco"], "seats": 2}, "defined for one player hand"),
        ({"shoe": parse_shoe("A=1 2=1 3=1 4=1 5=1 6=0 7=0 8=0 9=0 10=0 J=0 Q=0 K=0")},
         "has 5 cards, but a round of 1 seat may need 6"),
    ],
    ids=["seats", "rounds", "reshuffle", "inf-cut", "penetration", "family", "tableau-seats",
         "tiny-shoe"],
)
def test_bad_arguments_are_refused(kwargs, message):
    args = {"profile": BUILTIN["standard"], "shoe": Shoe.packs_of(1), "rounds": 10, **kwargs}
    profile, shoe, rounds = args.pop("profile"), args.pop("shoe"), args.pop("rounds")
    with pytest.raises(ValueError, match=message):
        simulate(profile, shoe, rounds, **args)


def test_cli_simulate_text_and_files(tmp_path):
    runner = CliRunner()
    tallies = tmp_path / "t.csv"
    log = tmp_path / "l.csv"
    out = runner.invoke(main, ["simulate", "--rounds", "1000", "--seed", "1", "--seats", "2",
                               "--tallies", str(tallies), "--log", str(log)])
    assert out.exit_code == 0, out.output
    assert "1,000 rounds x 2 seats = 2,000 player-rounds" in out.output
    assert "shoe: 1 pack; a fresh shoe every round; seed 1" in out.output
    assert tallies.exists() and log.exists()
    assert len(log.read_text().splitlines()) == 2000 + 8  # 7 header lines and the column names
    again = runner.invoke(main, ["simulate", "--rounds", "1000", "--seed", "1", "--seats", "2"])
    assert again.output.splitlines()[:12] == out.output.splitlines()[:12]
    cut = runner.invoke(main, ["simulate", "--rounds", "1000", "--seed", "1", "--reshuffle", "cut"])
    assert "note: continuous shoe with a cut card" in cut.output
    data = json.loads(runner.invoke(main, ["simulate", "--rounds", "100", "--seed", "1",
                                           "--format", "json"]).output)
    assert data["tallies"][0]["rounds"] == 100 and data["seed"] == 1


@pytest.mark.parametrize(
    "args",
    [["--seats", "9"], ["--rounds", "0"], ["--profile", "family"],
     ["--profile", "punto-banco", "--seats", "2"], ["--decks", "inf", "--reshuffle", "cut"]],
    ids=["seats", "rounds", "family", "tableau-seats", "inf-cut"],
)
def test_cli_simulate_bad_input_exits_2(args):
    out = CliRunner().invoke(main, ["simulate", *args])
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output


def test_a_tiny_penetration_still_deals_one_round_per_shoe():
    sim = simulate(BUILTIN["plain"], Shoe.packs_of(1), 50, seed=1, reshuffle="cut",
                   penetration=0.01)
    assert sim.tallies[0].rounds == 50 and sim.shoes == 50


def test_cli_progress_bar_goes_to_stderr():
    out = CliRunner().invoke(main, ["simulate", "--rounds", "2000", "--seed", "1", "--progress"])
    assert out.exit_code == 0
    assert "simulating" in out.stderr and "simulating" not in out.stdout


RULE_SETS = st.builds(
    lambda naturals, values, stop, colon_match, colon, bonus_on, bank_bonus, tableau: (
        BUILTIN["punto-banco"] if tableau else BUILTIN["standard"].with_options(
            naturals=naturals, natural_values=values, naturals_stop_draws=stop,
            player_draw=",".join(str(v) for v in range(6) if v not in {7, 8, 9}),
            colon_match=colon_match, colon=colon, bonus_on=bonus_on, bank_bonus=bank_bonus)
    ),
    st.sampled_from(["outright", "compare"]), st.sampled_from(["8,9", "9", "7-9"]),
    st.booleans(), st.sampled_from(["rank", "value"]), st.sampled_from(["none", "2", "5/2"]),
    st.sampled_from(["win", "always"]), st.booleans(), st.booleans(),
)


@settings(max_examples=examples(4, 12), deadline=None)
@given(profile=RULE_SETS, deal=st.permutations(range(52)), wrong=st.booleans())
def test_the_audit_agrees_with_the_rules_as_written_on_a_few_deals(profile, deal, wrong):
    _audit_agrees_with_the_rules_as_written(profile, deal, wrong)


@pytest.mark.slow  # the long twin of the one above
@settings(max_examples=50, deadline=None)
@given(profile=RULE_SETS, deal=st.permutations(range(52)), wrong=st.booleans())
def test_the_audit_agrees_with_the_rules_as_written(profile, deal, wrong):
    _audit_agrees_with_the_rules_as_written(profile, deal, wrong)


def _audit_agrees_with_the_rules_as_written(profile, deal, wrong):
    # One round from one pack, logged as the rules above settle it: the audit finds
    # nothing; with the payout changed, it finds exactly the payout.
    from odds.sim.verify import verify_text

    ids = deal[:6]
    p1, b1, p2, b2, p3, b3 = (i // 4 for i in ids)
    name, pay, p_draws, b_draws = settle_deal(profile, p1, b1, p2, b2, p3, b3)
    card = [["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][i // 4]
            + "cdhs"[i % 4] for i in ids]
    player = [card[0], card[2]] + ([card[4]] if p_draws else [])
    bank = [card[1], card[3]] + ([card[5]] if b_draws else [])
    paid = pay + 7 if wrong else pay
    log = (f"round,seat,player,bank,result,payout\n"
           f"1,1,{' '.join(player)},{' '.join(bank)},{name},{paid}\n")
    from odds.sim.tallies import RunHeader

    result = verify_text(log, "log", RunHeader(profile, Shoe.packs_of(1)))
    assert result.broken_rules == (["payout"] if wrong else []), result.violations


@pytest.mark.parametrize("option", ["--tallies", "--log"])
def test_cli_simulate_to_a_missing_folder_exits_2(tmp_path, option):
    out = CliRunner().invoke(main, ["simulate", "--rounds", "10", option,
                                    str(tmp_path / "nowhere" / "x.csv")])
    assert out.exit_code == 2 and "no folder" in out.output


def test_library_write_to_a_missing_folder_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="cannot write"):
        simulate(BUILTIN["plain"], rounds=10, log=tmp_path / "nowhere" / "x.csv")


COUNTS = st.integers(0, 10**12)


@settings(max_examples=30, deadline=None)
@given(data=st.data(), seats=st.integers(1, 3), outcomes_only=st.booleans())
def test_any_tallies_survive_json_and_csv(data, seats, outcomes_only):
    profile = BUILTIN["super9"]
    names = ["win", "push", "loss"] if outcomes_only else list(category_names(profile))
    tallies = []
    for seat in range(1, seats + 1):
        cats = {n: data.draw(COUNTS) for n in names}
        rounds = sum(cats.values())
        vector = [rounds] + [0] * 9
        amounts = data.draw(st.lists(st.fractions(min_value=-5, max_value=5, max_denominator=8),
                                     min_size=1, max_size=4, unique=True))
        pays = dict.fromkeys(amounts, 0)
        pays[amounts[0]] = rounds
        tallies.append(Tally(seat=seat, rounds=rounds, categories=cats, player_value=vector,
                             bank_final=vector, player_colon=data.draw(st.integers(0, rounds)),
                             payouts=pays))
    header = RunHeader(profile, Shoe.packs_of(data.draw(st.integers(1, 8))), seats, "cut", 0.5,
                       data.draw(st.integers(0, 2**63)))
    for text in (tallies_json(header, tallies), tallies_csv(header, tallies)):
        fields, back = read_tallies(text, "t")
        assert back == tallies
        assert header_from_data(fields, "t") == header
        for t in back:
            t.check(profile, "t")


def test_the_odds_package_does_not_import_numpy():
    # 'lucky9 odds' must start fast: numpy is imported only by simulate and verify.
    import subprocess
    import sys

    code = "import sys, odds, cli; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(("packs", "seats"), [(1, 1), (1, 3), (2, 2)])
def test_cut_card_shoe_k_is_the_shoe_lucky9_shoe_follows(tmp_path, packs: int, seats: int):
    """One shuffle: shoe k of a cut-card run is shuffled_shoe(packs, seed, k) (what
    ``lucky9 shoe --seed S --index k`` follows), dealt in order up to the cut card."""
    from odds.exact.deal import shuffled_shoe

    log = tmp_path / "cut.csv"
    simulate(BUILTIN["standard"], Shoe.packs_of(packs), 60, seats=seats, seed=11,
             reshuffle="cut", penetration=0.75, log=log)
    rows = [ln.split(",") for ln in log.read_text().splitlines() if ln[:1].isdigit()]
    by_round: dict[tuple[int, int], list[list[str]]] = {}
    for row in rows:
        by_round.setdefault((int(row[-1]), int(row[0])), []).append(row)
    dealt: dict[int, list[str]] = {}
    for (shoe, _), seat_rows in sorted(by_round.items()):
        hands = [r[2].split() for r in seat_rows] + [seat_rows[0][3].split()]
        order = [h[i] for i in (0, 1) for h in hands] + [h[2] for h in hands if len(h) == 3]
        dealt.setdefault(shoe, []).extend(order)
    assert len(dealt) >= 2
    for shoe, cards in dealt.items():
        expected = [str(c) for c in shuffled_shoe(packs, 11, shoe - 1)]
        assert cards == expected[: len(cards)], shoe
