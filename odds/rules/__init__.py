"""The rules: cards, shoes, rule profiles, settlement, and how they are written.

Above ``odds.io`` (reading and writing files) and below everything else.
Everything above trusts what it validates; who draws is decided once, in
:mod:`odds.rules.draw`, and who wins once, in :mod:`odds.rules.settle`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from odds.rules.bet_library import BETS
    from odds.rules.bet_types import Bet
    from odds.rules.bets import bet_payout, profile_bets
    from odds.rules.cards import RANKS, Card, Rank, Suit, hand_value, parse_card, parse_cards
    from odds.rules.errors import BetError, ProfileError
    from odds.rules.options import OPTIONS
    from odds.rules.profile import Profile
    from odds.rules.profiles import BUILTIN, as_profile, get_profile, load_profile, resolve_profile
    from odds.rules.rule_types import BonusOn, CapRule, ColonMatch, DrawRule, Naturals, Rotation
    from odds.rules.session_options import Session
    from odds.rules.settle import Outcome, Pay
    from odds.rules.shoe import Shoe, as_shoe, parse_shoe


def __getattr__(name: str) -> Any:
    """A public name, its module imported on first use (PEP 562): a command that needs
    cards and profiles (``lucky9 odds``) does not load the bet library.

    >>> import odds.rules
    >>> odds.rules.Shoe.__module__
    'odds.rules.shoe'
    """
    module: Any
    if name == 'BETS':
        from odds.rules import bet_library as module
    elif name == 'Bet':
        from odds.rules import bet_types as module
    elif name in ('bet_payout', 'profile_bets'):
        from odds.rules import bets as module
    elif name in ('RANKS', 'Card', 'Rank', 'Suit', 'hand_value', 'parse_card', 'parse_cards'):
        from odds.rules import cards as module
    elif name in ('BetError', 'ProfileError'):
        from odds.rules import errors as module
    elif name == 'OPTIONS':
        from odds.rules import options as module
    elif name == 'Profile':
        from odds.rules import profile as module
    elif name in ('BUILTIN', 'as_profile', 'get_profile', 'load_profile', 'resolve_profile'):
        from odds.rules import profiles as module
    elif name in ('BonusOn', 'CapRule', 'ColonMatch', 'DrawRule', 'Naturals', 'Rotation'):
        from odds.rules import rule_types as module
    elif name == 'Session':
        from odds.rules import session_options as module
    elif name in ('Outcome', 'Pay'):
        from odds.rules import settle as module
    elif name in ('Shoe', 'as_shoe', 'parse_shoe'):
        from odds.rules import shoe as module
    else:
        raise AttributeError(f"module 'odds.rules' has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, imported or not."""
    return sorted({*globals(), *__all__})


__all__ = [
    "BETS",
    "BUILTIN",
    "OPTIONS",
    "RANKS",
    "Bet",
    "BetError",
    "BonusOn",
    "CapRule",
    "Card",
    "ColonMatch",
    "DrawRule",
    "Naturals",
    "Outcome",
    "Pay",
    "Profile",
    "ProfileError",
    "Rank",
    "Rotation",
    "Session",
    "Shoe",
    "Suit",
    "as_profile",
    "as_shoe",
    "bet_payout",
    "get_profile",
    "hand_value",
    "load_profile",
    "parse_card",
    "parse_cards",
    "parse_shoe",
    "profile_bets",
    "resolve_profile",
]
