"""A shoe study's plan: its count system, its settings checked, what every chunk needs.

:func:`study_plan` checks a study's settings once and makes its
:class:`StudyPlan`: the profile, the bets (:func:`odds.exact.bet_table.bet_set`),
the shoe as played (packs, the cut card's place, cards burned), the seed, and
per bet the fresh shoe's EV and its effects of removal
(:func:`odds.exact.removal.removal`) with their integer tags
(:func:`integer_tags`).  A plan is picklable, so the chunks of a study run in
any process (:func:`odds.money.counting.kernel.evaluate_chunk`).

A count system given as input is a :class:`CountSystem`: tags per rank and
a trigger.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from odds.exact.bet_table import COLON_SHARE, BetSet, bet_set
from odds.exact.deal import (
    MAX_CASINO_BURN,
    MAX_ROUNDS_AFTER_CUT,
    check_burn_rule,
    check_dealt_packs,
    cut_position,
)
from odds.exact.removal import removal
from odds.rules.bet_types import Bet
from odds.rules.cards import RANKS
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe

__all__ = ["MAX_JOBS", "MAX_SCHEDULE", "MAX_SHOES", "TAG_LEVEL", "CountSystem", "StudyPlan",
           "integer_tags", "study_plan"]

TAG_LEVEL = 3
MAX_SCHEDULE = 64  # steps of a trigger schedule
MAX_SHOES = 10**9  # about 10^5 core-hours: beyond that a study is a cluster's, in pieces
MAX_JOBS = 64


@dataclass(frozen=True)
class CountSystem:
    """A count system as input: a tag per rank A..K and a trigger.

    Balanced tags (summing to 0 over a pack) are read as a **true count**:
    the running count per deck left, the decks left as the counter estimates
    them (``deck_estimate``: ``exact``, ``half`` or ``whole`` decks, at least
    one half or one deck).  Unbalanced tags are read as a **running count**
    from ``irc`` (the initial running count, default 0).  The bet is placed
    when the count is at least ``trigger``.  An unbalanced count may change its
    trigger through the shoe: ``schedule`` holds ``(cards seen, trigger)``
    pairs, cards increasing; from that many cards seen on, that trigger
    replaces the one before (``trigger`` until the first pair).

    >>> CountSystem((0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), 4).balanced
    True
    >>> CountSystem((1,) * 12, 4)
    Traceback (most recent call last):
    ...
    ValueError: a count system has 13 tags, one per rank A..K, not 12
    >>> CountSystem((1, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0), 0, -32,
    ...             schedule=((200, -2), (300, -4))).trigger_at(np.array([0, 250, 300])).tolist()
    [0.0, -2.0, -4.0]
    """

    tags: tuple[int, ...]
    trigger: float
    irc: int | None = None
    deck_estimate: str = "half"
    schedule: tuple[tuple[int, float], ...] = ()

    def __post_init__(self) -> None:
        if len(self.tags) != 13:
            raise ValueError(f"a count system has 13 tags, one per rank A..K, not {len(self.tags)}")
        for t in self.tags:
            if isinstance(t, bool) or not isinstance(t, int) or abs(t) > 1000:
                raise ValueError(f"a tag is a whole number from -1000 to 1000, not {t!r}")
        if isinstance(self.trigger, bool) or not isinstance(self.trigger, (int, float)) \
                or not math.isfinite(self.trigger):
            raise ValueError(f"the trigger is a finite number, not {self.trigger!r}")
        if self.irc is not None and (isinstance(self.irc, bool) or not isinstance(self.irc, int)
                                     or abs(self.irc) > 10**6):
            raise ValueError(f"the initial running count is a whole number, not {self.irc!r}")
        if self.deck_estimate not in ("exact", "half", "whole"):
            raise ValueError(f"decks left are estimated 'exact', 'half' or 'whole', "
                             f"not {self.deck_estimate!r}")
        self._check_schedule()

    def _check_schedule(self) -> None:
        if not self.schedule:
            return
        if self.balanced:
            raise ValueError("a trigger schedule is for unbalanced tags (a running count); "
                             "these sum to 0 (a true count)")
        if len(self.schedule) > MAX_SCHEDULE:
            raise ValueError(f"a trigger schedule has at most {MAX_SCHEDULE} steps, "
                             f"not {len(self.schedule)}")
        last = -1
        for cards, level in self.schedule:
            if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= 10**6:
                raise ValueError(f"a trigger schedule's step starts at a whole number of cards "
                                 f"seen, 0 to 1,000,000, not {cards!r}")
            if cards <= last:
                raise ValueError(f"a trigger schedule's cards increase step by step "
                                 f"({last} then {cards})")
            if isinstance(level, bool) or not isinstance(level, (int, float)) \
                    or not math.isfinite(level):
                raise ValueError(f"a trigger is a finite number, not {level!r}")
            last = cards

    def trigger_at(self, cards_seen: np.ndarray) -> np.ndarray:
        """The trigger after ``cards_seen`` cards seen, per round (the schedule's, else
        ``trigger``): each step replaces the one before from its cards on."""
        level = np.full(np.shape(cards_seen), float(self.trigger))
        for cards, step in self.schedule:
            level = np.where(np.asarray(cards_seen) >= cards, float(step), level)
        return level

    @property
    def balanced(self) -> bool:
        """True when the tags sum to 0 over a pack (a true count)."""
        return sum(self.tags) * 4 == 0

    def describe(self) -> str:
        """The system in words."""
        tags = " ".join(f"{r.value}:{t:+d}" for r, t in zip(RANKS, self.tags, strict=True))
        if self.balanced:
            return (f"tags {tags}; balanced: bet at a true count of {self.trigger:g} or more "
                    f"(decks left estimated to the {self.deck_estimate} deck)"
                    if self.deck_estimate != "exact" else
                    f"tags {tags}; balanced: bet at a true count of {self.trigger:g} or more "
                    "(decks left exact)")
        if self.schedule:
            steps = ", ".join(f"{level:g} from {cards} cards seen"
                              for cards, level in self.schedule)
            start = "" if self.schedule[0][0] == 0 else f"{self.trigger:g}, then "
            return (f"tags {tags}; unbalanced: running count from {self.irc or 0:+d}, bet at "
                    f"{start}{steps} or more")
        return (f"tags {tags}; unbalanced: running count from {self.irc or 0:+d}, bet at "
                f"{self.trigger:g} or more")


@dataclass(frozen=True)
class StudyPlan:
    """Everything a chunk of shoes needs: picklable, so chunks run anywhere."""

    profile: Profile
    bets: BetSet
    packs: int
    stop: int  # a round starts while fewer than ``stop`` cards are out (burn included)
    burn: int
    seed: int
    fresh_ev: tuple[float, ...]  # per reported name
    effects: tuple[tuple[float, ...], ...]  # per reported name: g_r, per rank A..K
    tags: tuple[tuple[int, ...], ...]  # per reported name: integer tags of g
    slope: tuple[float, ...]  # per reported name: EV per centred tag point
    system: CountSystem | None
    burn_rule: str = "none"  # "casino": the first card shown, that many burned (unseen)
    count_burn: bool = True  # with "casino": the card shown is seen
    rounds_after_cut: int = 0  # rounds dealt after the one the cut card comes out in

    @property
    def names(self) -> tuple[str, ...]:
        return self.bets.names

    @property
    def size(self) -> int:
        return 52 * self.packs

    def counted_by(self, b: int) -> CountSystem:
        """The count whose buckets the study reports for bet ``b``: the count system given,
        else the bet's own integer tags (read as a true count when they are balanced, as a
        running count from 0 when not)."""
        if self.system is not None:
            return self.system
        return CountSystem(self.tags[b], 0)



def study_plan(profile: Profile, packs: int, *, bets: Sequence[str | Bet] = ("all",),
               penetration: float = 0.8, cut_cards: int | None = None, burn: int = 0,
               seed: int = 0, system: CountSystem | None = None, burn_rule: str = "none",
               count_burn: bool = True, rounds_after_cut: int = 0) -> tuple[StudyPlan, Any]:
    """Check the study's settings and make its plan (and the fresh shoe's effects of removal).

    ``burn`` cards are burned face down (unseen), or with ``burn_rule="casino"``
    the first card is shown and its value burned (:func:`odds.exact.deal.casino_burn`;
    seen when ``count_burn``); ``rounds_after_cut`` rounds are dealt after the
    round the cut card comes out in (:func:`odds.exact.deal.deal_shoe`).
    """
    check_dealt_packs(packs)
    size = 52 * packs
    for name, value in (("burn", burn), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} is a whole number, 0 or more, not {value!r}")
    check_burn_rule(burn_rule)
    if burn_rule == "casino" and burn:
        raise ValueError(f"the casino burn rule burns by the card it shows; {burn} cards "
                         "burned as well is not a rule: give one of them")
    if isinstance(rounds_after_cut, bool) or not isinstance(rounds_after_cut, int) \
            or not 0 <= rounds_after_cut <= MAX_ROUNDS_AFTER_CUT:
        raise ValueError(f"the rounds dealt after the cut card comes out are 0 to "
                         f"{MAX_ROUNDS_AFTER_CUT}, not {rounds_after_cut!r}")
    if not isinstance(count_burn, bool):
        raise ValueError(f"count_burn is True or False, not {count_burn!r}")
    casino = burn_rule == "casino"
    most = MAX_CASINO_BURN if casino else burn  # the most cards gone before the first round
    casino_text = f"the casino burn (up to {MAX_CASINO_BURN} cards)"
    burned = casino_text if casino else f"{burn} burned"
    burning = casino_text if casino else f"burning {burn} cards"
    if cut_cards is not None:
        if isinstance(cut_cards, bool) or not isinstance(cut_cards, int) or cut_cards < 0:
            raise ValueError(f"the cut card's place is a whole number of cards, not {cut_cards!r}")
        if most + 6 + cut_cards > size:
            raise ValueError(
                f"a cut card with {cut_cards} cards behind it and {burned} has fewer than "
                f"6 cards ahead in a shoe of {size} cards (at most {size - most - 6} behind it)"
            )
        stop = size - cut_cards
    else:
        stop = cut_position(size, penetration)
    if most + 6 > size or most >= stop:
        raise ValueError(f"{burning} leaves no round to deal before the cut card "
                         f"({stop} cards into a shoe of {size})")
    if 6 * rounds_after_cut > size - stop:
        raise ValueError(f"{rounds_after_cut} rounds after the cut card need "
                         f"{6 * rounds_after_cut} cards behind it, not {size - stop}")
    chosen = bet_set(profile, bets)
    fresh = Shoe.packs_of(packs)
    eor = removal(profile, fresh, list(chosen.bets) + ([COLON_SHARE] if chosen.share else []))
    names = chosen.names
    fresh_ev = tuple(float(eor.expected_value(n)) for n in names)
    effects: list[tuple[float, ...]] = []
    tags: list[tuple[int, ...]] = []
    slopes: list[float] = []
    exact_effects: list[tuple[Fraction, ...]] = []
    pack = np.full(13, 4 * packs, dtype=np.float64)
    for name in names:
        ex = tuple(e.change(name) for e in eor.effects)
        exact_effects.append(ex)
        g = np.array([float(e) for e in ex])
        tg = integer_tags(ex)
        t = np.array(tg, dtype=np.float64)
        centred = t - float(pack @ t / size)
        slopes.append(float(centred @ g / (centred @ centred)) if centred.any() else 0.0)
        effects.append(tuple(float(v) for v in g))
        tags.append(tg)
    plan = StudyPlan(profile, chosen, packs, stop, burn, seed, fresh_ev, tuple(effects),
                     tuple(tags), tuple(slopes), system, burn_rule, count_burn, rounds_after_cut)
    return plan, (eor, tuple(exact_effects))



def integer_tags(effects: tuple[Fraction, ...], level: int = TAG_LEVEL) -> tuple[int, ...]:
    """The effects of removal scaled so the largest is ``level`` in size, rounded.

    >>> integer_tags((Fraction(1), Fraction(-3), Fraction(0), Fraction(2, 5)))
    (1, -3, 0, 0)
    """
    top = max((abs(e) for e in effects), default=Fraction(0))
    if not top:
        return tuple(0 for _ in effects)
    return tuple(int(round(e * level / top)) for e in effects)
