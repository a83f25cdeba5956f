"""The table card: one printed page for players, in large type.

The house's rules in words, what each bet pays, and each bet's house edge in
percent (no fractions), for one profile at its own number of packs.  The
edges are those of ``lucky9 odds --bet NAME`` (:func:`odds.exact.bets.bet_odds`); the
bets are the ones the table takes as stakes (:func:`odds.rules.bet_library.table_bets`):
a Lucky 9 card shows the seat bet, its Colon bonus in its pay lines.
"""

from __future__ import annotations

import html
import re
from fractions import Fraction

from odds._version import __version__
from odds.exact.bets import bet_odds
from odds.report.par import line_names, pays_text
from odds.report.sheet import html_head
from odds.rules.bet_library import table_bets
from odds.rules.bet_types import Bet
from odds.rules.house_cut import share_text
from odds.rules.profile import Profile
from odds.rules.rule_types import Naturals
from odds.rules.shoe import Shoe
from odds.rules.text import decimal, ties_text

_FRACTION = re.compile(r"(\d+)/(\d+)")
_TO = r"\1 to \2"

__all__ = ["card", "card_edges", "edge_words", "rules_in_words"]

_CSS = """
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font: 13pt/1.28 "DejaVu Sans", Arial, sans-serif; color: #000; margin: 0; }
h1 { font-size: 26pt; margin: 0 0 1mm; }
.sub { font-size: 12pt; margin: 0 0 4mm; color: #333; }
h2 { font-size: 16pt; margin: 4mm 0 1.5mm; border-bottom: 0.5mm solid #000; }
ul { margin: 0; padding-left: 7mm; }
li { margin: 0.8mm 0; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: 1mm 2mm; border-bottom: 0.3mm solid #777; vertical-align: top;
         text-align: left; }
td.edge, th.edge { text-align: right; white-space: nowrap; }
td.bet { font-weight: bold; white-space: nowrap; }
td.pays { font-size: 11.5pt; }
.foot { font-size: 10pt; color: #333; margin-top: 4mm; }
@media screen { body { max-width: 182mm; margin: 10mm auto; } }
""".strip()


def _span(values: frozenset[int]) -> str:
    ordered = sorted(values)
    if ordered and ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 2:
        return f"{ordered[0]} to {ordered[-1]}"
    return ", ".join(map(str, ordered[:-1])) + f" or {ordered[-1]}" if len(ordered) > 1 \
        else str(ordered[0]) if ordered else "never"


def _pay(value: Fraction) -> str:
    return f"{value.numerator} to {value.denominator}"


def rules_in_words(profile: Profile) -> list[str]:
    """The rules of a fixed-rule profile as short sentences for players.

    >>> from odds.rules.profiles import BUILTIN
    >>> rules_in_words(BUILTIN["standard"])[2]
    'A natural beats any other hand, even one that drew; a natural 9 beats a natural 8.'
    """
    if not profile.fixed:
        raise ValueError(f"profile {profile.key!r} has no fixed rule (its players and bank "
                         "choose): a table card is for a fixed-rule profile")
    assert profile.player_draw is not None and profile.bank_draw is not None
    packs = f"{profile.decks} pack{'s' if profile.decks > 1 else ''} of 52 cards"
    out = [f"Played with {packs}. Ace counts 1, 2 to 9 their face value, 10, J, Q and K "
           "nothing; a hand counts the last digit of its total (8 + 7 = 5).",
           f"A hand whose first two cards count {_span(profile.naturals)} is a natural."]
    if profile.naturals_rule is Naturals.OUTRIGHT:
        out.append("A natural beats any other hand, even one that drew; a natural 9 beats a "
                   "natural 8.")
    else:
        out.append("A natural is compared with the other hand's final count like any hand.")
    if profile.naturals_stop_draws:
        out.append("When either hand is a natural, nobody draws.")
    out.append(f"The player draws one card on {_span(profile.player_draw.draws)}, and stands "
               "otherwise.")
    if profile.bank_draw.tableau is None:
        same = profile.bank_draw.draws == profile.player_draw.draws
        out.append(f"The bank draws one card on {_span(profile.bank_draw.draws)}"
                   + (", the same rule." if same else "."))
    else:
        out.append(f"The bank draws on {_span(profile.bank_draw.draws)} when the player "
                   "stood; when the player drew, by the third-card table at the table.")
    out.append("The higher count wins; equal counts push (stakes returned)." if profile.ties == 0
               else f"The higher count wins; on equal counts, {ties_text(profile)}.")
    if profile.bonuses:
        colon, nine = profile.colon, profile.colon_nine  # as posted; a max_bonus below
        pair = "rank" if profile.colon_match.value == "rank" else "count (10 to K together)"
        when = "whatever the result" if profile.bonus_on.value == "always" else "when it wins"
        parts = []
        if colon is not None:
            parts.append(f"a Colon (first two cards a pair by {pair}) pays {_pay(colon)}")
        if nine is not None:
            parts.append(f"a pair of nines pays {_pay(nine)}")
        out.append("Bonus on the player's hand, " + when + ": " + "; ".join(parts) + ".")
        if profile.bonus_limit is not None:
            cap = profile.bonus_limit.max_bonus
            out.append(f"A bonus pays at most {_money(cap)} in all, never less than a plain "
                       f"win; the edges below are for a stake of "
                       f"{_money(profile.bonus_limit.stake)}, where it "
                       f"{'binds' if profile.bonus_binds else 'never binds'}.")
    if profile.bank_bonus:
        colon, nine = profile.bank_multiplier(False), profile.bank_multiplier(True)
        out.append("The bank's own winning Colon collects "
                   + (_pay(colon) if colon is not None else "its stake")
                   + (f", a pair of nines {_pay(nine)}" if nine is not None else "") + ".")
    return out


