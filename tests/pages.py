"""Checks of the HTML pages: strict parsing, and printing to A4 in headless Chromium."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

VOID = {"meta", "br", "link", "img", "hr", "input"}


class StrictParser(HTMLParser):
    """Fails on unbalanced or misnested tags (html.parser itself is lenient)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.seen: list[str] = []
        self.decl = ""

    def handle_decl(self, decl: str) -> None:
        self.decl = decl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append(tag)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert tag not in VOID, f"</{tag}> closes a void element"
        assert self.stack and self.stack[-1] == tag, f"</{tag}> does not close {self.stack[-1:]}"
        self.stack.pop()


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which(
    "google-chrome")


REQUIRED = os.environ.get("LUCKY9_REQUIRE_TOOLS") == "1"


needs_chromium = pytest.mark.skipif(CHROMIUM is None and not REQUIRED,
                                    reason="no headless chromium (apt-get install chromium)")


# Checks the laid-out page in the browser: wider than the printable width of A4 (210 mm
# less two 11 mm margins, 718 CSS pixels) means something overflows the paper.
_PROBE = ("<script>document.body.setAttribute('data-width', "
          "String(document.documentElement.scrollWidth));</script></body>")


def print_check(page: Path, tmp_path: Path) -> tuple[int, int]:
    """(pages when printed to A4 PDF, laid-out width in CSS pixels at A4's printable width)."""
    assert CHROMIUM is not None, "no chromium, chromium-browser or google-chrome on PATH"
    pdf = tmp_path / "page.pdf"
    base = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}"]
    subprocess.run([*base, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()],
                   check=True, capture_output=True, timeout=120)
    data = pdf.read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", data))
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert box is not None and abs(float(box[1]) - 595) < 2 and abs(float(box[2]) - 842) < 2
    probe = tmp_path / "probe.html"
    probe.write_text(page.read_text().replace("</body>", _PROBE))
    dom = subprocess.run([*base, "--window-size=718,1000", "--dump-dom", probe.as_uri()],
                         check=True, capture_output=True, timeout=120, text=True).stdout
    width = re.search(r'data-width="(\d+)"', dom)
    assert width is not None, dom[:500]
    return pages, int(width[1])
