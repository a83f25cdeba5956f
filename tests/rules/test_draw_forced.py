"""forced_draws and hand_draws (odds.rules.draw) against the rules read plainly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.rules.draw import forced_draws, hand_draws
from odds.rules.errors import ProfileError
from odds.rules.profiles import BUILTIN
from tests.examples import examples


def _plain(profile, pv, bv, third):  # type: ignore[no-untyped-def]
    """The rules as a dealer reads them, cell by cell: None where a side chooses."""
    nat = profile.naturals
    stop = profile.naturals_stop_draws and (pv in nat or bv in nat)
    out = []
    for who, own, other in (("player", pv, None), ("bank", bv, third)):
        rule = profile.player_draw if who == "player" else profile.bank_draw
        if own in nat or stop:
            out.append(False)
        elif rule is None:
            out.append(None)
        elif other is None or rule.tableau is None:
            out.append(None if own in rule.choose else own in rule.draws)
        else:
            out.append(None if (own, other) in rule.open else other in rule.tableau[own])
    return tuple(out)


@pytest.mark.parametrize("key", sorted(BUILTIN))
def test_forced_draws_every_cell(key: str) -> None:
    profile = BUILTIN[key]
    for pv in range(10):
        for bv in range(10):
            for third in [None, *range(10)]:
                assert forced_draws(profile, pv, bv, third) == _plain(profile, pv, bv, third)


@settings(max_examples=examples(50, 300), deadline=None)
@given(st.sampled_from(sorted(BUILTIN)), st.integers(0, 9), st.integers(0, 9),
       st.one_of(st.none(), st.integers(0, 9)))
def test_a_forced_side_never_may_choose_and_a_free_one_always_may(
        key: str, pv: int, bv: int, third: int | None) -> None:
    from odds.rules.draw import who_may_choose

    forced = forced_draws(BUILTIN[key], pv, bv, third)
    free = who_may_choose(BUILTIN[key], pv, bv, third)
    assert [d is None for d in forced] == list(free)


def test_hand_draws_reads_each_hand_on_its_own_value() -> None:
    for key in ("standard", "plain", "forced-draw", "super9"):
        profile = BUILTIN[key]
        player, bank = hand_draws(profile)
        for v in range(10):
            assert player[v] == (v not in profile.naturals and v in profile.player_draw.draws)
            assert bank[v] == (v not in profile.naturals and v in profile.bank_draw.draws)


@pytest.mark.parametrize(("key", "why"), [
    ("punto-banco", "tableau"), ("chemin-de-fer", "no fixed draw rule"), ("family", "no fixed draw rule"),
])
def test_hand_draws_refuses_rules_defined_for_one_player_hand(key: str, why: str) -> None:
    with pytest.raises(ProfileError, match=why):
        hand_draws(BUILTIN[key])


def test_hand_draws_refuses_naturals_that_stop_every_draw() -> None:
    stopping = BUILTIN["standard"].with_options(naturals_stop_draws=True)
    with pytest.raises(ProfileError, match="a natural stops every draw"):
        hand_draws(stopping)
