"""Where a followed shoe's cards come from: a dealer's record, or a seeded shuffle.

What ``lucky9 shoe`` decides before it counts: which source the options
name (a card file or standard input, bounded; or a seed, a shoe index and a
cut card), the rounds of that source, and how its reports name it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, Any

from odds.exact.deal import shuffled_shoe
from odds.exact.rounds import DealtRound, deal_rounds, read_cards, record_rounds
from odds.exact.shoe_follow import TableRound, table_rounds
from odds.io.textio import decode_text, read_text
from odds.rules.profile import Profile
from odds.rules.shoe import Shoe

__all__ = [
    "MAX_RECORD",
    "MAX_SHOE_CARDS",
    "ShoeSource",
    "check_source",
    "fresh_packs",
    "read_record",
    "recorded_rounds",
    "recorded_table",
    "seeded_rounds",
]

MAX_RECORD = 1 << 22  # bytes of a card record: 4 MiB, far beyond a 100-pack shoe
MAX_SHOE_CARDS = 100 * 52  # cards of a shoe that `shoe` follows (as --seed: 100 packs)
PENETRATION = 0.8  # a seeded shoe's cut card: the share dealt before it


@dataclass(frozen=True)
class ShoeSource:
    """The rounds of a shoe, where they came from (``fields``, for JSON) and its ``label``."""

    rounds: tuple[DealtRound, ...]
    fields: dict[str, Any]
    label: str


def fresh_packs(shoe: Shoe, refusal: str) -> int:
    """The packs of a fresh shoe (whole 52-card packs); ``refusal`` if ``shoe`` is not one.

    >>> fresh_packs(Shoe.packs_of(8), "give --decks D")
    8
    >>> fresh_packs(Shoe.infinite_shoe(), "give --decks D")
    Traceback (most recent call last):
    ...
    ValueError: give --decks D
    """
    if shoe.packs is None or shoe.size != 52 * shoe.packs:
        raise ValueError(refusal)
    return shoe.packs


def check_source(shoe: Shoe, cards_file: str | None, seed: int | None,
                 index: int | None = None, penetration: float | None = None,
                 seats: int | None = None) -> None:
    """One source: a card file (``-``: standard input) or a seed; what goes with each.

    >>> check_source(Shoe.packs_of(8), "dealt.txt", 1)
    Traceback (most recent call last):
    ...
    ValueError: give --cards FILE or --seed S, not both
    """
    if cards_file is not None and seed is not None:
        raise ValueError("give --cards FILE or --seed S, not both")
    if cards_file is None and seed is None:
        raise ValueError("give --cards FILE (the cards dealt) or --seed S (shuffle one)")
    if seats is not None and seats > 1 and cards_file is None:
        raise ValueError("--seats follows a table's record: give --cards FILE")
    if cards_file is None:
        return
    for option, value in (("index", index), ("penetration", penetration)):
        if value is not None:
            raise ValueError(f"--{option} goes with --seed (a shuffled shoe); "
                             "--cards deals the cards of the file")
    if shoe.size > MAX_SHOE_CARDS:
        raise ValueError(f"--cards follows a shoe of at most {MAX_SHOE_CARDS:,} cards "
                         f"(100 packs), not {shoe.size:,}")


def read_record(name: str, stdin: IO[Any]) -> tuple[str, str]:
    """The text of a card record and the name reports give it: the file ``name``, or
    ``stdin`` for ``-`` (``<stdin>``); either read to at most :data:`MAX_RECORD` bytes,
    so a stream that never ends is refused.

    >>> import io
    >>> read_record("-", io.StringIO("9h 2c\\n"))
    ('9h 2c\\n', '<stdin>')
    """
    if name != "-":
        return read_text(name, MAX_RECORD, "card file"), name
    raw = (stdin.buffer.read(MAX_RECORD + 1) if hasattr(stdin, "buffer")
           else stdin.read(MAX_RECORD + 1).encode("utf-8"))
    if len(raw) > MAX_RECORD:
        raise ValueError(f"standard input is larger than {MAX_RECORD:,} bytes "
                         "(a card record is a few kilobytes)")
    return decode_text(raw, "standard input"), "<stdin>"


def recorded_rounds(profile: Profile, shoe: Shoe, text: str, name: str) -> ShoeSource:
    """A dealer's record split into rounds by replaying the rules; errors name the file.

    >>> from odds.rules.profiles import BUILTIN
    >>> source = recorded_rounds(BUILTIN["standard"], Shoe.packs_of(1), "9 2 9 6", "d.txt")
    >>> len(source.rounds), source.fields, source.label
    (1, {'cards_file': 'd.txt'}, 'cards from d.txt')
    """
    try:
        rounds = record_rounds(profile, shoe, read_cards(text))
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None
    return ShoeSource(rounds, {"cards_file": name}, f"cards from {name}")


def recorded_table(profile: Profile, shoe: Shoe, text: str, name: str,
                   seats: int) -> tuple[TableRound, ...]:
    """A table's record (``seats`` seats and the bank) split into rounds; errors name the file.

    >>> from odds.rules.profiles import BUILTIN
    >>> len(recorded_table(BUILTIN["standard"], Shoe.packs_of(1), "9 5 2 K K 6 3", "t.txt", 2))
    1
    """
    try:
        return table_rounds(profile, shoe, read_cards(text), seats)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


def seeded_rounds(profile: Profile, shoe: Shoe, seed: int, index: int | None = None,
                  penetration: float | None = None) -> ShoeSource:
    """Shoe ``index`` (default 0) of ``seed``, shuffled and dealt to the cut card
    (``penetration``, default 0.8): shoe k of ``lucky9 count --seed S``.

    >>> from odds.rules.profiles import BUILTIN
    >>> source = seeded_rounds(BUILTIN["standard"], Shoe.packs_of(1), 7, 2)
    >>> source.fields, source.label
    ({'seed': 7, 'index': 2, 'penetration': 0.8}, 'shuffled with seed 7 (shoe 2), cut card at 0.8')
    """
    packs = fresh_packs(shoe, "--seed shuffles a fresh shoe of packs: give --decks D")
    index = 0 if index is None else index
    pen = PENETRATION if penetration is None else penetration
    rounds = deal_rounds(profile, shuffled_shoe(packs, seed, index), pen)
    label = f"shuffled with seed {seed}" + (f" (shoe {index})" if index else "") + (
        f", cut card at {pen:g}")
    return ShoeSource(rounds, {"seed": seed, "index": index, "penetration": pen}, label)
