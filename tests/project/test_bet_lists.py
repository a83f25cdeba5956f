"""The lists of built-in bets write themselves, or are checked against ``BETS``.

``lucky9 odds --help`` and the unknown-bet error are built from
:data:`odds.rules.bet_library.BETS`; the documentation lists them once, in
docs/bets.md's table between ``<!-- built-in bets -->`` and
``<!-- /built-in bets -->`` (other pages link to it), which must name the
same bets, in the same order (by name: a new bet does not move the others).
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from cli import main
from odds.rules.bet_library import BETS, bet_names, resolve_bets
from odds.rules.errors import BetError
from odds.rules.profiles import BUILTIN
from tests.paths import ROOT

LISTS = ("docs/bets.md",)
BLOCK = re.compile(r"<!-- built-in bets[^>]*-->(.*?)<!-- /built-in bets -->", re.S)


def blocks(page: str) -> list[str]:
    found = BLOCK.findall((ROOT / page).read_text(encoding="utf-8"))
    assert found, f"{page} has no list of the built-in bets between its markers"
    return found


def table_text() -> str:
    """docs/bets.md's table of the built-in bets, as BETS writes it."""
    rows = ["| name | side | pay table and its source |", "|---|---|---|"]
    rows += [f"| `{n}` | {BETS[n].side} | {BETS[n].description} |" for n in bet_names()]
    return "\n".join(rows)


def test_the_order_is_by_name_and_covers_every_bet() -> None:
    assert list(bet_names()) == sorted(BETS)
    assert set(bet_names()) == set(BETS)


@pytest.mark.parametrize("page", LISTS)
def test_a_page_lists_the_built_in_bets(page: str) -> None:
    for block in blocks(page):
        names = re.findall(r"^\| `([^`]+)` \|", block, re.M) if "|" in block \
            else re.findall(r"`([^`]+)`", block)
        assert tuple(names) == bet_names(), f"{page}: {names} (write {', '.join(bet_names())})"


def test_the_bets_table_is_the_one_bets_writes() -> None:
    (block,) = blocks("docs/bets.md")
    assert block.strip() == table_text(), "docs/bets.md: paste this table:\n" + table_text()


def test_the_help_and_the_error_list_every_bet() -> None:
    text = " ".join(CliRunner().invoke(main, ["odds", "--help"]).output.split())
    listed = re.search(r"built-in: ([^;]+);", text)
    assert listed is not None
    assert listed[1].replace("- ", "-").split(", ") == list(bet_names())
    with pytest.raises(BetError, match=re.escape(", ".join(bet_names()))):
        resolve_bets(BUILTIN["standard"], ["no-such-bet"])
