"""The profiles there are: built in, by name, and from TOML profile files.

:data:`BUILTIN` holds the built-in profiles; :func:`get_profile` finds one by
name, :func:`load_profile` reads a profile file (a built-in ``base``, then
options, a ``[session]`` table and the file's own ``[bet.NAME]`` tables), and
:func:`as_profile` takes any of the three.  A file is read as untrusted text
(:mod:`odds.io.textio`) and validated as any profile is
(:mod:`odds.rules.profile`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.io.textio import check_nesting, check_numbers, excerpt, read_text
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile, apply_options
from odds.rules.rule_types import VALUES, DrawRule, Naturals
from odds.rules.session_options import Session

__all__ = [
    "BUILTIN",
    "MAX_TOML",
    "as_profile",
    "get_profile",
    "load_profile",
    "profile_from_data",
    "resolve_profile",
]

# -- built-in profiles ---------------------------------------------------------

_BACCARAT_BANKER = DrawRule(
    frozenset(range(6)),
    (
        frozenset(VALUES), frozenset(VALUES), frozenset(VALUES),  # 0-2 always draw
        frozenset(VALUES) - {8},  # 3: unless the player's third card is an 8
        frozenset(range(2, 8)),  # 4: on 2-7
        frozenset(range(4, 8)),  # 5: on 4-7
        frozenset({6, 7}),  # 6: on 6-7
        frozenset(), frozenset(), frozenset(),  # 7 stands; 8, 9 are naturals
    ),
)

# The classic chemin de fer banker's table: the baccarat tableau, except that
# 3 against an 8 or a 9 and 5 against a 4 are left to the banker ("optional"),
# 4 stands against a 1 and 5 draws only against 5-7.
_CHEMIN_BANKER = DrawRule(
    frozenset(range(6)),
    (
        frozenset(VALUES), frozenset(VALUES), frozenset(VALUES),
        frozenset(range(8)),  # 3: on 0-7; stands on 8; chooses on 9
        frozenset(range(2, 8)),  # 4: on 2-7
        frozenset(range(5, 8)),  # 5: on 5-7; chooses on 4
        frozenset({6, 7}),  # 6: on 6-7
        frozenset(), frozenset(), frozenset(),
    ),
    open=frozenset({(3, 9), (5, 4)}),
)

BUILTIN: dict[str, Profile] = {
    p.key: p
    for p in (
        Profile("standard", "Philippine Lucky 9 with Colon bonuses, draw on 0-5"),
        Profile("plain", "standard Lucky 9 without pair bonuses (for beginners)",
                colon=None, colon_nine=None),
        Profile(
            "forced-draw", "every non-natural hand draws, 6 and 7 included",
            player_draw=DrawRule.values(*range(8)), bank_draw=DrawRule.values(*range(8)),
        ),
        Profile(
            "super9",
            "casino Super 9: the house banks; example house pay table "
            "(Colon 3:2, Colon nine 2:1; the house's own Colons collect 2:1 and 3:1)",
            colon=Fraction(3, 2), colon_nine=Fraction(2), bank_bonus=True,
            bank_colon=Fraction(2), bank_colon_nine=Fraction(3), decks=8,
            notes=("the pay table is an example: put your house's in a profile file",),
        ),
        Profile(
            "family", "French family rules: only a two-card 9 is natural; players and bank choose",
            naturals=frozenset({9}), naturals_stop_draws=True,
            player_draw=None, bank_draw=None, colon=None, colon_nine=None,
        ),
        Profile(
            "punto-banco", "casino baccarat (reference for validation): banker tableau, "
            "banker bet pays 19/20, tie 8:1",
            naturals_rule=Naturals.COMPARE, naturals_stop_draws=True,
            bank_draw=_BACCARAT_BANKER, banker_pays=Fraction(19, 20), tie_pays=Fraction(8),
            decks=8, colon=None, colon_nine=None,
        ),
        Profile(
            "ez-baccarat", "EZ Baccarat: punto-banco rules, the banker bet without commission "
            "pushes on a three-card 7; Dragon 7 and Panda 8 side bets",
            naturals_rule=Naturals.COMPARE, naturals_stop_draws=True,
            bank_draw=_BACCARAT_BANKER, tie_pays=Fraction(8),
            decks=8, colon=None, colon_nine=None,
        ),
        Profile(
            "chemin-de-fer", "chemin de fer: the player chooses on 5; the banker sees the player's "
            "third card (classic table, open cells)",
            naturals_rule=Naturals.COMPARE, naturals_stop_draws=True,
            player_draw=DrawRule(frozenset(range(5)), choose=frozenset({5})),
            bank_draw=_CHEMIN_BANKER, decks=6, colon=None, colon_nine=None,
            player_sees="cards", bank_sees="cards", bank_sees_third=True,
        ),
    )
}


def get_profile(key: str) -> Profile:
    """A built-in profile by key.

    >>> get_profile("plain").colon is None
    True
    >>> get_profile("Punto-Banco").key  # any case
    'punto-banco'
    >>> get_profile("standrd")
    Traceback (most recent call last):
    ...
    odds.rules.errors.ProfileError: unknown profile 'standrd' (built-in: standard, plain, ...)
    """
    try:
        return BUILTIN[key.strip().lower()]
    except KeyError:
        names = ", ".join(BUILTIN)
        raise ProfileError(
            f"unknown profile {excerpt(key)} (built-in: {names}; or a .toml file)"
        ) from None


_FILE_KEYS = {"base", "name", "title", "session", "bets", "bet"}
MAX_TOML = 1 << 20  # bytes of a profile or strategy file: a real one is a few hundred


def load_profile(path: str | Path) -> Profile:
    """Read a TOML profile file: ``base`` (a built-in), ``name``, then options.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
    ...     _ = f.write('base = "standard"\\nname = "my-table"\\ncolon = "5/2"\\n')
    >>> p = load_profile(f.name); os.unlink(f.name)
    >>> p.key, p.base, p.colon
    ('my-table', 'standard', Fraction(5, 2))
    """
    path = Path(path)
    where = f"profile file {excerpt(str(path), 120)}"
    text = read_text(path, MAX_TOML, "profile file", ProfileError)
    check_nesting(text, where, ProfileError, toml=True)
    check_numbers(text, where, ProfileError)
    import tomllib  # a profile file's only: a built-in profile reads none

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as exc:
        raise ProfileError(f"{where} is not valid TOML: {exc}") from None
    return profile_from_data(data, source=str(path))


def profile_from_data(data: Mapping[str, Any], source: str) -> Profile:
    """Build a profile from parsed file data; errors name the key and the file."""
    where = f"in {source}"
    base_key = data.get("base", "standard")
    if not isinstance(base_key, str) or base_key not in BUILTIN:
        raise ProfileError(
            f"{where}: base {base_key!r} is not a built-in profile "
            f"({', '.join(BUILTIN)})"
        )
    name = data.get("name", re.sub(r"[^a-z0-9_-]+", "-", Path(source).stem.lower()).strip("-")
                    or "custom")
    if not isinstance(name, str):
        raise ProfileError(f"{where}: name must be a string, not {excerpt(name)}")
    title = data.get("title", f"{base_key} with house options from {Path(source).name}")
    if not isinstance(title, str):
        raise ProfileError(f"{where}: title must be a string, not {excerpt(title)}")
    options = {k: v for k, v in data.items() if k not in _FILE_KEYS and k != "max_bonus"}
    try:
        base = replace(BUILTIN[base_key], key=name, title=title, base=base_key, source=source)
    except ProfileError as exc:
        raise ProfileError(f"{where}: name: {exc}") from None
    session = data.get("session", {})
    if not isinstance(session, Mapping):
        raise ProfileError(f"{where}: session must be a table ([session]), not {excerpt(session)}")
    try:
        profile = apply_options(base, options, where=where)
    except ProfileError as exc:
        text = str(exc)
        if not text.startswith(where):
            text = f"{where}: {text}"
        raise ProfileError(text) from None
    profile = replace(profile, session=_session(session, data, where))
    if "bet" in data or "bets" in data:
        profile = _with_bets(profile, data, source)
    return profile


def _session(table: Mapping[str, Any], data: Mapping[str, Any], where: str) -> Session:
    """The file's ``[session]``; ``max_bonus`` may sit with the pay table instead (not both)."""
    if "max_bonus" not in data:
        return Session().with_options(where=where, **table)
    if "max_bonus" in table:
        raise ProfileError(f"{where}: max_bonus is given twice, with the pay table and in "
                           "[session] (give it once)")
    session = Session().with_options(where=where, **table)
    try:
        return session.with_options(max_bonus=data["max_bonus"])
    except ProfileError as exc:
        raise ProfileError(f"{where}: {exc}") from None


