"""A round log is verified block by block, in bounded memory.

``verify_file`` reads a log in round order a block of lines at a time
(:data:`odds.sim.verify.BLOCK` bytes); every block is parsed, audited and
tallied, then dropped.  The report must be the one a whole reading gives
(:func:`verify_text` on the same text), whatever the block size: these
tests shrink the blocks to a few hundred bytes, so a log of a few hundred
rows crosses dozens of block boundaries, inside rounds of many seats and
inside shoes.  A log out of round order is read whole.
"""

from __future__ import annotations

import math
import random
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from odds import BUILTIN, Shoe
from odds.report.verify_report import verify_data
from odds.sim import log_judge
from odds.sim import verify as verify_module
from odds.sim.simulate import simulate
from odds.sim.verify import verify_file, verify_text


def same(a: Any, b: Any, where: str = "report") -> None:
    """Equal, floats within a relative 1e-9 (sums taken block by block round differently)."""
    if isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) or (
            math.isnan(a) and math.isnan(b)), f"{where}: {a} != {b}"
    elif isinstance(a, dict) and isinstance(b, dict):
        assert list(a) == list(b), f"{where}: keys {list(a)} != {list(b)}"
        for k in a:
            same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        assert len(a) == len(b), f"{where}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{i}]")
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def streamed(path: Path, block: int, monkeypatch: pytest.MonkeyPatch,
             **kwargs: Any) -> dict[str, Any]:
    monkeypatch.setattr(verify_module, "BLOCK", block)
    return verify_data(verify_file(path, **kwargs))


def whole(path: Path, **kwargs: Any) -> dict[str, Any]:
    return verify_data(verify_text(path.read_text(), str(path), **kwargs))


