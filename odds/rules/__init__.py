"""The rules: cards, shoes, rule profiles, settlement, and how they are written.

Above ``odds.io`` (reading and writing files) and below everything else.
Everything above trusts what it validates; who draws is decided once, in
:mod:`odds.rules.draw`, and who wins once, in :mod:`odds.rules.settle`.
"""

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
