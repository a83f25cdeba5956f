"""``lucky9 verify`` on a programmer's first log: an extra column, hands as lists, no
seat column, a shoe bigger than the default, and where each setting came from."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli import main
from odds.sim.logs import ignored_note

SEED = 2026

FIRST_CSV = """round,player,bank,result,payout,player_total
1,8h 7s 4d,Ac 6d,win,1,9
2,6h Kd,9s 9d,loss,-1,6
3,8c Qd,9h Kh,loss,-1,8
4,10h Kc 9d,Jd 3s 2h,win,1,9
5,4c 3d,2s 5h,push,0,7
"""


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _jsonl(csv_text: str) -> str:
    """The CSV log as JSON Lines with the hands as lists of cards."""
    lines = csv_text.splitlines()
    names = lines[0].split(",")
    out = []
    for line in lines[1:]:
        row: dict[str, object] = dict(zip(names, line.split(","), strict=True))
        row["round"] = int(str(row["round"]))
        row["payout"] = int(str(row["payout"]))
        row["player"] = str(row["player"]).split()
        row["bank"] = str(row["bank"]).split()
        out.append(json.dumps(row))
    return "\n".join(out) + "\n"


def test_an_unknown_column_is_ignored_with_one_note_naming_the_column_meant(tmp_path):
    path = tmp_path / "first.csv"
    lines = FIRST_CSV.splitlines()
    path.write_text("\n".join([lines[0] + ",dealer"] + [ln + ",ann" for ln in lines[1:]]))
    out = run("verify", str(path))
    assert out.exit_code == 0, out.output
    note = ("note: ignored 2 unknown columns: 'player_total' (did you mean player_final?), "
            "'dealer'")
    assert out.output.count("note: ignored") == 1 and note in out.output
    data = json.loads(run("verify", str(path), "--format", "json").output)
    assert data["notes"][0] == note[len("note: "):]
    assert data["verdict"] == "pass"


def test_the_ignored_note_suggests_only_a_near_known_column():
    assert ignored_note(["bank_fin"]) == ("ignored 1 unknown column: 'bank_fin' "
                                          "(did you mean bank_final?)")
    assert ignored_note(["colour"]) == "ignored 1 unknown column: 'colour'"


def test_a_missing_column_names_the_unknown_one_probably_meant(tmp_path):
    path = tmp_path / "typo.csv"
    path.write_text(FIRST_CSV.replace("payout,", "payouts,"))
    out = run("verify", str(path))
    assert out.exit_code == 2, out.output
    assert "missing payout (is 'payouts' meant?)" in out.output
    assert "Traceback" not in out.output


def test_jsonl_hands_as_lists_are_read_as_strings_are(tmp_path):
    text = _jsonl(FIRST_CSV)
    assert '"player": ["8h", "7s", "4d"]' in text
    path = tmp_path / "first.jsonl"
    path.write_text(text)
    out = run("verify", str(path), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    as_csv = tmp_path / "first.csv"
    as_csv.write_text(FIRST_CSV)
    same = json.loads(run("verify", str(as_csv), "--format", "json").output)
    assert data["seats"] == same["seats"] and data["audit"] == same["audit"]
    assert data["notes"] == ["ignored 1 unknown column: 'player_total' (did you mean "
                             "player_final?)"]


def test_a_hand_written_as_a_python_list_in_csv_is_read(tmp_path):
    path = tmp_path / "repr.csv"
    path.write_text('round,player,bank,result,payout\n'
                    '1,"[\'8h\', \'7s\', \'4d\']","[\'Ac\', \'6d\']",win,1\n')
    out = run("verify", str(path))
    assert out.exit_code == 0, out.output
    assert "1 row)" in out.output


@pytest.mark.parametrize("text, shown", [
    ('{"round": 1, "player": ["8h", {"c": 7}], "bank": "Ac 6d", "result": "loss", '
     '"payout": -1}\n', 'line 1: player ["8h", {"c": 7}] is not a hand: '),
    ('{"round": 1, "player": "8h 7s", "bank": [["Ac"], "6d"], "result": "loss", '
     '"payout": -1}\n', 'line 1: bank [["Ac"], "6d"] is not a hand: '),
    ("round,player,bank,result,payout\n1,8h 7x,Ac 6d,loss,-1\n",
     "line 2: player cards: '7x' is not a card (suit must be one of c d h s or ♣ ♦ ♥ ♠); "),
], ids=["json-list", "json-nested", "csv-card"])
def test_a_refused_hand_shows_the_forms_that_are_read(tmp_path, text, shown):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    out = run("verify", str(path))
    assert out.exit_code == 2, out.output
    flat = " ".join(out.output.split())
    assert shown in flat
    assert ('a hand is read as its cards separated by spaces, commas or semicolons '
            '("9s 6c 10s"), or in JSON Lines as a list (["9s", "6c", "10s"])') in flat
    assert "Traceback" not in out.output


def test_a_log_without_a_seat_column_is_seat_1(tmp_path):
    path = tmp_path / "noseat.csv"
    path.write_text(FIRST_CSV)
    out = run("verify", str(path), "--format", "json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert [s["seat"] for s in data["seats"]] == [1] and data["seats"][0]["rounds"] == 5
    seated = tmp_path / "seat.csv"
    lines = FIRST_CSV.splitlines()
    seated.write_text("\n".join([lines[0].replace("round,", "round,seat,")]
                                + [ln.replace(",", ",1,", 1) for ln in lines[1:]]) + "\n")
    assert json.loads(run("verify", str(seated), "--format", "json").output)["seats"] == \
        data["seats"]


def test_a_round_repeated_without_a_seat_column_asks_for_one(tmp_path):
    path = tmp_path / "twoseats.csv"
    path.write_text("round,player,bank,result,payout\n1,8h 7s 4d,Ac 6d,win,1\n"
                    "1,2c 3c,Ac 6d,loss,-1\n")
    out = run("verify", str(path))
    assert out.exit_code == 2, out.output
    assert ("line 3: round 1 again (also line 2), but the log has no seat column, so every "
            "row is seat 1: a log of several seats needs a seat column") in \
        " ".join(out.output.split())
    jsonl = tmp_path / "mixed.jsonl"
    jsonl.write_text('{"round": 1, "seat": 1, "player": "8h 7s 4d", "bank": "Ac 6d", '
                     '"result": "win", "payout": 1}\n{"round": 2, "player": "8h 7s 4d", '
                     '"bank": "Ac 6d", "result": "win", "payout": 1}\n')
    out = run("verify", str(jsonl))
    assert out.exit_code == 2, out.output
    assert "line 2: a row needs seat (other rows give it)" in out.output


def _six_pack_log(tmp_path: Path, seats: int) -> tuple[Path, int, str]:
    """Our simulator's 6-pack log without its header; the packs it needs, by brute force."""
    log = tmp_path / "six.csv"
    out = run("simulate", "--decks", "6", "--seats", str(seats), "--rounds", "400",
              "--seed", str(SEED), "--log", str(log))
    assert out.exit_code == 0, out.output
    bare = tmp_path / "bare.csv"
    rows = [ln for ln in log.read_text().splitlines() if not ln.startswith("#")]
    bare.write_text("\n".join(rows) + "\n")
    need, what = 0, ""
    by_round: dict[str, list[str]] = {}
    for row in rows[1:]:
        fields = row.split(",")
        cards = by_round.setdefault(fields[0], [])
        cards += fields[2].split()
        if fields[1] == "1":
            cards += fields[3].split()
    for cards in by_round.values():
        for card, n in Counter(cards).items():
            if n > need:
                need, what = n, f"{n} copies of {card}"
        for rank, n in Counter(c[:-1] for c in cards).items():
            if -(-n // 4) > need:
                need, what = -(-n // 4), f"{n} cards of rank {rank}"
    return bare, need, what


def test_a_headerless_six_pack_log_names_the_decks_it_needs(tmp_path):
    bare, need, what = _six_pack_log(tmp_path, 7)
    assert 2 <= need <= 6
    out = run("verify", str(bare))
    assert out.exit_code == 1, out.output
    flat = " ".join(out.output.split())
    assert ("the log deals more copies of a card than the shoe (1 pack) holds; with "
            f"{need} packs or more it would not (see the hint)") in flat
    assert "the simulator deals or settles wrongly" not in flat
    assert (f"hint: the log deals {what} in one round, but the shoe (1 pack: the default, as "
            f"the file names no shoe) holds ") in flat
    assert flat.endswith(f"add --decks N, at least {need}")
    data = json.loads(run("verify", str(bare), "--format", "json").output)
    assert data["hint"].endswith(f"at least {need}")
    fixed = run("verify", str(bare), "--decks", "6")
    assert fixed.exit_code == 0, fixed.output
    assert "hint:" not in fixed.output
    flagged = " ".join(run("verify", str(bare), "--decks", "1").output.split())
    held = 1 if "copies" in what else 4
    assert (f"the shoe (1 pack: the flag's) holds {held}: if the simulator deals from more "
            f"packs, add --decks N, at least {need}") in flagged


def test_a_real_rule_break_keeps_the_plain_verdict(tmp_path):
    path = tmp_path / "bug.csv"
    path.write_text(FIRST_CSV.replace("2,6h Kd,9s 9d,loss", "2,6h Kd 2c,9s 9d,loss"))
    out = run("verify", str(path))
    assert out.exit_code == 1, out.output
    assert "the simulator deals or settles wrongly" in out.output
    assert "hint:" not in out.output


def test_each_setting_says_where_it_came_from(tmp_path):
    bare, _, _ = _six_pack_log(tmp_path, 2)
    text = run("verify", str(bare), "--decks", "6").output
    assert ("rules from: profile (default), shoe (flag), seats (rows), reshuffle (default)"
            in text)
    data = json.loads(run("verify", str(bare), "--decks", "6", "--format", "json").output)
    assert data["sources"]["seats"] == "rows" and data["header"]["seats"] == 2
    flagged = json.loads(run("verify", str(bare), "--decks", "6", "--seats", "3", "--format",
                             "json").output)
    assert flagged["sources"]["seats"] == "flag" and flagged["header"]["seats"] == 3
    headed = tmp_path / "headed.csv"
    headed.write_text("# seats: 2\n# shoe: 6\n" + bare.read_text())
    data = json.loads(run("verify", str(headed), "--format", "json").output)
    assert data["sources"]["seats"] == "file" and data["sources"]["shoe"] == "file"
    assert data["verdict"] == "pass"


def test_tallies_without_seats_in_the_header_say_the_seats_come_from_the_rows(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("seat,quantity,key,count\n1,rounds,,2\n1,category,win,2\n"
                    "2,rounds,,2\n2,category,loss,2\n")
    data = json.loads(run("verify", str(path), "--format", "json").output)
    assert data["sources"]["seats"] == "rows" and data["header"]["seats"] == 2
    headed = tmp_path / "h.csv"
    headed.write_text("# seats: 2\n" + path.read_text())
    data = json.loads(run("verify", str(headed), "--format", "json").output)
    assert data["sources"]["seats"] == "file"


def test_a_column_without_a_name_is_ignored_and_said_so(tmp_path):
    path = tmp_path / "trailing.csv"
    path.write_text("round,player,bank,result,payout,\n1,8h 7s 4d,Ac 6d,win,1,\n")
    out = run("verify", str(path))
    assert out.exit_code == 0, out.output
    assert "note: ignored 1 unknown column: (one without a name)" in out.output
