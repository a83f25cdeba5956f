"""Every reference to a page, a section or an anchor points at something that exists.

Collected from README.md and docs/*.md (Markdown links, and page names in
the text such as ``docs/bets.md``) and from the strings the program prints
(every string literal under ``odds/`` except docstrings, but with the
docstrings of click commands, which are their ``--help``).  A reference is
a file (``docs/rules.md``, ``bets.md``, ``../tables/README.md``), with at
most one of: ``#anchor`` (a heading's GitHub anchor), ``, section N`` (a
numbered heading) or ``, "Heading"`` (a heading's words).  The checker is
tested on planted bad references, so it can fail.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.paths import ROOT

DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]

# [text](target): a Markdown link, with a section after it if any.
_LINK = re.compile(r"\]\(([^)\s]+)\)(?:,? section (\d+(?:\.\d+)*))?")
# A page named in running text, with a section after it if any.
_NAMED = re.compile(
    r"(?<![\w/.-])((?:\.\./)?(?:[\w-]+/)*[\w-]+\.md)(#[\w-]+)?"
    r"(?:,? section (\d+(?:\.\d+)*)|, [\"']([^\"']+)[\"'])?")
# "the README's "Heading"" without the file's name.
_README = re.compile(r"\bREADME(?:'s)?,? [\"']([^\"']+)[\"']")
_FENCE = re.compile(r"^(```|~~~)")


@dataclass(frozen=True)
class Ref:
    """One reference: where it was found, the file it names (resolved), what in it."""

    where: str
    text: str
    path: Path | None
    anchor: str | None = None
    section: str | None = None
    heading: str | None = None


def headings(path: Path) -> list[str]:
    """The headings of a Markdown page, outside code blocks."""
    out, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)):
            out.append(m.group(1))
    return out


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it.

    >>> slug("The table card: `lucky9 card --profile P`")
    'the-table-card-lucky9-card---profile-p'
    """
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor of a page (a repeated heading's anchor gets -1, -2, ...)."""
    seen: dict[str, int] = {}
    out = set()
    for h in headings(path):
        base = slug(h)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def _words(heading: str) -> str:
    return re.sub(r"\s+", " ", heading.replace("`", "")).strip().lower()


def problem(ref: Ref) -> str | None:
    """What is wrong with a reference, or None."""
    if ref.path is None or not ref.path.exists():
        return "no such file"
    if ref.path.suffix != ".md" or ref.path.is_dir():
        return None if not (ref.anchor or ref.section or ref.heading) else "not a page"
    if ref.anchor and ref.anchor not in anchors(ref.path):
        return f"no heading with anchor #{ref.anchor}"
    if ref.section and not any(re.match(rf"{re.escape(ref.section)}\.?\s", h)
                               for h in headings(ref.path)):
        return f"no heading numbered {ref.section}"
    if ref.heading and _words(ref.heading) not in {_words(h) for h in headings(ref.path)}:
        return f"no heading {ref.heading!r}"
    return None


def _resolve(name: str, base: Path) -> Path | None:
    """A page name: from the referring page's folder, else the root, else docs/."""
    for folder in (base, ROOT, DOCS):
        path = (folder / name).resolve()
        if path.exists():
            return path
    return None


def refs_in_text(text: str, page: Path, *, links: bool) -> Iterator[Ref]:
    """The references in a page's text (``links``: its Markdown links too)."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        at = f"{page.relative_to(ROOT)}:{number}"
        if links:
            for target, section in _LINK.findall(line):
                if re.match(r"[a-z]+:", target):
                    continue  # a web address
                name, _, anchor = target.partition("#")
                path = (page.parent / name).resolve() if name else page
                yield Ref(at, target, path, anchor or None, section or None)
        yield from _named(line, at, page.parent)


def _named(text: str, at: str, base: Path) -> Iterator[Ref]:
    for m in _NAMED.finditer(text):
        name, anchor, section, heading = m.groups()
        if text[:m.start()].endswith("]("):
            continue  # a link's target: read as a link
        yield Ref(at, m.group(0), _resolve(name, base), anchor and anchor[1:], section, heading)
    for m in _README.finditer(text):
        yield Ref(at, m.group(0), ROOT / "README.md", heading=m.group(1))


def page_refs() -> Iterator[Ref]:
    for page in PAGES:
        yield from refs_in_text(page.read_text(encoding="utf-8"), page, links=True)


def _printed_strings(tree: ast.Module) -> Iterator[ast.Constant]:
    """String literals, less docstrings other than click commands' (their --help)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                helps = isinstance(node, ast.FunctionDef) and any(
                    "command" in ast.unparse(d) or "group" in ast.unparse(d)
                    for d in node.decorator_list)
                if not helps:
                    skip.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node


