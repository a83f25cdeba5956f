"""Effect of removal and conditioning on cards seen: properties (hypothesis), sums, `lucky9 removal`."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cli import main
from odds import BUILTIN, RANKS, Card, Shoe, round_odds
from odds.exact.removal import removal_effects
from odds.report.removal_report import weighted_sum
from tests.examples import examples

PROFILES = ["standard", "forced-draw", "punto-banco", "super9"]


@settings(max_examples=examples(8, 25), deadline=None)
@given(
    st.lists(st.sampled_from(RANKS), max_size=12),
    st.sampled_from(PROFILES),
    st.integers(1, 2),
)
def test_random_removals_sum_to_one(removed: list, profile: str, decks: int) -> None:
    shoe = Shoe.packs_of(decks)
    gone = [Card(r) for r in removed if sum(1 for x in removed if x is r) <= 4 * decks]
    r = round_odds(BUILTIN[profile], shoe, removed=gone) if gone else round_odds(
        BUILTIN[profile], shoe)
    assert r.win + r.push + r.loss == 1
    assert sum(r.payout_distribution().values()) == 1
    assert r.total > 0


@settings(max_examples=examples(5, 15), deadline=None)
@given(st.lists(st.sampled_from(RANKS), min_size=1, max_size=6), st.sampled_from(PROFILES))
def test_remove_then_put_back_is_fresh(removed: list, profile: str) -> None:
    fresh = Shoe.packs_of(2)
    less = fresh.without([Card(r) for r in removed])
    counts = list(less.counts)
    for r in removed:
        counts[r.index] += 1
    back = Shoe(tuple(counts), packs=2)
    a = round_odds(BUILTIN[profile], fresh)
    b = round_odds(BUILTIN[profile], back)
    assert (a.win, a.push, a.loss, a.expected_value, a.variance) == (
        b.win, b.push, b.loss, b.expected_value, b.variance)


@settings(max_examples=examples(3, 10), deadline=None)
@given(st.sampled_from(PROFILES), st.integers(1, 2))
def test_conditioning_on_first_card_averages_back(profile: str, decks: int) -> None:
    # Averaging over the player's known first card, weighted by how often
    # each rank comes, gives the unconditioned odds (law of total probability).
    shoe = Shoe.packs_of(decks)
    base = round_odds(BUILTIN[profile], shoe)
    total = sum(
        shoe.counts[r.index] * round_odds(BUILTIN[profile], shoe, player=[Card(r)]).expected_value
        for r in RANKS
    )
    assert total / shoe.size == base.expected_value


def test_effect_of_removal_weighted_sum_is_zero() -> None:
    shoe = Shoe.packs_of(1)
    for profile in ("standard", "punto-banco"):
        effects = removal_effects(BUILTIN[profile], shoe)
        assert sum(shoe.counts[e.rank.index] * e.ev_change for e in effects) == 0
        assert sum(shoe.counts[e.rank.index] * e.win_change for e in effects) == 0


# -- effect of removal: weighted sums and `lucky9 removal` ---------------------------------------


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("key", ["standard", "punto-banco"])
def test_removal_weighted_sum_is_zero(key):
    shoe = Shoe.packs_of(8)
    effects = removal_effects(BUILTIN[key], shoe)
    assert weighted_sum(effects, shoe) == 0
    assert weighted_sum(effects, shoe, "win_change") == 0
    assert any(e.ev_change for e in effects)  # the test is not vacuous


@settings(max_examples=examples(3, 10), deadline=None)
@given(counts=st.lists(st.sampled_from([0, 0, 1, 2, 3]), min_size=13, max_size=13).filter(
    lambda c: sum(c) >= 7), key=st.sampled_from(["standard", "plain", "forced-draw"]))
def test_removal_sums_to_zero_on_any_shoe(counts, key):
    shoe = Shoe(tuple(counts))
    effects = removal_effects(BUILTIN[key], shoe)
    assert weighted_sum(effects, shoe) == 0
    assert weighted_sum(effects, shoe, "win_change") == 0


def test_removal_cli():
    result = run("removal")
    assert result.exit_code == 0, result.output
    assert "weighted by the cards left, the EV changes sum to 0" in result.output
    data = json.loads(run("removal", "--format", "json").output)
    assert [e["rank"] for e in data["effects"]] == "A 2 3 4 5 6 7 8 9 10 J Q K".split()
    assert data["weighted_sum"] == {"ev_change": "0", "win_change": "0"}
    effects = removal_effects(BUILTIN["standard"], Shoe.packs_of(1))
    assert data["effects"][8]["ev_change"] == str(effects[8].ev_change)
    small = "A=2 2=0 3=2 4=0 5=1 6=0 7=0 8=2 9=2 10=0 J=0 Q=1 K=3"
    rows = list(csv.reader(io.StringIO(run("removal", "--shoe", small, "--format", "csv").output)))
    assert rows[0][:3] == ["rank", "left", "ev_change"]
    assert [r[0] for r in rows[1:]] == ["A", "3", "5", "8", "9", "Q", "K"]
    assert sum(int(r[1]) * Fraction(r[2]) for r in rows[1:]) == 0


def test_removal_cli_from_a_dealt_shoe():
    result = run("removal", "--removed", "A A A A", "--format", "json")
    data = json.loads(result.output)
    assert [e["rank"] for e in data["effects"]][0] == "2"  # no ace left to remove
    assert data["shoe"]["cards"] == 48


@pytest.mark.parametrize(
    "args, message",
    [(["--decks", "inf"], "removing a card does not change an infinite shoe"),
     (["--removed", "Ah Ah"], "the shoe holds only 1 Ah")],
    ids=["inf", "twice"],
)
def test_removal_cli_bad_input(args, message):
    result = run("removal", *args)
    assert result.exit_code == 2
    assert message in result.output
