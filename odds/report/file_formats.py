"""A file's format and its name agree: a suffix that names another format is refused.

Every command that writes a file checks the name before any work
(:func:`check_suffix`): ``card --out card.pdf`` writes a real PDF (printed by
headless Chromium, :func:`html_to_pdf`), ``par --format md --out sheet.html``
is refused with a sentence naming the format to give.  A name without a
suffix, or with one that names no format (``/dev/stdout``, ``sheet.txt`` for
text), is written as the command's format.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from odds.io.atomic import write_file

__all__ = ["FormatError", "PdfUnavailable", "SUFFIXES", "check_suffix", "chromium",
           "format_of", "html_to_pdf"]

# The formats the commands write, by the suffixes that name them.
SUFFIXES: dict[str, tuple[str, ...]] = {
    "html": (".html", ".htm"),
    "md": (".md", ".markdown"),
    "json": (".json",),
    "csv": (".csv",),
    "text": (".txt",),
    "pdf": (".pdf",),
    "svg": (".svg",),
    "png": (".png",),
    "dot": (".dot", ".gv"),
    "graphml": (".graphml",),
    "gexf": (".gexf",),
    "jsonl": (".jsonl",),
}
PDF_SECONDS = 120  # Chromium's time to print one page


class FormatError(ValueError):
    """A file name whose suffix names another format than the one written."""


class PdfUnavailable(ValueError):
    """A PDF asked for where no Chromium can print it."""


def format_of(path: str) -> str | None:
    """The format a file name's suffix names, or None.

    >>> format_of("card.PDF"), format_of("sheet.htm"), format_of("/dev/stdout")
    ('pdf', 'html', None)
    """
    suffix = Path(path).suffix.lower()
    for fmt, suffixes in SUFFIXES.items():
        if suffix in suffixes:
            return fmt
    return None


def check_suffix(path: str, fmt: str, option: str = "--out",
                 also: Iterable[str] = (), format_flag: str | None = "--format") -> str:
    """The format to write ``path`` in: ``fmt``, or one of ``also`` its suffix names.

    Refuses a name whose suffix names another format, with a sentence naming
    the name to give (and ``format_flag``, where the command has one).

    >>> check_suffix("card.html", "html"), check_suffix("card", "html")
    ('html', 'html')
    >>> check_suffix("card.pdf", "html", also=["pdf"])
    'pdf'
    >>> check_suffix("sheet.html", "md")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    odds.report.file_formats.FormatError: --out sheet.html: a .html name for md (name it ...)
    """
    named = format_of(path)
    if named is None or named == fmt:
        return fmt
    if named in also:
        return named
    stem = str(Path(path).with_suffix(SUFFIXES[fmt][0]))
    ways = [f"name it {stem}"]
    if "pdf" in also:
        ways.append(f"{Path(path).with_suffix('.pdf')} for a PDF")
    if format_flag is not None and named != "pdf":
        ways.append(f"give {format_flag} {named}")
    what = "PDF" if named == "pdf" else f"a {Path(path).suffix} name"
    return _refuse(f"{option} {path}: {what} for {fmt} ({', or '.join(ways)})")


def _refuse(message: str) -> str:
    raise FormatError(message)


def chromium() -> str | None:
    """The headless Chromium on PATH (chromium, chromium-browser, google-chrome), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def html_to_pdf(page: str, path: str) -> None:
    """Print an HTML page to an A4 PDF at ``path`` (whole or not at all), with Chromium.

    Raises :class:`PdfUnavailable` with a sentence when no Chromium is found or it fails.
    """
    browser = chromium()
    if browser is None:
        raise PdfUnavailable(
            f"{path}: writing a PDF needs headless Chromium (chromium, chromium-browser or "
            "google-chrome on PATH; e.g. apt-get install chromium); or write the HTML "
            f"({Path(path).with_suffix('.html')}) and print it from a browser")
    with tempfile.TemporaryDirectory(prefix="lucky9-pdf-") as tmp:
        source = Path(tmp) / "page.html"
        source.write_text(page, encoding="utf-8")
        pdf = Path(tmp) / "page.pdf"
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                   f"--user-data-dir={Path(tmp) / 'profile'}", "--no-pdf-header-footer",
                   f"--print-to-pdf={pdf}", source.as_uri()]
        try:
            subprocess.run(command, check=True, capture_output=True, timeout=PDF_SECONDS,
                           env={**os.environ, "HOME": tmp})
        except (OSError, subprocess.SubprocessError) as exc:
            raise PdfUnavailable(f"{path}: Chromium could not print the page to PDF "
                                 f"({type(exc).__name__})") from None
        data = pdf.read_bytes() if pdf.exists() else b""
        if not data.startswith(b"%PDF"):
            raise PdfUnavailable(f"{path}: Chromium printed no PDF")
        write_file(path, data)
