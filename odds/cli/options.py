"""The options several commands share, and help that lists them in sections.

Every command is a :class:`SectionedCommand` (made with :func:`command`): its
own options first, then the profile and shoe, then one flag per rule option.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any, TypeVar

import click

from odds.cli.common import CARDS, PROFILE, SHOE, note
from odds.io.textio import shorten
from odds.rules import OPTIONS, Profile, Shoe
from odds.rules.errors import ProfileError
from odds.rules.numbers import parse_probability
from odds.rules.session_options import parse_commission, parse_stake

__all__ = [
    "BONUS_FLAGS",
    "COMMISSION_HELP",
    "FEE_HELP",
    "MAX_BONUS_HELP",
    "capped_profile",
    "INFORMATION",
    "LazyHelpOption",
    "PROBABILITY",
    "ProbabilityType",
    "RULE_FLAGS",
    "RULES_SECTION",
    "SHOE_SECTION",
    "SectionOption",
    "SectionedCommand",
    "command",
    "family_default",
    "known_cards",
    "max_bonus_options",
    "parse_edge",
    "resolve_max_bonus",
    "resolve_rules",
    "resolve_rules_at_stake",
    "rule_options",
    "rule_options_without",
    "with_cut",
]

F = TypeVar("F", bound=Callable[..., Any])

RULE_FLAGS = [opt for opt in OPTIONS if opt.name != "decks"]
# The family game has no pair bonuses and no side bets: solve and play do not offer them.
BONUS_FLAGS = ("colon_match", "colon", "colon_nine", "bonus_on", "bank_bonus", "bank_colon",
               "bank_colon_nine", "banker_pays", "tie_pays")

SHOE_SECTION = "Profile and shoe"
RULES_SECTION = "Rule options (each replaces the profile's setting; see docs/rules.md)"


class ProbabilityType(click.ParamType):  # type: ignore[type-arg]
    """A probability between 0 and 1 as people type it (0.01, 1%, 1/100, 1e-2), read by
    :func:`odds.rules.numbers.parse_probability`; a float for the statistics."""

    name = "probability"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, float):  # the default
            return value
        try:
            return float(parse_probability(value, (param.name or "value") if param else "value"))
        except ValueError as exc:
            self.fail(shorten(str(exc)), param, ctx)


PROBABILITY = ProbabilityType()


class SectionOption(click.Option):
    """An option listed in --help under a heading of its own."""

    def __init__(self, *args: Any, section: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.section = section


class LazyHelpOption(click.Option):
    """An option whose help is written when help is shown: its text lists data that a
    run of the command without the option need not import (``--bet``'s built-in bets)."""

    def __init__(self, *args: Any, lazy_help: Callable[[], str], **kwargs: Any) -> None:
        self._lazy_help = lazy_help
        super().__init__(*args, **kwargs)

    @property
    def help(self) -> str:
        return self._lazy_help()

    @help.setter
    def help(self, value: str | None) -> None:
        pass  # click sets it in __init__: the text is made from lazy_help instead


class SectionedCommand(click.Command):
    """Help lists the command's own options first, then each section of shared options."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        sections: dict[str, list[tuple[str, str]]] = {"Options": []}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx) if isinstance(param, click.Option) else None
            if record is not None:
                sections.setdefault(getattr(param, "section", None) or "Options", []).append(record)
        for name, records in sections.items():
            if records:
                with formatter.section(name):
                    formatter.write_dl(records)


def command(name: str | None = None) -> Callable[[Callable[..., Any]], click.Command]:
    """A ``lucky9`` command: its help in sections."""
    return click.command(name, cls=SectionedCommand)


def rule_options(func: F) -> F:
    """--profile, --decks, --shoe and one flag per profile option."""
    return rule_options_without()(func)


def rule_options_without(*without: str) -> Callable[[F], F]:
    """:func:`rule_options` less the options named in ``without``."""

    def decorate(func: F) -> F:
        for opt in reversed(RULE_FLAGS):
            if opt.name in without:
                continue
            flag = "--" + opt.name.replace("_", "-")
            choice = click.Choice(opt.choices, case_sensitive=False) if opt.choices else None
            func = click.option(flag, opt.name, type=choice or str, default=None, cls=SectionOption,
                                section=RULES_SECTION, help=opt.help,
                                metavar=None if choice else "VALUE")(func)
        func = click.option("--forced-draw", is_flag=True, default=None, cls=SectionOption,
                            section=SHOE_SECTION,
                            help="every non-natural hand draws (the forced-draw variant)")(func)
        func = click.option("--shoe", "shoe", type=SHOE, default=None, cls=SectionOption,
                            section=SHOE_SECTION,
                            help="explicit shoe: 13 counts in A..K order, "
                                 "or RANK=COUNT for every rank")(func)
        if "decks" not in without:  # count takes a list of them (a study grid)
            func = click.option("--decks", "--packs", "decks", type=SHOE, default=None, metavar="D|inf",
                                cls=SectionOption, section=SHOE_SECTION,
                                help="number of 52-card packs, or inf (with replacement) "
                                     "[default: the profile's]")(func)
        if "profile" not in without:  # card takes several (one card each)
            func = click.option("--profile", "profile", type=PROFILE, default="standard",
                                show_default=True, cls=SectionOption, section=SHOE_SECTION,
                                help="built-in profile (see 'lucky9 profiles'; any case) "
                                     "or a .toml profile file")(func)
        return func

    return decorate


def resolve_rules(params: dict[str, Any]) -> tuple[Profile, Shoe]:
    """The profile with flag overrides applied, and the shoe to deal from.

    Pops the rule options from ``params``.
    """
    profile: Profile = params.pop("profile")
    if profile.session.max_bonus is not None and "max_bonus" not in params:
        _unapplied_cap(profile)
    overrides = {opt.name: params.pop(opt.name, None) for opt in RULE_FLAGS}
    forced = params.pop("forced_draw")
    if forced:
        overrides["forced_draw"] = True
    overrides = {k: v for k, v in overrides.items() if v is not None}
    if overrides:
        profile = profile.with_options(**overrides)
    decks: Shoe | None = params.pop("decks")
    shoe: Shoe | None = params.pop("shoe")
    if decks is not None and decks.packs is not None:
        # The shoe asked for is the profile's decks option from here on.
        profile = profile.with_options(decks=decks.packs)
    if decks is not None and shoe is not None:
        raise click.UsageError("give --decks or --shoe, not both")
    if shoe is None:
        if decks is not None and decks.packs is None and not decks.infinite:
            raise click.UsageError(
                "--decks takes a number of packs or inf; use --shoe for a composition")
        shoe = decks or Shoe.packs_of(profile.decks)
    return profile, shoe


MAX_BONUS_HELP = ("the most one bonus payment (Colon, Colon nine) pays a seat, in money: "
                  "the hand wins min(stake x multiplier, X), never less than a plain win "
                  "(stake x win) [default: the profile's max_bonus, else none]")


FEE_HELP = ("the house's fee: what every seat pays every round, whatever the result, in money "
            "[default: the profile's [session] fee, else none]")
COMMISSION_HELP = ("the house's commission: the share of a winning seat's win it keeps, e.g. "
                   "5% or 0.05, taken after every cap [default: the profile's [session] "
                   "commission, else none]")


def max_bonus_options(func: F) -> F:
    """--max-bonus X, --fee F, --commission C and --stake S: a cap per bonus payment and a
    fee in money, figures per unit at S."""
    func = click.option("--commission", default=None, metavar="C", cls=SectionOption,
                        section=RULES_SECTION, help=COMMISSION_HELP)(func)
    func = click.option("--fee", default=None, metavar="F", cls=SectionOption,
                        section=RULES_SECTION, help=FEE_HELP)(func)
    func = click.option("--stake", default=None, metavar="S", cls=SectionOption,
                        section=RULES_SECTION,
                        help="the stake the figures are per unit of; matters only with "
                             "--max-bonus or a fee [default: the profile's [session] "
                             "stakes, else 1]")(func)
    func = click.option("--max-bonus", default=None, metavar="X", cls=SectionOption,
                        section=RULES_SECTION, help=MAX_BONUS_HELP)(func)
    return func


def resolve_max_bonus(profile: Profile, params: dict[str, Any]) -> Profile:
    """The profile paid per unit at --stake under --max-bonus (the flag over the file's).

    Pops ``max_bonus``, ``stake``, ``fee`` and ``commission`` from ``params``.
    """
    profile = with_cut(profile, params.pop("fee", None), params.pop("commission", None))
    return capped_profile(profile, params.pop("max_bonus"), params.pop("stake"))


def parse_edge(raw: str) -> Fraction:
    """The bank's edge to keep, per unit staked: ``2%``, ``0.02`` or ``1/50`` (may be negative)."""
    text = raw.strip()
    negative = text.startswith("-")
    try:
        value = parse_commission(text[1:] if negative else text, "edge")
    except ProfileError as exc:
        raise click.BadParameter(str(exc).replace(" is not a share from 0 to less than 1",
                                                  " is not an edge between -1 and 1"),
                                 param_hint="--edge") from None
    return -value if negative else value


def with_cut(profile: Profile, raw_fee: str | None, raw_commission: str | None) -> Profile:
    """The profile with the house's cut given by flags (None: the profile's own)."""
    cut = {k: v for k, v in (("fee", raw_fee), ("commission", raw_commission)) if v is not None}
    if not cut:
        return profile
    return replace(profile, session=profile.session.with_options(**cut))


def resolve_rules_at_stake(params: dict[str, Any]) -> tuple[Profile, Shoe]:
    """:func:`resolve_rules`, then :func:`resolve_max_bonus`: per unit at --stake."""
    profile, shoe = resolve_rules(params)
    return resolve_max_bonus(profile, params), shoe


def capped_profile(profile: Profile, raw_cap: str | None, raw_stake: str | None) -> Profile:
    """The profile per unit at stake ``raw_stake`` (default 1) under ``raw_cap`` (None: the
    profile's own max_bonus), both as typed."""
    if raw_cap is not None:  # the flag over the file's ('none': no cap)
        profile = replace(profile, session=profile.session.with_options(max_bonus=raw_cap))
    stake = Fraction(1)
    if raw_stake is not None:
        stake = parse_stake(raw_stake, "stake")
        # The stake the figures of the house's cut are per unit of (the fee is money).
        profile = replace(profile, session=replace(profile.session, stakes=(stake,)))
    return profile.at_stake(stake)


def _unapplied_cap(profile: Profile) -> None:
    """Say once that this command pays bonuses in full whatever the file's max_bonus."""
    ctx = click.get_current_context(silent=True)
    said = ctx.meta.setdefault("odds.max_bonus_said", set()) if ctx is not None else set()
    if profile.key not in said:
        said.add(profile.key)
        note(f"note: profile {profile.key!r} caps a bonus at max_bonus "
             f"{profile.session.max_bonus}; this command pays bonuses in full (odds, par, "
             "card, tables and bank apply the cap)")


def known_cards(func: F) -> F:
    """--player, --bank, --removed as for ``lucky9 odds``."""
    func = click.option("--removed", type=CARDS, default=None,
                        help="cards seen or burned, no longer in the shoe")(func)
    func = click.option("--bank", type=CARDS, default=None,
                        help="the bank's known cards (0-3)")(func)
    func = click.option("--player", type=CARDS, default=None,
                        help="the player's known cards in deal order (0-3), e.g. '8h 7s'")(func)
    return func


INFORMATION = click.option(
    "--information", type=click.Choice(["cards", "totals"]), default="cards",
    show_default=True,
    help="cards: each side knows its own two cards; totals: only its two-card value")


def family_default(command: click.Command) -> click.Command:
    """Make --profile default to family (the rules where people choose)."""
    for param in command.params:
        if param.name == "profile":
            param.default = "family"
    return command
