"""How exact numbers and rules are written: the one formatting layer every report shares.

Fractions print exactly; decimals are rounded half-even to the digits shown;
the rules line names every option that changes a figure, so no number is
printed without the rules that produced it.  It lives beside the rules (not
in :mod:`odds.report`) because every layer above prints these, the
verifier's verdict included.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from fractions import Fraction

from odds.rules.house_cut import cut_note
from odds.rules.profile import Profile
from odds.rules.rule_types import spans

__all__ = ["DIGITS", "bonus_limit_data", "bonus_limit_note", "decimal", "fraction", "odds_against",
           "percent", "rules_line", "text_row", "text_table", "wrap_rules"]

DIGITS = 8


def fraction(value: Fraction) -> str:
    """An exact fraction as text: ``103960291/229033350``, ``0``, ``-1``.

    >>> fraction(Fraction(6, 4)), fraction(Fraction(-2))
    ('3/2', '-2')
    """
    return str(value)


def percent(value: Fraction, digits: int = DIGITS - 2) -> str:
    """A fraction as a signed percentage, rounded half-even: an EV or an edge.

    >>> percent(Fraction(1041476, 38172225)), percent(Fraction(-1, 8)), percent(Fraction(0))
    ('+2.728361%', '-12.500000%', '0.000000%')
    """
    text = decimal(value * 100, digits)
    return f"{'+' if value > 0 else ''}{text}%"


def odds_against(p: Fraction) -> str:
    """The odds against an event of probability ``p``, as players say them: ``16 to 1``.

    Whole numbers are exact, others rounded half-even to 2 places; a likely
    event (odds on) is written ``1 to X``.

    >>> odds_against(Fraction(1, 17)), odds_against(Fraction(2, 5)), odds_against(Fraction(3, 4))
    ('16 to 1', '1.50 to 1', '1 to 3')
    >>> odds_against(Fraction(1, 2)), odds_against(Fraction(137, 221))
    ('1 to 1', '1 to 1.63')
    >>> odds_against(Fraction(0)), odds_against(Fraction(1))
    ('never', 'certain')
    """
    if p == 0:
        return "never"
    if p == 1:
        return "certain"
    ratio = (1 - p) / p
    if ratio < 1:
        on = 1 / ratio
        return f"1 to {on.numerator}" if on.denominator == 1 else f"1 to {decimal(on, 2)}"
    return f"{ratio.numerator} to 1" if ratio.denominator == 1 else f"{decimal(ratio, 2)} to 1"


def decimal(value: Fraction, digits: int = DIGITS) -> str:
    """A fraction rounded half-even to ``digits`` places, as text.

    >>> decimal(Fraction(1, 3)), decimal(Fraction(-1, 8), 2)
    ('0.33333333', '-0.12')
    """
    scaled = round(value * 10**digits)  # Fraction.__round__ rounds half to even
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10**digits)
    return f"{sign}{whole}.{part:0{digits}d}" if digits else f"{sign}{whole}"


def rules_line(profile: Profile) -> str:
    """The rules in one line, for headers: every option that changes a figure.

    >>> from odds.rules.profiles import BUILTIN
    >>> rules_line(BUILTIN["plain"])
    'naturals 8-9 outright; player draws on 0-5; bank draws on 0-5; Colon by rank; no pair bonus'
    """
    opts = profile.options()
    parts = [f"naturals {spans(profile.naturals)} {opts['naturals']}"]
    if profile.naturals_stop_draws:
        parts.append("a natural stops all draws")
    for who, rule in (("player", profile.player_draw), ("bank", profile.bank_draw)):
        parts.append(f"{who} chooses" if rule is None else f"{who} {rule.describe()}")
    parts.append(f"Colon by {opts['colon_match']}")
    if profile.bonuses:
        parts.append(
            f"player Colon paid {_pay(profile.colon)}, Colon nine {_pay(profile.colon_nine)}, "
            f"on {opts['bonus_on']}"
        )
    else:
        parts.append("no pair bonus")
    if profile.bank_bonus:
        parts.append(
            f"bank Colon collects {_pay(profile.bank_multiplier(False))}, "
            f"Colon nine {_pay(profile.bank_multiplier(True))}"
        )
    if profile.win != 1:
        parts.append(f"win pays {_pay(profile.win)}")
    if profile.ties != 0:
        parts.append(ties_text(profile))
    if profile.banker_pays is not None:
        parts.append(f"banker bet pays {_pay(profile.banker_pays)}")
    if profile.tie_pays is not None:
        parts.append(f"tie pays {_pay(profile.tie_pays)}")
    limit = profile.bonus_limit
    if limit is not None:
        cap, stake = _amount(limit.max_bonus), _amount(limit.stake)
        parts.append(f"a bonus pays at most {cap} at stake {stake}" if profile.bonus_binds
                     else f"max_bonus {cap} never binds at stake {stake}")
    cut = cut_note(profile.session.fee, profile.session.commission)
    if cut is not None:
        parts.append(cut)
    return "; ".join(parts)


def ties_text(profile: Profile) -> str:
    """What a seat that ties is paid (the pay table's tie amount), in words.

    >>> from dataclasses import replace
    >>> from odds.rules.profiles import BUILTIN
    >>> ties_text(BUILTIN["standard"]), ties_text(replace(BUILTIN["standard"], ties=Fraction(-1)))
    ('a tie pushes', 'the bank wins ties (a seat that ties loses its stake)')
    """
    if profile.ties == 0:
        return "a tie pushes"
    if profile.ties == -1:
        return "the bank wins ties (a seat that ties loses its stake)"
    return f"a tie pays {_amount(profile.ties)} per unit"


def _amount(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(value)


def _bonuses(profile: Profile) -> list[tuple[str, Fraction]]:
    """The player's bonus entries and their multipliers as the pay table sets them."""
    return [(name, m) for name, m in (("Colon nine", profile.colon_nine), ("Colon", profile.colon))
            if m is not None]


def bonus_limit_note(profile: Profile) -> str | None:
    """What ``max_bonus`` does at the stake: the bonuses it caps, or that it never binds.

    >>> from odds.rules.profiles import BUILTIN
    >>> print(bonus_limit_note(BUILTIN["standard"].at_stake(Fraction(4000), Fraction(5000))))
    ... # doctest: +NORMALIZE_WHITESPACE
    max_bonus 5000 at stake 4000: a bonus pays at most 5000, 5/4 per unit staked
    (Colon nine 3:1 and Colon 2:1 capped)
    >>> print(bonus_limit_note(BUILTIN["standard"].at_stake(Fraction(1), Fraction(5000))))
    max_bonus 5000 never binds at stake 1: the largest bonus, Colon nine 3:1, pays 3 at this stake
    """
    limit = profile.bonus_limit
    if limit is None:
        return None
    cap, stake = _amount(limit.max_bonus), _amount(limit.stake)
    bonuses = _bonuses(profile)
    if not profile.bonus_binds:
        if not bonuses:
            return f"max_bonus {cap} never binds at stake {stake}: the profile pays no bonus"
        name, top = max(bonuses, key=lambda b: b[1])
        return (f"max_bonus {cap} never binds at stake {stake}: the largest bonus, {name} "
                f"{_pay(top)}, pays {_amount(top * limit.stake)} at this stake")
    per_unit = limit.per_unit(profile.win)
    capped = " and ".join(f"{name} {_pay(m)}" for name, m in bonuses if m > per_unit)
    if limit.max_bonus < profile.win * limit.stake:
        return (f"max_bonus {cap} at stake {stake} is below a plain win: a bonus pays a plain "
                f"win, {_amount(profile.win * limit.stake)} ({_amount(per_unit)} per unit "
                f"staked; {capped} capped)")
    return (f"max_bonus {cap} at stake {stake}: a bonus pays at most {cap}, "
            f"{_amount(per_unit)} per unit staked ({capped} capped)")


def bonus_limit_data(profile: Profile) -> dict[str, object] | None:
    """``max_bonus`` at the stake as JSON-ready data, or None without it.

    >>> from odds.rules.profiles import BUILTIN
    >>> d = bonus_limit_data(BUILTIN["standard"].at_stake(Fraction(4000), Fraction(5000)))
    >>> d["max_bonus"], d["stake"], d["per_unit"], d["binds"]
    ('5000', '4000', '5/4', True)
    """
    limit = profile.bonus_limit
    if limit is None:
        return None
    return {"max_bonus": _amount(limit.max_bonus), "stake": _amount(limit.stake),
            "per_unit": _amount(limit.per_unit(profile.win)), "binds": profile.bonus_binds,
            "note": bonus_limit_note(profile)}


def _pay(value: Fraction | None) -> str:
    if value is None:
        return "none"
    return f"{value.numerator}:{value.denominator}"


def wrap_rules(text: str) -> list[str]:
    """A report's rules line (``rules: ...``) as every command prints it.

    Wrapped at 79 columns, the later lines indented two spaces, never inside
    a span such as ``0-5``.

    >>> for line in wrap_rules("rules: " + "player draws on 0-5; " * 5):
    ...     print(line)
    rules: player draws on 0-5; player draws on 0-5; player draws on 0-5; player
      draws on 0-5; player draws on 0-5;
    """
    return textwrap.wrap(text, 79, subsequent_indent="  ", break_on_hyphens=False)


_COLUMN = re.compile(r"( *)([<>])(\d+)")


def text_table(rows: Sequence[Sequence[object] | str], columns: Sequence[str]) -> list[str]:
    """Rows of cells laid out in columns that never run together, at any magnitude.

    ``columns`` gives each column as ``"<lead><align><width>"``: ``"  >12"`` is two
    spaces, then the cell right-aligned in at least 12 characters; ``"<5"`` left-aligned
    in at least 5.  A column is as wide as its widest cell, header included, and wider
    by what it takes to leave a space in every row between it and a neighbour no lead
    separates it from, so every row stays aligned and a long number widens its column
    instead of touching its neighbour; cells that fit print as in fixed columns.  A
    left-aligned column after a right-aligned one needs a lead.  Lines end without
    spaces.  A row given as a string is a line of its own between the others (a
    heading), printed as it is.

    >>> for line in text_table([["seat", "mean"], [1, "0.5"], [2, "-123456789012.25"]],
    ...                        ["  <5", ">8"]): print(line)
      seat             mean
      1                 0.5
      2    -123456789012.25
    """
    specs: list[tuple[str, str, int]] = []
    for i, spec in enumerate(columns):
        found = _COLUMN.fullmatch(spec)
        if found is None:
            raise ValueError(f"a column is '<lead><align><width>', as '  >12', not {spec!r}")
        lead, align, width = found.group(1), found.group(2), int(found.group(3))
        if align == "<" and i and not lead and specs[-1][1] == ">":
            raise ValueError(f"column {i + 1} is left-aligned after a right-aligned one: "
                             "give it a lead, as '  <8'")
        specs.append((lead, align, width))
    cells = [[str(c) for c in row] for row in rows if not isinstance(row, str)]
    for row in cells:
        if len(row) > len(specs):
            raise ValueError(f"a row has {len(row)} cells for {len(specs)} columns")
    widths = [max([width] + [len(row[j]) for row in cells if j < len(row)])
              for j, (_, _, width) in enumerate(specs)]
    for j in range(1, len(specs)):
        if specs[j][0]:
            continue  # the lead separates
        # The spaces between column j - 1 and column j in each row: at least one.
        gaps = [(widths[j - 1] - len(row[j - 1]) if specs[j - 1][1] == "<" else 0)
                + (widths[j] - len(row[j]) if specs[j][1] == ">" else 0)
                for row in cells if j < len(row)]
        short = 1 - min(gaps, default=1)
        if short > 0:  # widen the side whose padding faces the other
            widths[j if specs[j][1] == ">" else j - 1] += short
    out = []
    laid = iter(cells)
    for given in rows:
        if isinstance(given, str):
            out.append(given)
            continue
        row = next(laid)
        line = "".join(lead + (cell.rjust(w) if align == ">" else cell.ljust(w))
                       for cell, (lead, align, _), w in zip(row, specs, widths, strict=False))
        out.append(line.rstrip())
    return out


def text_row(cells: Sequence[object], columns: Sequence[str]) -> str:
    """One row of :func:`text_table` on its own (a line among others of another shape):
    its cells never run together, though a wide cell is not aligned with other rows'.

    >>> text_row(["player seat EV", "+123456789012.5%"], ["  <24", ">12"])
    '  player seat EV          +123456789012.5%'
    """
    return text_table([cells], columns)[0]
