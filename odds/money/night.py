"""The owner's night: every figure a card-room owner needs, from one profile file.

A profile file with a ``[session]`` table says the house's rules, the table
(players and their stakes), its caps, the house's cut, the bank's capital and
the rounds of the night.  :func:`owners_night` gathers, from the library
functions the single commands call (so that each figure equals the command that
computes it alone):

* each offered bet's edge (``lucky9 odds --bet all``);
* what each cap does at each stake (``lucky9 odds --stake S``);
* the bank's round at that table, its capital for a target ruin over the night
  with its interval, and who carries the risk (``lucky9 bank --target-ruin P``);
* the cut at which the bank breaks even, each cut alone, at each stake
  (``lucky9 payout --solve fee --solve commission --stake S --fee 0 --commission 0``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from odds.exact.bets import BetOdds, bet_odds
from odds.exact.engine import round_odds
from odds.money.seat_cut import BreakEvenCut, break_even_cut, cut_stakes
from odds.money.session import BankStudy, bank_study
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe, as_shoe

__all__ = ["NIGHT_SAMPLES", "Night", "NightError", "owners_night"]

NIGHT_SAMPLES = 2_000  # rounds sampled where the bank's round is estimated (a page in seconds)


class NightError(ProfileError):
    """A profile that does not say enough for a night (no [session] rounds, ...)."""


@dataclass(frozen=True)
class Night:
    """The figures of one night at the owner's table (see :func:`owners_night`)."""

    profile: Profile
    shoe: Shoe
    bets: dict[str, BetOdds]
    stakes: tuple[Fraction, ...]  # each distinct stake at the table, smallest first
    at_stakes: tuple[Profile, ...]  # the profile at each stake (its max_bonus applied)
    study: BankStudy
    break_even: tuple[BreakEvenCut, ...]  # fee, then commission, alone, at each stake


def owners_night(profile: Profile, shoe: Shoe | int | str | None = None, *,
                 target_ruin: Fraction | str = "0.01", samples: int = NIGHT_SAMPLES,
                 seed: int = 1, loss_over: Fraction | str | None = None) -> Night:
    """Every figure of the owner's night from a profile with a ``[session]`` table.

    The session needs its ``rounds`` (the night) and a table (``players`` or
    ``stakes``); its ``capital`` adds the ruin with that capital.

    >>> from odds.rules.profiles import BUILTIN
    >>> from odds.rules.session_options import Session
    >>> p = replace(BUILTIN["standard"], session=Session(players=2, stakes=(Fraction(1),),
    ...             rounds=5, fee=Fraction(1, 10)))
    >>> n = owners_night(p, Shoe.infinite_shoe())
    >>> n.study.round.exact, n.break_even[0].value == -n.study.round.mean / 2 + Fraction(1, 10)
    (True, True)
    """
    session = profile.session
    if session.rounds is None:
        raise NightError(f"profile {profile.key!r}: a night needs the rounds it lasts "
                         "([session] rounds = R, or --rounds R)")
    if session.players is None and session.stakes is None:
        raise NightError(f"profile {profile.key!r}: a night needs its table ([session] players "
                         "and stakes, or --players N --stakes S)")
    shoe = as_shoe(shoe, profile.decks)
    stakes = cut_stakes(replace(profile, bonus_limit=None))
    at_stakes = tuple(profile.at_stake(s) for s in stakes)
    study = bank_study(profile, shoe, session, target_ruin=target_ruin, samples=samples,
                       seed=seed, loss_over=loss_over)
    bets = bet_odds(profile, shoe, ["all"])
    result = round_odds(profile, shoe)
    cuts = []
    alone = replace(session, fee=None, commission=None)
    for at, stake in zip(at_stakes, stakes, strict=True):
        staked = replace(result, profile=at)
        # Each cut alone (the owner's question: which fee, or which commission, breaks even).
        cuts += [break_even_cut(staked, cut, Fraction(0), stake, alone) for cut in
                 ("fee", "commission")]
    return Night(profile, shoe, bets, stakes, at_stakes, study, tuple(cuts))
