"""A profile's bets by name or file, and a dealt round's bets settled.

:func:`round_of_cards` turns both hands' cards into the events of one
round (:class:`~odds.rules.bet_types.RoundEvents`), refusing cards the profile's
draw rules could not deal; :func:`bet_payout` settles a bet on them: what
``lucky9 verify`` checks a ``bet:NAME`` column against.
:func:`profile_bets` lists the bets of a profile given as itself, by name or
by file.

What a bet is: :mod:`odds.rules.bet_types`; bets read from a profile file:
:mod:`odds.rules.bet_files`; the built-in library and bets by name:
:mod:`odds.rules.bet_library`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from odds.rules.bet_files import check_bet
from odds.rules.bet_library import offered_bets, resolve_bets
from odds.rules.bet_types import Bet, Pair, RoundEvents
from odds.rules.cards import Card, parse_cards
from odds.rules.draw import who_draws
from odds.rules.errors import BetError
from odds.rules.profile import Profile
from odds.rules.profiles import as_profile
from odds.rules.settle import Outcome, category

__all__ = ["bet_payout", "profile_bets", "round_of_cards"]


def profile_bets(profile: Profile | str) -> dict[str, Bet]:
    """The bets a profile offers, by name, in table order.

    Lucky 9 profiles offer the seat bet (``player``, with the profile's
    Colon pay table) and the Colon side bets; punto-banco and ez-baccarat
    their casino bets; a profile file adds its own ``[bet.NAME]`` tables.
    ``profile`` is a :class:`~odds.rules.profile.Profile`, a built-in name or
    a ``.toml`` file path.

    >>> list(profile_bets("ez-baccarat"))
    ['player', 'ez-banker', 'tie', 'dragon-7', 'panda-8']
    """
    return offered_bets(as_profile(profile))


def _pair_of(a: Card, b: Card, suits: bool) -> Pair:
    if a.rank is b.rank:
        suited = None
        if suits:
            if a.suit is None or b.suit is None:
                raise BetError(
                    f"the pair {a} {b} has no suits, but the bet needs them (write 9h 9h)"
                )
            suited = a.suit is b.suit
        return Pair(a.rank.index, True, suited)
    return Pair(None, a.points == b.points, None)


def round_of_cards(
    profile: Profile, player: Sequence[Card] | str, bank: Sequence[Card] | str,
    suits: bool = False,
) -> RoundEvents:
    """The events of a dealt round from both hands' cards (2 or 3 each, in deal order).

    The cards must follow the profile's draw rules (a third card only where
    the hand draws); ``suits`` asks for suited/unsuited pairs.

    >>> from odds.rules.profiles import BUILTIN
    >>> r = round_of_cards(BUILTIN["punto-banco"], "Kh 4s 6d", "5c Kd 2h")
    >>> r.winner, r.banker_final, r.banker_cards
    ('banker', 7, 3)
    """
    p = parse_cards(player) if isinstance(player, str) else tuple(player)
    b = parse_cards(bank) if isinstance(bank, str) else tuple(bank)
    for cards, who in ((p, "player"), (b, "banker")):
        if len(cards) not in (2, 3):
            raise BetError(f"the {who} hand has {len(cards)} cards; a dealt hand has 2 or 3")
    pv = (p[0].points + p[1].points) % 10
    bv = (b[0].points + b[1].points) % 10
    if profile.player_draw is None or profile.bank_draw is None:
        raise BetError(f"profile {profile.key!r} has no fixed draw rule: bets need one")
    p_draws, b_draws = who_draws(profile, pv, bv, p[2].points if len(p) == 3 else None)
    if (len(p) == 3) != p_draws or (len(b) == 3) != b_draws:
        raise BetError(
            f"player {' '.join(map(str, p))}, banker {' '.join(map(str, b))} "
            f"cannot be dealt under profile {profile.key!r} (its draw rules "
            f"say the player {'draws' if p_draws else 'stands'})"
            if (len(p) == 3) != p_draws else
            f"player {' '.join(map(str, p))}, banker {' '.join(map(str, b))} "
            f"cannot be dealt under profile {profile.key!r} (its draw rules "
            f"say the banker {'draws' if b_draws else 'stands'})"
        )
    pf = sum(c.points for c in p) % 10
    bf = sum(c.points for c in b) % 10
    outcome = category(profile, pv, bv, pf, bf)[0]
    winner = {Outcome.WIN: "player", Outcome.LOSS: "banker", Outcome.PUSH: "tie"}[outcome]
    return RoundEvents(
        winner,
        pv if pv in profile.naturals else None,
        bv if bv in profile.naturals else None,
        pf, bf, len(p), len(b),
        _pair_of(p[0], p[1], suits), _pair_of(b[0], b[1], suits),
    )


def bet_payout(
    profile: Profile | str, bet: Bet | str, player: Sequence[Card] | str, bank: Sequence[Card] | str
) -> Fraction:
    """The exact net payout per unit stake of a bet for one dealt round.

    ``player`` and ``bank`` are the hands as dealt (2 or 3 cards each).
    This is what ``lucky9 verify`` checks a ``bet:NAME`` column against.

    >>> from odds.rules.profiles import BUILTIN
    >>> pb = BUILTIN["punto-banco"]
    >>> bet_payout(pb, "dragon-7", "Kh 4s 6d", "5c Kd 2h")
    Fraction(40, 1)
    >>> bet_payout(pb, "ez-banker", "Kh 4s 6d", "5c Kd 2h"), bet_payout(pb, "perfect-pair", "9h 9h", "Ac 2c")
    (Fraction(0, 1), Fraction(25, 1))
    """
    profile = as_profile(profile)
    chosen = resolve_bets(profile, [bet])[0] if isinstance(bet, str) else bet
    check_bet(chosen, profile)
    r = round_of_cards(profile, player, bank, suits=chosen.uses_suits)
    return chosen.pays(r, profile)
