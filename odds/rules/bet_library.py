"""The built-in bet library, the bets each profile offers, and bets by name.

:data:`BETS` holds the casino bets (punto-banco's, EZ Baccarat's, the pair
and Dragon Bonus side bets, Lucky 9's Colon bets), each with the source of
its pay table; :func:`main_bet` writes a Lucky 9 seat's own bet from the
profile's pay table; :func:`offered_bets` lists every bet of a profile (``--bet all``),
:func:`table_bets` the ones its table takes as stakes (the table card's), and
:func:`resolve_bets` finds bets by name, checked against the profile.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from odds.rules.bet_files import check_bet, condition_from_data
from odds.rules.bet_types import Bet, Condition, Entry
from odds.rules.errors import BetError
from odds.rules.profile import Profile
from odds.rules.rule_types import BonusOn
from odds.rules.settle import Pay, amount
from odds.rules.text import ties_text

__all__ = ["BETS", "NOT_STAKED", "PROFILE_BETS", "bet_names", "main_bet", "offered_bets",
           "resolve_bets", "table_bets"]


def _c(**events: Any) -> Condition:
    return condition_from_data(events, "built-in")


def _e(pays: Fraction | int, label: str, **events: Any) -> Entry:
    return Entry(_c(**events), Fraction(pays), label)


def _dragon_bonus(side: str) -> Bet:
    # Wizard of Odds, Baccarat Side Bets (wizardofodds.com/games/baccarat/appendix/5/):
    # natural win 1, natural tie push, non-natural win by 9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1.
    nat = f"{side}_natural"
    entries = [
        _e(1, "natural win", winner=side, **{nat: True}),
        _e(0, "natural tie (push)", winner="tie", player_natural=True, banker_natural=True),
    ]
    for margin, pays in ((9, 30), (8, 10), (7, 6), (6, 4), (5, 2), (4, 1)):
        entries.append(_e(pays, f"win by {margin}", winner=side, margin=margin))
    return Bet(
        f"dragon-bonus-{side}",
        f"Dragon Bonus on the {side}: a natural win pays 1:1 (natural tie pushes), a "
        "non-natural win by 9 pays 30:1, 8 10:1, 7 6:1, 6 4:1, 5 2:1, 4 1:1 (pay table: "
        "Wizard of Odds, Baccarat Side Bets)",
        side, tuple(entries),
    )


BETS: dict[str, Bet] = {
    bet.name: bet
    for bet in (
        Bet("player", "even money on the player hand, a tie pushes (punto-banco; "
            "Lucky 9 profiles: use the seat bet of 'lucky9 odds')",
            "player", (_e(1, "player wins", winner="player"), _e(0, "tie (push)", winner="tie"))),
        Bet("banker", "the banker hand at 19:20 (5% commission), a tie pushes "
            "(standard punto-banco table)",
            "banker", (_e(Fraction(19, 20), "banker wins", winner="banker"),
                       _e(0, "tie (push)", winner="tie"))),
        Bet("tie", "a tie pays 8:1 (standard punto-banco table)", "tie",
            (_e(8, "tie", winner="tie"),)),
        Bet("player-pair", "the player's first two cards are a pair by rank, 11:1 "
            "(Wizard of Odds, baccarat pair bets; E. Jacobson, The Pairs bet)",
            "player", (_e(11, "player pair", player_pair="rank"),)),
        Bet("banker-pair", "the banker's first two cards are a pair by rank, 11:1 "
            "(Wizard of Odds, baccarat pair bets; E. Jacobson, The Pairs bet)",
            "banker", (_e(11, "banker pair", banker_pair="rank"),)),
        Bet("either-pair", "either hand's first two cards are a pair by rank, 5:1 "
            "(Wizard of Odds, Baccarat Side Bets: Either Pair)",
            "either", (_e(5, "player pair", player_pair="rank"),
                       _e(5, "banker pair", banker_pair="rank"))),
        Bet("perfect-pair", "a suited pair (same rank and suit) in either hand's first two "
            "cards 25:1, in both 250:1 (Wizard of Odds, Perfect Pairs version 2, the "
            "Evolution Gaming pay table)",
            "either", (_e(250, "both perfect pairs", player_pair="suited", banker_pair="suited"),
                       _e(25, "player perfect pair", player_pair="suited"),
                       _e(25, "banker perfect pair", banker_pair="suited"))),
        _dragon_bonus("player"),
        _dragon_bonus("banker"),
        Bet("dragon-7", "the banker wins with a three-card 7, 40:1 (EZ Baccarat; Wizard of "
            "Odds, EZ Baccarat)",
            "banker", (_e(40, "banker wins with a 3-card 7", winner="banker",
                          banker_final=7, banker_cards=3),)),
        Bet("panda-8", "the player wins with a three-card 8, 25:1 (EZ Baccarat; Wizard of "
            "Odds, EZ Baccarat)",
            "player", (_e(25, "player wins with a 3-card 8", winner="player",
                          player_final=8, player_cards=3),)),
        Bet("ez-banker", "the banker at even money, no commission, but a banker win with a "
            "three-card 7 pushes; a tie pushes (EZ Baccarat; Wizard of Odds, EZ Baccarat)",
            "banker", (_e(0, "banker wins, 3-card 7 (push)", winner="banker",
                          banker_final=7, banker_cards=3),
                       _e(1, "banker wins", winner="banker"),
                       _e(0, "tie (push)", winner="tie"))),
        Bet("lucky-6", "the banker wins with a 6: 12:1 with two cards, 20:1 with three "
            "(punto-banco's Lucky 6, the Macau pay table; Wizard of Odds, Lucky 6)",
            "banker", (_e(12, "banker wins with a 2-card 6", winner="banker", banker_final=6,
                          banker_cards=2),
                       _e(20, "banker wins with a 3-card 6", winner="banker", banker_final=6,
                          banker_cards=3))),
        Bet("colon", "Lucky 9: the player's first two cards are a Colon (as the profile's "
            "colon_match says; a pair of nines too), paid 2:1 as a separate stake, whatever "
            "the round (the default Colon multiplier, docs/rules.md#colon-and-colon-nine)",
            "player", (_e(2, "player Colon", player_pair="colon"),)),
        Bet("colon-nine", "Lucky 9: the player's first two cards are a pair of nines, paid "
            "3:1 as a separate stake (the default Colon nine multiplier, "
            "docs/rules.md#colon-and-colon-nine)",
            "player", (_e(3, "player Colon nine", player_pair="9"),)),
    )
}

def bet_names() -> tuple[str, ...]:
    """The built-in bets' names in the order every list of them is printed: by name.

    A new entry of :data:`BETS` takes its place without moving the others.
    ``lucky9 odds --help`` and the unknown-bet error print it; a test checks the
    documentation's lists against it.

    >>> bet_names()[:4]
    ('banker', 'banker-pair', 'colon', 'colon-nine')
    """
    return tuple(sorted(BETS))


# The bets each built-in profile offers; other profiles offer the seat bet only.
PROFILE_BETS: dict[str, tuple[str, ...]] = {
    "punto-banco": ("player", "banker", "tie", "player-pair", "banker-pair", "either-pair",
                    "perfect-pair", "dragon-bonus-player", "dragon-bonus-banker"),
    "ez-baccarat": ("player", "ez-banker", "tie", "dragon-7", "panda-8"),
    "standard": ("player", "colon", "colon-nine"),
    "forced-draw": ("player", "colon", "colon-nine"),
    "super9": ("player", "colon", "colon-nine"),
    "plain": ("player",),
}

# Bets of a profile that its table does not take as stakes: Lucky 9's Colon is a bonus on
# the seat bet, and the colon bets price it as a separate stake for study (``--bet all``,
# ``count``, ``shoe``), not a stake a Lucky 9 table offers.
NOT_STAKED: dict[str, tuple[str, ...]] = {
    key: ("colon", "colon-nine") for key in ("standard", "forced-draw", "super9")}


def main_bet(profile: Profile) -> Bet:
    """The seat's own bet under a Lucky 9 profile's pay table, as data.

    A winning Colon is paid its multiplier (a Colon nine its own), or
    whatever the comparison with ``bonus_on = always``; with ``bank_bonus``
    a bank Colon that wins collects its multiplier.  The same payouts as
    :meth:`odds.exact.results.RoundOdds.payout_distribution` for ``player``.

    >>> from odds.rules.profiles import BUILTIN
    >>> [(e.label, e.pays) for e in main_bet(BUILTIN["standard"]).entries][:2]
    [('player Colon nine', Fraction(3, 1)), ('player Colon', Fraction(2, 1))]
    """
    # Every amount is the pay line's amount in odds.rules.settle, the one place it is written.
    entries: list[Entry] = []
    when = {} if profile.bonus_on is BonusOn.ALWAYS else {"winner": "player"}
    if profile.player_multiplier(True) is not None:
        entries.append(_e(amount(profile, Pay.COLON_NINE), "player Colon nine", player_pair="9",
                          **when))
    if profile.player_multiplier(False) is not None:
        entries.append(_e(amount(profile, Pay.COLON), "player Colon", player_pair="colon", **when))
    entries.append(_e(amount(profile, Pay.WIN), "player wins", winner="player"))
    tie = amount(profile, Pay.PUSH)
    entries.append(_e(tie, "push" if tie == 0 else "tie", winner="tie"))
    if profile.bank_multiplier(True) is not None:
        entries.append(_e(amount(profile, Pay.BANK_COLON_NINE), "bank Colon nine wins",
                          winner="banker", banker_pair="9"))
    if profile.bank_multiplier(False) is not None:
        entries.append(_e(amount(profile, Pay.BANK_COLON), "bank Colon wins", winner="banker",
                          banker_pair="colon"))
    bonus_text = ", with the profile's Colon bonuses (docs/rules.md)" if profile.bonuses else ""
    return Bet("player", f"the player seat at the profile's pay table: a win pays "
               f"{profile.win.numerator}:{profile.win.denominator}, {ties_text(profile)}{bonus_text}",
               "player", tuple(entries), amount(profile, Pay.LOSS))


def offered_bets(profile: Profile) -> dict[str, Bet]:
    """The bets a profile offers, by name, in table order.

    Lucky 9 profiles offer the seat bet (``player``, with the profile's
    Colon pay table) and the Colon side bets; punto-banco and ez-baccarat
    their casino bets; a profile file adds its own ``[bet.NAME]`` tables.
    :func:`odds.rules.bets.profile_bets` is the same for a profile given by
    name or file.

    >>> from odds.rules.profiles import BUILTIN
    >>> list(offered_bets(BUILTIN["ez-baccarat"]))
    ['player', 'ez-banker', 'tie', 'dragon-7', 'panda-8']
    """
    names = profile.bets if profile.bets else PROFILE_BETS.get(
        profile.base or profile.key, PROFILE_BETS.get(profile.key, ("player",)))
    defined = {bet.name: bet for bet in profile.bet_defs}
    out = {}
    for name in names:
        out[name] = _lookup(profile, name, defined)
    for name, bet in defined.items():
        out.setdefault(name, bet)
    return out


def table_bets(profile: Profile) -> dict[str, Bet]:
    """The bets a player can stake at the profile's table, by name, in table order.

    The profile's bets (:func:`offered_bets`) less the ones its table does not
    take as stakes: a Lucky 9 table takes the seat bet, its Colon a bonus on it,
    not the ``colon`` bets the calculator studies.  A profile file that lists
    its ``bets`` offers exactly those.

    >>> from odds.rules.profiles import BUILTIN
    >>> list(table_bets(BUILTIN["standard"])), list(table_bets(BUILTIN["ez-baccarat"]))
    (['player'], ['player', 'ez-banker', 'tie', 'dragon-7', 'panda-8'])
    """
    bets = offered_bets(profile)
    if profile.bets:
        return bets
    left_out = NOT_STAKED.get(profile.base or profile.key, NOT_STAKED.get(profile.key, ()))
    return {name: bet for name, bet in bets.items() if name not in left_out}


def _lookup(profile: Profile, name: str, defined: Mapping[str, Bet]) -> Bet:
    if name in defined:
        return defined[name]
    if name == "player":
        # The player bet is the seat's own: the profile's win and Colon entries.
        return main_bet(profile)
    bet = BETS.get(name)
    if bet is None:
        raise BetError(
            f"unknown bet {name!r} (built-in: {', '.join(bet_names())}; profile {profile.key!r} "
            f"defines {', '.join(defined) or 'none'}; or 'all')"
        )
    if name == "banker" and profile.banker_pays is not None:
        bet = _with_pay(bet, 0, profile.banker_pays)
    if name == "tie" and profile.tie_pays is not None:
        bet = _with_pay(bet, 0, profile.tie_pays)
    return bet


def _with_pay(bet: Bet, index: int, pays: Fraction) -> Bet:
    entries = list(bet.entries)
    entries[index] = Entry(entries[index].condition, pays, entries[index].label)
    return Bet(bet.name, bet.description, bet.side, tuple(entries), bet.otherwise, bet.source)


def resolve_bets(profile: Profile, names: Iterable[str | Bet]) -> list[Bet]:
    """Bets by name (``all``: every bet of the profile), checked against the profile.

    Any built-in bet may be named, offered by the profile or not.

    >>> from odds.rules.profiles import BUILTIN
    >>> [b.name for b in resolve_bets(BUILTIN["punto-banco"], ["tie", "dragon-7"])]
    ['tie', 'dragon-7']
    >>> resolve_bets(BUILTIN["punto-banco"], ["dragon-8"])
    Traceback (most recent call last):
    ...
    odds.rules.errors.BetError: unknown bet 'dragon-8' (built-in: banker, banker-pair, ...; or 'all')
    """
    offered = offered_bets(profile)
    defined = {bet.name: bet for bet in profile.bet_defs}
    out: dict[str, Bet] = {}
    for item in names:
        if isinstance(item, Bet):
            out[item.name] = item
            continue
        name = item.strip().lower()
        if name == "all":
            out.update(offered)
            continue
        out[name] = offered[name] if name in offered else _lookup(profile, name, defined)
    for bet in out.values():
        check_bet(bet, profile)
    return list(out.values())
