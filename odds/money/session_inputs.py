"""A bank session from the options as given: the profile's ``[session]``, then the flags.

What ``lucky9 bank`` decides before it computes: one stake given for a table
of N players is every seat's stake, and a capital below the largest stake is
refused (the bank could not pay a single winner).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.session_options import Session

__all__ = ["SESSION_OPTIONS", "session_of"]

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
