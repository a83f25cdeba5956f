"""What a simulator's bug probably is, from the pattern of frequency tests that reject.

When the frequencies reject and no row breaks a rule, the verdict names the
test that rejects most; these hints read the whole pattern instead: which
tests reject (at the verdict's own level, ``alpha / tests``), and which agree
(none of them rejects at that level), and name the causes that pattern
supports, each with its evidence:

* Colons (pairs in the first two cards) too frequent, with the two-card
  values and the draws kept: cards not removed from the shoe as they are
  dealt (drawn with replacement), or a shoe of more packs than stated;
* two-card values off, or (a log with a shoe column) the ranks dealt in some part
  of the shoe: a biased shuffle or deal, or another shoe than stated;
* the cards and draws kept, the settlements off: a comparison or payout bug.

A pattern that fits none of them gives no hint: a hint never names a cause
the tests do not point to.
"""

from __future__ import annotations

from collections.abc import Sequence

from odds.sim.stats import POSITION_TEST, Check, SeatReport

__all__ = ["likely_causes"]

COLONS = ("player colon", "bank colon")
TWO_CARD = ("player two-card value", "bank two-card value", "player natural", "bank natural")
DRAWS = ("player draws", "bank draws")
FINALS = ("player final value", "bank final value")
DEAL = (*TWO_CARD, POSITION_TEST)  # what a biased shuffle moves
SETTLE = ("categories", "outcomes", "win", "push", "loss", "payouts", "expected value")


def likely_causes(seats: Sequence[SeatReport], alpha: float, shoe: str, infinite: bool,
                  audited: bool) -> tuple[str, ...]:
    """The likely causes of rejected frequencies (see the module), each with its evidence.

    ``shoe`` is the stated shoe's label, ``infinite`` whether it is the
    infinite shoe (no card is removed from it), ``audited`` whether every row
    was audited and kept the rules (a round log; a tallies file has no rows).
    """
    checks = [(s.seat, c) for s in seats for c in s.checks]
    if not checks:
        return ()
    level = alpha / len(checks)

    def found(names: Sequence[str]) -> list[tuple[int, Check]]:
        return [(seat, c) for seat, c in checks if c.name in names]

    def rejects(names: Sequence[str]) -> list[tuple[int, Check]]:
        return [(seat, c) for seat, c in found(names) if c.p < level]

    def kept(names: Sequence[str]) -> bool:
        return bool(found(names)) and not rejects(names)

    many = len(seats) > 1

    def shown(items: list[tuple[int, Check]]) -> str:
        parts = []
        for seat, c in sorted(items, key=lambda sc: sc[1].p)[:3]:
            figure = (f"z {c.statistic:+.1f}, p = {c.p_text}" if c.df is None
                      else f"p = {c.p_text}")
            parts.append(f"{'seat ' + str(seat) + ' ' if many else ''}{c.name} ({figure})")
        return ", ".join(parts)

    rules = "every row keeps the rules and " if audited else ""
    causes = []
    colon_up = [(s, c) for s, c in rejects(COLONS) if c.statistic > 0]
    two_card = rejects(DEAL)
    if colon_up and not two_card and kept(DRAWS) and found(TWO_CARD) and not infinite:
        causes.append(
            f"cards not removed from the shoe as they are dealt (drawn with replacement), "
            f"or a shoe of more packs than the stated {shoe}: Colons (pairs in the first "
            f"two cards) are too frequent, {shown(colon_up)}, while {rules}the two-card values "
            f"and the draws agree (no test of them rejects at alpha {alpha:g} / {len(checks)})")
    if two_card:
        causes.append(
            f"a biased shuffle or deal, or a shoe other than the stated {shoe}: the cards "
            f"dealt are off, {shown(two_card)}"
            + (", while every row keeps the draw rules" if audited else "")
            + "; a fair shuffle deals each card to any position with the same chance"
            + ("" if found((POSITION_TEST,)) else
               " (a round log with a shoe column, the shoe's number with its rows in deal "
               "order, adds a test of each card's position in its shoe)"))
    settle = rejects(SETTLE)
    if (settle and kept(TWO_CARD) and kept(DRAWS) and not rejects(COLONS)
            and not rejects(FINALS)):
        causes.append(
            f"a comparison or payout bug: the settlements are off, {shown(settle)}, while "
            f"the cards and draws agree (two-card values, Colons, draws and final values: no "
            f"test of them rejects at alpha {alpha:g} / {len(checks)})")
    return tuple(f"likely cause: {c}" for c in causes)
