"""Tests that bite, round two: the verifier's reading of files (odds/sim/verify.py).

Each test here is aimed at a bug that ``bench/mutate.py`` planted in the
module and that no earlier test caught (docs/mutation.md lists them): the
notes that tell the user what was left untested, and in which words.
"""

from __future__ import annotations

from odds.rules.profiles import BUILTIN
from odds.sim.audit import Reference
from odds.sim.verify import _unchecked_note, _values_note

STANDARD = BUILTIN["standard"]


def test_a_side_bets_unaudited_rows_are_counted_in_words() -> None:
    one = _unchecked_note(BUILTIN["punto-banco"], "player-pair", 1, True)
    many = _unchecked_note(BUILTIN["punto-banco"], "player-pair", 2_000, True)
    assert "the payout of 1 row is not audited" in one
    assert "the payout of 2,000 rows is not audited" in many
    assert "zero-point cards" in one


def test_value_only_cards_under_colon_by_rank_say_what_is_skipped() -> None:
    ref = Reference.of(STANDARD)
    assert ref.colon[9, 9] != ref.colon[9, 10]  # a 10 and a J: no Colon by rank
    per_round = _values_note(ref, 1, "per round")
    fresh = _values_note(ref, 3, "fresh")
    assert "the payout of 1 row with such a pair" in per_round
    assert "the payout of 3 rows with such a pair" in fresh
    assert per_round.endswith("; the payout frequencies and EV (each round's Colon odds "
                              "depend on which zero-point ranks left the shoe)")
    assert "the payout frequencies and EV" not in fresh
    by_value = _values_note(Reference.of(STANDARD.with_options(colon_match="value")), 0, "per round")
    assert by_value == "cards given as point values: skipped suits (no card is named)"
