"""The documentation runs: every `$ lucky9 ...` transcript in README.md and docs/*.md.

A transcript is a fenced code block whose first line starts with ``$ `` and
that runs ``lucky9`` at least once. Every line of it that starts with ``$ `` is
a command; the lines up to the next
command are what it prints (standard output and standard error, as a terminal
shows them). The conventions, also stated in the README (How it is checked):

- Output is compared line by line; trailing spaces and trailing blank lines
  do not count.
- A line that is exactly ``...`` (indentation allowed) stands for any number
  of lines the page leaves out (none included). Output is never cut silently.
- Each block runs in a fresh temporary folder, so files a command writes land
  there; ``tests/`` and ``tables/`` of the checkout are visible in it
  (read-only use), and ``docs/`` is an empty folder. A path under ``/tmp/`` in
  a command means that temporary folder (and is printed back as ``/tmp/``).
  A later block does not see an earlier block's files: a page that writes a
  file and then reads it does both in one block.
- ``lucky9 ARGS`` runs in-process through click's CliRunner (fast); a line
  that needs a shell (``;``, ``>``, ``&&``, ``cat``, ``printf``, ``diff``)
  runs in bash with a ``lucky9`` command on its PATH.
- A block preceded by the line ``<!-- file: NAME -->`` is a file the page
  shows (a profile or strategy file): it is written as NAME into the folder of
  every later transcript of the page.
- A block preceded by the line ``<!-- slow -->`` is marked ``slow``: it runs
  each command as a process of its own (``lucky9`` on the PATH, as for a
  shell line), so that a big job's memory does not stay in the test process;
  like every ``slow`` test it is skipped unless ``LUCKY9_SLOW=1`` (CI sets
  it) or ``-m slow`` (conftest.py).
- Blocks whose commands are not ``lucky9`` (the ``bench/`` timings) are not
  transcripts: their figures change from run to run.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from tests.paths import ROOT, lucky9_on_path

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[\w-]*\n(.*?)^```$", re.S | re.M)
SHELL = set(";|&<>`$()")
SLOW = "<!-- slow -->"
FILE = re.compile(r"<!-- file: ([\w.-]+) -->")


@dataclass(frozen=True)
class Transcript:
    page: str
    line: int
    commands: tuple[tuple[str, tuple[str, ...]], ...]  # (command, expected output lines)
    slow: bool
    files: tuple[tuple[str, str], ...]  # (name, text) of the files the page showed before


def transcripts(path: Path) -> list[Transcript]:
    text = path.read_text(encoding="utf-8")
    found = []
    files: list[tuple[str, str]] = []
    for block in FENCE.finditer(text):
        body = block[1]
        before = text[:block.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
        if name := FILE.fullmatch(before):
            files.append((name[1], body))
        if not (body.startswith("$ ") and "\n$ lucky9" in "\n" + body):
            continue
        commands: list[tuple[str, list[str]]] = []
        for line in body.rstrip("\n").split("\n"):
            if line.startswith("$ "):
                commands.append((line[2:], []))
            else:
                commands[-1][1].append(line)
        found.append(Transcript(
            str(path.relative_to(ROOT)), text.count("\n", 0, block.start()) + 2,
            tuple((cmd, tuple(out)) for cmd, out in commands), before == SLOW, tuple(files)))
    return found


ALL = [t for page in PAGES for t in transcripts(page)]


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` with each ``...`` line standing for any lines.

    >>> matches(["a", "...", "d"], ["a", "b", "c", "d"]), matches(["a", "..."], ["a"])
    (True, True)
    >>> matches(["a", "...", "d"], ["a", "b"]), matches(["a"], ["a", "b"])
    (False, False)
    """
    parts: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == "...":
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return expected == actual
    first, *middle, last = parts
    if actual[:len(first)] != first or len(actual) < len(first) + len(last):
        return False
    if last and actual[len(actual) - len(last):] != last:
        return False
    at, end = len(first), len(actual) - len(last)
    for part in middle:  # each cut is greedy-free: the first place a part fits is as good as any
        for start in range(at, end - len(part) + 1):
            if actual[start:start + len(part)] == part:
                at = start + len(part)
                break
        else:
            return False
    return True


