"""The reference tables: byte-for-byte regeneration, invariants, HTML, atomic writes."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

import odds
import odds.report.table_files as files_module
import odds.report.tables as tables_module
from cli import main
from odds import BUILTIN, Shoe, round_odds
from odds.io.atomic import OutputError
from odds.report.table_files import all_profiles, build_tables, write_tables
from odds.report.tables import DECKS, TablesError, shared_odds, shared_removal_effects, table_profiles
from odds.rules.errors import ProfileError
from odds.rules.options import OPTIONS
from tests.pages import StrictParser
from tests.paths import ROOT

TABLES = ROOT / "tables"
PROFILES = table_profiles()
EVERY = all_profiles()  # the fixed-rule profiles and family (a solved game)


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*")) if p.is_file()
    }


def _d(decks: int | None) -> str:
    return "inf" if decks is None else str(decks)


def test_committed_tables_are_the_full_set() -> None:
    expected = {"README.md"}
    for p in EVERY:
        expected.add(f"{p.key}/{p.key}-sheet.html")
        for d in DECKS:
            expected |= {f"{p.key}/{p.key}-d{_d(d)}.{ext}" for ext in ("md", "csv", "json")}
    assert set(_tree(TABLES)) == expected
    assert "family" not in {p.key for p in PROFILES}
    assert [p.key for p in EVERY] == [*(p.key for p in PROFILES), "family"]


# The whole set regenerated through `lucky9 tables` and compared byte for byte with
# tables/ (about 30 s of CPU) is the README's transcript `lucky9 tables --out ...`
# followed by `diff -r`, run by tests/project/test_docs.py: one regeneration serves both.


# -- contents: headers, invariants, formats agree ----------------------------------------


def _pages() -> list[tuple[str, str, dict]]:
    out = []
    for p in PROFILES:
        for d in DECKS:
            path = TABLES / p.key / f"{p.key}-d{_d(d)}.json"
            out.append((p.key, _d(d), json.loads(path.read_text())))
    return out


def _f(cell: dict) -> Fraction:
    return Fraction(cell["fraction"])


@pytest.mark.parametrize("key,d,data", _pages(), ids=[f"{k}-d{d}" for k, d, _ in _pages()])
def test_json_invariants(key: str, d: str, data: dict) -> None:
    header = data["header"]
    profile = BUILTIN[key]
    assert header["profile"] == key and header["decks"] == d
    assert header["options"] == profile.options()
    assert header["tool"] == f"lucky9-odds {odds.__version__}"
    s = data["sections"]
    summary = {row["quantity"]: _f(row["probability"]) for row in s["summary"]["rows"]}
    assert summary["win"] + summary["push"] + summary["loss"] == 1
    cats = [v for k, v in summary.items() if k.split("_")[0] in ("win", "push", "loss")
            and k not in ("win", "push", "loss")]
    assert sum(cats) == 1
    # Ordered six-card deals: 52^6 with replacement, else n(n-1)...(n-5) of n = 52 D cards.
    n = 52 if d == "inf" else 52 * int(d)
    total = n**6 if d == "inf" else n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert s["summary"]["total_sequences"] == total
    for side in ("player", "bank"):
        assert sum(_f(row[side]) for row in s["final_values"]["rows"]) == 1
    by_value = s["by_player_value"]["rows"]
    assert sum(_f(r["P(value)"]) for r in by_value) == 1
    assert sum(_f(r["P(value)"]) * _f(r["win"]) for r in by_value) == summary["win"]
    for r in by_value:
        assert _f(r["win"]) + _f(r["push"]) + _f(r["loss"]) == 1
    colon = [_f(r["probability"]) for r in s["colon"]["rows"]]
    assert colon[0] >= colon[1] and colon[2] >= colon[3]
    money = {r["quantity"]: r for r in s["money"]["rows"]}
    seat_ev = _f(money["expected value"]["player bet"])
    assert _f(money["bank edge per unit staked"]["player bet"]) == -seat_ev
    for r in s["bank_edge"]["rows"]:
        assert _f(r["player bet"]) == -seat_ev * int(r["players"])
    assert sum(_f(r["probability"]) for r in s["pay_entries"]["rows"]) == 1
    removal = s["removal"]["rows"]
    if d == "inf":
        assert removal == [] and "not defined for the infinite shoe" in s["removal"]["note"]
    else:
        # Weighted by the shoe (4 D of each rank) the changes sum to exactly 0.
        assert len(removal) == 13
        assert sum(_f(r["EV change"]) for r in removal) == 0
        assert sum(_f(r["P(win) change"]) for r in removal) == 0


@pytest.mark.parametrize("profile", PROFILES, ids=[p.key for p in PROFILES])
def test_every_format_names_profile_options_decks_version(profile) -> None:
    for d in DECKS:
        stem = TABLES / profile.key / f"{profile.key}-d{_d(d)}"
        md = stem.with_suffix(".md").read_text()
        rows = list(csv.reader(stem.with_suffix(".csv").read_text().splitlines()))
        for text in (md, "\n".join(",".join(r) for r in rows)):
            assert profile.key in text and f"lucky9-odds {odds.__version__}" in text
            assert f"D = {_d(d)}" in text
            for opt in OPTIONS:
                assert opt.name in text
        assert ["# decks", _d(d), rows[1][2]] == rows[1]
        # CSV and JSON carry the same exact numbers.
        data = json.loads(stem.with_suffix(".json").read_text())
        csv_fracs = [r[3] for r in rows if r and not r[0].startswith("#")][1:]
        json_fracs = re.findall(r'"fraction": "([^"]+)"', json.dumps(data))
        assert set(json_fracs) <= set(csv_fracs) | {""}
        for value in json_fracs[:40]:
            assert value in md
    sheet = (TABLES / profile.key / f"{profile.key}-sheet.html").read_text()
    assert profile.key in sheet and f"lucky9-odds {odds.__version__}" in sheet
    for opt in OPTIONS:
        assert f"{opt.name}:" in sheet


def test_readme_indexes_every_file_and_says_what_family_holds() -> None:
    text = (TABLES / "README.md").read_text()
    links = set(re.findall(r"\]\(([^)]+)\)", text))
    assert links == set(_tree(TABLES)) - {"README.md"}
    assert "[sheet](family/family-sheet.html)" in text and "exploitability 0" in text
    assert "is not here" not in text and "issue 6" not in text
    assert "not defined for the" in text and "N x the seat figure" in text


def test_shared_enumeration_equals_direct() -> None:
    cache: tables_module.OddsCache = {}
    shoe = Shoe.packs_of(1)
    shared_odds(BUILTIN["plain"], shoe, cache)
    super9 = shared_odds(BUILTIN["super9"], shoe, cache)
    direct = round_odds(BUILTIN["super9"], shoe)
    assert len(cache) == 1 and super9.profile is BUILTIN["super9"]
    assert super9.outcome_counts == direct.outcome_counts
    assert super9.bet_moments() == direct.bet_moments()
    # shared_removal_effects against removal_effects: its doctest (plain, 1 pack).


# -- the printable sheet ------------------------------------------------------------------


@pytest.mark.parametrize("profile", EVERY, ids=[p.key for p in EVERY])
def test_sheet_is_valid_html(profile) -> None:
    text = (TABLES / profile.key / f"{profile.key}-sheet.html").read_text()
    parser = StrictParser()
    parser.feed(text)
    parser.close()
    assert parser.decl == "DOCTYPE html"
    assert parser.stack == []
    assert parser.seen[:4] == ["html", "head", "meta", "title"]
    assert "@page { size: A4;" in text
    assert {"table", "h1", "style", "body"} <= set(parser.seen)


def test_strict_parser_can_fail() -> None:
    with pytest.raises(AssertionError):
        StrictParser().feed("<html><body><table></body></html>")


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which(
    "google-chrome")
# .ci/run installs Chromium and sets LUCKY9_REQUIRE_TOOLS=1: there a missing browser fails.
REQUIRED = os.environ.get("LUCKY9_REQUIRE_TOOLS") == "1"


@pytest.mark.skipif(CHROMIUM is None and not REQUIRED, reason="no headless chromium on this machine "
                    "(apt-get install chromium); the sheets were checked with it: see docs")
# standard and family (the two kinds of sheet) by default; the other profiles in CI (slow)
@pytest.mark.parametrize("profile", [
    pytest.param(p, id=p.key, marks=[] if p.key in ("standard", "family") else [pytest.mark.slow])
    for p in EVERY])
def test_sheet_prints_on_one_a4_page(profile, tmp_path: Path) -> None:
    assert CHROMIUM is not None, "no chromium, chromium-browser or google-chrome on PATH"
    sheet = TABLES / profile.key / f"{profile.key}-sheet.html"
    pdf = tmp_path / "sheet.pdf"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
         f"--user-data-dir={tmp_path / 'profile'}", f"--print-to-pdf={pdf}", sheet.as_uri()],
        check=True, capture_output=True, timeout=120,
    )
    data = pdf.read_bytes()
    pages = re.findall(rb"/Type\s*/Page(?!s)", data)
    assert len(pages) == 1
    # A4 is 595 x 842 points.
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert box is not None and abs(float(box[1]) - 595) < 2 and abs(float(box[2]) - 842) < 2


# -- atomic writes and bad folders ------------------------------------------------------


def _small(out: Path) -> list[str]:
    return write_tables(out, [BUILTIN["plain"]], [None])


def test_interrupted_run_leaves_old_tables(tmp_path: Path, monkeypatch) -> None:
    _small(tmp_path)
    before = _tree(tmp_path)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(files_module, "build_tables", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _small(tmp_path)
    assert _tree(tmp_path) == before  # no staging folder, nothing changed


def test_failed_move_leaves_whole_files(tmp_path: Path, monkeypatch) -> None:
    names = _small(tmp_path)
    for name in names:
        (tmp_path / name).write_text("old\n")
    real = os.replace
    calls = []

    def flaky(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", flaky)
    with pytest.raises(OutputError, match="No space left on device"):
        _small(tmp_path)
    fresh = build_tables([BUILTIN["plain"]], [None])
    after = _tree(tmp_path)
    assert sorted(after) == sorted(names)  # staging folder removed
    for name in names:
        assert after[name] in (b"old\n", fresh[name].encode())
    assert after[names[0]] == fresh[names[0]].encode()


def test_new_folder_is_removed_when_the_run_fails(tmp_path: Path, monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise TablesError("disk full")

    monkeypatch.setattr(files_module, "build_tables", broken)
    with pytest.raises(TablesError):
        _small(tmp_path / "new" / "tables")
    assert not (tmp_path / "new" / "tables").exists()


@pytest.mark.parametrize("where", ["a file", "under a file"])
def test_unwritable_out_exits_2_without_files(tmp_path: Path, where: str) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder\n")
    out = blocker if where == "a file" else blocker / "tables"
    result = CliRunner().invoke(main, ["tables", "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert ("cannot write tables" in result.stderr) or ("is a file" in result.stderr)
    assert result.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker"]
    assert blocker.read_text() == "not a folder\n"


def test_read_only_folder_for_an_ordinary_user(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root ignores folder permissions; the other unwritable cases cover this")
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o500)
    try:
        with pytest.raises(TablesError, match="cannot write tables"):
            _small(out)
        assert list(out.iterdir()) == []
    finally:
        out.chmod(0o700)


def test_progress_callback_and_subset() -> None:
    labels: list[str] = []
    files = build_tables([BUILTIN["punto-banco"]], [None], progress=labels.append)
    assert labels == ["punto-banco D=inf"]
    assert "README.md" not in files  # a subset has no index
    with pytest.raises(ValueError, match="infinite shoe"):
        shared_removal_effects(BUILTIN["plain"], Shoe.infinite_shoe(), {})


def test_punto_banco_table_has_the_published_figures() -> None:
    # Published 8-deck probabilities (RULES.md section 5): Banker 0.458597,
    # Player 0.446247, Tie 0.095156; house edges Banker 1.0579%, Tie 14.3596%.
    data = json.loads((TABLES / "punto-banco" / "punto-banco-d8.json").read_text())
    rows = {r["quantity"]: _f(r["probability"]) for r in data["sections"]["summary"]["rows"]}
    assert round(rows["loss"], 6) == Fraction("0.458597")
    assert round(rows["win"], 6) == Fraction("0.446247")
    assert round(rows["push"], 6) == Fraction("0.095156")
    money = {r["quantity"]: r for r in data["sections"]["money"]["rows"]}
    edge = money["bank edge per unit staked"]
    assert round(_f(edge["banker bet"]), 6) == Fraction("0.010579")
    assert round(_f(edge["tie bet"]), 6) == Fraction("0.143596")


@pytest.mark.parametrize("key", ["standard", *(pytest.param(k, marks=pytest.mark.slow)  # CI
                                              for k in ("super9", "punto-banco"))])
def test_one_page_per_profile_matches_its_committed_files(key: str) -> None:
    # The seconds-long twin of the byte-for-byte test: one shoe's page in every
    # format (a renamed pay entry, option or category changes these files too).
    q = tables_module.page(BUILTIN[key], 1, {})
    for ext, render in (("md", tables_module.markdown), ("csv", tables_module.csv_text),
                        ("json", tables_module.json_text)):
        name = tables_module.file_name(BUILTIN[key], 1, ext)
        assert render(q) == (TABLES / name).read_text(encoding="utf-8"), f"{name} differs"


# -- the enumerations behind the tables ----------------------------------------------------


# the infinite shoe and an odd composition by default; one and eight packs in CI (slow)
@pytest.mark.parametrize("shoe", [pytest.param(Shoe.packs_of(1), marks=pytest.mark.slow),
                                  pytest.param(Shoe.packs_of(8), marks=pytest.mark.slow),
                                  Shoe.infinite_shoe(), Shoe((3, 4, 1, 4, 4, 0, 4, 4, 2, 4, 4, 3, 4))],
                         ids=["1", "8", "inf", "odd"])
def test_the_tables_enumerations_are_the_engines(shoe: Shoe) -> None:
    # Fixed rules go to the batch engine (63 s of CPU for the set became 30 s):
    # every field the same as round_odds's, the outcome counts included.
    import dataclasses

    from odds.exact.batch import clear_tables

    for profile in (p for p in BUILTIN.values() if p.fixed):
        got, want = tables_module._enumerate(profile, shoe), round_odds(profile, shoe)
        for f in dataclasses.fields(want):
            assert getattr(got, f.name) == getattr(want, f.name), (profile.key, f.name)
        clear_tables()  # one rule set's tables at a time: a job's memory, not five
    with pytest.raises(ProfileError, match="no fixed draw rule"):  # the engine's own answer
        tables_module._enumerate(BUILTIN["family"], shoe)