def _with_bets(profile: Profile, data: Mapping[str, Any], source: str) -> Profile:
    """The profile with the file's ``bets`` list and ``[bet.NAME]`` tables."""
    from odds.rules.bet_files import bets_from_data, check_bet  # a file's bets only
    from odds.rules.bet_library import offered_bets

    defs = bets_from_data(data.get("bet", {}), source)
    names = data.get("bets")
    if names is not None:
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ProfileError(f"in {source}: bets must be a list of bet names")
        names = tuple(n.strip().lower() for n in names)
    else:
        names = ()
    profile = replace(profile, bets=names, bet_defs=defs)
    for bet in defs:
        check_bet(bet, profile)
    try:
        offered_bets(profile)
    except ProfileError as exc:
        raise ProfileError(f"in {source}: bets: {exc}") from None
    return profile


def resolve_profile(name: str) -> Profile:
    """A built-in key (any case), or a path to a ``.toml`` profile file."""
    if name.endswith(".toml") or "/" in name or Path(name).suffix:
        return load_profile(name)
    return get_profile(name)


def as_profile(value: Profile | str) -> Profile:
    """A profile given as itself, a built-in key (any case) or a ``.toml`` file path.

    >>> as_profile("Standard") is BUILTIN["standard"]
    True
    >>> as_profile(8)
    Traceback (most recent call last):
    ...
    odds.rules.errors.ProfileError: a profile is a Profile, a built-in name (...) or a .toml file ..., not 8
    """
    if isinstance(value, Profile):
        return value
    if isinstance(value, str | Path):
        return resolve_profile(str(value))
    names = ", ".join(BUILTIN)
    raise ProfileError(f"a profile is a Profile, a built-in name ({names}) or a .toml file path, "
                       f"not {value!r}")