def clean(lines: list[str] | tuple[str, ...]) -> list[str]:
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def run(command: str, folder: Path, own_process: bool = False) -> str:
    tmp = str(folder)
    command = command.replace("/tmp/", tmp + "/")
    words = shlex.split(command, comments=True)
    plain = words[0] == "lucky9" and not any(SHELL & set(word) for word in shlex.split(
        command, comments=True, posix=False) if word[:1] not in "'\"")
    if plain and not own_process:
        result = CliRunner().invoke(main, words[1:], prog_name="lucky9")
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        output = result.output
    elif plain:  # standard output and error in the order written, as a terminal shows them
        done = subprocess.run(words, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              env={**lucky9_on_path(folder), "PYTHONUNBUFFERED": "1"},
                              text=True, timeout=600)
        output = done.stdout
    else:
        done = subprocess.run(["bash", "-c", command], cwd=folder, env=lucky9_on_path(folder),
                              capture_output=True, text=True, timeout=600)
        output = done.stdout + done.stderr
    return output.replace(tmp, "/tmp")


@pytest.mark.parametrize("transcript", [
    pytest.param(t, id=f"{t.page}:{t.line}", marks=[pytest.mark.slow] if t.slow else [])
    for t in ALL])
def test_transcript(transcript: Transcript, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if any("--format svg" in c for c, _ in transcript.commands) and shutil.which("dot") is None:
        if os.environ.get("LUCKY9_REQUIRE_TOOLS") == "1":
            pytest.fail("Graphviz's dot is missing and LUCKY9_REQUIRE_TOOLS=1")
        pytest.skip("skipped: an SVG transcript needs Graphviz's dot, which is not on the PATH")
    work = tmp_path / "work"
    work.mkdir()
    for name in ("tests", "tables"):
        (work / name).symlink_to(ROOT / name)
    (work / "docs").mkdir()
    for name, body in transcript.files:
        (work / name).write_text(body, encoding="utf-8")
    monkeypatch.chdir(work)
    monkeypatch.setenv("COLUMNS", "80")
    for command, expected in transcript.commands:
        actual = clean(run(command, work, own_process=transcript.slow).split("\n"))
        want = clean(expected)
        assert matches(want, actual), f"{transcript.page}:{transcript.line}: $ {command}\n" + "\n".join(
            difflib.unified_diff(want, actual, "documented", "printed", lineterm=""))


def test_pages_have_transcripts() -> None:
    # The parser can fail: every page documenting commands yields transcripts.
    counts = {page.name: len(transcripts(page)) for page in PAGES}
    commands = ["README.md", "family-game.md", "payouts-and-tables.md", "simulate-and-verify.md",
                "tree-and-conditional.md"]
    assert all(counts[name] > 0 for name in commands), counts


def test_every_lucky9_command_is_in_a_transcript() -> None:
    """No `$ lucky9` line hides in a block the test would not run, and no page runs cli.py."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in FENCE.finditer(text):
            if "\n$ lucky9" in "\n" + block[1]:
                assert block[1].startswith("$ "), (page.name, block[1][:80])
        assert "python cli.py" not in text, page.name


def test_matches_can_fail() -> None:
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a", "...", "c", "...", "e"], ["a", "e", "c"])
    assert matches(["a", "...", "c", "...", "e"], ["a", "b", "c", "d", "e"])


DEVELOPER_REFERENCES = re.compile(r"\bissues? #?\d+|RULES\.md|/work/|/home/|\.\./shared")


def test_docs_cite_docs_not_issues_or_developer_paths() -> None:
    """Users' pages cite docs/, never issue numbers, RULES.md or a developer's folders."""
    found = [f"{page.name}:{n}: {line.strip()}" for page in PAGES
             for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
             if DEVELOPER_REFERENCES.search(line)]
    assert not found, "\n".join(found)


def test_shell_completion_runs_as_documented(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import re
    import subprocess

    from tests.paths import lucky9_on_path

    page = (ROOT / "docs" / "commands.md").read_text()
    block = re.search(r"^## Shell completion\n.*?^```\n\$ (.*?)\n(.*?)^```$", page, re.S | re.M)
    assert block is not None, "docs/commands.md has no shell completion example"
    command, expected = block.group(1), block.group(2).splitlines()
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=lucky9_on_path(tmp_path),
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.splitlines() == expected, (done.stdout, done.stderr)
    assert "_LUCKY9_COMPLETE=bash_source lucky9" in page
