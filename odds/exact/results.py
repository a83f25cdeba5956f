"""The exact result of a round: integer counts, read out as fractions.

:class:`RoundOdds` keeps the engine's integer counts and divides once, at
the point a probability is asked for.  Its figures are from the player
seat's side; the bank's edge is the negative of the seat's expected value.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from odds.rules.cards import Card
from odds.rules.profile import Profile
from odds.rules.settle import COLON_NINE, Outcome, Pay, bet_amount, category_outcome, pay_entry
from odds.rules.shoe import Shoe
from odds.rules.text import decimal, fraction

__all__ = ["CATEGORY_ORDER", "RoundOdds", "mean_and_variance", "round_bets"]


def round_bets(profile: Profile) -> tuple[str, ...]:
    """The bets settled by a round's outcome alone: ``player`` (the seat), banker and tie
    where the profile has them.

    Not the list of the bets a profile offers (that is
    :func:`odds.rules.bets.profile_bets`, side bets included): these are the
    bets :class:`RoundOdds` carries the moments of.

    >>> from odds.rules.profiles import BUILTIN
    >>> round_bets(BUILTIN["standard"]), round_bets(BUILTIN["punto-banco"])
    (('player',), ('player', 'banker', 'tie'))
    """
    names = ["player"]
    if profile.banker_pays is not None:
        names.append("banker")
    if profile.tie_pays is not None:
        names.append("tie")
    return tuple(names)

OutcomeKey = tuple[int, int, int, int, str]

# Report order of the ways a round ends.
CATEGORY_ORDER = (
    "win_natural_9", "win_natural_8", "win_comparison",
    "push_natural", "push_comparison",
    "loss_natural_9", "loss_natural_8", "loss_comparison",
)


def _category_rank(name: str) -> tuple[int, str]:
    try:
        return CATEGORY_ORDER.index(name), name
    except ValueError:
        # Naturals of a user profile (say 7) sort beside their outcome's others.
        outcome = name.split("_")[0]
        return {"win": 2, "push": 4, "loss": 7}[outcome], name


def mean_and_variance(distribution: Mapping[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    """Mean and variance of a finite distribution {value: probability}.

    >>> mean_and_variance({Fraction(1): Fraction(1, 2), Fraction(-1): Fraction(1, 2)})
    (Fraction(0, 1), Fraction(1, 1))
    """
    mean = sum((v * p for v, p in distribution.items()), Fraction(0))
    second = sum((v * v * p for v, p in distribution.items()), Fraction(0))
    return mean, second - mean * mean


@dataclass(frozen=True, eq=False)
class RoundOdds:
    """Exact odds of one round for one player seat against the bank.

    ``outcome_counts`` maps (player two-card value, bank two-card value,
    player Colon class, bank Colon class, category) to a count of card
    sequences; Colon classes are 0 (none), 1 (Colon) and 2 (Colon nine).

    >>> from odds import BUILTIN, Shoe, round_odds
    >>> r = round_odds(BUILTIN["standard"], Shoe.packs_of(1))
    >>> r.win, r.push == 1 - 2 * r.win
    (Fraction(103960291, 229033350), True)
    >>> r.player_colon, r.player_colon_nine, r.player_draws
    (Fraction(1, 17), Fraction(1, 221), Fraction(137, 221))
    >>> r.expected_value > 0, sum(r.player_final)
    (True, Fraction(1, 1))
    >>> list(r.payout_distribution())
    [Fraction(3, 1), Fraction(2, 1), Fraction(1, 1), Fraction(0, 1), Fraction(-1, 1)]
    >>> r.bets, round_odds(BUILTIN["punto-banco"], Shoe.packs_of(1)).bets
    (('player',), ('player', 'banker', 'tie'))
    >>> r.by_value()[9]["win"] > r.by_value()[0]["win"]
    True
    """

    profile: Profile
    shoe: Shoe
    player: tuple[Card, ...]
    bank: tuple[Card, ...]
    removed: tuple[Card, ...]
    player_total: int | None
    bank_total: int | None
    total: int
    outcome_counts: Mapping[OutcomeKey, int] = field(repr=False)
    player_final_counts: tuple[int, ...] = field(repr=False)
    bank_final_counts: tuple[int, ...] = field(repr=False)
    player_draw_count: int = field(repr=False)
    bank_draw_count: int = field(repr=False)
    # Cards given by slot of the deal order (odds.exact.bets), as (slot, card).
    slots: tuple[tuple[int, Card], ...] = field(default=(), repr=False)

    def __str__(self) -> str:
        """A few lines: rules, shoe, outcome and EV (``odds.report_text(result)`` has everything).

        >>> from odds import round_odds
        >>> print(round_odds("standard"))
        standard, 1 pack: win 0.45390897, tie 0.09218207, loss 0.45390897
        player seat EV +0.02728361 (1041476/38172225) per unit stake
        (exact fractions: result.win, ...; the full report: odds.report_text(result))
        """
        given = "" if not (self.player or self.bank or self.removed or self.player_total is not None
                           or self.bank_total is not None) else " (with conditions)"
        ev = self.expected_value
        return "\n".join([
            f"{self.profile.key}, {self.shoe.label}{given}: win {decimal(self.win)}, "
            f"tie {decimal(self.push)}, loss {decimal(self.loss)}",
            f"player seat EV {'+' if ev >= 0 else ''}{decimal(ev)} ({fraction(ev)}) per unit stake",
            "(exact fractions: result.win, ...; the full report: odds.report_text(result))",
        ])

    def to_dict(self) -> dict[str, Any]:
        """Every figure as JSON-ready data: exact fractions as strings (``lucky9 odds --format json``).

        >>> import json
        >>> from odds import round_odds
        >>> data = round_odds("standard", player="8h 7s", bank="Ac 6d").to_dict()
        >>> data["probabilities"], data["expected_value"], data["total_sequences"]
        ({'win': '1/6', 'push': '1/12', 'loss': '3/4'}, '-7/12', 2256)
        >>> json.loads(json.dumps(data)) == data
        True
        """
        profile = self.profile
        bets = {}
        for bet in self.bets:
            ev, var = self.bet_moments(bet)
            bets[bet] = {
                "expected_value": fraction(ev),
                "variance": fraction(var),
                "payouts": {fraction(k): fraction(v) for k, v in self.payout_distribution(bet).items()},
            }
        return {
            "profile": profile.key,
            "title": profile.title,
            "decks": "inf" if self.shoe.infinite else self.shoe.packs,
            "shoe": {"label": self.shoe.label, "counts": list(self.shoe.counts)},
            "conditions": {
                "player": [str(c) for c in self.player],
                "bank": [str(c) for c in self.bank],
                "removed": [str(c) for c in self.removed],
                "player_total": self.player_total,
                "bank_total": self.bank_total,
                **({"slots": {str(k): str(c) for k, c in self.slots}} if self.slots else {}),
            },
            "total_sequences": self.total,
            "probabilities": {
                "win": fraction(self.win),
                "push": fraction(self.push),
                "loss": fraction(self.loss),
            },
            "categories": {k: fraction(v) for k, v in self.categories.items()},
            "expected_value": fraction(self.expected_value),
            "variance": fraction(self.variance),
            "colon": fraction(self.player_colon),
            "colon_nine": fraction(self.player_colon_nine),
            "bank_colon": fraction(self.bank_colon),
            "bank_colon_nine": fraction(self.bank_colon_nine),
            "player_draws": fraction(self.player_draws),
            "bank_draws": fraction(self.bank_draws),
            "player_final": [fraction(p) for p in self.player_final],
            "bank_final": [fraction(p) for p in self.bank_final],
            "bets": bets,
            "options": profile.options(),
        }

    def by_value(self, side: str = "player") -> dict[int, dict[str, Fraction]]:
        """P(win), P(push), P(loss) and EV given each two-card value of a side.

        ``side`` is ``player`` or ``bank``; values that cannot occur are left
        out.  This is the table casinos publish for baccarat.
        """
        index = {"player": 0, "bank": 1}.get(side)
        if index is None:
            raise ValueError(f"side must be player or bank, not {side!r}")
        counts: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        money: dict[int, Fraction] = defaultdict(Fraction)
        for key, count in self.outcome_counts.items():
            value = key[0] if index == 0 else key[1]
            outcome = category_outcome(key[4])
            counts[value][outcome.value] += count
            counts[value]["all"] += count
            money[value] += count * pay_entry(self.profile, outcome, key[2], key[3]).amount(
                self.profile
            )
        table = {}
        for value in sorted(counts):
            row = counts[value]
            n = row["all"]
            table[value] = {
                "probability": Fraction(n, self.total),
                "win": Fraction(row["win"], n),
                "push": Fraction(row["push"], n),
                "loss": Fraction(row["loss"], n),
                "expected_value": money[value] / n,
            }
        return table

    def probability(self, count: int) -> Fraction:
        """A count of sequences as a probability."""
        return Fraction(count, self.total)

    def _sum(self, test: Any) -> Fraction:
        return self.probability(sum(c for k, c in self.outcome_counts.items() if test(k)))

    # -- outcomes --------------------------------------------------------------

    def outcome_probability(self, outcome: Outcome) -> Fraction:
        """P(the seat's outcome)."""
        return self._sum(lambda k: k[4].startswith(outcome.value + "_"))

    @property
    def win(self) -> Fraction:
        """P(the player seat beats the bank)."""
        return self.outcome_probability(Outcome.WIN)

    @property
    def push(self) -> Fraction:
        """P(equal result: the stake is returned)."""
        return self.outcome_probability(Outcome.PUSH)

    @property
    def loss(self) -> Fraction:
        """P(the bank beats the player seat)."""
        return self.outcome_probability(Outcome.LOSS)

    @property
    def categories(self) -> dict[str, Fraction]:
        """P(each way the round ends): win/push/loss by natural or comparison."""
        counts: dict[str, int] = defaultdict(int)
        for key, count in self.outcome_counts.items():
            counts[key[4]] += count
        return {
            name: self.probability(counts[name])
            for name in sorted(counts, key=_category_rank)
        }

    # -- hands -----------------------------------------------------------------

    @property
    def player_final(self) -> tuple[Fraction, ...]:
        """Distribution of the player's final value 0..9."""
        return tuple(self.probability(c) for c in self.player_final_counts)

    @property
    def bank_final(self) -> tuple[Fraction, ...]:
        """Distribution of the bank's final value 0..9."""
        return tuple(self.probability(c) for c in self.bank_final_counts)

    @property
    def player_draws(self) -> Fraction:
        """P(the player takes a third card)."""
        return self.probability(self.player_draw_count)

    @property
    def bank_draws(self) -> Fraction:
        """P(the bank takes a third card)."""
        return self.probability(self.bank_draw_count)

    @property
    def player_colon(self) -> Fraction:
        """P(the player's first two cards are a Colon), Colon nines included."""
        return self._sum(lambda k: k[2] > 0)

    @property
    def player_colon_nine(self) -> Fraction:
        """P(the player's first two cards are a pair of 9s)."""
        return self._sum(lambda k: k[2] == COLON_NINE)

    @property
    def bank_colon(self) -> Fraction:
        """P(the bank's first two cards are a Colon), Colon nines included."""
        return self._sum(lambda k: k[3] > 0)

    @property
    def bank_colon_nine(self) -> Fraction:
        """P(the bank's first two cards are a pair of 9s)."""
        return self._sum(lambda k: k[3] == COLON_NINE)

    # -- money -----------------------------------------------------------------

    def pay_counts(self) -> dict[Pay, int]:
        """Counts of sequences by the pay-table entry that settles the seat."""
        counts: dict[Pay, int] = defaultdict(int)
        for (_, _, pcol, bcol, cat), count in self.outcome_counts.items():
            outcome = category_outcome(cat)
            counts[pay_entry(self.profile, outcome, pcol, bcol)] += count
        return dict(counts)

    @property
    def bets(self) -> tuple[str, ...]:
        """The bets the round's outcome settles (:func:`round_bets`): the seat, banker, tie."""
        return round_bets(self.profile)

    def payout_distribution(self, bet: str = "player") -> dict[Fraction, Fraction]:
        """Distribution of the net payout per unit stake of a bet, by amount."""
        if bet not in self.bets:
            raise ValueError(
                f"{bet!r} is not a bet of profile {self.profile.key!r} "
                f"(bets: {', '.join(self.bets)})"
            )
        amounts: dict[Fraction, int] = defaultdict(int)
        if bet == "player":
            for entry, count in self.pay_counts().items():
                amounts[entry.amount(self.profile)] += count
        else:
            for outcome in Outcome:
                count = sum(
                    c for k, c in self.outcome_counts.items()
                    if k[4].startswith(outcome.value + "_")
                )
                amounts[bet_amount(self.profile, bet, outcome, 0, 0)] += count
        return {
            amount: self.probability(count)
            for amount, count in sorted(amounts.items(), reverse=True)
            if count
        }

    def bet_moments(self, bet: str = "player") -> tuple[Fraction, Fraction]:
        """A bet's expected net payout per unit stake and its variance."""
        return mean_and_variance(self.payout_distribution(bet))

    @property
    def expected_value(self) -> Fraction:
        """The player seat's expected net payout per unit stake (its edge).

        The bank's edge against this seat is the negative.
        """
        return self.bet_moments()[0]

    @property
    def variance(self) -> Fraction:
        """Variance of the player seat's net payout per unit stake."""
        return self.bet_moments()[1]
