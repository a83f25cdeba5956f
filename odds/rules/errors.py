"""The two errors of the rules: a profile, or a bet, that cannot be used.

Both are :class:`ValueError` subclasses, so a caller that refuses bad input
catches one type; they live here, at the bottom of ``odds.rules``, because
every module that reads a rule or a bet raises them.
"""

from __future__ import annotations

__all__ = ["BetError", "ProfileError"]


class ProfileError(ValueError):
    """A profile, profile file or option that cannot be used."""


class BetError(ProfileError):
    """A bet, pay table or bet name that cannot be used."""
