"""Simulation tallies and run headers: the files ``simulate`` writes and ``verify`` reads.

A *tally* counts, for one player seat, how a number of rounds ended: by
outcome category, by two-card and final value, Colon pairs, draws and net
payout.  A *run header* says which rules, shoe and seats produced them, so a
file carries everything needed to judge it.  Formats (documented in
docs/simulate-and-verify.md):

* tallies JSON: ``{"format": "lucky9-tallies/1", <header>, "tallies": [...]}``
* tallies CSV: ``# key: value`` header lines, then ``seat,quantity,key,count``
* round log CSV: ``# key: value`` header lines, then
  ``round,seat,player,bank,result,payout`` (read by :mod:`odds.sim.verify`)

This module needs no numpy: it is shared by the simulator and the verifier.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from odds.io.textio import (
    check_lines,
    check_nesting,
    check_numbers,
    excerpt,
    load_json,
    strip_bom,
)
from odds.rules.errors import ProfileError
from odds.rules.profile import Profile
from odds.rules.profiles import BUILTIN
from odds.rules.shoe import Shoe, parse_shoe

__all__ = [
    "LOG_COLUMNS",
    "MAX_CARDS",
    "RESHUFFLES",
    "TALLY_COLUMNS",
    "RunHeader",
    "TallyError",
    "Tally",
    "category_names",
    "header_from_data",
    "read_tallies",
    "shoe_spec",
    "tallies_csv",
    "tallies_json",
]

TALLIES_FORMAT = "lucky9-tallies/1"
LOG_FORMAT = "lucky9-log/1"
RESHUFFLES = ("round", "cut")
LOG_COLUMNS = ("round", "seat", "player", "bank", "result", "payout")
TALLY_COLUMNS = ("seat", "quantity", "key", "count")
VECTORS = ("player_value", "bank_value", "player_final", "bank_final")
SCALARS = (
    "player_colon", "player_colon_nine", "bank_colon", "bank_colon_nine",
    "player_draws", "bank_draws",
)
OUTCOMES = ("win", "push", "loss")


class TallyError(ValueError):
    """A tallies file or round log that cannot be read as documented."""


def category_names(profile: Profile) -> tuple[str, ...]:
    """Every category name a round can end in under ``profile``, in report order.

    >>> from odds.rules.profiles import BUILTIN
    >>> category_names(BUILTIN["standard"])[:3]
    ('win_natural_9', 'win_natural_8', 'win_comparison')
    """
    nats = sorted(profile.naturals, reverse=True)
    return (
        *(f"win_natural_{v}" for v in nats), "win_comparison",
        "push_natural", "push_comparison",
        *(f"loss_natural_{v}" for v in nats), "loss_comparison",
    )


def shoe_spec(shoe: Shoe) -> str:
    """The shoe as text that :func:`odds.rules.shoe.parse_shoe` reads back.

    >>> shoe_spec(Shoe.packs_of(8)), shoe_spec(Shoe.infinite_shoe())
    ('8', 'inf')
    """
    if shoe.infinite:
        return "inf"
    if shoe.packs is not None and shoe.counts == (4 * shoe.packs,) * 13:
        return str(shoe.packs)
    return ",".join(map(str, shoe.counts))


@dataclass(frozen=True)
class RunHeader:
    """Rules, shoe and table of a simulation run (what a file's header says).

    >>> from odds.rules.profiles import BUILTIN
    >>> h = RunHeader(BUILTIN["plain"], Shoe.packs_of(2))
    >>> header_from_data(h.as_data(), "x").profile == BUILTIN["plain"]
    True
    """

    profile: Profile
    shoe: Shoe
    seats: int = 1
    reshuffle: str = "round"
    penetration: float | None = None
    seed: int | None = None

    def as_data(self) -> dict[str, Any]:
        """JSON-ready header fields."""
        p = self.profile
        return {
            "profile": p.key,
            "base": p.base,
            "options": p.options(),
            "shoe": shoe_spec(self.shoe),
            "seats": self.seats,
            "reshuffle": self.reshuffle,
            "penetration": self.penetration,
            "seed": self.seed,
        }

    def comment_lines(self, kind: str) -> list[str]:
        """``# key: value`` lines for the top of a CSV file."""
        lines = [f"# {kind}"]
        for key, value in self.as_data().items():
            if value is None:
                continue
            text = json.dumps(value) if isinstance(value, dict) else str(value)
            lines.append(f"# {key}: {text}")
        return lines


# The largest finite shoe a simulator's run may state (20,000 packs): the simulator
# deals from at most this many cards, and the verifier counts a shoe's cards in
# 64-bit integers.
MAX_CARDS = 1_040_000


def header_from_data(data: Mapping[str, Any], where: str) -> RunHeader:
    """A :class:`RunHeader` from file fields; errors name the file and field.

    >>> header_from_data({"profile": "plain", "shoe": "inf", "seats": "3"}, "f").seats
    3
    >>> header_from_data({"profile": "plain", "seats": 9}, "f")
    Traceback (most recent call last):
    ...
    odds.sim.tallies.TallyError: f: seats must be 1 to 8, not 9
    """
    key = data.get("profile", "standard")
    base = data.get("base")
    if not isinstance(key, str):
        raise TallyError(f"{where}: profile must be a profile key, not {excerpt(key)}")
    start = key if key in BUILTIN else base if isinstance(base, str) and base in BUILTIN else None
    if start is None:
        raise TallyError(
            f"{where}: profile {key!r} is not built in and names no built-in base "
            f"({', '.join(BUILTIN)})"
        )
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise TallyError(f"{where}: options must be a table of profile options, not {excerpt(options)}")
    try:
        profile = BUILTIN[start].with_options(**options)
        if key != start and re.fullmatch(r"[a-z0-9][a-z0-9_-]*", key):
            from dataclasses import replace

            profile = replace(profile, key=key, base=start, source=where)
    except ProfileError as exc:
        raise TallyError(f"{where}: {exc}") from None
    raw_shoe = data.get("shoe", profile.decks)
    if isinstance(raw_shoe, bool) or not isinstance(raw_shoe, str | int):
        raise TallyError(f"{where}: shoe: {excerpt(raw_shoe)} is not a shoe (give a number of "
                         "packs, 'inf', or 13 counts in A..K order)")
    try:
        shoe = parse_shoe(str(raw_shoe))
    except ValueError as exc:
        raise TallyError(f"{where}: shoe: {exc}") from None
    if not shoe.infinite and shoe.size > MAX_CARDS:
        raise TallyError(f"{where}: shoe: a dealt shoe holds at most {MAX_CARDS:,} cards "
                         f"({MAX_CARDS // 52:,} packs), not {shoe.size:,}; a larger one deals "
                         "like the infinite shoe ('inf')")
    seats = _whole(data.get("seats", 1), f"{where}: seats")
    if not 1 <= seats <= 8:
        raise TallyError(f"{where}: seats must be 1 to 8, not {seats}")
    reshuffle = data.get("reshuffle", "round")
    if reshuffle not in RESHUFFLES:
        raise TallyError(f"{where}: reshuffle must be round or cut, not {excerpt(reshuffle)}")
    pen = data.get("penetration")
    penetration = None
    if pen is not None:
        try:
            penetration = float(pen) if not isinstance(pen, bool) else math.nan
        except (TypeError, ValueError):
            penetration = math.nan
        if not 0 < penetration <= 1:  # nan and inf included
            raise TallyError(f"{where}: penetration {excerpt(pen)} is not a number from 0 "
                             "to 1 (the share of the shoe dealt before the cut card)")
    seed = data.get("seed")
    return RunHeader(
        profile, shoe, seats, str(reshuffle), penetration,
        None if seed is None else _whole(seed, f"{where}: seed"),
    )


def _whole(raw: Any, where: str) -> int:
    # ASCII digits, below 2^64 (a seed's range; 10^18 rounds is beyond any run),
    # so the statistics' floats never overflow.
    if isinstance(raw, bool):
        raise TallyError(f"{where}: {excerpt(raw)} is not a whole number")
    if isinstance(raw, str) and re.fullmatch(r"\s*-?[0-9]{1,20}\s*", raw):
        raw = int(raw)
    if isinstance(raw, int) and abs(raw) < 1 << 64:
        return raw
    if isinstance(raw, int) or (isinstance(raw, str) and re.fullmatch(r"\s*-?[0-9]+\s*", raw)):
        raise TallyError(f"{where}: {excerpt(str(raw), 20)} is too large (below 2^64)")
    raise TallyError(f"{where}: {excerpt(raw)} is not a whole number")


def _count(raw: Any, where: str) -> int:
    """A count: a whole number 0 or more (JSON integer, or digits in CSV)."""
    value = _whole(raw, where)
    if value < 0:
        raise TallyError(f"{where}: count {value} is negative (counts are 0 or more)")
    return value


@dataclass
class Tally:
    """Counts of rounds for one player seat; fields a file leaves out are None.

    ``categories`` is keyed by category name (``win_natural_9`` ...) or, for
    a simulator that only reports outcomes, by ``win`` / ``push`` / ``loss``.
    Vectors are counts by value 0..9; ``payouts`` counts rounds by the net
    payout per unit stake.
    """

    seat: int = 1
    rounds: int = 0
    categories: dict[str, int] = field(default_factory=dict)
    player_value: list[int] | None = None
    bank_value: list[int] | None = None
    player_final: list[int] | None = None
    bank_final: list[int] | None = None
    player_colon: int | None = None
    player_colon_nine: int | None = None
    bank_colon: int | None = None
    bank_colon_nine: int | None = None
    player_draws: int | None = None
    bank_draws: int | None = None
    payouts: dict[Fraction, int] | None = None
    bets: dict[str, dict[Fraction, int]] | None = None  # other bets: net payout counts

    @property
    def outcomes(self) -> dict[str, int]:
        """Counts of win, push and loss."""
        out = dict.fromkeys(OUTCOMES, 0)
        for name, count in self.categories.items():
            out[name.split("_")[0]] += count
        return out

    @property
    def detailed(self) -> bool:
        """True when categories say how (natural or comparison), not just the outcome."""
        return any("_" in name for name in self.categories)

    def as_data(self) -> dict[str, Any]:
        """JSON-ready counts (payout keys as exact fraction strings)."""
        data: dict[str, Any] = {"seat": self.seat, "rounds": self.rounds,
                                "categories": dict(self.categories)}
        for name in (*VECTORS, *SCALARS):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.payouts is not None:
            data["payouts"] = {str(k): v for k, v in sorted(self.payouts.items(), reverse=True)}
        if self.bets is not None:
            data["bets"] = {name: {str(k): v for k, v in sorted(pays.items(), reverse=True)}
                            for name, pays in self.bets.items()}
        return data

    def plus(self, other: Tally) -> Tally:
        """The counts of both (one seat's rounds in two blocks of a log).

        A count one of them leaves out stays out; categories collapse to
        outcomes where either gives outcomes only.

        >>> a = Tally(1, 2, {"win_comparison": 2}, player_draws=1, payouts={Fraction(1): 2})
        >>> b = Tally(1, 1, {"loss": 1}, player_draws=0, payouts={Fraction(-1): 1})
        >>> c = a.plus(b)
        >>> c.rounds, c.categories, c.player_draws, c.bank_draws, len(c.payouts or {})
        (3, {'win': 2, 'loss': 1}, 1, None, 2)
        """
        def add(x: dict[Any, int] | None, y: dict[Any, int] | None) -> dict[Any, int] | None:
            if x is None or y is None:
                return None
            out = dict(x)
            for key, count in y.items():
                out[key] = out.get(key, 0) + count
            return out

        categories = add(self.categories, other.categories) or {}
        if any(name in OUTCOMES for name in categories):
            outcomes: dict[str, int] = {}
            for name, count in categories.items():
                key = name.split("_")[0]
                outcomes[key] = outcomes.get(key, 0) + count
            categories = outcomes
        vectors: dict[str, Any] = {}
        for name in VECTORS:
            x, y = getattr(self, name), getattr(other, name)
            vectors[name] = None if x is None or y is None else [
                a + b for a, b in zip(x, y, strict=True)]
        scalars: dict[str, Any] = {}
        for name in SCALARS:
            x, y = getattr(self, name), getattr(other, name)
            scalars[name] = None if x is None or y is None else x + y
        bets = None
        if self.bets is not None and other.bets is not None:
            bets = {name: add(self.bets.get(name, {}), other.bets.get(name, {})) or {}
                    for name in {**self.bets, **other.bets}}
        return Tally(seat=self.seat, rounds=self.rounds + other.rounds,
                     categories=categories, payouts=add(self.payouts, other.payouts),
                     bets=bets, **vectors, **scalars)

    def check(self, profile: Profile, where: str) -> None:
        """Names, sizes and sums must fit the profile and the number of rounds."""
        names = set(category_names(profile))
        plain = set(OUTCOMES)
        for name in self.categories:
            if name not in names and name not in plain:
                raise TallyError(
                    f"{where}: seat {self.seat}: unknown category {name!r} "
                    f"(categories under profile {profile.key!r}: "
                    f"{', '.join(category_names(profile))}; or win, push, loss)"
                )
        if self.categories and set(self.categories) & plain and set(self.categories) & names:
            raise TallyError(
                f"{where}: seat {self.seat}: give categories either as outcomes "
                "(win, push, loss) or by category, not both"
            )
        total = sum(self.categories.values())
        if total != self.rounds:
            raise TallyError(
                f"{where}: seat {self.seat}: categories add up to {total}, "
                f"but rounds is {self.rounds}"
            )
        for name in VECTORS:
            vec = getattr(self, name)
            if vec is None:
                continue
            if len(vec) != 10:
                raise TallyError(
                    f"{where}: seat {self.seat}: {name} needs 10 counts (values 0-9), "
                    f"not {len(vec)}"
                )
            if sum(vec) != self.rounds:
                raise TallyError(
                    f"{where}: seat {self.seat}: {name} adds up to {sum(vec)}, "
                    f"but rounds is {self.rounds}"
                )
        for name in SCALARS:
            value = getattr(self, name)
            if value is not None and value > self.rounds:
                raise TallyError(
                    f"{where}: seat {self.seat}: {name} is {value}, more than the "
                    f"{self.rounds} rounds"
                )
        for name, pays in (self.bets or {}).items():
            if sum(pays.values()) != self.rounds:
                raise TallyError(
                    f"{where}: seat {self.seat}: bet {name} payouts add up to "
                    f"{sum(pays.values())}, but rounds is {self.rounds}"
                )
        if self.payouts is not None and sum(self.payouts.values()) != self.rounds:
            raise TallyError(
                f"{where}: seat {self.seat}: payouts add up to {sum(self.payouts.values())}, "
                f"but rounds is {self.rounds}"
            )


# A net payout per unit stake as written: 30 digits at most in each part, no
# exponent (1e999999999 would take minutes to build exactly).
PAYOUT = re.compile(r"[-+]?[0-9]{1,30}(\.[0-9]{1,30})?(/[0-9]{1,30})?")


def _payout_key(raw: Any, where: str) -> Fraction:
    text = str(raw).strip()
    if not PAYOUT.fullmatch(text) or re.fullmatch(r".*/0+", text):
        raise TallyError(f"{where}: {excerpt(raw)} is not a payout (write 1, -1, 0, 1.5 or 3/2)")
    return Fraction(text)


def tally_from_data(data: Any, where: str) -> Tally:
    """One seat's tally from JSON data.

    >>> tally_from_data({"rounds": 2, "categories": {"win": 1, "loss": 1}}, "f").outcomes
    {'win': 1, 'push': 0, 'loss': 1}
    >>> tally_from_data({"rounds": 2, "categories": {"win": -2}}, "f")
    Traceback (most recent call last):
    ...
    odds.sim.tallies.TallyError: f: category 'win': count -2 is negative (counts are 0 or more)
    """
    if not isinstance(data, Mapping):
        raise TallyError(f"{where}: a tally must be an object, not {excerpt(data)}")
    known = {"seat", "rounds", "categories", "payouts", "bets", *VECTORS, *SCALARS}
    unknown = sorted(set(data) - known)
    if unknown:
        raise TallyError(
            f"{where}: unknown quantity {unknown[0]!r} (known: {', '.join(sorted(known))})"
        )
    tally = Tally(seat=_whole(data.get("seat", 1), f"{where}: seat"))
    if "rounds" not in data or "categories" not in data:
        raise TallyError(f"{where}: a tally needs 'rounds' and 'categories'")
    tally.rounds = _count(data["rounds"], f"{where}: rounds")
    cats = data["categories"]
    if not isinstance(cats, Mapping):
        raise TallyError(f"{where}: categories must map category names to counts")
    tally.categories = {
        str(k): _count(v, f"{where}: category {k!r}") for k, v in cats.items()
    }
    for name in VECTORS:
        if name in data:
            vec = data[name]
            if not isinstance(vec, list):
                raise TallyError(f"{where}: {name} must be a list of 10 counts")
            setattr(tally, name, [_count(v, f"{where}: {name}[{i}]") for i, v in enumerate(vec)])
    for name in SCALARS:
        if name in data:
            setattr(tally, name, _count(data[name], f"{where}: {name}"))
    if "bets" in data:
        bets = data["bets"]
        if not isinstance(bets, Mapping):
            raise TallyError(f"{where}: bets must map bet names to payout counts")
        tally.bets = {}
        for name, pays in bets.items():
            if not isinstance(pays, Mapping):
                raise TallyError(f"{where}: bet {name!r} must map payout amounts to counts")
            counts: dict[Fraction, int] = {}
            for k, v in pays.items():
                amount = _payout_key(k, f"{where}: bet {name}")
                counts[amount] = counts.get(amount, 0) + _count(v, f"{where}: bet {name} {k!r}")
            tally.bets[str(name)] = counts
    if "payouts" in data:
        pays = data["payouts"]
        if not isinstance(pays, Mapping):
            raise TallyError(f"{where}: payouts must map payout amounts to counts")
        tally.payouts = {}
        for k, v in pays.items():
            amount = _payout_key(k, f"{where}: payouts")
            tally.payouts[amount] = tally.payouts.get(amount, 0) + _count(
                v, f"{where}: payout {k!r}"
            )
    return tally


def tallies_json(header: RunHeader, tallies: Iterable[Tally], note: str | None = None) -> str:
    """The tallies JSON document.

    >>> from odds.rules.profiles import BUILTIN
    >>> text = tallies_json(RunHeader(BUILTIN["plain"], Shoe.packs_of(1)),
    ...                     [Tally(rounds=1, categories={"win": 1})])
    >>> read_tallies(text, "t")[1][0].categories
    {'win': 1}
    """
    data: dict[str, Any] = {"format": TALLIES_FORMAT, **header.as_data()}
    if note:
        data["note"] = note
    data["tallies"] = [t.as_data() for t in tallies]
    return json.dumps(data, indent=1) + "\n"


def tallies_csv(header: RunHeader, tallies: Iterable[Tally]) -> str:
    """The tallies CSV document: header comment lines, then one count per row.

    >>> from odds.rules.profiles import BUILTIN
    >>> text = tallies_csv(RunHeader(BUILTIN["plain"], Shoe.packs_of(1)),
    ...                    [Tally(rounds=1, categories={"win": 1})])
    >>> text.splitlines()[-2:]
    ['1,rounds,,1', '1,category,win,1']
    """
    buffer = io.StringIO()
    buffer.write("\n".join(header.comment_lines(TALLIES_FORMAT)) + "\n")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(TALLY_COLUMNS)
    for t in tallies:
        writer.writerow([t.seat, "rounds", "", t.rounds])
        for name, count in t.categories.items():
            writer.writerow([t.seat, "category", name, count])
        for name in VECTORS:
            vec = getattr(t, name)
            if vec is not None:
                writer.writerows([t.seat, name, v, c] for v, c in enumerate(vec))
        for name in SCALARS:
            value = getattr(t, name)
            if value is not None:
                writer.writerow([t.seat, name, "", value])
        if t.payouts is not None:
            for amount, count in sorted(t.payouts.items(), reverse=True):
                writer.writerow([t.seat, "payout", str(amount), count])
        for name, pays in (t.bets or {}).items():
            for amount, count in sorted(pays.items(), reverse=True):
                writer.writerow([t.seat, f"bet:{name}", str(amount), count])
    return buffer.getvalue()


def split_comments(text: str, where: str) -> tuple[dict[str, Any], list[str], int]:
    """Leading ``# key: value`` lines as header data; the rest; lines skipped.

    >>> split_comments("# lucky9-log/1\\n# shoe: 8\\nround,seat\\n", "f")
    ({'shoe': '8'}, ['round,seat'], 2)
    """
    lines = text.splitlines()
    check_lines(lines, where, TallyError)
    data: dict[str, Any] = {}
    skipped = 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            skipped = i + 1
            continue
        if not stripped.startswith("#"):
            break
        skipped = i + 1
        body = stripped.lstrip("#").strip()
        key, sep, value = body.partition(":")
        if not sep:
            continue  # a title line such as '# lucky9-log/1'
        key, value = key.strip(), value.strip()
        if key == "options":
            check_nesting(value, f"{where}, line {i + 1}: options", TallyError)
            check_numbers(value, f"{where}, line {i + 1}: options", TallyError)
            try:
                data[key] = json.loads(value)
            except json.JSONDecodeError as exc:
                raise TallyError(
                    f"{where}, line {i + 1}: options is not a JSON object ({exc.msg})"
                ) from None
        else:
            data[key] = value
    return data, lines[skipped:], skipped


def read_tallies_csv(text: str, where: str) -> tuple[dict[str, Any], list[Tally]]:
    """Parse a tallies CSV document into header data and tallies.

    >>> text = "seat,quantity,key,count\\n1,rounds,,3\\n1,category,push,3\\n"
    >>> read_tallies_csv(text, "f")[1][0].categories
    {'push': 3}
    >>> read_tallies_csv("seat,quantity,key,count\\n1,rounds,,x\\n", "f")
    Traceback (most recent call last):
    ...
    odds.sim.tallies.TallyError: f, line 2: count 'x' is not a whole number
    """
    data, lines, skipped = split_comments(text, where)
    rows = csv.reader(lines)
    header = next(rows, None)
    if header is None or tuple(h.strip() for h in header) != TALLY_COLUMNS:
        raise TallyError(
            f"{where}, line {skipped + 1}: a tallies CSV starts with the columns "
            f"{','.join(TALLY_COLUMNS)}, not {','.join(header or [])!r}"
        )
    by_seat: dict[int, dict[str, Any]] = {}
    for offset, row in enumerate(rows):
        line = skipped + 2 + offset
        at = f"{where}, line {line}"
        if not row or not "".join(row).strip():
            continue
        if len(row) != 4:
            raise TallyError(f"{at}: expected 4 fields (seat,quantity,key,count), got {len(row)}")
        seat_text, quantity, key, count_text = (f.strip() for f in row)
        seat = _whole(seat_text, f"{at}: seat")
        if not re.fullmatch(r"-?\d+", count_text):
            raise TallyError(f"{at}: count {count_text!r} is not a whole number")
        count = _count(count_text, at)
        d = by_seat.setdefault(seat, {"seat": seat, "categories": {}})
        if quantity == "rounds":
            d["rounds"] = count
        elif quantity == "category":
            if key in d["categories"]:
                raise TallyError(f"{at}: category {key!r} is given twice for seat {seat}")
            d["categories"][key] = count
        elif quantity in VECTORS:
            if not re.fullmatch(r"\d", key):
                raise TallyError(f"{at}: {quantity} key {key!r} is not a value 0-9")
            vec = d.setdefault(quantity, [0] * 10)
            vec[int(key)] += count
        elif quantity in SCALARS:
            d[quantity] = count
        elif quantity.startswith("bet:") and len(quantity) > 4:
            amount = str(_payout_key(key, at))
            pays = d.setdefault("bets", {}).setdefault(quantity[4:], {})
            pays[amount] = pays.get(amount, 0) + count
        elif quantity == "payout":
            d.setdefault("payouts", {})
            amount = str(_payout_key(key, at))
            d["payouts"][amount] = d["payouts"].get(amount, 0) + count
        else:
            known = ", ".join(["rounds", "category", *VECTORS, *SCALARS, "payout", "bet:NAME"])
            raise TallyError(f"{at}: unknown quantity {quantity!r} (known: {known})")
    if not by_seat:
        raise TallyError(f"{where}: no tallies found")
    return data, [tally_from_data(d, f"{where}, seat {s}") for s, d in sorted(by_seat.items())]


def read_tallies(text: str, where: str) -> tuple[dict[str, Any], list[Tally]]:
    """Header data and tallies from a tallies file (JSON or CSV), unchecked.

    >>> read_tallies('{"tallies": [{"rounds": 1, "categories": {"loss": 1}}]}', "f")[1][0].rounds
    1
    >>> read_tallies('{"tallies": [}', "f")
    Traceback (most recent call last):
    ...
    odds.sim.tallies.TallyError: f, line 1: not valid JSON (Expecting value)
    """
    text = strip_bom(text)
    if text.lstrip().startswith("{"):
        check_lines(text.splitlines(), where, TallyError)
        doc = load_json(text, where, TallyError)
        if not isinstance(doc, dict):
            raise TallyError(f"{where}: a tallies JSON is an object with a 'tallies' list")
        raw = doc.get("tallies")
        if not isinstance(raw, list) or not raw:
            raise TallyError(f"{where}: a tallies JSON needs a non-empty 'tallies' list")
        tallies = [tally_from_data(t, f"{where}, tallies[{i}]") for i, t in enumerate(raw)]
        check_seats(tallies, where)
        return doc, tallies
    data, tallies = read_tallies_csv(text, where)
    check_seats(tallies, where)
    return data, tallies


def check_seats(tallies: Sequence[Tally], where: str) -> None:
    """Seats are numbered 1 to 8, each once.

    >>> check_seats([Tally(seat=1), Tally(seat=1)], "f")
    Traceback (most recent call last):
    ...
    odds.sim.tallies.TallyError: f: seat 1 has two tallies (one tally per seat)
    """
    seen: set[int] = set()
    for t in tallies:
        if not 1 <= t.seat <= 8:
            raise TallyError(f"{where}: seat {t.seat} is not a seat (a table has seats 1 to 8)")
        if t.seat in seen:
            raise TallyError(f"{where}: seat {t.seat} has two tallies (one tally per seat)")
        seen.add(t.seat)
