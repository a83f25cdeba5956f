"""``lucky9 shoe``: follow a dealt shoe, the exact odds before every round."""

from __future__ import annotations

import sys
from typing import Any

import click

from odds.cli.common import IntRange, emit, format_option, reports_errors
from odds.cli.options import command, resolve_rules, rule_options
from odds.cli.progress import delayed_progress

MAX_RECORD = 1 << 22  # bytes of a card record: 4 MiB, far beyond a 100-pack shoe
MAX_SHOE_CARDS = 100 * 52  # cards of a shoe that `shoe` follows (as --seed: 100 packs)


@command("shoe")
@rule_options
@click.option("--cards", "cards_file", default=None, metavar="FILE",  # read_text checks it
              help="the cards dealt, in deal order, one or more per line ('-': standard "
                   "input); a blank line or '--' may close a round; '#' starts a comment")
@click.option("--seed", type=IntRange(min=0), default=None,
              help="shuffle the shoe with this seed and deal it to the cut card")
@click.option("--index", type=IntRange(min=0), default=None,
              help="with --seed: which shoe of the seed (shoe k of 'lucky9 count --seed S')"
                   "  [default: 0]")
@click.option("--penetration", type=click.FloatRange(0, 1, min_open=True), default=None,
              help="with --seed: share of the shoe dealt before the cut card  [default: 0.8]")
@click.option("--seats", type=IntRange(min=1, max=8), default=None,
              help="with --cards: a table of N seats and the bank (two cards to each seat and "
                   "the bank, then third cards in table order); each seat's exact odds and "
                   "the bank's exact mean and variance before each round  [default: 1]")
@format_option("text", "json", "csv")
@reports_errors
def shoe_command(**params: Any) -> None:
    """Follow a dealt shoe: the exact odds before every round, given the cards seen.

    \b
    The cards are split into rounds by replaying them under the rules: a
    round takes P B P B, then the player's third card if the rules make the
    player draw, then the bank's (4 to 6 cards).  Round marks in the file
    (a blank line or a line '--') are checked against that replay.
    Before each round: the exact EV of every bet (player seat; banker, tie
    where the profile has them; colon: the part of the seat's EV its Colon
    pays add) and the seat's P(win/push/loss), given every card seen so far.
    The shoe (shuffled with --seed, or dealt in --cards) has at most 100 packs.

    \b
    Examples:
      lucky9 shoe --decks 8 --seed 1
      lucky9 shoe --decks 1 --cards dealt.txt --format csv
      lucky9 shoe --profile punto-banco --cards -
      lucky9 shoe --decks 1 --seats 6 --cards table.txt
    """
    from odds.exact.rounds import deal_rounds, read_cards, record_rounds, shuffled_shoe
    from odds.exact.shoe_follow import follow_shoe
    from odds.report.shoe_report import shoe_data, shoe_rows, shoe_text

    profile, shoe = resolve_rules(params)
    source: dict[str, Any]
    if params["cards_file"] is not None and params["seed"] is not None:
        raise click.UsageError("give --cards FILE or --seed S, not both")
    if params["cards_file"] is None and params["seed"] is None:
        raise click.UsageError("give --cards FILE (the cards dealt) or --seed S (shuffle one)")
    if params["seats"] is not None and params["seats"] > 1 and params["cards_file"] is None:
        raise click.UsageError("--seats follows a table's record: give --cards FILE")
    if params["cards_file"] is not None:
        for option in ("index", "penetration"):
            if params[option] is not None:
                raise click.UsageError(f"--{option} goes with --seed (a shuffled shoe); "
                                       "--cards deals the cards of the file")
        if shoe.size > MAX_SHOE_CARDS:
            raise click.UsageError(f"--cards follows a shoe of at most {MAX_SHOE_CARDS:,} cards "
                                   f"(100 packs), not {shoe.size:,}")
        from odds.rules.textio import decode_text, read_text

        name = params["cards_file"]
        if name == "-":  # bounded like a file: a stream that never ends is refused
            stdin = sys.stdin
            raw = (stdin.buffer.read(MAX_RECORD + 1) if hasattr(stdin, "buffer")
                   else stdin.read(MAX_RECORD + 1).encode("utf-8"))
            if len(raw) > MAX_RECORD:
                raise click.UsageError(f"standard input is larger than {MAX_RECORD:,} bytes "
                                       "(a card record is a few kilobytes)")
            text = decode_text(raw, "standard input")
        else:
            text = read_text(name, MAX_RECORD, "card file")
        name = "<stdin>" if name == "-" else name
        seats = params["seats"]
        if seats is not None and seats > 1:
            from odds.exact.shoe_follow import follow_table, table_rounds
            from odds.report.shoe_report import table_data, table_rows, table_text

            try:
                table = table_rounds(profile, shoe, read_cards(text), seats)
            except ValueError as exc:
                raise click.UsageError(f"{name}: {exc}") from None
            with delayed_progress() as advance:
                followed = follow_table(profile, shoe, table, seats, advance)
            emit(params["fmt"], lambda: table_data(followed, {"cards_file": name}),
                 lambda: table_text(followed, f"cards from {name}"),
                 lambda: table_rows(followed))
            return
        try:
            rounds = record_rounds(profile, shoe, read_cards(text))
        except ValueError as exc:
            raise click.UsageError(f"{name}: {exc}") from None
        source = {"cards_file": name}
        label = f"cards from {name}"
    else:
        if shoe.packs is None or shoe.size != 52 * shoe.packs:
            raise click.UsageError("--seed shuffles a fresh shoe of packs: give --decks D")
        seed = params["seed"]
        index = 0 if params["index"] is None else params["index"]
        pen = 0.8 if params["penetration"] is None else params["penetration"]
        rounds = deal_rounds(profile, shuffled_shoe(shoe.packs, seed, index), pen)
        source = {"seed": seed, "index": index, "penetration": pen}
        label = f"shuffled with seed {seed}" + (f" (shoe {index})" if index else "") + (
            f", cut card at {pen:g}")
    follow = follow_shoe(profile, shoe, rounds)
    emit(params["fmt"], lambda: shoe_data(follow, source),
         lambda: shoe_text(follow, label),
         lambda: shoe_rows(follow))


COMMANDS = (shoe_command,)