def code_refs() -> Iterator[Ref]:
    for module in sorted((ROOT / "odds").rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        where = str(module.relative_to(ROOT))
        for node in _printed_strings(tree):
            # Help text and messages wrap: read them as one line.
            text = re.sub(r"\s+", " ", node.value)
            yield from _named(text, f"{where}:{node.lineno}", ROOT)


# Dead references on pages being rewritten elsewhere (page, reference): to be emptied.
PENDING: set[tuple[str, str]] = set()


def _report(refs: list[Ref]) -> list[str]:
    return [f"{r.where}: {r.text!r}: {why}" for r in refs if (why := problem(r))
            and (r.where.split(":")[0], r.text) not in PENDING]


def test_every_page_reference_exists():
    refs = list(page_refs())
    assert len(refs) > 50  # the collector finds the pages' many links
    assert _report(refs) == []


def test_every_printed_reference_exists():
    refs = list(code_refs())
    assert any("rules.md" in r.text for r in refs)  # the bets' descriptions cite it
    assert _report(refs) == []


# -- the checker can fail ----------------------------------------------------------------


PLANTED = [
    ("see [the rules](rules.md#no-such-heading)", "anchor"),
    ("see [a page](nowhere.md)", "no such file"),
    ("as RULES.md, section 3.6 says", "no such file"),
    ("as docs/rules.md, section 3 says", "numbered 3"),
    ("specified in [rules.md](rules.md), section 6", "numbered 6"),
    ("(the Colon bonuses, docs/rules.md#no-such-heading)", "anchor"),
    ("the README's \"No such section\"", "heading"),
    ("formats: docs/commands.md, \"File formats for nothing\"", "heading"),
    ("docs/rules.md#colon-and-colon-nin", "anchor"),
]


@pytest.mark.parametrize(("text", "why"), PLANTED, ids=[t for t, _ in PLANTED])
def test_a_planted_bad_reference_fails(text, why):
    refs = list(refs_in_text(text, DOCS / "planted.md", links=True))
    assert refs, text
    problems = _report(refs)
    assert problems and why in problems[0]


GOOD = [
    ("see [the rules](rules.md#colon-and-colon-nine)", DOCS),
    ("docs/commands.md, \"File formats for `simulate` and `verify`\"", DOCS),
    ("formats: docs/commands.md, \"File formats for simulate and verify\"", DOCS),
    ("[commands.md](commands.md#lucky9-profiles)", DOCS),
    ("[tables/](../tables/README.md)", DOCS),
    ("[docs/bets.md](docs/bets.md)", ROOT),
    ("[below](#the-reference-test)", DOCS),
]


@pytest.mark.parametrize(("text", "folder"), GOOD, ids=[t for t, _ in GOOD])
def test_a_good_reference_passes(text, folder, tmp_path):
    page = folder / "planted.md"
    refs = list(refs_in_text(text, page, links=True))
    assert refs, text
    if any(r.path == page for r in refs):  # an anchor on the page itself
        fake = tmp_path / "planted.md"
        fake.write_text("# The reference test\n", encoding="utf-8")
        refs = [Ref(r.where, r.text, fake, r.anchor) if r.path == page else r for r in refs]
    assert _report(refs) == []