def _money(value: Fraction) -> str:
    return f"{value.numerator:,}" if value.denominator == 1 else str(value)


def _pays(bet: Bet) -> str:
    lines = []
    for e, name in zip(bet.entries, line_names(bet), strict=False):
        if e.pays == 0:  # a push line: its name says so, or it says push
            lines.append(name if "push" in name else f"{name}: push")
        else:
            lines.append(f"{name}: {pays_text(e.pays)}")
    if bet.otherwise != -1:
        lines.append(f"otherwise: {pays_text(bet.otherwise)}")
    return "; ".join(lines)


def card_edges(profile: Profile, shoe: Shoe | None = None) -> dict[str, Fraction]:
    """The house edge (minus the EV) of each bet the table takes, at the profile's own packs
    (or on ``shoe``).

    >>> from odds.rules.profiles import BUILTIN
    >>> edges = card_edges(BUILTIN["ez-baccarat"])
    >>> edge_words(edges["dragon-7"]), edge_words(card_edges(BUILTIN["standard"])["player"])
    ('7.61%', '2.73% to the players')
    """
    shoe = Shoe.packs_of(profile.decks) if shoe is None else shoe
    results = bet_odds(profile, shoe, list(table_bets(profile).values()))
    return {name: -odds.expected_value for name, odds in results.items()}


def cut_edges(profile: Profile, shoe: Shoe | None = None) -> list[tuple[str, Fraction]]:
    """The seat bet's house edge after the house's cut, at each stake (none without a cut).

    The same figures as ``lucky9 odds`` prints after the cut.
    """
    if not profile.session.has_cut:
        return []
    from odds.exact.engine import round_odds
    from odds.money.seat_cut import seat_cuts

    result = round_odds(profile, Shoe.packs_of(profile.decks) if shoe is None else shoe)
    return [(_money(c.stake), c.bank_edge) for c in seat_cuts(result)]


def _cut_words(profile: Profile) -> str | None:
    fee, commission = profile.session.fee, profile.session.commission
    parts = []
    if fee:
        parts.append(f"a fee of {_money(fee)} from every seat every round, whatever the result")
    if commission:
        parts.append(f"{share_text(commission)} of every winning seat's win")
    return ("The house takes " + ", and ".join(parts) + ".") if parts else None


def edge_words(edge: Fraction) -> str:
    """A house edge in percent, 2 places, no fraction; a negative edge favours the players."""
    text = decimal(abs(edge) * 100, 2) + "%"
    return text if edge >= 0 else f"{text} to the players"


def card(profile: Profile, shoe: Shoe | None = None) -> str:
    """The table card of a profile as print-ready HTML (one A4 page, large type).

    >>> from odds.rules.profiles import BUILTIN
    >>> page = card(BUILTIN["ez-baccarat"])
    >>> body = page.split("<body>")[1].replace("</", "<")
    >>> "dragon-7" in body, "7.61%" in body, "/" in body  # no fractions
    (True, True, False)
    """
    e = html.escape
    rules = rules_in_words(profile)
    cut = _cut_words(profile)
    if cut is not None:
        rules.append(cut)
    bets = table_bets(profile)
    edges = card_edges(profile, shoe)
    out = [*html_head(f"{profile.key} table card", _CSS), "<body>",
           f"<h1>{e(profile.key)}</h1>",
           # The house's own title; a pay in it reads as players say it (19/20: 19 to 20).
           f'<p class="sub">{e(_FRACTION.sub(_TO, profile.title))}</p>',
           "<h2>The rules of the house</h2>", "<ul>"]
    out += [f"<li>{e(line)}</li>" for line in rules]
    out += ["</ul>", "<h2>The bets</h2>",
            '<table><tr><th>bet</th><th>pays</th><th class="edge">house edge</th></tr>']
    for name, bet in bets.items():
        out.append(f'<tr><td class="bet">{e(name)}</td><td class="pays">{e(_pays(bet))}</td>'
                   f'<td class="edge">{e(edge_words(edges[name]))}</td></tr>')
    for stake, edge in cut_edges(profile, shoe):
        out.append(f'<tr><td class="bet">player</td><td class="pays">after the house\'s cut, '
                   f'at a stake of {e(stake)}</td><td class="edge">{e(edge_words(edge))}</td></tr>')
    where = (f"{profile.decks} pack{'s' if profile.decks > 1 else ''}" if shoe is None
             or shoe.packs == profile.decks else shoe.label)
    out += ["</table>",
            f'<p class="foot">A bet not paid by its lines loses the stake. House edge: the '
            f"share of every stake the house keeps in the long run, exact for "
            f"{e(where)}, rounded to 0.01%. "
            f"Made by lucky9-odds {e(__version__)}.</p>", "</body>", "</html>"]
    return "\n".join(out) + "\n"
