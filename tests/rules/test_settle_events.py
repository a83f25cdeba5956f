"""One winner map: odds.rules.settle's category table against a plain reading of the rules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.rules.profiles import BUILTIN
from odds.rules.settle import category, category_table
from tests.brute import settle_values
from tests.examples import examples

PROFILES = {
    **BUILTIN,
    "standard-compare": BUILTIN["standard"].with_options(naturals="compare"),
    "natural-8-only": BUILTIN["standard"].with_options(natural_values="8"),
    "punto-banco-outright": BUILTIN["punto-banco"].with_options(naturals="outright"),
}


@pytest.mark.parametrize("key", sorted(PROFILES))
def test_category_table_outcomes_match_the_brute_force_settlement(key: str) -> None:
    profile = PROFILES[key]
    table = category_table(profile)
    for pv in range(10):
        for bv in range(10):
            for pf in range(10):
                for bf in range(10):
                    outcome, how = table[pv][bv][pf][bf]
                    assert outcome.value == settle_values(profile, pv, bv, pf, bf, 0, 0)[0]
                    natural_won = how.startswith("natural_")
                    # "natural_v": the winner's natural v decided; "natural": equal naturals.
                    if natural_won:
                        winner = pv if outcome.value == "win" else bv
                        assert how == f"natural_{winner}" and winner in profile.naturals
                    reachable = ((pv not in profile.naturals or pf == pv)
                                 and (bv not in profile.naturals or bf == bv))
                    if how == "natural" and reachable:  # a natural never draws
                        assert pv == bv and pv in profile.naturals and outcome.value == "push"


def test_category_table_is_computed_once_per_naturals_rule() -> None:
    a = category_table(BUILTIN["standard"])
    assert category_table(BUILTIN["plain"]) is a  # same naturals, same rule
    assert category_table(PROFILES["standard-compare"]) is not a


@settings(max_examples=examples(100, 1000), deadline=None)
@given(st.sampled_from(sorted(PROFILES)), *(st.integers(0, 9) for _ in range(4)))
def test_category_table_is_category(key: str, pv: int, bv: int, pf: int, bf: int) -> None:
    profile = PROFILES[key]
    assert category_table(profile)[pv][bv][pf][bf] == category(profile, pv, bv, pf, bf)
    # The outcome is antisymmetric: swapping the hands swaps win and loss.
    flip = {"win": "loss", "loss": "win", "push": "push"}
    mirrored = category(profile, bv, pv, bf, pf)[0].value
    assert flip[category(profile, pv, bv, pf, bf)[0].value] == mirrored
