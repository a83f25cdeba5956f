"""A bank session from the options as given: the profile's ``[session]``, then the flags.

What ``lucky9 bank`` decides before it computes: one stake given for a table
of N players is every seat's stake, and a capital below the largest stake is
refused (the bank could not pay a single winner).  :func:`bank_table` resolves
a study's inputs once (the profile, the shoe, the players and stakes, the target,
the loss threshold, the precision) into a :class:`BankTable`, the one value the
session's figures (:func:`odds.money.session.bank_study`) read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from odds.exact.seats import MAX_PAIR_CARDS
from odds.money.target import check_target_ruin
from odds.rules.errors import ProfileError
from odds.rules.numbers import parse_amount, parse_probability
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.session_options import Session
from odds.rules.shoe import Shoe, as_shoe

__all__ = ["SESSION_OPTIONS", "BankTable", "bank_table", "session_of"]


@dataclass(frozen=True)
class BankTable:
    """A bank study's inputs, resolved once: the profile and shoe as values, the session
    with its players and every seat's stake, and the study's own options.

    ``target`` the target ruin (or None), ``loss_over`` the loss threshold (5 largest
    stakes unless given), ``precision`` the +-width asked of the ruin's interval and
    bracket (or None).
    """

    profile: Profile
    shoe: Shoe
    session: Session
    target: Fraction | None = None
    loss_over: Fraction = Fraction(5)
    precision: float | None = None

    @property
    def players(self) -> int:
        """Players at the table."""
        assert self.session.players is not None
        return self.session.players

    @property
    def stakes(self) -> tuple[Fraction, ...]:
        """Every seat's stake, in seat order."""
        assert self.session.stakes is not None
        return self.session.stakes

    @property
    def may_sample(self) -> bool:
        """Whether the round may be a Monte Carlo estimate (3 or more seats sharing a finite
        shoe, or 2 on a shoe too big to count every pair of seats)."""
        return not self.shoe.infinite and self.players > 1 and not (
            self.players == 2 and self.shoe.size <= MAX_PAIR_CARDS)


# The finest --precision: a 95% interval on a ruin probability from the most rounds a
# bank samples is no narrower than about one ruin in the sample, so a finer one would
# only draw every sample for nothing.
MIN_PRECISION = Fraction(1, 1_000_000)


def bank_table(
    profile: Profile | str, shoe: Shoe | int | str | None = None, session: Session | None = None,
    *, target_ruin: Fraction | float | str | None = None,
    loss_over: Fraction | int | str | None = None, precision: float | str | None = None,
) -> BankTable:
    """A study's inputs checked and resolved once (see :class:`BankTable`).

    >>> t = bank_table("standard", "inf", Session(stakes=(Fraction(100), Fraction(250)), rounds=9),
    ...                target_ruin="1/100")
    >>> t.shoe.label, t.players, t.stakes[1], t.target, t.loss_over
    ('inf', 2, Fraction(250, 1), Fraction(1, 100), Fraction(1250, 1))
    >>> bank_table("standard", target_ruin="0.01")
    Traceback (most recent call last):
    ...
    ValueError: a target ruin needs the number of rounds of the session (rounds)
    """
    loss = None if loss_over is None else parse_amount(loss_over, "loss over")
    if precision is not None:
        precision = float(parse_probability(precision, "precision", low=MIN_PRECISION))
    target = None
    if target_ruin is not None:
        target = check_target_ruin(parse_probability(target_ruin, "target ruin"))
    profile = as_profile(profile)
    session = profile.session if session is None else session
    if target is not None and session.rounds is None:
        raise ValueError("a target ruin needs the number of rounds of the session (rounds)")
    players = session.players or (len(session.stakes) if session.stakes else 1)
    session = replace(session, players=players, stakes=session.stakes_for(players))
    assert session.stakes is not None
    return BankTable(profile, as_shoe(shoe, profile.decks), session, target,
                     5 * max(session.stakes) if loss is None else loss, precision)

# The session's options, as the flags of `lucky9 bank` name them.
SESSION_OPTIONS = ("players", "stakes", "max_stake", "bonus_cap", "round_cap", "cap_rule",
                   "capital", "rounds", "rotation", "max_bonus", "fee", "commission")


def session_of(profile: Profile, options: Mapping[str, Any]) -> Session:
    """The profile's session with the ``options`` given (None: not given) applied.

    Values may be strings as typed; ``stakes`` is one stake for every seat or
    one per seat in seat order ("1,1,2").  An option given replaces the profile's:
    stakes given replace the profile's stakes whole.  One stake is every seat's
    stake, at the players given, else the profile's players, else as many
    players as the profile lists stakes.

    >>> from odds.rules.profiles import BUILTIN
    >>> session_of(BUILTIN["standard"], {"players": "3", "stakes": "2"}).stakes
    (Fraction(2, 1), Fraction(2, 1), Fraction(2, 1))
    >>> session_of(BUILTIN["standard"], {"stakes": "1,5", "capital": "4"})
    Traceback (most recent call last):
    ...
    ValueError: capital 4 is less than one stake (5): the bank could not pay a single winner
    """
    given = {k: options[k] for k in SESSION_OPTIONS if options.get(k) is not None}
    mine = profile.session
    players = Session().with_options(players=given["players"]).players \
        if "players" in given else mine.players
    stakes = Session().with_options(stakes=given["stakes"]).stakes \
        if "stakes" in given else mine.stakes
    if players is None and stakes is not None and len(stakes) == 1 and mine.stakes is not None:
        players = len(mine.stakes) if len(mine.stakes) > 1 else None  # the profile's table
    if stakes is not None and players is not None:
        if len(stakes) not in (1, players):
            raise ProfileError(
                f"stakes: {len(stakes)} stakes given for {players} players (give one stake for "
                f"every seat, or one per player){_sources(given, ('stakes', 'players'))}")
        stakes = stakes * (players // len(stakes))
    given.update({k: v for k, v in (("players", players), ("stakes", stakes)) if v is not None})
    session = mine.with_options(**given)
    if session.capital is not None:
        seats = session.players or (len(session.stakes) if session.stakes else 1)
        top = max(session.stakes_for(seats))
        if session.capital < top:
            raise ValueError(f"capital {session.capital} is less than one stake ({top}): "
                             "the bank could not pay a single winner")
    return session


def _sources(given: Mapping[str, Any], keys: tuple[str, ...]) -> str:
    """Where options came from, when some were given and others are the profile's."""
    mine = [k for k in keys if k not in given]
    if not mine or len(mine) == len(keys):
        return ""
    return f"; {' and '.join(mine)} from the profile's [session]"
