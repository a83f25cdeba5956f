"""A bank session from the options as given: the profile's ``[session]``, then the flags.

What ``lucky9 bank`` decides before it computes: one stake given for a table
of N players is every seat's stake, and a capital below the largest stake is
refused (the bank could not pay a single winner).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from odds.rules.profile import Profile
from odds.rules.session_options import Session

__all__ = ["SESSION_OPTIONS", "session_of"]

# The session's options, as the flags of `lucky9 bank` name them.
SESSION_OPTIONS = ("players", "stakes", "max_stake", "bonus_cap", "round_cap", "cap_rule",
                   "capital", "rounds", "rotation", "max_bonus")


def session_of(profile: Profile, options: Mapping[str, Any]) -> Session:
    """The profile's session with the ``options`` given (None: not given) applied.

    Values may be strings as typed; ``stakes`` is one stake for every seat or
    one per seat in seat order ("1,1,2").

    >>> from odds.rules.profiles import BUILTIN
    >>> session_of(BUILTIN["standard"], {"players": "3", "stakes": "2"}).stakes
    (Fraction(2, 1), Fraction(2, 1), Fraction(2, 1))
    >>> session_of(BUILTIN["standard"], {"stakes": "1,5", "capital": "4"})
    Traceback (most recent call last):
    ...
    ValueError: capital 4 is less than one stake (5): the bank could not pay a single winner
    """
    given = {k: options[k] for k in SESSION_OPTIONS if options.get(k) is not None}
    stakes = given.get("stakes")
    if stakes is not None and "," not in stakes:  # one stake for every seat
        players = {"players": given["players"]} if "players" in given else {}
        seats = profile.session.with_options(**players).players
        if seats is not None:
            given["stakes"] = ",".join([stakes.strip()] * seats)
    session = profile.session.with_options(**given)
    if session.capital is not None:
        seats = session.players or (len(session.stakes) if session.stakes else 1)
        top = max(session.stakes_for(seats))
        if session.capital < top:
            raise ValueError(f"capital {session.capital} is less than one stake ({top}): "
                             "the bank could not pay a single winner")
    return session
