"""The checklists of docs/architecture.md ("Where a new feature goes") name files that exist."""

from __future__ import annotations

import re

from tests.paths import ROOT

PAGE = ROOT / "docs" / "architecture.md"
KINDS = ("A new built-in bet", "A new rule option", "A new command")


def checklists() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("### Checklists")
    end = text.index("\n## ", start)
    return text[start:end]


def named_paths(text: str) -> list[str]:
    """Every `path` in backticks that names a file or folder of the checkout."""
    return [p for p in re.findall(r"`([^`\s]+)`", text)
            if "/" in p and re.fullmatch(r"[\w./-]+", p) and not p.startswith("--")]


def test_each_checklist_is_there() -> None:
    text = checklists()
    for kind in KINDS:
        assert f"**{kind}" in text, f"docs/architecture.md has no checklist for {kind.lower()}"


def test_every_file_a_checklist_names_exists() -> None:
    paths = named_paths(checklists())
    assert len(paths) >= 12, paths
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, f"docs/architecture.md's checklists name files that do not exist: {missing}"


def test_the_check_can_fail() -> None:
    assert named_paths("see `odds/rules/no_such.py` and `--bet`") == ["odds/rules/no_such.py"]
    assert not (ROOT / "odds/rules/no_such.py").exists()
