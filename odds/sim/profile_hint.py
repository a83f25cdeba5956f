"""Which built-in profile a round log keeps, when it breaks the one it was read under.

A log without a header is read as ``standard``; a punto-banco log read so
breaks the bank's draws, the results and the payouts on row after row.  The
first rows of the log are audited under every built-in profile with a fixed
draw rule (cheap: a few thousand rows each), and the ones that keep every
rule are named, so the report can ask: is this a different profile?
"""

from __future__ import annotations

from collections.abc import Mapping

from odds.rules.profile import Profile
from odds.rules.profiles import BUILTIN
from odds.sim.audit import Reference, audit, side_bet
from odds.sim.logs import Log
from odds.sim.tallies import OUTCOMES

__all__ = ["SAMPLE_ROWS", "fitting_profiles", "profile_hint"]

SAMPLE_ROWS = 5000  # rows of the log audited under each other profile
# Rule breaks that another profile's rules cannot mend: the cards themselves.
CARD_RULES = ("cards", "hand size")


def fitting_profiles(sample: Log, current: Profile, seats: int,
                     profiles: Mapping[str, Profile] = BUILTIN) -> list[str]:
    """The built-in profiles (other than ``current``) under which every row of
    ``sample`` keeps every rule the audit checks.

    >>> from odds.sim.logs import parse_log
    >>> rows = ["round,seat,player,bank,result,payout", "1,1,Kc 4d 6h,3s 3d 2c,loss,-1"]
    >>> fitting_profiles(parse_log(rows, 1, "t"), BUILTIN["standard"], 1)
    ['forced-draw', 'punto-banco', 'ez-baccarat']
    """
    found = []
    for key, profile in profiles.items():
        if key == current.key or not profile.fixed:
            continue  # where players choose, nearly any row is legal: no evidence
        if seats > 1 and ((profile.bank_draw is not None and profile.bank_draw.tableau
                           is not None) or profile.naturals_stop_draws):
            continue  # defined for one player hand
        ref = Reference.of(profile)
        if any(r not in ref.names and r not in OUTCOMES for r in sample.results):
            continue
        try:
            for bet in sample.bets:
                side_bet(profile, bet)
        except ValueError:
            continue  # a bet column this profile lacks
        audited = audit(sample, ref)
        if not any(count for rule, count in audited.counts.items() if rule not in CARD_RULES):
            found.append(key)
    return found


def profile_hint(sample: Log | None, current: Profile, seats: int,
                 counts: Mapping[str, int], profile_given: bool) -> str:
    """The report's question when the log fits another built-in profile better, or ''.

    Asked only when no profile was given (no header, no flag) and a rule other
    than the cards' is broken.
    """
    if sample is None or profile_given:
        return ""
    if not any(count for rule, count in counts.items() if rule not in CARD_RULES):
        return ""
    fits = fitting_profiles(sample, current, seats)
    if not fits:
        return ""
    rows = len(sample.line)
    others = "".join(f" (or --profile {key})" for key in fits[1:])
    return (f"is this a different profile? The file names none, so it was read as "
            f"{current.key}; its first {rows:,} row{'s' if rows != 1 else ''} keep every rule "
            f"of {fits[0]}: --profile {fits[0]}{others}")
