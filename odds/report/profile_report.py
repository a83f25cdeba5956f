"""Rule profiles as JSON-ready data and terminal text (``lucky9 profiles``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from odds.rules.profile import Profile
from odds.rules.session_options import Session

__all__ = ["profile_data", "profile_list_data", "profile_list_text", "profile_text"]


def profile_list_data(profiles: Mapping[str, Profile]) -> dict[str, str]:
    """Every profile's key and title."""
    return {key: p.title for key, p in profiles.items()}


def profile_list_text(profiles: Mapping[str, Profile]) -> list[str]:
    """One line a profile (key, its own number of packs, title), and how to see or use one.

    >>> from odds.rules.profiles import BUILTIN
    >>> profile_list_text(BUILTIN)[1]
    'standard     1 pack   Philippine Lucky 9 with Colon bonuses, draw on 0-5'
    >>> profile_list_text(BUILTIN)[-1]
    'show one: lucky9 profiles NAME; use one: lucky9 odds --profile NAME (--decks D for other packs)'
    """
    width = max(3, *map(len, profiles))
    packs = {key: f"{p.decks} pack{'s' if p.decks != 1 else ''}" for key, p in profiles.items()}
    size = max(5, *map(len, packs.values()))
    lines = [f"{'profile':<{width}}  {'packs':<{size}}  rules"]
    lines += [f"{key:<{width}}  {packs[key]:<{size}}  {p.title}" for key, p in profiles.items()]
    return [*lines, "",
            "show one: lucky9 profiles NAME; use one: lucky9 odds --profile NAME (--decks D for other packs)"]


def profile_data(profile: Profile) -> dict[str, Any]:
    """One profile's full rules as JSON-ready data, its ``[session]`` options included."""
    return {"profile": profile.key, "title": profile.title, "base": profile.base,
            "source": profile.source, "options": profile.options(), "notes": list(profile.notes),
            "session": profile.session.as_data()}


def profile_text(profile: Profile) -> list[str]:
    """One profile's full rules as terminal lines, then the session options it sets, if any.

    >>> from odds.rules.profiles import BUILTIN
    >>> profile_text(BUILTIN["standard"])[-1]
    '  tie_pays             none'
    >>> from dataclasses import replace
    >>> from odds.rules.session_options import Session
    >>> house = replace(BUILTIN["standard"],
    ...                 session=Session().with_options(stakes="100", max_bonus="5000"))
    >>> for line in profile_text(house)[-3:]:
    ...     print(line)
      session (lucky9 bank; its flags override these):
        stakes               100
        max_bonus            5000
    """
    lines = profile.describe()
    default = Session().as_data()  # every option off
    chosen = [(k, v) for k, v in profile.session.as_data().items() if v != default.get(k)]
    if chosen:
        lines.append("  session (lucky9 bank; its flags override these):")
        lines += [f"    {k:<20} {', '.join(v) if isinstance(v, list) else v}" for k, v in chosen]
    return lines