def no_whole_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail if verify_file falls back to reading the file whole."""
    def refuse(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("the log was read whole")
    monkeypatch.setattr(verify_module, "read_text", refuse)


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("stream")
    made = {}
    runs = {
        "fresh-3-seats.csv": dict(profile="standard", packs=2, rounds=300, seats=3),
        "cut-shoe-column.csv": dict(profile="standard", packs=1, rounds=400, seats=2,
                                    reshuffle="cut"),
        "cut-8-seats.jsonl": dict(profile="super9", packs=2, rounds=150, seats=8,
                                  reshuffle="cut"),
        "fresh.jsonl": dict(profile="punto-banco", packs=8, rounds=400, seats=1),
    }
    for name, run in runs.items():
        path = folder / name
        simulate(BUILTIN[str(run["profile"])], Shoe.packs_of(int(run["packs"])),
                 int(run["rounds"]), seats=int(run["seats"]), seed=31,
                 reshuffle=str(run.get("reshuffle", "round")), log=path)
        made[name] = path
    # A log with rule breaks spread over it: a wrong payout, a hand of four
    # cards, a card the shoe does not hold.
    text = made["cut-shoe-column.csv"].read_text().splitlines()
    body = [i for i, ln in enumerate(text) if ln[:1].isdigit()]
    for k, i in enumerate(body[7::97]):
        cells = text[i].split(",")
        if k % 3 == 0:
            cells[5] = "5"
        elif k % 3 == 1:
            cells[2] = cells[2] + " Ks"
        else:
            cells[2] = "As As As"  # one ace of spades in a 1-pack shoe
        text[i] = ",".join(cells)
    broken = folder / "broken.csv"
    broken.write_text("\n".join(text) + "\n")
    made["broken.csv"] = broken
    return made


# every log in blocks of 700 and 5000; in blocks of 64 the two small logs by default,
# the three big ones in CI (slow)
@pytest.mark.parametrize("block, name", [
    pytest.param(block, name, id=f"{block}-{name}",
                 marks=[pytest.mark.slow] if block == 64 and name in (
                     "fresh-3-seats.csv", "cut-shoe-column.csv", "cut-8-seats.jsonl") else [])
    for name in ["fresh-3-seats.csv", "cut-shoe-column.csv", "cut-8-seats.jsonl", "fresh.jsonl",
                 "broken.csv"]
    for block in [64, 700, 5000]])
def test_block_by_block_gives_the_whole_reading_report(logs, name, block, monkeypatch):
    path = logs[name]
    expected = whole(path)
    no_whole_read(monkeypatch)
    got = streamed(path, block, monkeypatch)
    same(got, expected)
    assert got["rows"] == sum(1 for ln in path.read_text().splitlines()
                              if ln[:1].isdigit() or ln.startswith('{"round'))


def test_the_broken_log_is_broken(logs, monkeypatch):
    """The planted faults are found in later blocks too (a test that can fail)."""
    no_whole_read(monkeypatch)
    got = streamed(logs["broken.csv"], 300, monkeypatch)
    counts = got["audit"]["counts"]
    assert counts["payout"] >= 1 and counts["hand size"] >= 1 and counts["cards"] >= 1
    lines = [v["line"] for v in got["audit"]["violations"]]
    assert lines == sorted(lines) and max(lines) > 100


def _block_sizes(examples: int):
    """A test that ``examples`` block sizes give the report of the whole file."""
    @settings(max_examples=examples, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(block=st.integers(200, 3000))
    def test(logs, block, monkeypatch):
        path = logs["cut-8-seats.jsonl"]
        if path not in reference:  # the whole-file report, read once for every block size
            reference[path] = whole(path)
        same(streamed(path, block, monkeypatch), reference[path])
    reference: dict[Path, dict[str, Any]] = {}
    return test


test_a_few_block_sizes_give_the_same_report = _block_sizes(2)
# the long twin of the one above
test_any_block_size_gives_the_same_report = pytest.mark.slow(_block_sizes(6))


def test_rule_flags_apply_to_every_block(logs, monkeypatch):
    from odds.sim.verdict import RuleOverrides

    path = logs["fresh-3-seats.csv"]
    rules = RuleOverrides(options={"colon": "5"})
    expected = whole(path, rules=rules)
    got = streamed(path, 200, monkeypatch, rules=rules)
    same(got, expected)
    assert got["audit"]["counts"]["payout"] > 0  # the file pays 2 for a Colon, not 5


def shuffled_rounds(path: Path, out: Path, seed: int) -> None:
    lines = path.read_text().splitlines()
    head = [ln for ln in lines if not ln[:1].isdigit()]
    body = [ln for ln in lines if ln[:1].isdigit()]
    random.Random(seed).shuffle(body)
    out.write_text("\n".join(head + body) + "\n")


def test_a_log_out_of_round_order_is_read_whole(logs, tmp_path, monkeypatch):
    path = tmp_path / "shuffled.csv"
    shuffled_rounds(logs["fresh-3-seats.csv"], path, 5)
    expected = whole(path)
    reads = []
    real = verify_module.read_text
    monkeypatch.setattr(verify_module, "read_text",
                        lambda *a, **k: reads.append(a) or real(*a, **k))
    same(streamed(path, 300, monkeypatch), expected)
    assert len(reads) == 1


def test_a_shoe_that_comes_back_is_read_whole(logs, tmp_path, monkeypatch):
    """Rounds in order but shoes interleaved: the cards dealt before a round are
    still those of its shoe (the block reader cannot tell: it reads whole)."""
    lines = logs["cut-shoe-column.csv"].read_text().splitlines()
    head = [ln for ln in lines if not ln[:1].isdigit()]
    body = [ln.split(",") for ln in lines if ln[:1].isdigit()]
    # Rename shoe 1 to 3 and 3 to 1 in the second half: shoes come back.
    half = len(body) // 2
    for cells in body[half:]:
        cells[-1] = {"1": "3", "3": "1"}.get(cells[-1], cells[-1])
    path = tmp_path / "interleaved.csv"
    path.write_text("\n".join(head + [",".join(c) for c in body]) + "\n")
    same(streamed(path, 300, monkeypatch), whole(path))


def test_an_empty_log_and_a_log_of_blank_lines(tmp_path, monkeypatch):
    from odds.sim.tallies import TallyError

    path = tmp_path / "empty.csv"
    path.write_text("round,seat,player,bank,result,payout\n\n\n" + "\n" * 500)
    monkeypatch.setattr(verify_module, "BLOCK", 100)
    with pytest.raises(TallyError, match="has no rows"):
        verify_file(path)
    path.write_text("round,seat,player,bank,payout\n1,1,8h 7s 4d,Ac 6d,1\n")
    with pytest.raises(TallyError, match="missing result"):
        verify_file(path)


def test_a_bad_row_in_a_late_block_names_its_line(logs, tmp_path, monkeypatch):
    from odds.sim.tallies import TallyError

    lines = logs["fresh-3-seats.csv"].read_text().splitlines()
    at = len(lines) - 5
    lines[at] = lines[at].replace(",", ",X", 1)
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(verify_module, "BLOCK", 200)
    with pytest.raises(TallyError, match=f"line {at + 1}: seat"):
        verify_file(path)


def _memory_is_bounded_by_the_block(tmp_path, monkeypatch, rounds: int, block: int) -> None:
    """Block by block, the peak of Python's allocations stays far under a whole reading's."""
    path = tmp_path / "long.csv"
    simulate(BUILTIN["standard"], Shoe.packs_of(8), rounds, seed=3, log=path)

    def peak(block: int) -> int:
        monkeypatch.setattr(verify_module, "BLOCK", block)
        verify_file(path)  # warm: rules tables and imports are not the log's memory
        tracemalloc.start()
        try:
            verify_file(path)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak(block), peak(64 << 20)
    assert small * 3 < large, (small, large)


def test_memory_is_bounded_by_the_block_on_a_shorter_log(tmp_path, monkeypatch):
    # A quarter of the rounds in blocks of a quarter the size (measured: a ratio of 25, not 7).
    _memory_is_bounded_by_the_block(tmp_path, monkeypatch, 10_000, 64 << 10)


# fast twin: test_memory_is_bounded_by_the_block_on_a_shorter_log
@pytest.mark.slow
def test_memory_is_bounded_by_the_block(tmp_path, monkeypatch):
    _memory_is_bounded_by_the_block(tmp_path, monkeypatch, 40_000, 256 << 10)


# -- found by review: what holding rows back must not cost -------------------


def test_a_flood_of_one_round_is_refused_at_once(logs, tmp_path, monkeypatch):
    """More rows of one round than a table has seats: named in the block, not
    held back block after block (which took quadratic time and memory)."""
    from odds.sim.tallies import TallyError

    lines = logs["fresh-3-seats.csv"].read_text().splitlines()
    head = [ln for ln in lines if not ln[:1].isdigit()]
    row = next(ln for ln in lines if ln[:1].isdigit())
    path = tmp_path / "flood.csv"
    path.write_text("\n".join(head + [row] * 20_000) + "\n")
    no_whole_read(monkeypatch)
    monkeypatch.setattr(verify_module, "BLOCK", 4096)
    calls = []
    real = log_judge.LogJudge.feed
    monkeypatch.setattr(log_judge.LogJudge, "feed",
                        lambda self, log: calls.append(len(log.round)) or real(self, log))
    with pytest.raises(TallyError, match=f"line {len(head) + 2}: round 1 seat 1 is given twice"):
        verify_file(path)
    assert len(calls) == 1 and calls[0] < 1000  # the first block, not the whole file


def test_rounds_going_back_inside_a_block_are_read_whole(logs, tmp_path, monkeypatch):
    """Whole reading picks its examples among all rounds; a block could not."""
    lines = logs["broken.csv"].read_text().splitlines()
    head = [ln for ln in lines if not ln[:1].isdigit()]
    body = [ln for ln in lines if ln[:1].isdigit()]
    body[20:40] = body[20:40][::-1]  # rounds 11-20 backwards, within one block
    path = tmp_path / "backwards.csv"
    path.write_text("\n".join(head + body) + "\n")
    reads = []
    real = verify_module.read_text
    monkeypatch.setattr(verify_module, "read_text",
                        lambda *a, **k: reads.append(a) or real(*a, **k))
    same(streamed(path, 1 << 20, monkeypatch), whole(path))
    assert len(reads) == 1


def test_a_json_header_over_many_blocks_keeps_every_field(logs, tmp_path, monkeypatch):
    lines = logs["fresh.jsonl"].read_text().splitlines()
    header = [ln for ln in lines if '"round"' not in ln]
    rows = [ln for ln in lines if '"round"' in ln]
    padding = ['{"note": "%s"}' % ("x" * 50) for _ in range(200)]
    path = tmp_path / "long-header.jsonl"
    # The first line says what the file is; the profile comes after 100 lines.
    path.write_text("\n".join(['{"format": "lucky9-log/1"}'] + padding[:100] + header
                              + padding[100:] + rows) + "\n")
    no_whole_read(monkeypatch)
    got = streamed(path, 500, monkeypatch)
    assert got["header"]["profile"] == "punto-banco"
    same(got, whole(path))
