"""The tests mirror the library: a folder for each part of odds/, one for the CLI, one for the project.

A module's tests live in the folder of its subpackage (tests/exact/ tests
odds/exact/), the command line's in tests/cli/, and the checks of the project
as a whole (README, docs and their transcripts, bench scripts, the skip
summary, the architecture, the API as people call it) in tests/project/.
Test files are named after what they test, never after the round of work that
wrote them; helpers shared by several test files live in helper modules
directly under tests/ (brute.py, examples.py, paths.py, ...), never in a test
module another one imports.
"""

from __future__ import annotations

import ast
import re

from tests.paths import ROOT

TESTS = ROOT / "tests"
LIBRARY = ROOT / "odds"
# The folders that are no subpackage of odds/: the command line and the project.
OWN = {"cli", "project"}
# Words that name a round of work, not what a test checks.
HISTORY = ("bite", "hardening", "item", "hostile")


def _test_files() -> list[str]:
    return sorted(str(p.relative_to(TESTS)) for p in TESTS.rglob("test_*.py"))


def test_every_test_file_lives_in_a_folder_mirroring_the_library() -> None:
    subpackages = {p.parent.name for p in LIBRARY.glob("*/__init__.py")}
    allowed = subpackages | OWN
    misplaced = [f for f in _test_files() if len(f.split("/")) != 2 or f.split("/")[0] not in allowed]
    assert misplaced == [], f"test files outside tests/<{'|'.join(sorted(allowed))}>/: {misplaced}"


def test_the_mirrored_folders_are_there() -> None:
    folders = {f.split("/")[0] for f in _test_files() if "/" in f}
    assert {"rules", "exact", "money", "game", "sim", "report", "cli", "project"} <= folders


def test_no_test_file_is_named_after_a_round_of_work() -> None:
    named = [f for f in _test_files() if any(word in f.rsplit("/", 1)[-1] for word in HISTORY)]
    assert named == [], named


def test_no_test_is_numbered_after_an_issue() -> None:
    numbered = []
    for name in _test_files():
        tree = ast.parse((TESTS / name).read_text(encoding="utf-8"))
        numbered += [f"{name}::{node.name}" for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef)
                     and re.match(r"test_(item|issue|class)?\d+_", node.name)]
    assert numbered == [], numbered


def test_no_test_module_imports_another() -> None:
    found = []
    for name in _test_files():
        tree = ast.parse((TESTS / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            modules = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                       else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [f"{name}: {m}" for m in modules
                      if m.startswith("tests.") and m.rsplit(".", 1)[-1].startswith("test_")]
    assert found == [], f"shared helpers belong in a helper module under tests/: {found}"
